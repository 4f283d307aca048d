"""A checkpoint is data from outside the process: a corrupt or hostile one is a CheckpointError, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.tables import Recorder, make_table

from war_tui.tables import FakeClock, Table, TableOptions
from war_tui.tables.checkpoint import MAX_CHECKPOINT_BYTES, CheckpointError, checkpoint, restore


def played() -> Table:
    """A table mid-game: two players, a few battles, a request waiting, an emote, a kept seat."""
    table, clock = make_table()
    ann = table.join("ann", Recorder(), identity="key:ann", address="addr:1")
    bob = table.join("bob", Recorder(), identity="key:bob")
    for _ in range(12):
        ann.flip()
        bob.flip()
        clock.advance(1)
    ann.set_auto(True, 8)
    table.emote(bob, 2)
    bob.leave()  # his seat is kept for him: ann's request for auto-play waits for him
    return table


GOOD = checkpoint(played())
BODY = json.loads(GOOD)


def load(data: bytes) -> Table:
    return restore(data, clock=FakeClock(), options=TableOptions())


def changed(path: tuple, value) -> bytes:
    body = json.loads(GOOD)
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(body).encode()


def test_the_checkpoint_used_here_restores():
    assert load(GOOD).game.battles == 12


@pytest.mark.parametrize("data", [
    b"", b"{", b"null", b"[]", b'"text"', b"\xff\xfe", GOOD[: len(GOOD) // 2], GOOD[:-1], GOOD + b"x",
    b"[" * 100_000, b'{"v": NaN}', b'{"v": Infinity}',
])
def test_bytes_that_are_no_checkpoint_are_refused(data):
    with pytest.raises(CheckpointError):
        load(data)


def test_every_truncation_is_refused():
    for end in range(0, len(GOOD), 7):
        with pytest.raises(CheckpointError):
            load(GOOD[:end])


def test_another_version_is_refused_with_both_versions_named():
    with pytest.raises(CheckpointError, match="version 3: this server restores versions 1 to 2"):
        load(changed(("v",), 3))
    for version in (True, "1", 1.0, None, 0):
        with pytest.raises(CheckpointError):
            load(changed(("v",), version))


def test_more_than_its_bound_is_refused_before_it_is_read():
    with pytest.raises(CheckpointError, match="at most 65536 bytes"):
        load(GOOD + b" " * MAX_CHECKPOINT_BYTES)


def test_a_field_missing_or_one_too_many_is_refused():
    body = json.loads(GOOD)
    del body["moves"]
    with pytest.raises(CheckpointError):
        load(json.dumps(body).encode())
    with pytest.raises(CheckpointError):
        load(changed(("extra",), 1))
    with pytest.raises(CheckpointError):
        load(changed(("seats", 0, "extra"), 1))


@pytest.mark.parametrize(("path", "value"), [
    (("name",), "Oak Tree"),
    (("name",), 7),
    (("nonce",), ""),
    (("nonce",), "5EED"),
    (("nonce",), "oak.1"),  # a nonce with a dot would name another table's games
    (("nonce",), "f" * 65),
    (("nonce",), 5),
    (("seq",), -1),
    (("seq",), 2**80),
    (("seq",), 1.5),
    (("seq",), True),
    (("bseq",), 10**6),  # past the table's sequence number
    (("moves",), "12"),
    (("empty",), float("1e300")),
    (("tally",), [1, 2, 3]),
    (("tally",), [1, 2, 3, -4]),
    (("game", "n"), 0),
    (("game", "b"), 13),  # the replay does not reach the counts
    (("game", "b"), 10**12),
    (("game", "seed"), 2**70),
    (("game", "seed"), -1),
    (("game", "counts"), [26, 26]),
    (("game", "rules"), [9, "winner-first", 10000]),
    (("game", "rules"), [1, "sideways", 10000]),
    (("game", "rules"), [1, ["winner-first"], 10000]),
    (("game", "end"), ["p1", "all-cards"]),
    (("game", "end"), ["all-cards", "p1"]),
    (("game", "end"), [["p1"], {}]),
    (("game", "deck"), ["AB", "AC"]),  # a card twice
    (("game", "deck"), ["A!", "BC"]),
    (("game", "deck"), ["", "ABC"]),
    (("game", "played"), -1),
    (("seats",), [BODY["seats"][0]]),
    (("seats", 0, "name"), "\x1b[2Jann"),
    (("seats", 0, "name"), "a" * 10_000),
    (("seats", 0, "id"), "key:\u202eann"),
    (("seats", 0, "id"), ""),
    (("seats", 0, "lost"), "yes"),
    (("seats", 0, "left"), None),  # lost, with no time it left
    (("seats", 0, "speed"), 1e300),
    (("seats", 0, "asked"), {"auto": 1.0, "fly": 2.0}),
    (("seats", 0, "asked"), ["auto"]),
    (("seats", 0, "emotes"), [0.5] * 11),
    (("seats", 0, "msit"), 10**6),  # past the table's moves
    (("auto",), {"in": 0.5, "credit": 0.0, "held": True}),
    (("auto", "credit"), 1.0),
    (("log",), [["N", "closing", "the table closed", 1]]),  # a notice the log never keeps
    (("log",), [["N", "joined", "\x07beep", 1]]),
    (("log",), [["N", "joined", "x", 10**9]]),  # told after the table's sequence number
    (("log",), [["B", 1, 2, "AB", "A", "B", 0, 26, 26]]),
    (("log",), [["E", 0, "ann", 6, 1]]),
    (("log",), [["Z"]]),
    (("log",), [[]]),
    (("log",), [["S", None, [1, "winner-first", 10], "AB", "BC"]]),
    (("log",), [["O", "p1", "all-cards", 1, 0, 0, 52, 0, "p3", "", "", 0]]),
    (("log",), [["N", "joined", "x", 1]] * 201),
    (("log",), [["G", 14]]),  # more lines of the game on than it told: its deal and 12 battles
    (("log",), [["G", 0]]),
    (("log",), [["G", 201]]),
    (("log",), [["G", 10**12]]),
    (("log",), [["G", "3"]]),
    (("log",), [["G", True]]),
    (("log",), [["G"]]),
    (("log",), [["G", 1, 2]]),
    (("log",), [["G", 7], ["G", 7]]),
])
def test_a_field_of_the_wrong_type_or_range_is_refused(path, value):
    with pytest.raises(CheckpointError):
        load(changed(path, value))


def test_a_checkpoint_of_a_closed_table_is_refused():
    table, _clock = make_table()
    table.close()
    with pytest.raises(CheckpointError):
        checkpoint(table)


def test_an_identity_a_restore_would_refuse_costs_its_seat_its_keeping_not_the_table():
    table, clock = make_table()
    table.join("ann", Recorder(), identity="key:" + "a" * 1000)
    table.join("bob", Recorder(), identity="key:bob", address="addr:\x1b[31m")
    again = restore(checkpoint(table), clock=clock, options=TableOptions())
    assert [again.seats_held("key:bob", None), again.seats_held(None, "addr:\x1b[31m")] == [1, 0]
    assert again.state().seats[0].house


def test_what_is_not_bytes_is_refused():
    with pytest.raises(CheckpointError):
        load(json.loads(GOOD))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=8,
)


def paths(value, prefix=()):
    """Every place in a JSON value, as a path of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


PATHS = [p for p in paths(BODY) if p]


@given(path=st.sampled_from(PATHS), value=json_values)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_value_anywhere_is_refused_or_gives_a_table_that_plays_on(path, value):
    try:
        table = restore(changed(path, value), clock=(clock := FakeClock()), options=TableOptions())
    except CheckpointError:
        return
    ann = table.join("ann", Recorder(), identity="key:ann")
    eve = table.join("eve", Recorder(), identity="key:eve")
    for _ in range(5):
        ann.flip()
        eve.flip()
        deadline = table.next_deadline()
        if deadline is not None:
            clock.now = max(clock.now, deadline)
        table.poll()
    assert load(checkpoint(table)).game.battles == table.game.battles
