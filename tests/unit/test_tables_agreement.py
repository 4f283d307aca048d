"""The table's rules of agreement between its two players, and its limits on emotes, without a screen."""

from __future__ import annotations

import pytest
from support.tables import Recorder, dealing, make_table, run_until_idle

from war_tui.core.events import BattleWon
from war_tui.core.rules import EndReason, Result, Side
from war_tui.tables import EMOTES, Emoted, EventBatch, Leave, Leaving, NoticeCode, SeatStatus, TableState, You
from war_tui.tables.agreement import REQUEST_TIMEOUT, EmoteLimit

WAR_THEN_PLAIN = ("4C 2C 3C 5C 9C 8C 7C 6C", "4D 2D 3D KD 8D 7D 6D 5D")
"""Battle 1 a war seat 2 wins; then seat 1 wins battle after battle."""
PLAIN = ("AC KC QC", "2D 3D 4D")


def seated(deal=PLAIN, **options):
    table, clock = make_table(dealing(*deal), **options)
    sinks = Recorder(), Recorder()
    ann = table.join("ann", sinks[0], identity="key:ann")
    bob = table.join("bob", sinks[1], identity="key:bob")
    return table, clock, (ann, bob), sinks


def states(sink: Recorder) -> list[TableState]:
    return [u for u in sink.updates if isinstance(u, TableState)]


# ------------------------------------------------------------------ requests and their timeout


def test_a_request_shows_in_the_seat_until_the_other_agrees():
    table, _clock, (ann, bob), _ = seated()
    ann.set_auto(True, 4)
    state = table.state()
    assert state.seats[0].auto and state.auto_speed is None
    bob.set_auto(True, 16)
    assert table.state().auto_speed == 4  # the slower of the two


def test_asking_again_withdraws_a_request():
    table, _clock, (ann, _bob), _ = seated()
    ann.table.set_war_stop(ann, True)
    assert table.state().seats[0].war_stop
    ann.table.set_war_stop(ann, False)
    assert not table.state().seats[0].war_stop
    assert table.next_deadline() is None  # nothing waits to time out


def test_an_unanswered_request_times_out_and_everyone_is_told():
    table, clock, (ann, _bob), (one, two) = seated()
    ann.set_auto(True, 4)
    assert table.next_deadline() == clock.now + REQUEST_TIMEOUT
    clock.advance(REQUEST_TIMEOUT - 1)
    table.poll()
    assert table.state().seats[0].auto
    clock.advance(1)
    table.poll()
    assert not table.state().seats[0].auto
    for sink in (one, two):
        expired = [n for n in sink.notices() if n.code is NoticeCode.EXPIRED]
        assert [n.text for n in expired] == ["ann's request for auto-play timed out: no answer in 30 s"]


def test_an_answered_request_does_not_time_out():
    table, clock, (ann, bob), (one, _) = seated()
    ann.set_auto(True, 4)
    bob.set_auto(True, 4)
    clock.advance(REQUEST_TIMEOUT + 1)
    table.poll()
    assert table.state().auto_speed == 4
    assert not [n for n in one.notices() if n.code is NoticeCode.EXPIRED]


def test_the_house_agrees_at_once_for_a_seat_left_for_good():
    """Without an identity nobody keeps bob's seat: it is the house's, and the house agrees to anything."""
    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    ann, bob = table.join("ann", Recorder(), identity="key:ann"), table.join("bob", Recorder())
    clock.advance(30)
    ann.flip()
    bob.flip()
    bob.leave()
    assert table.state().seats[1].status is SeatStatus.HOUSE
    ann.table.set_war_stop(ann, True)
    assert table.state().war_stop
    ann.restart()
    assert table.game_number == 2 and [r.reason for r in records] == [EndReason.AGREED]


# ------------------------------------------------------------------ a seat kept for its away player


def kept_away(fault: bool = False, **options):
    """ann and bob one battle in; then bob's connection goes (``fault``: with a fault between servers), his seat
    kept for him. The table, its clock, ann, her sink, and the records the table handed."""
    records: list = []
    table, clock = make_table(dealing(*WAR_THEN_PLAIN), records, **options)
    one = Recorder()
    ann = table.join("ann", one, identity="key:ann")
    bob = table.join("bob", Recorder(), identity="key:bob")
    clock.advance(30)
    ann.flip()
    bob.flip()
    bob.leave(fault)
    assert table.game.battles == 1 and not table.game.over
    assert table.state().seats[1].status is (SeatStatus.AWAITED if fault else SeatStatus.AWAY)
    return table, clock, ann, one, records


@pytest.mark.parametrize("fault", [False, True], ids=["dropped", "fault"])
def test_a_request_to_stop_the_game_waits_for_the_player_whose_seat_is_kept(fault):
    """Issue 38: a seat kept for an away player counted as the house's, which agreed for them: games recorded
    "stopped by agreement" that nobody stopped."""
    from war_tui.presentation.requests import request_lines

    table, clock, ann, one, records = kept_away(fault)
    ann.restart()
    assert table.game_number == 1 and not table.game.over and table.tally == (0, 0, 0, 0)
    assert records == [] and NoticeCode.AGREED not in [n.code for n in one.notices()]
    assert request_lines(one.state(), You("ann", Side.P1), ("ann", "bob")) == (
        "you ask to stop this game and deal again: waiting for bob (r withdraws)",
    )
    clock.advance(REQUEST_TIMEOUT)
    table.poll()
    assert one.texts()[-1] == "ann's request to stop this game and deal again timed out: no answer in 30 s"
    assert table.game_number == 1 and records == []


@pytest.mark.parametrize("kind", ["auto", "war_stop"])
def test_auto_play_and_stopping_at_wars_wait_for_the_player_whose_seat_is_kept(kind):
    from war_tui.presentation.requests import pending

    table, clock, ann, one, _records = kept_away()
    if kind == "auto":
        ann.set_auto(True, 4)
    else:
        ann.table.set_war_stop(ann, True)
    state = table.state()
    assert state.auto_speed is None and not state.war_stop
    assert pending(one.state()) == [(0, kind)]
    clock.advance(5)
    table.poll()
    assert table.game.battles == 1  # no auto-play battle: bob never agreed


@pytest.mark.parametrize("fault", [False, True], ids=["dropped", "fault"])
def test_auto_play_both_asked_for_stops_when_a_player_leaves_and_goes_on_when_a_fault_took_them(fault):
    table, clock, (ann, bob), _ = seated(WAR_THEN_PLAIN)
    clock.advance(30)
    ann.flip()
    bob.flip()
    ann.set_auto(True, 4)
    bob.set_auto(True, 4)
    assert table.state().auto_speed == 4
    bob.leave(fault)
    assert table.state().seats[1].status is (SeatStatus.AWAITED if fault else SeatStatus.AWAY)
    assert table.state().auto_speed == (4 if fault else None)  # a fault leaves his wishes standing


def test_at_game_over_dealing_again_waits_for_the_player_whose_seat_is_kept_until_they_are_back():
    from war_tui.presentation.seats import waiting_words

    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    one = Recorder()
    ann = table.join("ann", one, identity="key:ann")
    bob = table.join("bob", Recorder(), identity="key:bob")
    while not table.game.over:
        clock.advance(1)
        ann.flip()
        bob.flip()
    bob.leave()
    ann.restart()
    assert table.game_number == 1 and table.game.over
    assert table.state().waiting_for == (Side.P2,)
    assert waiting_words(one.state(), ("ann", "bob")) == ("game over: waiting for bob to press r", "waiting")
    bob = table.join("bob", Recorder(), identity="key:bob")
    assert table.game_number == 1
    bob.restart()
    assert table.game_number == 2 and len(records) == 1


def test_once_the_seat_is_no_longer_kept_the_house_answers_a_request_still_standing():
    table, clock, ann, one, records = kept_away(reconnect_grace=10)
    ann.restart()
    assert table.game_number == 1
    clock.advance(10)
    table.poll()
    assert table.state().seats[1].status is SeatStatus.HOUSE
    assert table.game_number == 2 and [r.reason for r in records] == [EndReason.AGREED]


# ------------------------------------------------------------------ stop at wars


def test_stop_at_wars_needs_both_then_auto_play_holds_at_the_tie_until_either_flips():
    table, clock, (ann, bob), (one, two) = seated(WAR_THEN_PLAIN)
    ann.table.set_war_stop(ann, True)
    assert not table.state().war_stop
    bob.table.set_war_stop(bob, True)
    assert table.state().war_stop
    ann.set_auto(True, 4)
    bob.set_auto(True, 4)
    run_until_idle(table, clock, limit=50)
    state = table.state()
    assert state.held and state.auto_speed == 4 and table.game.battles == 1  # on, held at the tie
    assert [e.wars > 0 for e in two.events() if isinstance(e, BattleWon)] == [True]
    assert table.next_deadline() is None  # held: nothing happens until a player lays it
    bob.flip()
    assert not table.state().held
    run_until_idle(table, clock, limit=50)
    assert table.game.over


def test_without_agreement_auto_play_runs_through_wars():
    table, clock, (ann, bob), _ = seated(WAR_THEN_PLAIN)
    ann.table.set_war_stop(ann, True)
    ann.set_auto(True, 4)
    bob.set_auto(True, 4)
    run_until_idle(table, clock)
    assert table.game.over and not table.state().held


# ------------------------------------------------------------------ dealing again mid-game


def test_a_new_deal_mid_game_needs_both_and_counts_a_stopped_game_in_the_tally():
    table, _clock, (ann, bob), (one, two) = seated()
    ann.flip()
    bob.flip()
    ann.restart()
    assert table.game_number == 1
    bob.restart()
    assert table.game_number == 2
    assert table.tally == (0, 0, 0, 1)
    assert [e.reason for e in two.events() if hasattr(e, "reason")] == [EndReason.AGREED]
    batches = [u for u in two.updates if isinstance(u, EventBatch)]
    assert any(b.tally == (0, 0, 0, 1) for b in batches)


def test_the_tally_and_the_game_time_come_with_the_events():
    table, clock, (ann, bob), (one, _) = seated()
    for _ in range(3):
        clock.advance(2)
        ann.flip()
        bob.flip()
    assert table.game.result is Result.P1
    last = [u for u in one.updates if isinstance(u, EventBatch)][-1]
    assert last.tally == (1, 0, 0, 0) and last.played_ms == 6000
    late = Recorder()
    table.join("eve", late, watch=True)
    snapshot = late.snapshots()[0]
    assert snapshot.tally == (1, 0, 0, 0) and snapshot.played_ms == 6000


# ------------------------------------------------------------------ emotes


def test_an_emote_reaches_everyone_and_the_log():
    table, _clock, (ann, _bob), (one, two) = seated()
    eve = Recorder()
    table.join("eve", eve, watch=True)
    assert ann.table.emote(ann, 3)
    for sink in (one, two, eve):
        assert sink.updates[-1] == Emoted(Side.P1, "ann", 3)
    assert Emoted(Side.P1, "ann", 3).text == EMOTES[3] == "wow"
    late = Recorder()
    table.join("dee", late, watch=True)
    assert Emoted(Side.P1, "ann", 3) in late.snapshots()[0].log


def test_a_spectator_cannot_emote():
    table, _clock, _members, _ = seated()
    eve = Recorder()
    member = table.join("eve", eve, watch=True)
    assert not table.emote(member, 0)
    assert eve.texts()[-1] == "you are watching"


def test_emotes_are_limited_to_one_a_second_and_ten_a_minute_per_seat():
    table, clock, (ann, bob), (one, _) = seated()
    assert table.emote(ann, 0)
    assert not table.emote(ann, 1)
    assert one.texts()[-1] == "one emote a second, ten a minute: wait 1 s"
    assert table.emote(bob, 1)  # the other seat has its own limit
    sent = 1
    for _ in range(20):
        clock.advance(1)
        sent += table.emote(ann, 2)
    assert sent == 10
    clock.advance(60)
    assert table.emote(ann, 2)


def test_the_emote_limit_on_its_own():
    limit = EmoteLimit()
    assert limit.allow(0.0)
    assert limit.wait(0.5) == 0.5
    assert not limit.allow(0.5)
    for t in range(1, 10):
        assert limit.allow(float(t))
    assert limit.wait(10.0) == 50.0


# ------------------------------------------------------------------ the house and empty seats


def test_the_house_countdown_is_in_the_state():
    table, clock, (ann, bob), (one, _) = seated()
    clock.advance(30)
    ann.flip()
    assert table.state().house_in == 60.0
    clock.advance(12)
    assert table.state().house_in == 48.0


def test_alone_at_a_table_a_player_can_play_the_house_now():
    table, clock = make_table(dealing(*PLAIN))
    one = Recorder()
    ann = table.join("ann", one)
    assert table.state().seats[1].status is SeatStatus.OPEN
    assert table.play_house(ann)
    seat = table.state().seats[1]
    assert seat.house and seat.name == "house"
    ann.flip()
    assert table.game.battles == 1  # the house flips at once
    bob = table.join("bob", Recorder())
    assert bob.seat is Side.P2  # a newcomer still takes the seat from the house


def test_a_newcomer_who_watches_is_told_when_the_away_seat_frees_and_takes_it_with_sit():
    table, clock, (ann, bob), _ = seated()
    clock.advance(30)
    ann.flip()
    bob.leave()
    clock.advance(20)
    cy_sink = Recorder()
    cy = table.join("cy", cy_sink, identity="key:cy")
    assert cy.watching
    assert cy_sink.texts()[-1] == "seat 2 is kept for bob, who is away: t takes it in 40 s"
    assert not table.sit(cy)
    clock.advance(40)
    assert table.sit(cy)
    assert cy.seat is Side.P2
    assert "cy takes seat 2, bob's until now (away 60 s)" in cy_sink.texts()


def test_a_renamed_player_arriving_again_before_the_old_connection_closed_keeps_seat_and_name():
    table, clock = make_table(dealing(*PLAIN))
    table.join("sam", Recorder(), identity="key:sam1")
    old_sink = Recorder()
    old = table.join("sam", old_sink, identity="key:sam2")
    assert old.name == "sam-2"
    clock.advance(30)
    again = table.join("sam", Recorder(), identity="key:sam2")
    assert again.seat is Side.P2 and again.name == "sam-2"
    assert old_sink.notices()[-1].code is NoticeCode.CLOSING
    assert [m.name for m in table.members] == ["sam", "sam-2"]


def test_two_people_behind_one_address_never_take_each_others_seat():
    table, _clock = make_table(dealing(*PLAIN))
    ann_sink = Recorder()
    ann = table.join("ann", ann_sink, identity="addr:same")
    bob = table.join("bob", Recorder(), identity="addr:same")
    assert ann.present and ann.seat is Side.P1 and bob.seat is Side.P2
    assert not [n for n in ann_sink.notices() if n.code is NoticeCode.CLOSING]


def test_the_same_name_from_one_address_is_another_person_and_watches():
    table, _clock = make_table(dealing(*PLAIN))
    first = Recorder()
    table.join("guest", first, identity="addr:same")
    table.join("bob", Recorder(), identity="key:bob")
    second = table.join("guest", Recorder(), identity="addr:same")
    assert second.watching and second.name == "guest-2"
    assert not [n for n in first.notices() if n.code is NoticeCode.CLOSING]


# ------------------------------------------------------------------ leaving, told before it happens


def test_a_player_about_to_leave_is_told_to_everyone_and_staying_takes_it_back():
    table, _clock, (ann, bob), (one, two) = seated()
    eve = Recorder()
    table.join("eve", eve, watch=True)
    assert ann.request(Leaving(True))
    for sink in (two, eve):
        assert states(sink)[-1].seats[0].leaving and not states(sink)[-1].seats[1].leaving
    assert table.state().seats[0].status is SeatStatus.PLAYER  # nothing changes until they go
    assert ann.request(Leaving(False))
    assert not states(two)[-1].seats[0].leaving


def test_a_player_who_confirms_leaving_is_said_to_have_left_and_what_the_table_does():
    table, _clock, (ann, bob), (_one, two) = seated(("AC KC QC JC", "2D 3D 4D 5D"))
    ann.flip()
    bob.flip()  # a battle played: the seat is kept for ann
    ann.request(Leaving(True))
    ann.request(Leave())
    seat = states(two)[-1].seats[0]
    assert seat.status is SeatStatus.AWAY and not seat.leaving
    assert two.texts()[-1] == "ann left seat 1: the house plays it until they return"


def test_a_spectator_cannot_say_it_is_leaving_a_seat():
    table, _clock, _players, (one, _two) = seated()
    eve = table.join("eve", Recorder(), watch=True)
    assert not eve.request(Leaving(True))
    assert not any(seat.leaving for seat in table.state().seats)


def test_the_requests_line_says_who_is_leaving_and_asks_the_leaver_to_confirm():
    from war_tui.presentation.requests import LEAVE_PROMPT, new_requests, request_lines
    from war_tui.tables import You

    table, _clock, (ann, _bob), _sinks = seated()
    before = table.state()
    ann.request(Leaving(True))
    after = table.state()
    names = ("ann", "bob")
    assert request_lines(after, You("ann", Side.P1), names) == (LEAVE_PROMPT,)
    assert request_lines(after, You("bob", Side.P2), names) == ("ann is leaving the table",)
    assert request_lines(after, You("eve", None), names) == ("ann is leaving the table",)
    assert new_requests(before, after, You("bob", Side.P2), names) == ["ann is leaving the table"]
    assert new_requests(before, after, You("eve", None), names) == ["ann is leaving the table"]
    assert new_requests(before, after, You("ann", Side.P1), names) == []
    assert new_requests(after, after, You("bob", Side.P2), names) == []
