"""One table's rules of play: flips, wars, auto-play, idle seats, leaving and coming back, restarts, records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.tables import Recorder, dealing, make_table, run_until_idle

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver, GameStarted
from war_tui.core.rules import EndReason, Result, Side
from war_tui.stats import Source
from war_tui.tables import Notice, NoticeCode, RemoteGame, SeatStatus, TableOptions, TableRefused

WAR = ("5C 2C KC 9C", "5D 3D QD 4D")  # battle 1 is a war player 1 wins; then 9C beats 4D
DOUBLE_WAR = ("5C 2C 9C 3C AC 8C", "5D 2D 9D 4D KD 2H")
SHORT = ("5C 2C", "5D 3D QD")  # player 1 cannot lay a war's two cards
PLAIN = ("AC KC QC", "2D 3D 4D")  # player 1 wins three battles and the game


ANN_KEY = "key:SHA256:ann"
BOB_KEY = "key:SHA256:bob"
EVE_KEY = "key:SHA256:eve"
SETTLED = 30.0
"""Seconds after which a player who sat has stayed longer than the short stay: leaving keeps the seat."""


def seated(deal=PLAIN, records=None, **options):
    table, clock = make_table(dealing(*deal), records, **options)
    one, two = Recorder(), Recorder()
    p1 = table.join("ann", one, identity=ANN_KEY)
    p2 = table.join("bob", two, identity=BOB_KEY)
    return table, clock, (p1, p2), (one, two)


def settled(**options):
    """Ann and bob, seated long enough that a seat is kept when they leave."""
    table, clock, members, sinks = seated(**options)
    clock.advance(SETTLED)
    return table, clock, members, sinks


# ------------------------------------------------------------------ seats


def test_first_arrival_sits_in_seat_1_second_in_seat_2_later_ones_watch():
    table, _clock = make_table()
    ann, bob, cy, dee = (table.join(n, Recorder()) for n in ("ann", "bob", "cy", "dee"))
    assert (ann.seat, bob.seat, cy.seat, dee.seat) == (Side.P1, Side.P2, None, None)
    state = table.state()
    assert [s.name for s in state.seats] == ["ann", "bob"]
    assert state.spectators == 2


def test_watch_never_sits_even_at_an_empty_table():
    table, _clock = make_table()
    eve = table.join("eve", Recorder(), watch=True)
    assert eve.watching
    assert table.state().seats[0].status is SeatStatus.OPEN


def test_a_second_person_with_a_name_already_at_the_table_gets_a_suffix():
    table, _clock = make_table()
    table.join("ann", Recorder())
    twin = table.join("ann", Recorder())
    assert twin.name == "ann-2"
    assert [s.name for s in table.state().seats] == ["ann", "ann-2"]


def test_an_escape_sequence_in_a_user_name_reaches_no_other_member():
    table, _clock = make_table()
    one = Recorder()
    table.join("ann", one)
    table.join("\x1b[2J\x1b]0;pwned\x07mallory", Recorder())
    told = repr(one.updates)
    assert "\x1b" not in told and "\\x1b" not in told and "\x07" not in told
    assert "[2J]0;pwnedmallo sits" in one.texts()[-1]  # inert without its ESC and BEL


# ------------------------------------------------------------------ flips


@pytest.mark.parametrize("first", [0, 1])
def test_the_battle_is_played_once_both_players_flipped_in_either_order(first):
    table, _clock, players, sinks = seated()
    players[first].flip()
    state = table.state()
    assert table.game.battles == 0
    assert state.seats[first].flipped and not state.seats[1 - first].flipped
    assert state.waiting_for == (Side.P2 if first == 0 else Side.P1,)
    assert sinks[1 - first].state().seats[first].flipped  # the other screen shows it
    players[1 - first].flip()
    assert table.game.battles == 1
    assert table.state().waiting_for == (Side.P1, Side.P2)
    assert not any(s.flipped for s in table.state().seats)
    assert [type(e) for e in sinks[0].events()[-1:]] == [BattleWon]


def test_flipping_twice_does_not_play_twice():
    table, _clock, (ann, bob), _sinks = seated()
    ann.flip()
    ann.flip()
    assert table.game.battles == 0
    bob.flip()
    bob.flip()
    assert table.game.battles == 1


def test_a_war_belongs_to_its_battle():
    table, _clock, (ann, bob), (one, _two) = seated(WAR)
    ann.flip()
    bob.flip()
    assert table.game.battles == 1 and table.game.counts == (7, 1)
    kinds = [type(e) for e in one.events() if not isinstance(e, GameStarted)]
    assert kinds == [BattleWon]  # the table sends the battle won; its war's steps follow from it
    assert one.events()[-1].wars == 1


def test_a_double_war_is_one_battle_too():
    table, _clock, (ann, bob), (one, _two) = seated(DOUBLE_WAR)
    bob.flip()
    ann.flip()
    won = [e for e in one.events() if isinstance(e, BattleWon)]
    assert len(won) == 1 and won[0].wars == 2 and won[0].winner is Side.P1
    assert table.game.counts == (11, 1)


def test_a_player_short_in_a_war_loses_and_the_table_shows_the_unfinished_battle():
    records: list = []
    table, _clock, (ann, bob), (one, _two) = seated(SHORT, records)
    ann.flip()
    bob.flip()
    over = one.events()[-1]
    assert isinstance(over, GameOver) and over.result is Result.P2 and over.reason is EndReason.SHORT_IN_WAR
    assert table.state().over
    late = Recorder()
    table.join("cy", late)
    assert late.snapshots()[0].on_show == over
    assert len(records) == 1


def test_a_flip_at_game_over_is_refused_with_the_way_to_deal_again():
    table, _clock, (ann, bob), (one, _two) = seated(SHORT)
    ann.flip()
    bob.flip()
    assert not ann.flip()
    assert "restart" in one.texts()[-1]


# ------------------------------------------------------------------ spectators


def test_a_spectators_keys_only_say_you_are_watching():
    table, _clock, (ann, _bob), (one, _two) = seated()
    eve_sink = Recorder()
    eve = table.join("eve", eve_sink)
    ann.flip()
    before = (table.state(), table.game.battles)
    one.clear()
    for press in (eve.flip, lambda: eve.set_auto(True, 8.0), eve.restart):
        assert press() is False
        assert eve_sink.notices()[-1] == Notice(NoticeCode.WATCHING, "you are watching")
    assert (table.state(), table.game.battles) == before
    assert one.updates == []  # the players are told nothing


def test_a_late_joiner_sees_the_counts_the_battle_on_show_and_the_last_100_log_lines():
    deal = lambda: Game.deal(3)  # noqa: E731 (the same deal each time, in one line)
    table, clock = make_table(deal)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    for _ in range(150):
        ann.flip()
        bob.flip()
    late = Recorder()
    table.join("cy", late)
    snapshot = late.snapshots()[0]
    game = table.game
    assert (snapshot.counts, snapshot.battles, snapshot.wars) == (game.counts, game.battles, game.wars)
    assert snapshot.you.watching and snapshot.you.name == "cy"
    assert isinstance(snapshot.on_show, BattleWon) and snapshot.on_show.battle == 150
    assert len(snapshot.log) == 100
    assert snapshot.log[-1] == snapshot.on_show
    assert [e.battle for e in snapshot.log if isinstance(e, BattleWon)][-1] == 150


# ------------------------------------------------------------------ auto-play


def test_auto_play_runs_only_once_both_players_want_it_at_the_slower_speed():
    table, clock = make_table(lambda: Game.deal(11))
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    ann.set_auto(True, 8.0)
    clock.advance(10)
    table.poll()
    assert table.game.battles == 0 and table.state().auto_speed is None
    bob.set_auto(True, 2.0)
    assert table.state().auto_speed == 2.0
    start = clock()
    while clock() - start < 10 - 1e-9:
        clock.now = table.next_deadline()
        table.poll()
    assert table.game.battles == 20  # 10 s at 2 battles a second


def test_either_player_stops_auto_play():
    table, clock = make_table(lambda: Game.deal(11))
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    ann.set_auto(True, 4.0)
    bob.set_auto(True, 4.0)
    clock.advance(1.0)
    table.poll()
    played = table.game.battles
    assert played >= 1
    bob.set_auto(False)
    assert table.state().auto_speed is None
    clock.advance(30)
    table.poll()
    assert table.game.battles == played


def test_fast_auto_play_plays_several_battles_per_tick_and_a_late_poll_does_not_burst():
    table, clock = make_table(lambda: Game.deal(11))
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    ann.set_auto(True, float("inf"))  # "max": the table's own ceiling
    bob.set_auto(True, 120.0)
    assert table.state().auto_speed == 120.0
    for _ in range(30):
        clock.now = table.next_deadline()
        table.poll()
    assert table.game.battles == 120
    clock.advance(60)  # a host that slept a minute
    table.poll()
    assert table.game.battles == 124
    assert table.next_deadline() == clock() + 1 / 30  # and plays on from now, not the minute it missed


def test_a_manual_flip_while_auto_play_runs_is_refused():
    table, _clock, (ann, bob), (one, _two) = seated()
    ann.set_auto(True, 4.0)
    bob.set_auto(True, 4.0)
    assert not ann.flip()
    assert "auto-play" in one.texts()[-1]


# ------------------------------------------------------------------ idle seats


def test_an_idle_player_is_flipped_by_the_house_after_the_seat_timeout_and_everyone_is_told():
    table, clock, (ann, _bob), (one, two) = seated(seat_timeout=60)
    ann.flip()
    assert table.next_deadline() == clock() + 60
    clock.advance(59.9)
    table.poll()
    assert table.game.battles == 0
    clock.advance(0.1)
    table.poll()
    assert table.game.battles == 1
    for sink in (one, two):
        assert sink.notices()[-1] == Notice(NoticeCode.HOUSE_FLIPPED, "the house flipped for bob: idle for 60 s")


def test_nobody_is_idle_before_anyone_flipped():
    table, clock, _players, _sinks = seated()
    clock.advance(3600)
    table.poll()
    assert table.game.battles == 0


# ------------------------------------------------------------------ leaving and coming back


def test_a_player_who_leaves_leaves_a_seat_the_house_plays():
    table, _clock, (ann, bob), (one, _two) = settled()
    bob.leave()
    assert table.state().seats[1].status is SeatStatus.AWAY
    assert "bob left seat 2" in one.texts()[-1]
    ann.flip()
    assert table.game.battles == 1  # the house flipped at once


def test_a_player_who_flipped_and_left_is_played_by_the_house():
    table, _clock, (ann, bob), _sinks = seated()
    bob.flip()
    bob.leave()
    ann.flip()
    assert table.game.battles == 1


@pytest.mark.parametrize("name", ["bob", "BOB", "bob!", "b\u200bob", "\uff42\uff4f\uff42", "\u24d1\u24de\u24d1", "\u202ebob"])
def test_a_seat_is_kept_for_the_identity_that_sat_never_for_a_name(name):
    table, clock, (_ann, bob), _sinks = settled()
    bob.leave()
    clock.advance(30)
    impostor = table.join(name, Recorder(), identity=EVE_KEY)
    assert impostor.watching
    assert impostor.name not in ("bob", "BOB")  # a name the same as the away player's gets a suffix
    nameless = table.join(name, Recorder())
    assert nameless.watching
    back = table.join("bob", Recorder(), identity=BOB_KEY)
    assert back.seat is Side.P2 and back.name == "bob"
    assert table.state().seats[1].status is SeatStatus.PLAYER


def test_a_returning_identity_gets_its_seat_back_under_another_name():
    table, clock, (_ann, bob), (one, _two) = settled()
    bob.leave()
    clock.advance(30)
    back = table.join("robert", Recorder(), identity=BOB_KEY)
    assert back.seat is Side.P2 and back.name == "robert"
    assert "robert is back at seat 2" in one.texts()[-1]


def test_names_that_are_the_same_after_folding_get_a_suffix_never_a_merge():
    table, _clock = make_table()
    table.join("ann", Recorder(), identity=ANN_KEY)
    twin = table.join("\uff21\uff2e\uff2e", Recorder(), identity=EVE_KEY)  # fullwidth ANN
    assert twin.seat is Side.P2 and twin.name == "\uff21\uff2e\uff2e-2"


def test_after_the_seat_timeout_a_newcomer_takes_an_away_seat_and_is_told_whose_it_was():
    table, clock, (_ann, bob), (one, _two) = settled(seat_timeout=60)
    bob.leave()
    clock.advance(59)
    assert table.join("zed", Recorder(), identity=EVE_KEY).watching
    clock.advance(1)
    told = Recorder()
    zed = table.join("zed", told, identity=EVE_KEY)
    assert zed.seat is Side.P2
    assert "bob's until now (away 60 s)" in told.texts()[-1]
    assert "bob's until now" in one.texts()[-1]
    late_bob = table.join("bob", Recorder(), identity=BOB_KEY)
    assert late_bob.watching


def test_a_player_who_leaves_within_seconds_before_any_flip_keeps_nothing():
    table, clock = make_table(dealing(*PLAIN))
    table.join("ann", Recorder(), identity=ANN_KEY)
    knock = table.join("spam", Recorder(), identity=EVE_KEY)
    clock.advance(2)
    knock.leave()
    assert table.state().seats[1].status is SeatStatus.OPEN
    newcomer = table.join("bob", Recorder(), identity=BOB_KEY)
    assert newcomer.seat is Side.P2


def test_a_player_who_leaves_after_a_flip_keeps_the_seat_however_soon():
    table, clock = make_table(dealing(*PLAIN))
    ann = table.join("ann", Recorder(), identity=ANN_KEY)
    bob = table.join("bob", Recorder(), identity=BOB_KEY)
    ann.flip()
    clock.advance(2)
    bob.leave()
    assert table.state().seats[1].status is SeatStatus.AWAY


def test_a_player_back_at_their_kept_seat_keeps_it_again_however_soon_they_drop():
    """A seat is its person's: ann, who played, came back and lost her connection a second later, is away with her
    seat kept, not a knock whose seat anyone takes (before: "before any flip: the seat is not kept", and eve sat
    down with ann's cards)."""
    lines: list[str] = []
    table, clock, (ann, bob), (_one, two) = seated(log=lines.append)
    ann.flip()
    bob.flip()
    ann.leave()
    clock.advance(40)
    back = table.join("ann", Recorder(), identity=ANN_KEY)
    assert back.seat is Side.P1
    clock.advance(1)
    back.leave()
    assert table.state().seats[0].status is SeatStatus.AWAY
    assert "ann left seat 1: the house plays it until they return" in two.texts()
    assert lines[-1] == f"table oak: ann left seat 1, kept for 300 s [{ANN_KEY}]"
    assert table.join("eve", Recorder(), identity=EVE_KEY).watching
    assert table.join("ann", Recorder(), identity=ANN_KEY).seat is Side.P1


def test_a_connection_gone_with_a_fault_keeps_its_seat_flip_and_requests_however_soon():
    """bob sat a second ago and flipped nothing when his relay went with a fault: not his leaving, so no short stay
    (before: "bob left seat 2 after 1 s, before any flip: the seat is not kept", and whoever came first took it);
    his war stop stands, the house plays nothing for him, and back, he plays on where he was."""
    lines: list[str] = []
    table, clock = make_table(dealing(*PLAIN), log=lines.append)
    ann = table.join("ann", Recorder(), identity=ANN_KEY)
    bob = table.join("bob", Recorder(), identity=BOB_KEY)
    bob.table.set_war_stop(bob, True)
    clock.advance(1)
    bob.leave(fault=True)
    assert "not kept" not in lines[-1] and "went with a fault" in lines[-1]
    assert table.state().seats[1].status is SeatStatus.AWAITED and table.state().seats[1].war_stop
    ann.flip()
    assert table.game.battles == 0, "the house does not flip for a player moved by a fault"
    assert table.join("eve", Recorder(), identity=EVE_KEY).watching
    clock.advance(20)
    table.poll()
    back = table.join("bob", Recorder(), identity=BOB_KEY)
    assert back.seat is Side.P2 and table.state().seats[1].war_stop
    back.flip()
    assert table.game.battles == 1


def test_a_table_whose_players_went_with_a_fault_waits_for_them_past_its_close_delay():
    """Nobody is connected here, but both seats' players went with a fault (their connections move to the table's
    next server): the table waits for them for the reconnect grace, not the close delay of a table nobody kept."""
    table, clock = make_table()
    ann = table.join("ann", Recorder(), identity=ANN_KEY)
    bob = table.join("bob", Recorder(), identity=BOB_KEY)
    clock.advance(1)
    ann.leave(fault=True)
    bob.leave(fault=True)
    clock.advance(60)
    table.poll()
    assert not table.closed
    assert table.join("bob", Recorder(), identity=BOB_KEY).seat is Side.P2


def test_after_five_minutes_the_seat_goes_to_whoever_sits_next():
    table, clock, (_ann, bob), _sinks = settled()
    bob.leave()
    clock.advance(299)
    table.poll()
    assert table.state().seats[1].status is SeatStatus.AWAY
    clock.advance(1)
    table.poll()
    assert table.state().seats[1].status is SeatStatus.HOUSE
    newcomer = table.join("zed", Recorder(), identity=EVE_KEY)
    assert newcomer.seat is Side.P2
    late_bob = table.join("bob", Recorder(), identity=BOB_KEY)
    assert late_bob.watching


def test_a_table_with_nobody_at_it_and_no_seat_kept_closes_after_thirty_seconds():
    table, clock = make_table()
    knock = table.join("spam", Recorder(), identity=EVE_KEY)
    knock.leave()
    clock.advance(29)
    table.poll()
    assert not table.closed
    clock.advance(1)
    table.poll()
    assert table.closed
    assert table.next_deadline() is None


def test_a_table_with_a_seat_kept_stays_open_until_the_seat_is_no_longer_kept():
    table, clock, (ann, bob), _sinks = settled()
    ann.leave()
    clock.advance(250)
    bob.leave()
    clock.advance(299)
    table.poll()
    assert not table.closed
    clock.advance(1)
    table.poll()
    assert table.closed
    assert table.next_deadline() is None


def test_the_lobby_never_says_whom_an_away_seat_is_kept_for():
    table, _clock, (_ann, bob), _sinks = settled()
    bob.leave()
    entry = table.lobby_entry()
    assert entry.statuses[1] is SeatStatus.AWAY and entry.players == ("ann", None)


def test_every_seat_event_is_logged_with_the_identity_behind_it():
    lines: list[str] = []
    table, clock = make_table(log=lines.append)
    ann = table.join("ann", Recorder(), identity=ANN_KEY)
    clock.advance(SETTLED)
    ann.leave()
    table.join("ann", Recorder(), identity=ANN_KEY)
    assert lines == [
        f"table oak: ann sits at seat 1 [{ANN_KEY}]",
        f"table oak: ann left seat 1, kept for 300 s [{ANN_KEY}]",
        f"table oak: ann is back at seat 1 [{ANN_KEY}]",
    ]


def test_a_table_takes_a_bounded_number_of_spectators():
    table, _clock, _members, _sinks = seated(max_spectators=2)
    table.join("cy", Recorder(), watch=True)
    table.join("dee", Recorder())  # both seats taken: dee watches
    with pytest.raises(TableRefused, match="table oak has 2 spectators, the most it takes"):
        table.join("eve", Recorder(), watch=True)
    with pytest.raises(TableRefused, match="the most it takes"):
        table.join("fay", Recorder())



def test_a_spectator_that_draws_for_others_is_neither_counted_nor_capped():
    table, _clock, _members, _sinks = seated(max_spectators=1)
    renderer_sink = Recorder()
    renderer = table.join("spectators", renderer_sink, watch=True, counted=False)
    assert renderer.watching and renderer_sink.updates  # it gets the table like any spectator
    table.join("cy", Recorder(), watch=True)
    assert table.state().spectators == 1 and table.lobby_entry().spectators == 1
    table.join("more renderers", Recorder(), watch=True, counted=False)  # past the cap: not counted
    with pytest.raises(TableRefused, match="table oak has 1 spectator, the most it takes"):
        table.join("dee", Recorder(), watch=True)

def test_auto_play_never_runs_faster_than_the_servers_top_speed():
    table, _clock, (ann, bob), _sinks = seated(max_speed=60)
    ann.set_auto(True, float("inf"))
    bob.set_auto(True, 128.0)
    assert table.state().auto_speed == 60


def test_a_spectator_keeps_a_table_open():
    table, clock, (ann, bob), _sinks = seated()
    table.join("eve", Recorder(), watch=True)
    ann.leave()
    bob.leave()
    clock.advance(3600)
    table.poll()
    assert not table.closed


# ------------------------------------------------------------------ the same person again


class Connection(Recorder):
    """A sink that leaves the table when told it closes, as a server's link does."""

    member = None

    def __call__(self, update) -> None:
        super().__call__(update)
        if isinstance(update, Notice) and update.code is NoticeCode.CLOSING and self.member is not None:
            self.member.leave()


def connected(table, name, identity):
    sink = Connection()
    sink.member = table.join(name, sink, identity=identity)
    return sink.member, sink


@pytest.mark.parametrize("identity", [ANN_KEY, "web:4c1f0e9d2a7b36e58190cd44"])
def test_the_same_person_again_takes_the_seat_and_the_game_goes_on(identity):
    lines: list[str] = []
    table, clock = make_table(dealing(*PLAIN), log=lines.append)
    ann, first = connected(table, "ann", identity)
    bob, bob_sink = connected(table, "bob", BOB_KEY)
    ann.flip()
    bob.flip()
    ann.set_auto(True, 2.0)
    ann.restart()  # asks to stop this game and deal again: still asked from the new connection
    clock.advance(1)
    again, second = connected(table, "ann", identity)
    assert (again.seat, again.name) == (Side.P1, "ann")
    assert not ann.present and ann not in table.members
    assert first.texts()[-1] == "you sat down at this table again from another connection: the game goes on there"
    state = table.state()
    assert [(s.name, s.status) for s in state.seats] == [("ann", SeatStatus.PLAYER), ("bob", SeatStatus.PLAYER)]
    assert (state.seats[0].auto, state.seats[0].restart) == (True, True)
    snapshot = second.snapshots()[-1]
    assert (snapshot.you.seat, snapshot.battles, table.game_number) == (Side.P1, 1, 1)
    assert bob_sink.texts()[-1] == "ann plays on at seat 1 from another connection"
    assert not any("house" in text for text in bob_sink.texts())
    again.restart(False)
    again.flip()
    bob.flip()
    assert table.game.battles == 2
    assert lines[-1] == f"table oak: ann plays on at seat 1 from another connection [{identity}]"


def test_a_closing_table_tells_everyone_only_that_it_closes():
    lines: list[str] = []
    table, clock = make_table(dealing(*PLAIN), log=lines.append)
    ann, first = connected(table, "ann", ANN_KEY)
    bob, second = connected(table, "bob", BOB_KEY)
    ann.flip()
    clock.advance(SETTLED)
    first.clear()
    second.clear()
    table.close("the server is shutting down")
    for sink in (first, second):
        assert [(type(u).__name__, getattr(u, "text", "")) for u in sink.updates] == [
            ("Notice", "the server is shutting down")]  # nobody "left a seat", no house took one
    assert not any("left seat" in line for line in lines), lines
    assert table.game.battles == 0


def test_the_same_key_under_another_name_takes_its_seat_too():
    table, _clock = make_table()
    ann, first = connected(table, "ann", ANN_KEY)
    connected(table, "bob", BOB_KEY)
    again, _second = connected(table, "annie", ANN_KEY)
    assert (again.seat, again.name, ann.present) == (Side.P1, "annie", False)
    assert [s.name for s in table.state().seats] == ["annie", "bob"]


def test_the_same_address_again_is_someone_else_behind_it():
    table, _clock = make_table()
    ann, _first = connected(table, "ann", "addr:1234")
    other, _second = connected(table, "ann", "addr:1234")
    assert ann.present and (ann.seat, other.seat, other.name) == (Side.P1, Side.P2, "ann-2")


def test_watching_with_the_same_key_leaves_the_seat_alone():
    table, _clock = make_table()
    ann, _first = connected(table, "ann", ANN_KEY)
    watcher = table.join("ann", Recorder(), identity=ANN_KEY, watch=True)
    assert ann.present and ann.seat is Side.P1 and watcher.watching


# ------------------------------------------------------------------ restart and records


def play_out(ann, bob, table):
    while not table.game.over:
        ann.flip()
        bob.flip()


def test_restart_deals_again_once_both_players_pressed_it():
    records: list = []
    table, _clock, (ann, bob), (one, _two) = seated(PLAIN, records)
    play_out(ann, bob, table)
    assert ann.restart()
    assert table.state().waiting_for == (Side.P2,)
    assert table.game.over and table.state().game == 1
    bob.restart()
    assert not table.game.over and table.state().game == 2
    assert isinstance(one.events()[-1], GameStarted)
    assert len(records) == 1


def test_restart_before_game_over_asks_to_stop_the_game_and_deals_once_both_agree():
    records: list = []
    table, _clock, (ann, bob), (one, _two) = seated(PLAIN, records)
    ann.flip()
    bob.flip()
    assert ann.restart()
    assert not table.game.over and table.state().seats[0].restart
    bob.restart()
    assert table.state().game == 2 and not table.game.over
    assert [r.result for r in records] == [Result.STOPPED]
    assert "game stopped by agreement: a new deal" in one.texts()


def test_a_game_stopped_by_agreement_before_any_battle_is_in_neither_the_statistics_nor_the_tally():
    """Item 3: 241 games stopped with 0 battles reached the statistics and the tally ("241 stopped")."""
    records: list = []
    table, _clock, (ann, bob), _sinks = seated(PLAIN, records)
    for _ in range(3):
        ann.restart()
        bob.restart()
    assert table.game_number == 4
    assert records == [] and table.tally == (0, 0, 0, 0)


def test_a_finished_game_is_recorded_exactly_once_with_both_names_and_source_table():
    records: list = []
    table, clock, (ann, bob), _sinks = seated(PLAIN, records)
    clock.advance(5)
    play_out(ann, bob, table)
    ann.flip()
    table.poll()
    clock.advance(1000)
    table.poll()
    assert len(records) == 1
    record = records[0]
    assert (record.p1_name, record.p2_name, record.source) == ("ann", "bob", Source.TABLE)
    assert record.result is Result.P1 and record.battles == 3 and record.seconds == 5
    ann.restart()
    bob.restart()
    play_out(ann, bob, table)
    assert len(records) == 2


def test_a_snapshot_tells_how_long_the_game_has_run_and_once_over_how_long_it_took():
    """A late joiner's result shows the game's time, not the time since they arrived."""
    table, clock, (ann, bob), _sinks = seated(PLAIN)
    clock.advance(7.5)
    eve = table.join("eve", Recorder(), watch=True)
    assert eve.snapshot().played_ms == 7500
    clock.advance(2)
    play_out(ann, bob, table)
    clock.advance(600)
    assert table.join("cy", Recorder(), watch=True).snapshot().played_ms == 9500
    ann.restart()
    bob.restart()
    clock.advance(1)
    assert eve.snapshot().played_ms == 1000


def test_auto_play_to_the_end_is_recorded_once():
    records: list = []
    table, clock, (ann, bob), _sinks = seated(WAR, records)
    ann.set_auto(True, 4.0)
    bob.set_auto(True, 4.0)
    run_until_idle(table, clock)
    table.poll()
    assert table.game.over and len(records) == 1


# ------------------------------------------------------------------ options


@pytest.mark.parametrize(
    "options", [{"seat_timeout": 0}, {"seat_timeout": float("nan")}, {"close_after": -1}, {"log_lines": 10_000}]
)
def test_options_out_of_range_are_refused(options):
    with pytest.raises(ValueError):
        TableOptions(**options)


# ------------------------------------------------------------------ every card is somewhere

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["flip", "auto", "stop", "restart", "leave", "join", "watch-flip"]),
                  st.sampled_from([0, 1])),
        st.tuples(st.just("wait"), st.floats(0, 400)),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), actions=ACTIONS)
def test_every_card_is_in_a_packet_whatever_the_people_at_the_table_do(seed, actions):
    records: list = []
    table, clock = make_table(lambda: Game.deal(seed), records)
    screen = RemoteGame()
    members = [table.join("ann", screen.handle), table.join("bob", Recorder())]
    eve = table.join("eve", Recorder(), watch=True)
    empty = 0  # games stopped by agreement before any battle: no game, never recorded
    for action, arg in actions:
        before = (table.game_number, table.game.battles, table.game.over)
        member = members[int(arg)] if action != "wait" else None
        if action == "wait":
            clock.advance(arg)
            table.poll()
        elif action == "join" and not member.present:
            members[int(arg)] = table.join(member.name, screen.handle if arg == 0 else Recorder())
        elif member is None or not member.present:
            continue
        elif action == "flip":
            member.flip()
        elif action == "auto":
            member.set_auto(True, 16.0)
        elif action == "stop":
            member.set_auto(False)
        elif action == "restart":
            member.restart()
        elif action == "leave":
            member.leave()
        elif action == "watch-flip":
            eve.flip()
        assert sum(table.game.counts) == 52
        assert table.game.total_cards == 52
        if members[0].present:  # ann's screen is told everything while she is there
            assert screen.counts == table.game.counts
            assert sum(screen.counts) == 52
        if table.game_number > before[0] and not before[2] and before[1] == 0:
            empty += 1
        finished = table.game_number - (0 if table.game.over else 1)
        assert len(records) == finished - empty
