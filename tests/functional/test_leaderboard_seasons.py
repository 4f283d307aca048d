"""The leaderboard's seasons: tab cycles all time, this week and this month (UTC); p and n walk through past
seasons; enter on a player replays their longest game of the season.

The screen is given a fixed clock, so the seasons it shows are the same on any day the test runs.
Regenerate the snapshot after a deliberate change with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from leaderboard_support import in_the_lobby, leaderboard_read, lobby_app
from screen_text import screen_text
from textual.app import App
from textual.widgets import DataTable, Static
from war_ui_support import until

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.presentation.glyphs import choose_glyphs
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.ui.app import STYLES
from war_tui.ui.components.pile import Pile
from war_tui.ui.screens.leaderboard import LeaderboardScreen
from war_tui.ui.screens.replay import ReplayScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

ANN, BOB, EVE = "key:SHA256:ann", "key:SHA256:bob", "addr:eve"
NOW = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)  # a Wednesday: this week is 7-13 Dec 2026


def played(seed: int, when: str, players: tuple[str, str], names: tuple[str, str]) -> GameRecord:
    """A table game as the engine plays it, so its replay is that game."""
    game = Game.deal(seed, Rules())
    game.start()
    game.play()
    return GameRecord.from_game(game, names, 60.0, Source.TABLE, finished_at=when, players=players)


def seasons_file(path: Path) -> StatsStore:
    store = StatsStore.open(path)
    for seed, when, players, names in (
        (3, "2026-11-20T10:00:00+00:00", (BOB, EVE), ("bob", "eve")),  # November
        (5, "2026-12-02T10:00:00+00:00", (EVE, ANN), ("eve", "ann")),  # last week
        (7, "2026-12-08T10:00:00+00:00", (ANN, BOB), ("ann", "bob")),  # this week
        (11, "2026-12-09T09:00:00+00:00", (ANN, EVE), ("ann", "eve")),
    ):
        assert store.record(played(seed, when, players, names))
    return store


class BoardApp(App[None]):
    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss")]

    def __init__(self, store: StatsStore) -> None:
        super().__init__()
        self.store = store

    def on_mount(self) -> None:
        glyphs = choose_glyphs(False, {"LANG": "C.UTF-8"})
        self.push_screen(LeaderboardScreen(self.store, you=ANN, glyphs=glyphs, now=lambda: NOW))


def title(app: App) -> str:
    return str(app.screen.query_one("#leaderboard-title", Static).render())


def names(app: App) -> list[str]:
    table = app.screen.query_one("#leaderboard-table", DataTable)
    if not table.display:
        return []
    return [table.get_row_at(i)[1].plain.strip() for i in range(table.row_count)]


async def showing(pilot, words: str) -> None:
    """Until the title names ``words`` and the board of that season has been read."""
    await until(pilot, lambda: isinstance(pilot.app.screen, LeaderboardScreen) and words in title(pilot.app)
                and pilot.app.screen.leaders is not None)
    await pilot.pause()


async def test_tab_cycles_all_time_this_week_and_this_month_and_p_n_walk_past_seasons(tmp_path):
    app = BoardApp(seasons_file(tmp_path / "served.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        await showing(pilot, "Leaderboard: all time")
        assert sorted(names(app)) == ["ann (you)", "bob", "eve"]
        await pilot.press("p")  # all time has no season before it
        await pilot.press("tab")
        await showing(pilot, "this week, 7-13 Dec 2026 (UTC)")
        assert sorted(names(app)) == ["ann (you)", "bob", "eve"]
        await pilot.press("p")
        await showing(pilot, "the week of 30 Nov-6 Dec 2026 (UTC)")
        assert sorted(names(app)) == ["ann (you)", "eve"]
        await pilot.press("p")
        await showing(pilot, "the week of 23-29 Nov 2026")
        assert "No table games finished in the week of 23-29 Nov 2026." in screen_text(app)
        assert names(app) == []
        await pilot.press("n", "n")
        await showing(pilot, "this week, 7-13 Dec 2026")
        await pilot.press("n")  # not past this week
        await pilot.pause()
        assert "this week, 7-13 Dec 2026" in title(app)
        await pilot.press("tab")
        await showing(pilot, "this month, Dec 2026")
        assert sorted(names(app)) == ["ann (you)", "bob", "eve"]
        await pilot.press("p")
        await showing(pilot, "Nov 2026")
        assert sorted(names(app)) == ["bob", "eve"]
        await pilot.press("tab")
        await showing(pilot, "Leaderboard: all time")
        assert "Earlier" not in screen_text(app).splitlines()[-1]  # the footer offers p only for a season


async def test_enter_replays_the_chosen_players_longest_game_and_escape_comes_back(tmp_path):
    store = seasons_file(tmp_path / "served.sqlite3")
    app = BoardApp(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await showing(pilot, "all time")
        board = app.screen
        assert isinstance(board, LeaderboardScreen) and board.leaders
        first = board.leaders[0]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.replay.battles == first.longest
        assert f"Replay of game {first.longest_id}" in screen_text(app)
        await until(pilot, lambda: replay.query_one(Pile).battle is not None)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is board)
        assert "all time" in title(app)


def test_the_seasons_snapshot(snap_compare, tmp_path):
    app = BoardApp(seasons_file(tmp_path / "served.sqlite3"))

    async def this_week(pilot) -> None:
        await showing(pilot, "all time")
        await pilot.press("tab")
        await showing(pilot, "this week")

    assert snap_compare(app, terminal_size=(80, 24), run_before=this_week)


async def test_in_a_served_lobby_enter_on_the_leaderboard_replays_and_esc_comes_back(tmp_path):
    app = lobby_app(seasons_file(tmp_path / "served.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("s")
        board = await leaderboard_read(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and board.leaders
        assert replay.replay.battles == board.leaders[0].longest
        assert "war-tui replay" not in screen_text(app)  # the server's statistics: no local command to offer
        await pilot.press("end")
        await until(pilot, lambda: replay.at == replay.replay.battles)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is board)


async def test_at_40_columns_the_title_still_names_the_whole_season(tmp_path):
    app = BoardApp(seasons_file(tmp_path / "served.sqlite3"))
    async with app.run_test(size=(40, 12)) as pilot:
        await showing(pilot, "all time")
        await pilot.press("tab")
        await showing(pilot, "7-13 Dec 2026")
        assert title(app) == "Leaderboard: this week, 7-13 Dec 2026"  # (UTC) left out: it would not fit
        await pilot.press("p")
        await showing(pilot, "week of 30 Nov")
        assert title(app) == "The week of 30 Nov-6 Dec 2026"
        assert screen_text(app).splitlines()[0].strip() == "The week of 30 Nov-6 Dec 2026"
