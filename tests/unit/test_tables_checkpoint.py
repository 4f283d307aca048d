"""A table checkpointed and restored in another process goes on exactly where it was (on the fake clock)."""

from __future__ import annotations

import json

import pytest
from support.deals import QUICK_WIN
from support.tables import Recorder, cards, dealing, make_table, restored, run_until_idle

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon
from war_tui.core.rules import Result, Side
from war_tui.core.table_limits import DEFAULT_SEAT_TIMEOUT
from war_tui.tables import EventBatch, FakeClock, Notice, NoticeCode, PlayHouse, SeatStatus, Table, TableOptions
from war_tui.tables import checkpoint as checkpoint_module
from war_tui.tables.agreement import REQUEST_TIMEOUT
from war_tui.tables.checkpoint import CHECKPOINT_VERSION, MAX_CHECKPOINT_BYTES, checkpoint, restore
from war_tui.tables.options import DEFAULT_RECONNECT_GRACE

WAR_THEN_PLAIN = ("4C 2C 3C 5C 9C 8C 7C 6C", "4D 2D 3D KD 8D 7D 6D 5D")
"""Battle 1 a war seat 2 wins; then seat 1 wins battle after battle."""


def seated(deal=None, **options):
    table, clock = make_table(deal, **options)
    sinks = Recorder(), Recorder()
    ann = table.join("ann", sinks[0], identity="key:ann")
    bob = table.join("bob", sinks[1], identity="key:bob")
    return table, clock, (ann, bob), sinks


def back(table: Table):
    """Both players come back to a restored table, each with their own identity."""
    sinks = Recorder(), Recorder()
    ann = table.join("ann", sinks[0], identity="key:ann")
    bob = table.join("bob", sinks[1], identity="key:bob")
    return (ann, bob), sinks


def battles(sink: Recorder) -> list[BattleWon]:
    return [e for e in sink.events() if isinstance(e, BattleWon)]


# ------------------------------------------------------------------ the game


def test_a_restored_table_is_at_the_battle_it_reached_with_its_log_tally_and_sequence():
    table, clock, (ann, bob), _ = seated()
    for _ in range(40):
        ann.flip()
        bob.flip()
        clock.advance(0.5)
    again, _clock = restored(table, clock)
    assert (again.name, again.game_number, again.game.seed) == ("oak", 1, 42)
    assert (again.game.battles, again.game.counts, again.game.wars) == (40, table.game.counts, table.game.wars)
    assert again.seq == table.seq and again.tally == table.tally
    watcher = again.join("eve", Recorder(), watch=True)
    original = table.join("eve", Recorder(), watch=True)
    mine, theirs = watcher.snapshot(), original.snapshot()
    assert mine.log == theirs.log and mine.on_show == theirs.on_show and mine.on_show is not None
    assert (mine.played_ms, mine.counts, mine.battles) == (theirs.played_ms, theirs.counts, theirs.battles)


def test_the_restored_game_plays_on_to_the_same_battles_as_the_original():
    table, clock, (ann, bob), (one, _two) = seated()
    for _ in range(25):
        ann.flip()
        bob.flip()
    again, _clock = restored(table, clock)
    (ann2, bob2), (one2, _) = back(again)
    one.clear()
    for _ in range(30):
        for member in (ann, bob, ann2, bob2):
            member.flip()
    assert battles(one2) == battles(one) and len(battles(one)) == 30
    assert again.game.counts == table.game.counts


def test_a_deal_that_is_not_the_seeds_is_kept_card_by_card():
    table, clock, (ann, bob), _ = seated(dealing(*WAR_THEN_PLAIN))
    ann.flip()
    bob.flip()
    again, _clock = restored(table, clock)
    assert again.game.initial == (cards(WAR_THEN_PLAIN[0]), cards(WAR_THEN_PLAIN[1]))
    assert (again.game.counts, again.game.wars) == (table.game.counts, table.game.wars) and again.game.wars > 0


def test_a_game_over_waits_for_a_new_deal_and_counts_in_the_tally_once():
    records: list = []
    table, clock = make_table(lambda: Game(*QUICK_WIN), records=records)
    ann = table.join("ann", Recorder(), identity="key:ann")
    bob = table.join("bob", Recorder(), identity="key:bob")
    ann.flip()
    bob.flip()
    assert table.game.over and len(records) == 1
    again_records: list = []
    again, _clock = restored(table, clock, on_record=again_records.append, deal=lambda: Game(*QUICK_WIN))
    assert again.game.over and again.game.result is Result.P1 and again.tally == (1, 0, 0, 0)
    (ann2, bob2), _ = back(again)
    assert again.state().over and set(again.state().waiting_for) == {Side.P1, Side.P2}
    ann2.restart()
    assert again.game_number == 1
    bob2.restart()
    assert again.game_number == 2 and not again.game.over
    ann2.flip()
    bob2.flip()
    assert again.tally == (2, 0, 0, 0) and len(again_records) == 1  # the first game's record went before


def test_a_game_finished_after_a_restore_has_the_id_the_original_table_would_give_it():
    """The nonce goes with the table: the record of a game either process finishes names it the same, so the
    statistics keep it once whichever delivers it."""
    records: list = []
    table, clock = make_table(lambda: Game(*QUICK_WIN), records=records)
    ann = table.join("ann", Recorder(), identity="key:ann")
    bob = table.join("bob", Recorder(), identity="key:bob")
    ann.restart()
    bob.restart()  # game 2, not yet played
    again_records: list = []
    again, _clock = restored(table, clock, on_record=again_records.append)
    assert again.nonce == table.nonce
    for members in ((ann, bob), back(again)[0]):
        for member in members:
            member.flip()
    assert [r.game_id for r in records] == ["oak.5eed.2"] == [r.game_id for r in again_records]


# ------------------------------------------------------------------ seats and wishes


def test_a_pending_flip_stands_and_the_house_counts_down_from_where_it_was():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    clock.advance(20)
    again, again_clock = restored(table, clock)
    assert again.state().seats[0].flipped and again.state().house_in == table.state().house_in == 40
    assert again.next_deadline() == table.next_deadline()
    (ann2, bob2), (one, _) = back(again)
    assert again.state().seats[0].flipped and again.game.battles == 0
    bob2.flip()
    assert again.game.battles == 1


def test_a_seat_kept_for_its_player_after_a_restore_is_awaited_counted_down_and_plays_once_they_are_back():
    """bob is back and flips first: ann's seat is kept and awaited (never "the house plays", which it does not),
    the house counts down to its flip for her, and her first flip once back plays the battle at once."""
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    bob.flip()
    clock.advance(5)
    again, again_clock = restored(table, clock)
    bob_sees = Recorder()
    bob2 = again.join("bob", bob_sees, identity="key:bob")
    bob2.flip()
    state = bob_sees.state()
    assert state.seats[0].status is SeatStatus.AWAITED and not state.seats[0].house
    assert state.waiting_for == (Side.P1,) and state.house_in == DEFAULT_SEAT_TIMEOUT
    assert again.lobby_entry().statuses[0] is SeatStatus.AWAY  # whom it is kept for is the table's business
    again_clock.advance(12)
    again.poll()
    ann2 = again.join("ann", Recorder(), identity="key:ann")
    assert bob_sees.state().seats[0].status is SeatStatus.PLAYER
    ann2.flip()
    assert again.game.battles == 2


def test_the_house_flips_for_a_player_who_does_not_come_back_once_the_seat_timeout_passes():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    clock.advance(20)
    again, again_clock = restored(table, clock)
    one = Recorder()
    ann2 = again.join("ann", one, identity="key:ann")
    again_clock.advance(39)
    again.poll()
    assert again.game.battles == 0
    again_clock.advance(1)
    again.poll()
    assert again.game.battles == 1 and ann2.seat is Side.P1
    assert "the house flipped for bob: idle for 60 s" in one.texts()


def test_auto_play_goes_on_at_its_countdown_with_its_players_wishes():
    table, clock, (ann, bob), _ = seated()
    ann.set_auto(True, 2)
    bob.set_auto(True, 8)
    clock.advance(0.2)
    deadline = table.next_deadline()
    again, again_clock = restored(table, clock)
    assert again.next_deadline() == deadline and again.state().auto_speed == 2
    (ann2, bob2), (one, _) = back(again)
    assert again.state().auto_speed == 2 and again.next_deadline() == deadline
    again_clock.now = clock.now = deadline
    again.poll()
    table.poll()
    assert again.game.battles == table.game.battles > 0


def test_auto_play_runs_on_while_its_players_are_away_after_a_restart():
    table, clock, (ann, bob), _ = seated()
    ann.set_auto(True, 4)
    bob.set_auto(True, 4)
    again, again_clock = restored(table, clock)
    assert [s.status for s in again.state().seats] == [SeatStatus.AWAITED, SeatStatus.AWAITED]
    for _ in range(8):
        again_clock.now = again.next_deadline()
        again.poll()
    assert again.game.battles > 0 and again.state().auto_speed == 4


def test_a_war_held_at_its_tie_is_still_held_and_either_flip_lays_it():
    table, clock, (ann, bob), _ = seated(dealing(*WAR_THEN_PLAIN))
    for member in (ann, bob):
        table.set_war_stop(member, True)
        member.set_auto(True, 4)
    run_until_idle(table, clock, limit=50)
    assert table.state().held and table.game.battles == 1
    again, again_clock = restored(table, clock)
    assert again.state().held and again.state().war_stop
    (ann2, bob2), (one, _) = back(again)
    assert again.state().held and again.game.battles == 1
    bob2.flip()
    bob.flip()
    assert not again.state().held and again.next_deadline() == table.next_deadline()
    run_until_idle(again, again_clock, limit=50)
    run_until_idle(table, clock, limit=50)
    assert again.game.over and (again.game.battles, again.game.result) == (table.game.battles, table.game.result)


def test_a_request_waits_with_the_time_it_had_left():
    table, clock, (ann, bob), _ = seated()
    ann.set_auto(True, 4)
    clock.advance(10)
    again, again_clock = restored(table, clock)
    (ann2, bob2), (one, _) = back(again)
    assert again.state().seats[0].auto and again.state().auto_speed is None
    again_clock.advance(REQUEST_TIMEOUT - 10 - 1)
    again.poll()
    assert again.state().seats[0].auto
    again_clock.advance(1)
    again.poll()
    assert not again.state().seats[0].auto
    assert any("request for auto-play timed out" in text for text in one.texts())


def test_a_request_waiting_is_agreed_by_the_player_who_comes_back():
    table, clock, (ann, bob), _ = seated()
    table.set_war_stop(ann, True)
    again, _clock = restored(table, clock)
    (ann2, bob2), _ = back(again)
    assert not again.state().war_stop
    again.set_war_stop(bob2, True)
    assert again.state().war_stop


def test_the_house_plays_the_seat_it_played():
    table, clock = make_table()
    ann = table.join("ann", Recorder(), identity="key:ann")
    assert ann.request(PlayHouse())
    again, _clock = restored(table, clock)
    assert again.state().seats[1].status is SeatStatus.HOUSE
    ann2 = again.join("ann", Recorder(), identity="key:ann")
    assert ann2.seat is Side.P1
    ann2.flip()
    assert again.game.battles == 1


# ------------------------------------------------------------------ who sits again


def test_a_returning_identity_sits_again_and_a_stranger_waits_for_the_seat_timeout():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    bob.flip()
    again, again_clock = restored(table, clock)
    eve_sink = Recorder()
    eve = again.join("eve", eve_sink, identity="key:eve")
    assert eve.seat is None
    assert any("seat 1 is kept for ann" in text for text in eve_sink.texts())
    ann_sink = Recorder()
    ann2 = again.join("ann", ann_sink, identity="key:ann")
    assert ann2.seat is Side.P1 and any("ann is back at seat 1" in t for t in ann_sink.texts())
    again_clock.advance(DEFAULT_SEAT_TIMEOUT - 1)
    assert not again.sit(eve)
    again_clock.advance(1)
    assert again.sit(eve) and eve.seat is Side.P2
    assert any("eve takes seat 2, bob's until now" in t for t in ann_sink.texts())


def test_a_seat_nobody_comes_back_to_turns_to_the_house_with_its_wishes_gone():
    table, clock, (ann, bob), _ = seated()
    ann.set_auto(True, 0.5)
    bob.set_auto(True, 0.5)  # agreed: a wish that waits for nobody's answer
    again, again_clock = restored(table, clock)
    assert again.seats_held("key:bob", None) == 1
    again.join("ann", Recorder(), identity="key:ann")
    again_clock.advance(DEFAULT_RECONNECT_GRACE - 1)
    again.poll()
    assert again.state().seats[1].status is SeatStatus.AWAITED and again.state().seats[1].auto
    again_clock.advance(1)
    again.poll()
    seat = again.state().seats[1]
    assert seat.status is SeatStatus.HOUSE and not seat.auto and again.seats_held("key:bob", None) == 0


def test_a_restored_table_nobody_comes_back_to_closes_once_no_seat_is_kept():
    table, clock, _members, _ = seated()
    again, again_clock = restored(table, clock)
    again_clock.advance(DEFAULT_RECONNECT_GRACE - 1)
    again.poll()
    assert not again.closed
    again_clock.advance(1)
    again.poll()
    assert again.closed


def test_a_player_without_an_identity_leaves_a_seat_the_house_plays():
    table, clock = make_table()
    table.join("ann", Recorder(), identity="key:ann")
    table.join("bob", Recorder())
    again, _clock = restored(table, clock)
    assert [s.status for s in again.state().seats] == [SeatStatus.AWAITED, SeatStatus.HOUSE]
    bob = again.join("bob", Recorder())
    assert bob.seat is Side.P2  # the house's seat is free to anyone
    assert again.seats_held(None, None) == 0


def test_a_kept_seat_keeps_the_time_it_had_left():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    bob.flip()
    bob.leave()
    clock.advance(50)
    again, again_clock = restored(table, clock)
    eve = again.join("eve", Recorder(), identity="key:eve")
    assert eve.seat is None
    again_clock.advance(DEFAULT_SEAT_TIMEOUT - 50)
    assert again.sit(eve) and eve.seat is Side.P2


def test_the_checkpoint_holds_durations_never_the_process_clock():
    table, clock, (ann, bob), _ = seated()
    clock.advance(12_345.0)
    ann.flip()
    body = json.loads(checkpoint(table))
    assert body["v"] == CHECKPOINT_VERSION
    numbers = json.dumps(body)
    assert "13345" not in numbers and "1000.0" not in numbers
    assert body["seats"][0]["flip"] == 0.0 and body["seats"][1]["sat"] == 12_345.0


def test_a_checkpoint_of_a_long_log_stays_within_its_bound_and_restores():
    table, clock, (ann, bob), _ = seated(log_lines=1000)
    for _ in range(150):
        ann.flip()
        bob.flip()
    for n in range(300):  # long lines, as no request makes them, through the table's own way to log a notice
        table._note(Notice(NoticeCode.JOINED, f"{n:04d} " + "x" * 390))
    data = checkpoint(table)
    assert len(data) <= MAX_CHECKPOINT_BYTES
    again = restore(data, clock=clock, options=TableOptions(log_lines=1000))
    log = again._journal.entries()
    assert 0 < len(log) <= 200 and log == table._journal.entries()[-len(log):]



def test_the_game_ons_log_lines_are_replayed_from_its_seed_not_written():
    table, clock, (ann, bob), _ = seated()
    for _ in range(60):
        ann.flip()
        bob.flip()
    table.emote(ann, 1)
    for _ in range(30):
        ann.flip()
        bob.flip()
    data = checkpoint(table)
    lines = json.loads(data)["log"]
    assert {line[0] for line in lines} == {"G", "N", "E"}  # the deal and battles are runs; joins and the emote whole
    assert len(data) < 1200  # 94 log lines: some 35 bytes a battle, written whole
    again, _clock = restored(table, clock)
    mine, theirs = again.join("eve", Recorder(), watch=True).snapshot(), table.join("eve", Recorder(), watch=True).snapshot()
    assert mine.log == theirs.log and len(mine.log) == 94


def test_a_game_before_the_one_on_is_kept_whole_and_the_one_on_replayed():
    table, clock, (ann, bob), _ = seated(dealing(*WAR_THEN_PLAIN))
    while not table.game.over:
        ann.flip()
        bob.flip()
    ann.restart()
    bob.restart()
    ann.flip()
    bob.flip()
    lines = json.loads(checkpoint(table))["log"]
    assert lines[-1] == ["G", 2] and any(line[0] == "O" for line in lines)  # the new deal, its battle; the last end
    again, _clock = restored(table, clock)
    assert again._journal.entries() == table._journal.entries()


def test_a_checkpoint_of_the_version_before_with_every_line_whole_restores():
    table, clock, (ann, bob), _ = seated()
    for _ in range(20):
        ann.flip()
        bob.flip()
    table.emote(bob, 2)
    body = json.loads(checkpoint(table))
    body["v"] = 1
    body["log"] = [checkpoint_module._entry(entry) for entry in table._journal.entries()]
    again = restore(json.dumps(body).encode(), clock=FakeClock(clock.now), options=TableOptions())
    assert again._journal.entries() == table._journal.entries() and again.game.battles == 20


def test_a_log_that_says_more_of_the_game_than_it_played_is_kept_whole_and_restores_again():
    table, clock, (ann, bob), _ = seated()
    for _ in range(5):
        ann.flip()
        bob.flip()
    body = json.loads(checkpoint(table))
    body["v"] = 1
    lines = [checkpoint_module._entry(entry) for entry in table._journal.entries()]
    body["log"] = lines + [line for line in lines if line[0] == "B"]  # 11 lines of the game on, which told 6
    once = restore(json.dumps(body).encode(), clock=FakeClock(clock.now), options=TableOptions())
    data = checkpoint(once)
    assert "G" not in {line[0] for line in json.loads(data)["log"]}
    twice = restore(data, clock=FakeClock(clock.now), options=TableOptions())
    assert twice._journal.entries() == once._journal.entries()
    assert len(twice._journal.entries()) == 13


def test_restored_updates_carry_on_the_tables_sequence():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    seq = table.seq
    again, _clock = restored(table, clock)
    (ann2, bob2), (one, _) = back(again)
    snapshot = one.snapshots()[0]
    assert snapshot.seq == seq
    ann2.flip()
    bob2.flip()
    numbers = [snapshot.seq] + [u.seq for u in one.updates[1:] if u.seq]
    assert numbers == list(range(seq, seq + len(numbers)))
    assert any(isinstance(u, EventBatch) for u in one.updates)


def test_a_table_nobody_is_at_closes_when_it_would_have():
    table, clock = make_table()
    ann = table.join("ann", Recorder(), identity="key:ann")
    ann.leave()  # before any move: no seat is kept
    clock.advance(20)
    again, again_clock = restored(table, clock)
    again_clock.advance(9)
    again.poll()
    assert not again.closed
    again_clock.advance(1)
    again.poll()
    assert again.closed


def test_a_table_restored_twice_before_its_players_came_back_keeps_their_seats_no_longer():
    table, clock, _members, _ = seated()
    again, again_clock = restored(table, clock)
    again_clock.advance(100)
    third, third_clock = restored(again, again_clock)
    third_clock.advance(DEFAULT_RECONNECT_GRACE - 100 - 1)
    third.poll()
    assert third.state().seats[0].status is SeatStatus.AWAITED
    third_clock.advance(1)
    third.poll()
    assert third.closed  # nobody came back within the grace: no seat is kept, nobody is at it


def test_a_restore_on_another_processs_clock_counts_each_duration_from_its_own_now():
    table, clock, (ann, bob), _ = seated()
    ann.flip()
    clock.advance(20)
    fresh = FakeClock(3.0)  # a process that started a moment ago
    again = restore(checkpoint(table), clock=fresh, options=table.options)
    assert again.state().house_in == 40
    assert again.next_deadline() == pytest.approx(3.0 + 40)
    fresh.advance(40)
    again.poll()
    assert again.game.battles == 1  # the house flipped for bob, who never came back
