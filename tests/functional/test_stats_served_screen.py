"""A served player's statistics: their own games only, nobody else's names, read off the UI thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from screen_text import screen_text
from support.present import present
from textual.app import App
from textual.widgets import DataTable, Static
from war_ui_support import stats_shown, until

from war_tui.cli import build_parser
from war_tui.commands.play import settings_from_args
from war_tui.core.rules import EndReason, Gather, Result
from war_tui.settings.served import PLAYER_ID_VARIABLE, SERVED_VARIABLE
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.ui.app import WarApp
from war_tui.ui.screens.stats import READING, StatsScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

ANN, EVE = "key:SHA256:ann", "key:SHA256:eve"


def game(seed: int, players: tuple[str | None, str | None], names: tuple[str, str], source=Source.TABLE):
    return GameRecord(
        finished_at=f"2026-05-01T12:{seed:02d}:00+00:00", seed=seed, war_cards=1, gather=Gather.WINNER_FIRST,
        max_battles=10_000, p1_name=names[0], p2_name=names[1], result=Result.P2, reason=EndReason.ALL_CARDS,
        battles=100 + seed, wars=seed, longest_war=1, p1_count=0, p2_count=52, seconds=9.0, source=source,
        p1_player=players[0], p2_player=players[1],
    )


def strangers_file(path: Path) -> StatsStore:
    """Eve's and mallory's table games, a local game nobody served, and one table game of ann's with eve."""
    store = StatsStore.open(path)
    store.record(game(1, (EVE, "addr:mallory"), ("eve", "mallory")))
    store.record(game(2, (None, None), ("Player 1", "Player 2"), Source.AUTO))
    store.record(game(3, ("addr:mallory", EVE), ("mallory", "eve")))
    store.record(game(4, (ANN, EVE), ("ann", "eve")))
    return store


def served(tmp_path: Path, store: StatsStore, player: str | None, **play) -> WarApp:
    """The app as serve-ssh starts it, told (or not told) who plays."""
    environ = {SERVED_VARIABLE: "1"} | ({PLAYER_ID_VARIABLE: player} if player is not None else {})
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in play.items()]
    settings = settings_from_args(build_parser().parse_args(["--no-config", *flags]), environ)
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, stats=store)


async def test_a_served_players_statistics_list_none_of_anyone_elses_games(tmp_path: Path):
    app = served(tmp_path, strangers_file(tmp_path / "served.sqlite3"), ANN)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("s")
        await stats_shown(pilot)
        table = app.screen.query_one("#stats-recent", DataTable)
        assert [str(table.get_row_at(i)[1]) for i in range(table.row_count)] == ["4"]  # by seed
        text = screen_text(app)
        for name in ("eve", "mallory"):
            assert name not in text, text
        assert "1 game since" in text and "opponent" in text  # eve won it: the screen says who without a name


async def test_a_served_player_told_no_identity_sees_only_this_sessions_games(tmp_path: Path):
    store = strangers_file(tmp_path / "served.sqlite3")
    app = served(tmp_path, store, None, p1="AS", p2="2C")
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("space")  # one battle: ace takes two
        await until(pilot, lambda: app.controller.game is not None and app.controller.game.over)
        await app.workers.wait_for_complete()
        await pilot.press("s")
        await stats_shown(pilot)
        assert isinstance(app.screen, StatsScreen)
        assert present(app.screen.summary).totals.games == 1
        assert app.screen.query_one("#stats-recent", DataTable).row_count == 1
    assert present(store.totals()).games == 5  # the game was recorded, with this session's identity only
    [mine] = present(store.recent(1))
    assert mine.p1_player == app.settings.player and present(mine.p1_player).startswith("session:")


class Host(App[None]):
    def __init__(self, store: StatsStore) -> None:
        super().__init__()
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(StatsScreen(self.store))


async def test_the_summary_is_read_in_a_worker_thread_not_while_composing(tmp_path: Path):
    store = strangers_file(tmp_path / "stats.sqlite3")
    readers: list[int] = []
    read = store.summary

    def spied(*args, **kwargs):
        readers.append(threading.get_ident())
        return read(*args, **kwargs)

    store.summary = spied  # type: ignore[method-assign]  # a spy on which thread reads
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await stats_shown(pilot)
        ui_thread = threading.get_ident()  # the test's coroutine runs on the app's event loop
    assert readers and ui_thread not in readers


async def test_while_the_file_is_read_the_screen_says_so_and_answers_keys(tmp_path: Path):
    store = strangers_file(tmp_path / "stats.sqlite3")
    go_on = threading.Event()
    read = store.summary

    def slow(*args, **kwargs):
        go_on.wait(10)
        return read(*args, **kwargs)

    store.summary = slow  # type: ignore[method-assign]  # a file that takes its time
    app = Host(store)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: str(app.screen.query_one("#stats-reading", Static).render()) == READING)
            screen = app.screen
            go_on.set()
            await stats_shown(pilot)
            assert not screen.query("#stats-reading")  # no "reading" left once the figures are up
            assert READING not in screen_text(app)
            app.push_screen(StatsScreen(store))  # and a screen that is closed while it reads
            go_on.clear()
            await pilot.pause()
            await pilot.press("escape")
            assert app.screen is screen
            go_on.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.screen is screen
    finally:
        go_on.set()


async def test_a_read_that_fails_unexpectedly_says_so_and_the_game_goes_on(tmp_path: Path):
    store = strangers_file(tmp_path / "stats.sqlite3")

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in reading")

    store.summary = broken  # type: ignore[method-assign]
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await stats_shown(pilot)
        assert "cannot be read" in str(app.screen.query_one("#stats-message", Static).render())
        assert app.is_running
