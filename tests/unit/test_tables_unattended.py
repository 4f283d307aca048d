"""Tables kept open only by a seat kept for the away: one address holds at most one such table, once nobody has
been at them for the close delay."""

from __future__ import annotations

from support.tables import Recorder

from war_tui.tables import FakeClock, Registry
from war_tui.tables.options import DEFAULT_CLOSE_AFTER


def registry() -> tuple[Registry, FakeClock]:
    clock = FakeClock()
    return Registry(clock=clock, seed_source=lambda: 1), clock


def test_an_address_that_left_four_tables_keeps_only_its_last_one():
    reg, clock = registry()
    seats = [reg.join(f"t{n}", "eve", Recorder(), identity="addr:eve", address="10.0.0.9") for n in range(4)]
    clock.advance(120)  # long enough a stay for each seat to be kept when she goes
    for member in seats:
        member.leave()
    reg.poll()
    assert len(reg.tables) == 4  # nobody was at them for the close delay yet
    due = reg.next_deadline()
    assert due is not None and due <= clock() + DEFAULT_CLOSE_AFTER
    clock.advance(DEFAULT_CLOSE_AFTER)
    reg.poll()
    assert [t.name for t in reg.tables] == ["t3"]
    back = reg.join("t3", "eve", Recorder(), identity="addr:eve", address="10.0.0.9")
    assert back.seat is not None and back.seat.index == 0  # her kept seat, as before


def test_players_a_fault_cut_off_together_find_every_table_they_sat_at():
    """A node or NATS away freezes every screen at once and every player reconnects: behind one address (a
    balancer, a house of players) each of their tables is empty for a moment, and none of them closes."""
    reg, clock = registry()
    tables = ["t0", "t1"]  # four seats: as many as one address may hold
    players = [reg.join(name, who, Recorder(), identity=f"key:{who}{name}", address="10.0.0.9")
               for name in tables for who in ("ann", "bob")]
    clock.advance(120)
    for member in players:
        member.leave()
    clock.advance(DEFAULT_CLOSE_AFTER / 2)
    reg.poll()
    back = [reg.join(name, who, Recorder(), identity=f"key:{who}{name}", address="10.0.0.9")
            for name in tables for who in ("ann", "bob")]
    assert [t.name for t in reg.tables if not t.closed] == tables
    assert [(m.seat.index if m.seat else None) for m in back] == [0, 1, 0, 1]  # each in their own seat


def test_a_table_someone_is_at_stays_and_other_addresses_keep_theirs():
    reg, clock = registry()
    here = reg.join("a", "ann", Recorder(), identity="addr:ann", address="10.0.0.1")
    gone = reg.join("b", "ann", Recorder(), identity="addr:ann", address="10.0.0.1")
    other = reg.join("c", "bob", Recorder(), identity="addr:bob", address="10.0.0.2")
    clock.advance(120)
    gone.leave()
    other.leave()
    clock.advance(DEFAULT_CLOSE_AFTER)
    reg.poll()
    assert sorted(t.name for t in reg.tables) == ["a", "b", "c"]
    assert here.seat is not None


def test_tables_restored_together_wait_for_their_players_then_the_rule_holds_again():
    """A restart or a takeover restores an address's tables with nobody at them yet: none is closed (its name would
    be dealt afresh) until a player of it came back; one who then leaves it again leaves it as before."""
    reg, clock = registry()
    for name in ("t0", "t1"):
        reg.join(name, "eve", Recorder(), identity="addr:eve", address="10.0.0.9")
    saved = [checkpoint for checkpoint in (reg.checkpoint("t0"), reg.checkpoint("t1")) if checkpoint is not None]
    again, clock = registry()
    for _, data in saved:
        again.restore(data)
    again.poll()
    assert [t.name for t in again.tables] == ["t0", "t1"]
    back = again.join("t0", "eve", Recorder(), identity="addr:eve", address="10.0.0.9")
    assert back.seat is not None and back.seat.index == 0  # her kept seat
    other = again.join("t1", "eve", Recorder(), identity="addr:eve", address="10.0.0.9")
    clock.advance(120)  # long enough a stay for each seat to be kept when she goes
    back.leave()
    other.leave()
    clock.advance(DEFAULT_CLOSE_AFTER)
    again.poll()
    assert [t.name for t in again.tables if not t.closed] == ["t1"]
