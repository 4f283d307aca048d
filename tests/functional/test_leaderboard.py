"""The lobby's leaderboard: s opens it over the lobby, esc (or q) goes back; empty, unreadable, turned off;
hostile names; small and big screens.

The lobby is a real one (``DirectHost`` into a registry in this process); the leaderboard reads a real
statistics file, as a served lobby reads the server's (``--stats-db``).

Regenerate the snapshot after a deliberate change with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from leaderboard_support import ANN, in_the_lobby, leaderboard_read, lobby_app
from rich.cells import cell_len
from screen_text import screen_rows, screen_text
from table_support import DirectHost, busy_registry
from textual.widgets import DataTable
from war_ui_support import until

from war_tui.core.rules import EndReason, Gather, Result
from war_tui.presentation.leaderboard import EMPTY, NO_LEADERBOARD, NO_STATISTICS, UNREADABLE
from war_tui.settings.play import PlaySettings
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.ui.app import WarApp
from war_tui.ui.components.game_footer import GameFooter
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.leaderboard import LeaderboardScreen
from war_tui.ui.screens.lobby import LobbyScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

BOB, EVE, ZOE = "key:SHA256:bob", "addr:eve", "key:SHA256:zoe"
HOSTILE = {
    "wide": "山田太郎花子山田太郎花子",  # 24 cells: cut to 16 and then to the room there is
    "bidi": "\u202eevil\u202c name",  # a right-to-left override
    "zero-width": "z\u200bo\u200de\u2060y",
    "markup": "[reverse]boo[/]",
    "marks": "e" + "\u0301" * 40,  # a flood of combining marks
    "escape": "\x1b[2Jwipe",
}


def game(n: int, players: tuple[str | None, str | None], names: tuple[str, str], result: Result = Result.P1,
         battles: int = 100) -> GameRecord:
    return GameRecord(
        finished_at="2026-05-01T12:00:00+00:00", seed=n, war_cards=1, gather=Gather.WINNER_FIRST, max_battles=10_000,
        p1_name=names[0], p2_name=names[1], result=result, reason=EndReason.ALL_CARDS, battles=battles, wars=1,
        longest_war=1, p1_count=52, p2_count=0, seconds=1.0, source=Source.TABLE, p1_player=players[0],
        p2_player=players[1], game_id=f"oak.5eed.{n}",
    )


def served_games(path: Path, names: dict[str, str] | None = None) -> StatsStore:
    """A server's statistics file: ann won 3 of 4, bob 1 of 3, eve none of 1; ann's longest game 612 battles."""
    names = {ANN: "ann", BOB: "bob", EVE: "eve", **(names or {})}
    store = StatsStore.open(path)
    for n, (p1, p2, result, battles) in enumerate([
        (ANN, BOB, Result.P1, 120), (BOB, ANN, Result.P2, 612), (ANN, EVE, Result.P1, 87), (ANN, BOB, Result.P2, 45),
    ]):
        assert store.record(game(n, (p1, p2), (names[p1], names[p2]), result, battles))
    return store


def footer_text(app) -> str:
    """The footer of the screen on show, as it reads (its last row)."""
    assert app.screen.query_one(GameFooter).display
    return screen_rows(app)[-1]


def table_rows(screen: LeaderboardScreen) -> list[list[str]]:
    table = screen.query_one("#leaderboard-table", DataTable)
    return [[cell.plain.strip() for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_s_in_the_lobby_opens_the_leaderboard_and_esc_goes_back(tmp_path):
    app = lobby_app(served_games(tmp_path / "served.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await in_the_lobby(pilot)
        await until(pilot, lambda: "s Leaders" in footer_text(app))
        await pilot.press("s")
        board = await leaderboard_read(pilot)
        assert table_rows(board) == [
            ["1", "ann (you)", "4", "3", "612"],
            ["2", "bob", "3", "1", "612"],
            ["3", "eve", "1", "0", "87"],
        ]
        rows = screen_rows(app)
        header = next(row for row in rows if "Longest" in row)
        for number in ("612", "87"):  # the numbers end where their column's label does
            assert any(row.endswith(number) and len(row) == len(header) for row in rows), rows
        text = screen_text(app)
        assert "Leaderboard" in text and "key:SHA256" not in text and "addr:" not in text  # identities never shown
        assert "esc Back" in footer_text(app) and "? Help" in footer_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("s")
        await leaderboard_read(pilot)
        await pilot.press("q")  # q goes back too, not out of the game
        await until(pilot, lambda: app.screen is lobby)
        assert app.is_running


async def test_the_leaderboards_help_lists_its_keys_and_the_lobbys_lists_s(tmp_path):
    app = lobby_app(served_games(tmp_path / "served.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("s", "the leaderboard: each player's table games, wins and longest game") in app.screen.keys
        await pilot.press("escape")
        await pilot.press("s")
        await leaderboard_read(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("esc  q  s", "back to the lobby") in app.screen.keys
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))


async def test_an_empty_store_says_no_table_game_finished_yet(tmp_path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    assert store.record(replace(game(1, (ANN, None), ("ann", "x")), source=Source.AUTO, game_id=None))  # solo
    app = lobby_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("s")
        board = await leaderboard_read(pilot)
        assert EMPTY in screen_text(app)
        assert not board.query_one("#leaderboard-table").display


async def test_an_unreadable_store_is_one_sentence_and_no_traceback(tmp_path):
    path = tmp_path / "served.sqlite3"
    store = served_games(path)
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)  # damaged after it was opened
    app = lobby_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("s")
        await leaderboard_read(pilot)
        text = screen_text(app)
        assert UNREADABLE in text and "Traceback" not in text and "Error" not in text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.is_running


async def test_no_leaderboard_s_says_so_and_the_footer_does_not_offer_it(tmp_path):
    app = lobby_app(served_games(tmp_path / "served.sqlite3"), leaderboard=False)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await in_the_lobby(pilot)
        await until(pilot, lambda: "? Help" in footer_text(app))
        assert "Leaders" not in footer_text(app) and "leaderboard" not in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is lobby
        assert NO_LEADERBOARD in screen_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert all(key != "s" for key, _ in app.screen.keys)


async def test_a_server_with_no_statistics_offers_no_leaderboard(tmp_path):
    app = lobby_app(StatsStore.off("--no-stats"))
    async with app.run_test(size=(100, 30)) as pilot:
        await in_the_lobby(pilot)
        await until(pilot, lambda: "? Help" in footer_text(app))
        assert "Leaders" not in footer_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert NO_LEADERBOARD in screen_text(app)
        app.push_screen(LeaderboardScreen(app.stats))  # the board itself, over a store that is off, says why
        await until(pilot, lambda: NO_STATISTICS in screen_text(app))


@pytest.mark.parametrize("size", [(40, 12), (200, 60)])
async def test_hostile_names_leave_every_column_in_place(tmp_path, size):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    players = [f"key:SHA256:{kind}" for kind in HOSTILE]
    for n, (player, name) in enumerate(zip(players, HOSTILE.values())):
        assert store.record(game(n, (player, ZOE), (name, "zoe"), battles=1000 + n))
    app = lobby_app(store, you=players[0])
    async with app.run_test(size=size) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("s")
        board = await leaderboard_read(pilot)
        rows = screen_rows(app)
        assert all(cell_len(row) <= size[0] for row in rows), rows
        names = [row[0 if len(row) == 4 else 1] for row in table_rows(board)]
        assert len(names) == len(HOSTILE) + 1
        for name in names:
            assert not any(char in name for char in "\u202e\u202c\u200b\u200d\u2060\x1b")
        assert any(name.startswith("[reverse]boo[") for name in names)  # a name is text, never markup
        shown = "\n".join(rows)
        assert "(you)" in shown and "1,000" in shown
        if size[1] > len(names) + 6:  # every row in sight: each name as the list has it (marks aside)
            assert all(name in shown for name in names if name.isascii() or "山" in name)


@pytest.mark.parametrize("environ", [{"NO_COLOR": "1"}, {"LANG": "C"}])
async def test_no_color_and_a_plain_locale_give_a_clean_board(tmp_path, environ):
    app = lobby_app(served_games(tmp_path / "served.sqlite3"), **environ)
    async with app.run_test(size=(40, 12)) as pilot:
        await in_the_lobby(pilot)
        await pilot.press("s")
        await leaderboard_read(pilot)
        rows = screen_rows(app)
        assert "Leaderboard" in rows[0]
        assert any("ann (you)" in row for row in rows)
        assert all(cell_len(row) <= 40 for row in rows)
        if environ.get("LANG") == "C":
            assert all(row.isascii() for row in rows), rows


def test_the_leaderboard_snapshot(snap_compare, tmp_path):
    app = lobby_app(served_games(tmp_path / "served.sqlite3", {EVE: "Éloïse"}))

    async def shown(pilot) -> None:
        await in_the_lobby(pilot)
        await pilot.press("s")
        await leaderboard_read(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=shown)


class LateLobby(DirectHost):
    """A lobby whose list of tables comes only when the test says (``arrive``)."""

    def start(self, loop) -> None:
        pass

    def arrive(self) -> None:
        self.registry.watch_lobby(self.game.handle)


async def test_a_table_chosen_before_the_list_came_takes_the_leaderboard_away_with_the_lobby(tmp_path):
    """enter before the server's list, then s: once the list comes the person sits at the table, and no
    leaderboard or lobby is left over the board for esc to bring back."""
    host = LateLobby(busy_registry(), "eve")
    settings = PlaySettings(served=True, table_fd=-1, table_mode="lobby", player=ANN)
    app = WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0,
                 stats=served_games(tmp_path / "served.sqlite3"), table=host)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("enter")  # asked early: done once the list is in
        await pilot.press("s")
        await leaderboard_read(pilot)
        host.arrive()
        await until(pilot, lambda: host.member is not None)
        await until(pilot, lambda: app.screen is app.board, seconds=3)
        assert not any(isinstance(screen, (LobbyScreen, LeaderboardScreen)) for screen in app.screen_stack)
