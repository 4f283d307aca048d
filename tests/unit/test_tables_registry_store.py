"""The registry's side of a store under its tables: what changed, checkpoints, held updates and restoring."""

from __future__ import annotations

import pytest
from support.tables import Recorder

from war_tui.core.rules import Side
from war_tui.tables import (
    FakeClock,
    Flip,
    Link,
    Notice,
    NoticeCode,
    Registry,
    Resync,
    SeatStatus,
    Snapshot,
    TableRefused,
    decode_update,
    encode,
)
from war_tui.tables import held as held_module
from war_tui.tables.checkpoint import CheckpointError


def registry(**kwargs) -> tuple[Registry, FakeClock]:
    clock = FakeClock()
    return Registry(clock=clock, seed_source=lambda: 1, **kwargs), clock


def numbers(sink: Recorder) -> list[int]:
    """The sequence numbers of what ``sink`` was told, a snapshot's included."""
    return [u.seq for u in sink.updates if u.seq]


def kept(reg: Registry, name: str = "oak") -> int:
    """The store keeps table ``name``'s checkpoint: the registry is told so."""
    taken = reg.checkpoint(name)
    assert taken is not None
    reg.release(name, taken[0])
    return taken[0]


def test_held_updates_reach_no_one_until_released_then_all_in_order_and_contiguous():
    reg, _clock = registry(hold_updates=True)
    one, two = Recorder(), Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    bob = reg.join("oak", "bob", two, identity="key:bob")
    ann.flip()
    bob.flip()
    assert one.updates == [] and two.updates == []
    seq = kept(reg)
    assert isinstance(one.updates[0], Snapshot) and numbers(one)[-1] == seq
    assert numbers(one) == list(range(numbers(one)[0], seq + 1))
    one.clear()
    for _ in range(3):
        ann.flip()
        bob.flip()
    assert one.updates == []
    kept(reg)
    assert numbers(one) == list(range(seq + 1, seq + 1 + len(numbers(one)))) and len(one.events()) == 3


def test_a_release_hands_on_only_what_the_store_kept():
    reg, _clock = registry(hold_updates=True)
    one = Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    seq = kept(reg)
    one.clear()
    ann.flip()
    bob.flip()
    taken = reg.checkpoint("oak")
    assert taken is not None
    middle = taken[0]
    ann.flip()
    bob.flip()
    reg.checkpoint("oak")  # the newer state is taken; the store has not kept it yet
    reg.release("oak", middle)
    assert numbers(one) == list(range(seq + 1, middle + 1))
    reg.release("oak", middle)  # again: nothing twice
    assert numbers(one) == list(range(seq + 1, middle + 1))


def test_a_joiners_snapshot_shows_no_state_newer_than_the_store_kept():
    reg, _clock = registry(hold_updates=True)
    ann = reg.join("oak", "ann", Recorder(), identity="key:ann")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    kept(reg)
    ann.flip()
    bob.flip()
    watcher = Recorder()
    reg.join("oak", "eve", watcher, watch=True)
    assert watcher.updates == []
    seq = kept(reg)
    snapshot = watcher.snapshots()[0]
    assert snapshot.battles == 1 and snapshot.seq <= seq
    assert numbers(watcher) == list(range(snapshot.seq, seq + 1))


def test_a_release_for_an_older_table_of_the_same_name_releases_nothing_of_the_new_one():
    reg, clock = registry(hold_updates=True)
    ann = reg.join("oak", "ann", Recorder())
    for _ in range(5):
        ann.flip()
    old = reg.checkpoint("oak")
    assert old is not None
    ann.leave()
    clock.advance(3600)
    reg.poll()
    one = Recorder()
    bob = reg.join("oak", "bob", one)
    bob.flip()
    reg.release("oak", old[0])  # the old table's write, done only now
    assert one.updates == []
    kept(reg)
    assert isinstance(one.updates[0], Snapshot)


def test_a_refusal_to_one_member_keeps_its_place_after_what_was_told_before_it():
    reg, _clock = registry(hold_updates=True)
    one = Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    kept(reg)
    one.clear()
    ann.set_auto(True, 4)
    ann.table.emote(ann, 99)  # refused: no such emote
    assert one.updates == []
    kept(reg)
    assert isinstance(one.updates[-1], Notice) and one.updates[-1].code is NoticeCode.REFUSED


def test_a_closing_notice_is_not_held():
    reg, _clock = registry(hold_updates=True)
    one = Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    ann.flip()
    reg.close("the server is restarting: reconnect in a moment")
    assert [u.code for u in one.updates] == [NoticeCode.CLOSING]


def test_past_its_bound_held_updates_give_way_to_a_fresh_snapshot_of_the_kept_state(monkeypatch):
    monkeypatch.setattr(held_module, "MAX_HELD", 8)
    reg, _clock = registry(hold_updates=True)
    one = Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    for _ in range(10):
        ann.flip()
        bob.flip()
    assert one.updates == []
    seq = kept(reg)
    assert [type(u) for u in one.updates] == [Snapshot] and one.updates[0].seq == seq
    assert one.updates[0].battles == 10
    one.clear()
    ann.flip()
    bob.flip()
    assert numbers(one) == []
    kept(reg)
    assert numbers(one) == list(range(seq + 1, seq + 1 + len(numbers(one)))) and one.events()


def test_without_held_updates_everyone_is_told_at_once():
    reg, _clock = registry()
    one = Recorder()
    ann = reg.join("oak", "ann", one, identity="key:ann")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    ann.flip()
    bob.flip()
    assert isinstance(one.updates[0], Snapshot) and len(one.events()) == 1


# ------------------------------------------------------------------ what changed


def test_changed_names_each_table_that_changed_since_the_last_call():
    calls = []
    reg, clock = registry(on_change=lambda: calls.append(1))
    ann = reg.join("oak", "ann", Recorder(), identity="key:ann")
    reg.join("elm", "bob", Recorder(), identity="key:bob")
    assert sorted(reg.changed()) == ["elm", "oak"] and calls
    assert reg.changed() == []
    calls.clear()
    ann.flip()
    assert reg.changed() == ["oak"] and calls
    clock.advance(1)
    reg.poll()
    assert reg.changed() == []


def test_a_table_that_closed_is_named_once_and_has_no_checkpoint():
    reg, clock = registry()
    ann = reg.join("oak", "ann", Recorder())  # no identity: nothing is kept for it
    reg.changed()
    ann.leave()
    clock.advance(3600)
    reg.poll()
    assert reg.changed() == ["oak"]
    assert reg.checkpoint("oak") is None
    assert reg.changed() == []


# ------------------------------------------------------------------ restoring


def test_a_restored_table_is_open_with_its_seats_kept_for_their_identities():
    reg, _clock = registry()
    ann = reg.join("oak", "ann", Recorder(), identity="key:ann")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    ann.flip()
    bob.flip()
    taken = reg.checkpoint("oak")
    assert taken is not None
    again, _clock = registry(hold_updates=True, seats_per_visitor=1)
    assert again.restore(taken[1]) == "oak"
    assert again.changed() == []  # the store holds it as it is
    table = again.table("oak")
    assert table is not None and table.seq == taken[0] and table.game.battles == 1
    assert again.lobby().tables[0].statuses == (SeatStatus.AWAY, SeatStatus.AWAY)
    watcher = Recorder()
    again.join("oak", "eve", watcher, watch=True)
    assert watcher.updates == []  # its snapshot shows it watching: a state the store has not kept
    kept(again)
    assert numbers(watcher) == [taken[0], taken[0] + 1] and watcher.snapshots()[0].battles == 1
    elsewhere = again.join("elm", "ann", Recorder(), identity="key:ann")
    assert elsewhere.seat is None  # the seat kept for it counts among the seats it may hold
    elsewhere.leave()
    back = again.join("oak", "ann", Recorder(), identity="key:ann")
    assert back.seat is not None and back.seat.index == 0


def test_restoring_refuses_bad_data_a_table_open_already_and_a_full_server():
    reg, _clock = registry()
    reg.join("oak", "ann", Recorder(), identity="key:ann")
    taken = reg.checkpoint("oak")
    assert taken is not None
    with pytest.raises(CheckpointError):
        reg.restore(taken[1][:-2])
    with pytest.raises(TableRefused, match="open already"):
        reg.restore(taken[1])
    full, _clock = registry(max_tables=1)
    full.join("elm", "bob", Recorder())
    with pytest.raises(TableRefused, match="full"):
        full.restore(taken[1])


def test_a_connections_link_has_nothing_to_send_until_the_store_kept_it():
    reg, _clock = registry(hold_updates=True)
    link = Link(reg, "ann", identity="key:ann", clock=_clock)
    link.join("oak")
    assert link.take() == b""
    kept(reg)
    lines = link.take().splitlines()
    assert lines and b'"snapshot"' in lines[0]


def test_a_fresh_snapshot_a_connection_asks_for_shows_no_state_the_store_has_not_kept():
    reg, clock = registry(hold_updates=True)
    link = Link(reg, "ann", identity="key:ann", clock=clock)
    link.join("oak")
    bob = reg.join("oak", "bob", Recorder(), identity="key:bob")
    seq = kept(reg)
    link.take()
    link.receive(encode(Flip()))
    bob.flip()
    link.receive(encode(Resync()))
    assert link.take() == b""
    later = kept(reg)
    assert later > seq
    snapshots = [decode_update(line) for line in link.take().splitlines()]
    snapshots = [u for u in snapshots if isinstance(u, Snapshot)]
    assert [(u.seq, u.battles) for u in snapshots] == [(later, 1)]


def test_a_flip_alone_is_handed_on_unwritten_and_any_other_change_is_not():
    reg, _ = registry(hold_updates=True)
    ann_sink, bob_sink = Recorder(), Recorder()
    ann = reg.join("oak", "ann", ann_sink, identity="key:ann")
    bob = reg.join("oak", "bob", bob_sink, identity="key:bob")
    assert not reg.release_unwritten("oak")  # the seats are not kept yet
    kept(reg)
    told = len(bob_sink.updates)
    ann.flip()
    assert len(bob_sink.updates) == told  # held until the keeper looks
    assert reg.release_unwritten("oak")
    assert bob_sink.state().waiting_for == (Side.P2,)  # bob sees that ann flipped
    bob.flip()
    assert not reg.release_unwritten("oak")  # the battle waits for its write
    assert bob_sink.events() == []
    kept(reg)
    assert len(bob_sink.events()) == 1
    reg.join("oak", "eve", Recorder(), watch=True)  # a spectator: seen in the state, so kept first
    assert not reg.release_unwritten("oak")
    kept(reg)
    ann.set_auto(True)  # a wish shown on the seats
    assert not reg.release_unwritten("oak")


def test_a_flip_handed_on_unwritten_is_not_counted_kept_until_the_store_keeps_it():
    """The relay acknowledges a key against ``kept``: a flip only handed on must stay unacknowledged, so a door
    sends it to the table's next owner if this one dies before writing it."""
    reg, _ = registry(hold_updates=True)
    ann = reg.join("oak", "ann", Recorder(), identity="key:ann")
    reg.join("oak", "bob", Recorder(), identity="key:bob")
    kept(reg)
    before = reg.kept("oak")
    ann.flip()
    assert reg.release_unwritten("oak")
    assert reg.kept("oak") == before
    kept(reg)
    assert reg.kept("oak") == reg.table("oak").seq


def test_without_held_updates_nothing_is_handed_on_unwritten():
    reg, _ = registry()
    ann = reg.join("oak", "ann", Recorder(), identity="key:ann")
    reg.join("oak", "bob", Recorder(), identity="key:bob")
    ann.flip()
    assert not reg.release_unwritten("oak")
    assert not reg.release_unwritten("elm")
