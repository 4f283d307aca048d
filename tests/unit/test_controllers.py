"""The controllers' decisions, with no Textual: a stand-in board and shell record what each one is told.

A controller turns keys into moves (solo) or requests (a table), and its game's events into the board's
state; these tests drive one with its game and read the stand-ins.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from support.controllers import SHOWN_WHOLE, Board, FakeApp, Host
from support.deals import WAR_PACKETS

from war_tui.core.engine import Game
from war_tui.core.rules import Result, Rules, Side
from war_tui.presentation.speed import MAX
from war_tui.presentation.table_keys import SPECTATOR_KEYS, TABLE_KEYS
from war_tui.settings.play import PlaySettings
from war_tui.tables import Auto, FakeClock, Flip, RemoteGame, Restart, Table, two_player_table
from war_tui.ui.controllers.choose import controller_for
from war_tui.ui.controllers.solo import SoloController
from war_tui.ui.controllers.table import PLACEHOLDER_NAMES, WATCHING, TableController
from war_tui.ui.controllers.two_players import BothSeats


def solo(settings: PlaySettings = SHOWN_WHOLE, **changes) -> tuple[SoloController, Board, FakeApp]:
    settings = replace(settings, **changes)
    board, shell = Board(auto=settings.auto, speed=min(settings.speed, settings.top_speed)), FakeApp()
    seeds = iter(range(1001, 2000))
    controller = SoloController(board, shell, settings, clock=lambda: 0.0,
                                new_seed=lambda: next(seeds))
    controller.start()
    return controller, board, shell


# ---------------------------------------------------------------------- solo


def test_a_solo_game_deals_its_seed_and_a_flip_plays_one_battle_onto_the_board():
    controller, board, _shell = solo(seed=7)
    assert board.deal.number == 1 and board.deal.seed == 7 and board.deal.counts == (26, 26)
    assert board.battle is None
    controller.flip()
    assert controller.game.battles == 1 and board.battle.battle == 1


def test_a_flip_with_a_war_on_the_pile_lays_it_rather_than_playing_on():
    controller, board, _shell = solo(seed=7)
    board.laying = True
    controller.flip()
    assert board.laid == 1 and controller.game.battles == 0


def test_game_over_is_told_once_the_tally_counts_it_and_the_statistics_get_it():
    controller, board, shell = solo(packets=WAR_PACKETS)
    controller.flip()
    controller.flip()
    assert controller.game.over and board.result.result is Result.P1
    assert [r.end.result for r in shell.results] == [Result.P1] and shell.results[0].kind == "solo"
    assert board.tally[Result.P1] == 1 and shell.finished == [(Result.P1, 0.0, False)]
    controller.battle_settled()  # a war settling after the end tells nothing twice
    assert len(shell.results) == 1 and board.tally[Result.P1] == 1


def test_auto_play_runs_a_timer_at_the_speed_and_stops_at_game_over():
    controller, board, shell = solo(packets=WAR_PACKETS)
    controller.auto()
    (timer,) = shell.running()
    assert board.auto and timer.every == 1 / 4
    timer.fire()
    timer.fire()
    assert controller.game.over and shell.running() == []


def test_at_max_speed_a_tick_plays_many_battles_and_shows_only_the_last():
    controller, board, shell = solo(seed=5, speed=MAX)
    controller.auto()
    shell.running()[0].fire()
    shown = [view for view in board.battles if view is not None]
    assert controller.game.battles > 1 and len(shown) == 1
    assert shown[0].battle == controller.game.battles and len(shown[0].passed) == controller.game.battles - 1


def test_faster_stops_at_the_top_speed_and_says_so_slower_saves_the_speed():
    controller, board, shell = solo(speed=8.0, top_speed=8.0)
    controller.faster()
    assert board.speed == 8.0 and "fastest" in shell.said[-1]
    controller.slower()
    assert board.speed == 4.0 and shell.saved == [{"speed": 4.0}]


def test_a_replay_from_the_statistics_deals_that_seed_and_rules_paused():
    controller, board, _shell = solo(auto=True)
    controller.replay(42, Rules(war_cards=1))
    assert controller.game.seed == 42 and controller.game.rules.war_cards == 1 and not board.auto


def test_stop_at_wars_held_by_the_board_stops_the_auto_play_timer():
    controller, board, shell = solo(seed=7)
    controller.auto()
    board.auto = False  # what the board does when it holds auto-play at a tie
    controller.stopped_at_war()
    assert shell.running() == []


def test_the_time_limit_stops_the_game_and_the_status_line_counts_down():
    controller, board, shell = solo(seed=7, time_limit=2)
    assert board.time_left == 120
    (limit,) = shell.running()
    limit.fire()
    assert controller.game.result is Result.STOPPED and shell.results[-1].end.result is Result.STOPPED


def test_the_controllers_load_without_textual_or_rich():
    """Plain classes: a controller's decisions are tested (and could be reused) with no screen library."""
    code = "import sys, war_tui.ui.controllers.table, war_tui.ui.controllers.two_players; print(sorted(m for m in sys.modules if m.startswith(('textual', 'rich'))))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


# ---------------------------------------------------------------------- a table


async def test_a_table_key_is_a_request_and_the_answer_reaches_the_board():
    local = two_player_table(("ann", "bob"), deal=lambda: Game(*WAR_PACKETS))
    sent = []
    send = local.game.send
    local.game.send = lambda request: (sent.append(request), send(request))
    board, shell = Board(), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(local.game), clock=lambda: 0.0)
    controller.start()
    assert board.names == ("ann", "bob") and board.deal.number == 1
    shown = local.table.seq
    controller.flip()
    # The request carries the game and the table's sequence number this screen shows.
    assert sent == [Flip()] and (sent[0].game, sent[0].seq) == (1, shown) and board.battle is None  # the table waits for bob
    local.players[1].flip()
    assert board.battle.battle == 1 and board.battle.wars == 2
    controller.flip()
    local.players[1].flip()
    assert board.result.result is Result.P1 and board.tally[Result.P1] == 1
    assert shell.results[-1].kind == "table" and "deal again" in shell.results[-1].hint[0]
    controller.flip()
    assert sent[-1] == Restart()  # at game over, a flip asks to deal again


async def test_new_names_at_a_table_change_the_board_s_names_and_nothing_is_composed_again():
    table = Table("oak", clock=FakeClock())
    game = RemoteGame()
    game.send = table.join("ann", game.handle).request
    board, shell = Board(names=PLACEHOLDER_NAMES), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(game), clock=lambda: 0.0)
    controller.start()
    assert board.names == ("ann", "Seat 2")
    table.join("bob", lambda update: None)
    assert board.names == ("ann", "bob") and board.cleared == 0 and board.table_state.seats[1].name == "bob"


async def test_a_spectator_s_keys_do_nothing_and_say_so():
    local = two_player_table(("ann", "bob"))
    board, shell = Board(), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(local.game), clock=lambda: 0.0)
    controller.start()
    local.game.you = replace(local.game.you, seat=None)
    sent = []
    local.game.send = sent.append
    controller.flip()
    controller.auto()
    assert sent == [] and shell.said == [WATCHING, WATCHING]
    assert controller.help_keys() == SPECTATOR_KEYS


async def test_in_the_lobby_the_board_s_keys_are_out_of_play_until_a_table_is_joined():
    board, shell = Board(), FakeApp()
    controller = TableController(board, shell, replace(SHOWN_WHOLE, table_mode="lobby"), Host(RemoteGame()),
                                 clock=lambda: 0.0)
    controller.start()
    assert shell.lobby_open and not controller.allows("flip") and controller.allows("help")
    local = two_player_table(("ann", "bob"))
    controller.game.handle(local.table.snapshot(local.players[0]))
    assert not shell.lobby_open and controller.allows("flip") and controller.help_keys() == TABLE_KEYS


async def test_a_player_s_auto_play_request_carries_their_speed():
    local = two_player_table(("ann", "bob"))
    sent = []
    local.game.send = sent.append
    board, shell = Board(speed=8.0), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(local.game), clock=lambda: 0.0)
    controller.start()
    shown = local.table.seq
    controller.auto()
    assert sent == [Auto(True, 8.0)] and (sent[0].game, sent[0].seq) == (1, shown)


# ---------------------------------------------------------------------- two players at one keyboard


class LocalSeats(Host):
    def __init__(self, local) -> None:
        super().__init__(local.game)
        self.players = local.players
        self.asked: list[tuple] = []

    def flip(self, seat: int) -> None:
        self.asked.append(("flip", seat))
        self.players[seat].flip()

    def restart(self, seat: int) -> None:
        self.asked.append(("restart", seat))
        self.players[seat].request(Restart())

    def set_auto(self, on: bool, speed: float) -> None:
        self.asked.append(("auto", on, speed))


async def test_two_players_each_flip_with_their_own_key_and_space_flips_for_nobody():
    local = two_player_table(("Ann", "Bob"), deal=lambda: Game(*WAR_PACKETS))
    host = LocalSeats(local)
    board, shell = Board(names=("Ann", "Bob")), FakeApp()
    settings = replace(SHOWN_WHOLE, names=("Ann", "Bob"))
    controller = TableController(board, shell, settings, host, seats=BothSeats(host, settings), clock=lambda: 0.0)
    controller.start()
    assert not controller.allows("flip", on_board=True) and controller.allows("p2_flip")
    assert controller.allows("flip", on_board=False)  # over the result, space says whose keys are whose
    controller.flip()
    assert host.asked == [] and "f or Left flips for Ann" in shell.said[-1]
    controller.seat_flip(0)
    controller.seat_flip(1)
    assert board.battle.winner is Side.P1 and host.asked == [("flip", 0), ("flip", 1)]
    controller.seat_flip(0)
    controller.seat_flip(1)
    assert shell.results[-1].kind == "two-players"
    controller.restart()
    assert host.asked[-2:] == [("restart", 0), ("restart", 1)]
    assert controller.game_number == 2


async def test_two_players_names_stay_as_this_keyboard_gave_them():
    local = two_player_table(("Ann", "Bob"))
    board, shell = Board(names=("Ann", "Bob")), FakeApp()
    settings, host = replace(SHOWN_WHOLE, names=("Ann", "Bob")), LocalSeats(local)
    controller = TableController(board, shell, settings, host, seats=BothSeats(host, settings), clock=lambda: 0.0)
    controller.start()
    controller.auto()
    assert board.names == ("Ann", "Bob") and controller.host.asked == [("auto", True, 4.0)]


def test_a_solo_game_loads_nothing_of_the_tables():
    """Start-up pays only for what a solo game uses: the table controllers, screens and protocol load at a table."""
    code = "import sys, war_tui.ui.app; print(sorted(m for m in sys.modules if m.startswith('war_tui.tables')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


async def test_the_house_countdown_on_the_requests_line_goes_down_each_second():
    clock = FakeClock()
    table = Table("oak", clock=clock, deal=lambda: Game(*WAR_PACKETS))
    game = RemoteGame()
    game.send = table.join("ann", game.handle).request
    table.join("bob", lambda update: None)
    board, shell = Board(), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(game), clock=clock)
    controller.start()
    clock.advance(20)
    controller.flip()
    assert board.requests == ()  # a minute to go: the seats line's "waiting for bob" says enough
    ticking = shell.running()[-1]
    clock.advance(40)
    ticking.callback()
    assert "the house flips for bob in 20 s" in board.requests
    clock.advance(12)
    ticking.callback()
    assert "the house flips for bob in 8 s" in board.requests


# ---------------------------------------------------------------------- choosing the controller


def choose(settings: PlaySettings, connection=None):
    board = Board(names=settings.names)
    return controller_for(settings, connection, board=board, app=FakeApp(), clock=lambda: 0.0,
                          new_seed=lambda: 7), board


async def test_one_factory_picks_each_way_to_play_and_the_board_starts_with_its_names():
    solo_controller, _ = choose(SHOWN_WHOLE)
    table, table_board = choose(SHOWN_WHOLE, Host(two_player_table(("ann", "bob")).game))
    both, both_board = choose(replace(SHOWN_WHOLE, two_players=True, names=("Ann", "Bob")))
    assert isinstance(solo_controller, SoloController) and solo_controller.kind == "solo"
    assert isinstance(table, TableController) and table.kind == "table" and table_board.names == ("ann", "bob")
    assert isinstance(both.seats, BothSeats) and both.kind == "two-players" and both_board.names == ("Ann", "Bob")
    both.start()  # a table of this process, dealt from the seed given
    assert both.game.seed == 7 and both.allows("p1_flip") and not table.allows("p1_flip")
    both.close()


def test_two_players_refuse_a_connection_that_is_not_a_table_of_this_process():
    with pytest.raises(TypeError):
        choose(replace(SHOWN_WHOLE, two_players=True), Host(RemoteGame()))
