"""The line protocol: every message and engine event survives the trip, every bad line is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.tables import Recorder, dealing, make_table

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver, GameStarted
from war_tui.core.rules import EndReason, Gather, Result, Rules, Side
from war_tui.presentation.views import battle_view
from war_tui.tables import (
    Auto,
    Emote,
    Emoted,
    EventBatch,
    Flip,
    Join,
    Leave,
    Leaving,
    Lobby,
    LobbyEntry,
    Notice,
    NoticeCode,
    PlayHouse,
    ProtocolError,
    Restart,
    SeatState,
    SeatStatus,
    Sit,
    TableState,
    WarStop,
    WatchLobby,
    decode_request,
    decode_update,
    encode,
)
from war_tui.tables.protocol import MAX_LINE, VERSION, LineTooLong, encode_snapshot, request_reader, update_reader

# ------------------------------------------------------------------ round trips

card_rows = st.lists(st.integers(0, 51), unique=True, max_size=52).map(tuple)
sides = st.sampled_from(list(Side))
counts = st.integers(0, 52)

EVENTS = st.one_of(
    st.builds(BattleWon, st.integers(1, 10**9), sides, card_rows, card_rows, card_rows, st.integers(0, 26), counts, counts),
    st.builds(
        GameOver, st.sampled_from(list(Result)), st.sampled_from(list(EndReason)), st.integers(0, 10**9),
        st.integers(0, 10**9), st.integers(0, 26), counts, counts, st.none() | sides, card_rows, card_rows,
        st.integers(0, 26),
    ),
    st.builds(
        lambda seed, rules, deck, cut: GameStarted(seed, rules, tuple(deck[:cut]), tuple(deck[cut:])),
        st.none() | st.integers(-(2**63), 2**64 - 1),
        st.builds(Rules, st.integers(1, 3), st.sampled_from(list(Gather)), st.integers(1, 10**12)),
        st.permutations(range(52)),
        st.integers(1, 51),
    ),
)


@given(st.lists(EVENTS, max_size=20), st.integers(1, 10**6))
def test_every_kind_of_table_event_comes_back_equal(events, game):
    batch = EventBatch(game, tuple(events))
    line = encode(batch)
    assert line.endswith(b"\n") and b"\n" not in line[:-1]
    assert decode_update(line) == batch


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(Gather)), st.integers(1, 3))
def test_a_whole_game_of_table_events_comes_back_equal(seed, gather, war_cards):
    game = Game.deal(seed, Rules(war_cards, gather, max_battles=400))  # every kind of event, in fewer battles
    events: list = []
    game.subscribe(lambda e: events.append(e) if isinstance(e, (GameStarted, BattleWon, GameOver)) else None)
    game.play()
    assert {type(e) for e in events} == {GameStarted, BattleWon, GameOver}
    for event in events:
        assert decode_update(encode(EventBatch(1, (event,)))).events == (event,)


SEATS = st.builds(
    lambda status, name, *rest: SeatState(status, None if status is SeatStatus.OPEN else name, *rest),
    st.sampled_from(list(SeatStatus)), st.from_regex(r"[A-Za-z0-9._-]{1,16}", fullmatch=True), st.booleans(),
    st.booleans(), st.sampled_from([0.5, 4.0, 128.0]), st.booleans(),
)
STATES = st.builds(
    TableState, st.from_regex(r"[a-z0-9-]{1,24}", fullmatch=True), st.integers(1, 1000), st.tuples(SEATS, SEATS),
    st.integers(0, 500), st.sampled_from([(), (Side.P1,), (Side.P2,), (Side.P1, Side.P2)]),
    st.none() | st.sampled_from([0.5, 2.0, 128.0]), st.booleans(),
)


@given(STATES)
def test_table_states_come_back_equal(state):
    assert decode_update(encode(state)) == state


@pytest.mark.parametrize(
    "message",
    [
        Notice(NoticeCode.HOUSE_FLIPPED, "the house flipped for bob: idle for 60 s"),
        Emoted(Side.P2, "bob", 5),
        EventBatch(3, (), 65_000, (2, 1, 0, 4)),
        TableState("oak", 2, (SeatState(SeatStatus.PLAYER, "ann", True, True, 4.0, False, True),
                              SeatState(SeatStatus.PLAYER, "bob", False, False, 4.0, True, False, leaving=True)),
                   0, (Side.P2,), None, False, war_stop=True, held=True, house_in=12.5),
        Lobby((LobbyEntry("oak", ("ann", None), (SeatStatus.PLAYER, SeatStatus.OPEN), 3, 2, 17, (30, 22), None),
               LobbyEntry("elm", ("a", "b"), (SeatStatus.AWAY, SeatStatus.HOUSE), 0, 1, 400, (52, 0), Result.P1)), 16),
    ],
)
def test_notices_and_the_lobby_come_back_equal(message):
    assert decode_update(encode(message)) == message


@pytest.mark.parametrize(
    "request_", [Flip(), Auto(True, 4.0), Auto(False, 0.5), Auto(True, float("inf")), Restart(), Restart(False),
                 WarStop(True), WarStop(False), Emote(0), Emote(5), PlayHouse(), Sit(), Leaving(True), Leaving(False), Leave(),
                 Join("oak", False), Join("elm", True), WatchLobby()]
)
def test_requests_come_back_equal(request_):
    assert decode_request(encode(request_)) == request_


def test_a_snapshot_from_a_real_table_comes_back_equal():
    table, _clock = make_table(dealing("5C 2C KC 9C 7H", "5D 3D QD 4D 8H"))
    one = Recorder()
    ann = table.join("ann", one)
    bob = table.join("bob", Recorder())
    ann.flip()
    bob.flip()
    table.emote(ann, 1)
    bob.leave()
    snapshot = table.snapshot(ann)
    assert snapshot.on_show is not None and any(isinstance(e, Notice) for e in snapshot.log)
    assert decode_update(encode(snapshot)) == snapshot


def test_the_biggest_snapshot_fits_in_a_line_by_dropping_its_oldest_log_lines():
    table, _clock = make_table(lambda: Game.deal(9), log_lines=1000)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    while len(table.snapshot(ann).log) < 1000:
        for member in (ann, bob):
            member.restart() if table.game.over else member.flip()
    snapshot = table.snapshot(ann)
    assert len(encode(snapshot)) > MAX_LINE
    line = encode_snapshot(snapshot)
    assert len(line) <= MAX_LINE
    decoded = decode_update(line)
    assert decoded.log == snapshot.log[-len(decoded.log):] and decoded.log[-1] == snapshot.log[-1]


# ------------------------------------------------------------------ bad lines


def line(**fields) -> bytes:
    return json.dumps({"v": VERSION, **fields}).encode()


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (b"", "not JSON"),
        (b"flip", "not JSON"),
        (b'{"v":5,"kind":"flip"', "not JSON"),
        (b"\xff\xfe{}", "not JSON"),
        (b"[" * 50_000 + b"]" * 50_000, "longer than"),
        (b"[" * 30_000 + b"]" * 30_000, "not JSON"),  # nested past the parser's depth
        (b"[1,2]", "not a JSON object"),
        (b'{"kind":"flip"}', "protocol version"),
        (b'{"v":3,"kind":"flip"}', "protocol version 3 is not spoken here (this side speaks 7)"),
        (b'{"v":8,"kind":"flip"}', "the same war-tui"),
        (b'{"v":5,"kind":"flip"}', "protocol version 5 is not spoken here (this side speaks 7)"),
        (b'{"v":true,"kind":"flip"}', "protocol version"),
        (line(kind="teleport"), "no known kind"),
        (line(kind=["flip"]), "no known kind"),
        (line(kind="flip", extra=1), "should not have"),
        (line(kind="auto", on=1, speed=4), "true or false"),
        (line(kind="auto", on=True, speed=0.1), "number from"),
        (line(kind="auto", on=True, speed=10**400), "number from"),
        (b'{"v":7,"kind":"auto","on":true,"speed":' + b"9" * 5000 + b"}", "not JSON"),  # past int's digit limit
        (b'{"v":7,"kind":"auto","on":true,"speed":NaN}', "not a number"),
        (b'{"v":7,"kind":"auto","on":true,"speed":1e999}', "number from"),
        (line(kind="auto", on=True, speed="fast"), "number from"),
        (line(kind="auto", on=True), "has no speed"),
        (line(kind="join", table=7, watch=False), "printable text"),
        (line(kind="join", table="x" * 65, watch=False), "printable text"),
        (line(kind="join", table="oak\x1b", watch=False), "printable text"),
        (line(kind="state"), "no known kind"),  # an update is not a request
        (line(kind="emote", emote=6), "whole number from 0 to 5"),  # only the six fixed emotes: no free text
        (line(kind="emote", emote="gg"), "whole number from 0 to 5"),
        (line(kind="restart"), "has no on"),
    ],
)
def test_a_bad_request_is_refused_without_quoting_it(bad, why):
    with pytest.raises(ProtocolError) as refusal:
        decode_request(bad)
    message = str(refusal.value)
    assert why in message
    assert "teleport" not in message and "\x1b" not in message and "fast" not in message


def good_state() -> dict:
    table, _clock = make_table()
    table.join("ann", Recorder())
    return json.loads(encode(table.state()))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["seats"][0].__setitem__("name", "\x1b[31mann"),
        lambda d: d["seats"][0].__setitem__("name", "a" * 17),
        lambda d: d["seats"][1].__setitem__("name", "bob"),  # an open seat has no name
        lambda d: d.__setitem__("table", "Oak"),
        lambda d: d.__setitem__("spectators", -1),
        lambda d: d.__setitem__("seats", d["seats"][:1]),
        lambda d: d.__setitem__("waiting", ["p1", "p1"]),
        lambda d: d.__setitem__("waiting", ["p3"]),
        lambda d: d.__setitem__("game", True),
    ],
)
def test_a_bad_update_is_refused_by_the_game_process(spoil):
    data = good_state()
    spoil(data)
    with pytest.raises(ProtocolError):
        decode_update(json.dumps(data).encode())


@pytest.mark.parametrize(
    "event",
    [
        {"type": "won", "battle": 1, "winner": "p1", "cards": "00", "p1": "0", "p2": "1", "wars": 0, "counts": [1, 1]},
        {"type": "won", "battle": 1, "winner": "p1", "cards": "0~", "p1": "0", "p2": "1", "wars": 0, "counts": [1, 1]},
        {"type": "won", "battle": 0, "winner": "p1", "cards": "01", "p1": "0", "p2": "1", "wars": 0, "counts": [1, 1]},
        {"type": "won", "battle": 1, "winner": "p1", "cards": "01", "p1": "0", "p2": "1", "wars": 0, "counts": [1, 99]},
        {"type": "revealed", "battle": 1, "p1": "0", "p2": "1", "depth": 0},  # version 2's card turned
        {"type": "war", "battle": 1, "depth": 1, "p1": "2", "p2": "3"},  # version 2's war declared
        {"type": "started", "seed": 1, "rules": {"war_cards": 9, "gather": "laid", "max_battles": 5}, "p1": "0", "p2": "1"},
        {"type": "started", "seed": 1, "rules": {"war_cards": 1, "gather": "laid", "max_battles": 5}, "p1": "01", "p2": "1"},
        {"type": "notice", "code": "info", "text": "a notice is no engine event"},
        {"type": "shuffle"},
    ],
)
def test_bad_engine_events_are_refused(event):
    with pytest.raises(ProtocolError):
        decode_update(json.dumps({"v": 3, "kind": "events", "game": 1, "events": [event]}).encode())


def test_a_table_sends_deals_won_battles_and_game_over_and_a_screen_still_lays_each_war_step_by_step():
    """Version 3: no card turned and no war declared goes over the wire; a war's steps follow from BattleWon."""
    table, _clock = make_table(lambda: Game.deal(7))
    sent: list = []
    ann = table.join("ann", lambda update: sent.append(decode_update(encode(update))))
    bob = table.join("bob", Recorder())
    while not table.game.over:
        ann.flip()
        bob.flip()
    events = [e for update in sent if isinstance(update, EventBatch) for e in update.events]
    assert {BattleWon, GameOver} <= {type(e) for e in events} <= {GameStarted, BattleWon, GameOver}
    wars = [e for e in events if isinstance(e, BattleWon) and e.wars]
    assert wars  # seed 7 opens with a war
    view = battle_view(wars[0], table.game.rules.war_cards, wars[0].wars)
    assert view is not None and view.stages == 1 + 2 * wars[0].wars
    assert view.laid_at(1) == ((wars[0].p1_laid[0],), (wars[0].p2_laid[0],))


def test_a_version_2_line_is_refused_with_one_clear_sentence():
    with pytest.raises(ProtocolError) as refusal:
        decode_update(b'{"v":3,"kind":"events","game":1,"events":[]}')
    assert str(refusal.value) == (
        "protocol version 3 is not spoken here (this side speaks 7): the server and the game must run the same war-tui"
    )


# ------------------------------------------------------------------ the stream reader


def test_lines_split_anywhere_are_put_back_together():
    stream = b"".join(encode(m) for m in (Flip(), Auto(True, 8.0), Restart()))
    for cut in range(1, len(stream)):
        reader = request_reader()
        got = reader.feed(stream[:cut]) + reader.feed(stream[cut:])
        assert got == [Flip(), Auto(True, 8.0), Restart()]


def test_an_endless_line_is_refused_once_and_never_held_past_the_limit():
    reader = request_reader()
    out = []
    for _ in range(200):
        out += reader.feed(b"x" * 10_000)
        assert reader.buffered < MAX_LINE
    assert len(out) == 1 and isinstance(out[0], LineTooLong)
    assert reader.feed(b"still the same line\n" + encode(Flip())) == [Flip()]


def test_a_line_of_exactly_the_limit_is_taken_and_one_byte_more_is_not():
    padding = MAX_LINE - len(b'{"v":7,"kind":"flip","game":0,"seq":0}\n')
    exact = b'{"v":7,"kind":"flip","game":0,"seq":0}' + b" " * padding + b"\n"
    assert len(exact) == MAX_LINE
    assert request_reader().feed(exact) == [Flip()]
    over = b'{"v":7,"kind":"flip","game":0,"seq":0}' + b" " * (padding + 1) + b"\n"
    assert isinstance(request_reader().feed(over)[0], LineTooLong)
    reader = request_reader()
    assert isinstance(reader.feed(over[:-1])[0], LineTooLong)
    assert reader.feed(b"\n" + encode(Leave())) == [Leave()]


def test_bad_lines_between_good_ones_do_not_disturb_them():
    reader = update_reader()
    good = encode(Notice(NoticeCode.INFO, "hello"))
    out = reader.feed(good + b"garbage\n" + good)
    assert out[0] == out[2] == Notice(NoticeCode.INFO, "hello")
    assert isinstance(out[1], ProtocolError)
