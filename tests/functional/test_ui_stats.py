"""The full-screen game and its statistics file: recorded games, the stats screen, replays, a bad file."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from screen_text import screen_text
from support.present import present
from textual.widgets import DataTable
from war_ui_support import QUICK_WIN, WAR_PACKETS, stats_shown, until

from war_tui.core.engine import Game
from war_tui.core.rules import Result, Rules
from war_tui.settings.play import PlaySettings
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.stats import store as store_module
from war_tui.stats.replay import Replay
from war_tui.ui.app import WarApp
from war_tui.ui.controllers.solo import SoloController
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.replay import ReplayScreen
from war_tui.ui.screens.stats import StatsScreen
from war_tui.ui.screens.table_game_over import TableGameOverScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers


def app_with(store: StatsStore, **changes) -> WarApp:
    settings = replace(PlaySettings(seed=7, war_step=0.0, result_hold=0.0), **changes)  # each press one battle, as make_app
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, stats=store)


async def test_a_finished_game_is_recorded_once_with_how_it_was_played(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    app = app_with(store, packets=WAR_PACKETS, names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "space")
        assert isinstance(app.screen, GameOverScreen)
        await app.workers.wait_for_complete()
    recent = present(store.recent(5))
    assert len(recent) == 1
    record = recent[0]
    assert (record.p1_name, record.p2_name) == ("Alice", "Bob")
    assert record.result == present(app.controller.game).result and record.battles == 2
    assert record.source is Source.INTERACTIVE


def finished_games(app: WarApp) -> list:
    """The solo games the app reports finished from now on (each one's record is being stored by then)."""
    finished: list = []
    app.finished_hooks.append(lambda game, seconds: finished.append(game))
    return finished


async def test_auto_play_and_the_screensaver_are_told_apart(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    app = app_with(store, packets=QUICK_WIN)
    finished = finished_games(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: finished)
        await app.workers.wait_for_complete()
    assert present(store.recent(1))[0].source is Source.AUTO

    saver = StatsStore.open(tmp_path / "saver.sqlite3")
    app = app_with(saver, packets=QUICK_WIN, screensaver=True)
    finished = finished_games(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: finished)
        await app.workers.wait_for_complete()
    assert present(saver.recent(1))[0].source is Source.SCREENSAVER


async def test_s_opens_the_statistics_and_enter_replays_that_game_battle_by_battle(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    app = app_with(store, seed=123, rules=Rules(max_battles=3))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("space", "space", "space")
        await app.workers.wait_for_complete()
        assert app.board.tally[Result.STOPPED] == 1
        await pilot.press("r")  # a different deal on the board: the replay is the game chosen, not this one
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        await stats_shown(pilot)
        table = app.screen.query_one("#stats-recent", DataTable)
        assert table.row_count == 1
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.replay.seed == 123 and screen.replay.battles == 3 and screen.replay.rules == Rules(max_battles=3)
        await pilot.press("end")
        assert screen.at == 3 and screen.view is not None and screen.view.battle == 3
        on_board = present(app.controller.game).battles
        await pilot.press("question_mark")  # the help over the replay lists the replay's keys, not the game's
        assert isinstance(app.screen, HelpScreen) and ("]  [", "the next war, the war before") in app.screen.keys
        assert not any("flip" in what for _, what in app.screen.keys)
        await pilot.press("space", "escape")  # no key under the help reaches the board beneath
        assert app.screen is screen and present(app.controller.game).battles == on_board
        await pilot.press("escape")
        assert app.screen is app.board


async def test_a_replay_opened_during_auto_play_pauses_the_game_under_it(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    game = Game.deal(123, Rules(max_battles=3))
    game.play()
    assert store.record(GameRecord.from_game(game, ("Ann", "Bob")))  # a finished game to replay
    app = app_with(store, seed=1017)  # 1,939 battles: auto-play is still at it whatever the machine's load
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("a")
        assert app.board.auto
        await pilot.press("s")
        await stats_shown(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and not app.board.auto
        battles = present(app.controller.game).battles
        await pilot.pause(0.6)
        assert present(app.controller.game).battles == battles and isinstance(app.screen, ReplayScreen)


async def test_s_toggles_the_statistics_screen(tmp_path: Path):
    app = app_with(StatsStore.open(tmp_path / "stats.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("s")
        assert not isinstance(app.screen, StatsScreen)


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
async def test_a_corrupt_file_is_said_once_and_left_as_it_was(tmp_path: Path):
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"this is not a database\n" * 50)
    before = path.read_bytes()
    app = app_with(StatsStore.open(path), packets=QUICK_WIN)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert sum("Statistics are off" in m for m in messages) == 1
        await pilot.press("space")  # the game still plays and ends
        assert isinstance(app.screen, GameOverScreen)
        await app.workers.wait_for_complete()
    assert path.read_bytes() == before


async def test_no_store_given_records_nothing_and_says_nothing(tmp_path: Path):
    app = WarApp(PlaySettings(packets=QUICK_WIN), environ={"LANG": "C.UTF-8"})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await app.workers.wait_for_complete()
        assert not [n for n in app._notifications if "Statistics" in n.message]
    assert not app.stats.enabled


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
async def test_a_long_lock_delays_saving_says_so_once_and_loses_no_game(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 600.0)  # the next game retries, not the timer
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path, busy_timeout=0.2)
    app = app_with(store, packets=QUICK_WIN)
    holder = sqlite3.connect(path, isolation_level=None)
    async with app.run_test(size=(100, 30)) as pilot:
        holder.execute("BEGIN EXCLUSIVE")  # another program holds the file while the game ends
        await pilot.press("space")
        assert isinstance(app.screen, GameOverScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        holder.execute("ROLLBACK")
        holder.close()
        messages = [n.message for n in app._notifications]
        assert sum(m.startswith("Saving statistics is delayed") for m in messages) == 1
        assert not any("Statistics are off" in m for m in messages)
        assert isinstance(app.controller, SoloController)
        app.controller.new_game(packets=QUICK_WIN)
        await pilot.press("space")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert store.enabled and store.pending == 0
    assert [r.battles for r in present(store.recent(5))] == [1, 1] and present(store.totals()).games == 2


async def test_the_result_names_the_stored_game_and_enter_replays_it(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    app = app_with(store, seed=123, rules=Rules(max_battles=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "space", "space")
        result = app.screen
        assert isinstance(result, GameOverScreen)
        await until(pilot, lambda: result.game_id == 1)
        await pilot.pause()
        text = screen_text(app)
        assert "Game" in text and "1 (war-tui replay 1)" in text and "enter: replay it" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.replay.seed == 123 and replay.replay.battles == 3
        assert "Replay of game 1" in screen_text(app) and "war-tui replay 1" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is result)
        assert app.board.tally[Result.STOPPED] == 1  # the result still on show, no deal under it


async def test_a_table_games_result_names_its_id_which_replays_that_very_game(tmp_path: Path):
    """Two players at one keyboard are a table: its server (here, the app) records the game, and the result finds
    its id in the statistics; ``war-tui replay`` of that id is the game just played, battle for battle."""
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    store.record(GameRecord.from_game(played_game(99), ("Eve", "Lou"), 1.0, Source.INTERACTIVE))  # id 1: not it
    app = WarApp(replace(PlaySettings(war_step=0.0, result_hold=0.0), two_players=True, names=("Ann", "Bob"),
                         rules=Rules(max_battles=3)),
                 environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, stats=store, new_seed=lambda: 1234)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        for _ in range(3):
            await pilot.press("f", "j")
        await until(pilot, lambda: isinstance(app.screen, TableGameOverScreen))
        result = app.screen
        assert isinstance(result, TableGameOverScreen)
        await until(pilot, lambda: result.game_id is not None)
        await pilot.pause()
        game_id = result.game_id
        assert game_id == 2 and f"{game_id} (war-tui replay {game_id})" in screen_text(app)
        deal, battle = app.board.deal, app.board.battle
        assert deal is not None and battle is not None
        shown_seed, shown_battles = deal.seed, battle.battle
        await pilot.press("enter")  # the table's own key still: it asks to deal again, and replays nothing
        assert not isinstance(app.screen, ReplayScreen)
    record = present(store.game(game_id))[0]
    assert record.source is Source.TABLE and (record.p1_name, record.p2_name) == ("Ann", "Bob")
    replay = Replay.of_record(record)
    assert (replay.seed, replay.battles) == (shown_seed, shown_battles) == (1234, 3)


def played_game(seed: int) -> Game:
    game = Game.deal(seed, Rules(max_battles=3))
    game.start()
    game.play(3)
    return game


async def test_without_statistics_enter_on_the_result_deals_again_as_ever(tmp_path: Path):
    app = app_with(StatsStore.off("no statistics"), seed=123, rules=Rules(max_battles=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "space", "space")
        assert isinstance(app.screen, GameOverScreen)
        assert "replay" not in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is app.board)
        assert present(app.controller.game).battles == 0 and not isinstance(app.screen, ReplayScreen)


async def test_a_served_result_and_its_replay_name_the_servers_doors_and_the_battle(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    app = app_with(store, seed=123, rules=Rules(max_battles=3), served=True, player="key:SHA256:ann",
                   ssh_at="-p 2222 war.example.org", web_at="https://war.example.org")
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.press("space", "space", "space")
        result = app.screen
        assert isinstance(result, GameOverScreen)
        await until(pilot, lambda: result.game_id == 1)
        await pilot.pause()
        text = screen_text(app)
        assert "1 (ssh -t -p 2222 war.example.org replay 1 or https://war.example.org/replay/1)" in text
        assert "war-tui replay" not in text  # no local command reaches the server's statistics
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("right")
        await pilot.pause()
        assert "ssh -t -p 2222 war.example.org replay 1@2 or https://war.example.org/replay/1#b=2" in screen_text(app)
