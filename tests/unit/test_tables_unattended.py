"""Tables kept open only by a seat kept for the away: one address holds at most one such table."""

from __future__ import annotations

from support.tables import Recorder

from war_tui.tables import FakeClock, Registry


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
    assert [t.name for t in reg.tables] == ["t3"]
    back = reg.join("t3", "eve", Recorder(), identity="addr:eve", address="10.0.0.9")
    assert back.seat is not None and back.seat.index == 0  # her kept seat, as before


def test_a_table_someone_is_at_stays_and_other_addresses_keep_theirs():
    reg, clock = registry()
    here = reg.join("a", "ann", Recorder(), identity="addr:ann", address="10.0.0.1")
    gone = reg.join("b", "ann", Recorder(), identity="addr:ann", address="10.0.0.1")
    other = reg.join("c", "bob", Recorder(), identity="addr:bob", address="10.0.0.2")
    clock.advance(120)
    gone.leave()
    other.leave()
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
    again.poll()
    assert [t.name for t in again.tables if not t.closed] == ["t1"]
