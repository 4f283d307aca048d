"""Names people chose reach every screen as the text they are: never read as markup, never an escape sequence.

A name is whatever a client sent (an SSH user name, a name typed in the browser), reduced by the tables
package. Here hostile names sit at tables and play to the end while other people's screens show them:
the lobby, the seats and status lines, the packets, the battle log, the table's notes (toasts), the result
dialog, help and the statistics screen, and a browser's terminal page, plain-text page and lobby. Each must
show the reduced name letter for letter, no game ends, and no widget holds words Textual would read as
markup. (The same over SSH, with the real game: test_serve_ssh_tables.py.)
"""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from screen_text import screen_text
from support.stats_app import Host
from table_support import PLAIN, TableServer, dealing, table_app, two_player_app
from textual.widgets import DataTable, Static
from war_ui_support import stats_shown, until
from web_support import open_socket, read_lines, read_screen, served, web_client

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP
from war_tui.core.engine import Game
from war_tui.core.rules import Result, Rules
from war_tui.stats import GameRecord, StatsStore
from war_tui.tables import reduce_name
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.lobby import LobbyScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

HOSTILE = {
    "closing tag": "[/]",
    "link": "[link=//e.vil]x",
    "reverse": "[reverse]EVIL",
    "italic": "[i]alice",
    "bold close": "[b]x[/b]",
    "osc 8": "\x1b]8;;http://e.vil\x07x",
    "csi": "\x1b[2J\x1b[31mred",
    "dcs": "\x1bP+q544e\x1b\\dcs",
    "bidi": "\u202eevil\u202c",
    "zero width": "a\u200bb\u2060c\ufeff",
}
SIZE = (110, 40)


def assert_unharmed(app) -> None:
    """The app still runs (no markup error, or anything else, ended the game), and no widget on any screen
    holds words Textual would read as markup: a ``Static``'s content and a ``DataTable``'s cells are text."""
    assert app.is_running and app.return_code is None
    for screen in app.screen_stack:
        for widget in screen.query(Static):
            assert not (isinstance(widget.content, str) and widget.content), (widget, widget.content)
        for table in screen.query(DataTable):
            for row in range(table.row_count):
                cells = table.get_row_at(row)
                assert not any(isinstance(cell, str) for cell in cells), cells


async def test_the_lobby_lists_every_name_as_typed_and_keeps_running():
    """Before: a table with ``[/]`` in a seat ended every lobby visitor's game (MarkupError)."""
    names = list(HOSTILE.values())
    with TableServer(dealing(*PLAIN)) as server:
        for index in range(0, len(names), 2):
            server.seat(f"t{index}", names[index])
            server.seat(f"t{index}", names[index + 1])
        fd, _ = server.connect("ann")
        app = table_app(fd, mode="lobby")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.screen.query_one("#lobby-tables").row_count == len(names) // 2)
            server.seat("later", "[/b]")  # a lobby drawn again keeps running too
            await until(pilot, lambda: app.screen.query_one("#lobby-tables").row_count == len(names) // 2 + 1)
            await pilot.pause()
            shown = screen_text(app)
            for raw in [*names, "[/b]"]:
                assert reduce_name(raw) in shown, (raw, shown)
            assert "\x1b" not in shown
            assert_unharmed(app)


@pytest.mark.parametrize("raw", HOSTILE.values(), ids=HOSTILE.keys())
async def test_a_hostile_name_plays_to_the_result_on_another_players_screen(raw):
    """Before: ``[/]`` crashed the result dialog of everyone at the table; ``[i]alice`` showed as alice."""
    name = reduce_name(raw)
    with TableServer(dealing(*PLAIN)) as server:
        them, _ = server.seat("oak", raw)
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: f"{name} sits at seat 1" in screen_text(app))
            board = screen_text(app)
            assert board.count(name) >= 3, board  # the seats line, the status line, the packet, the log
            them.table.emote(them, 0)
            server.wake.set()
            await until(pilot, lambda: f"{name}: " in screen_text(app))  # the emote's toast
            for _ in range(2):
                them.flip()
                await pilot.press("space")
                await until(pilot, lambda: app.controller.game.over or app.board.battle is not None)
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.pause()
            dialog = str(app.screen.query_one("#result-title").render())
            assert name in dialog
            facts = str(app.screen.query_one("#result-facts").render())
            assert f"{name} 4" in facts
            them.leave()
            server.wake.set()
            await until(pilot, lambda: f"{name} left" in screen_text(app))  # the leaving note, over the dialog
            assert "\x1b" not in screen_text(app)
            assert_unharmed(app)


async def test_two_players_at_one_keyboard_see_their_names_as_typed_in_the_help_and_the_result():
    """Before: ``[/]`` as a --two-players name crashed the help (its keys name the players) and the result."""
    app = two_player_app(dealing(*PLAIN), names=("[/]", "[i]bob"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "[/] flips with f or Left, [i]bob with j or Right" in screen_text(app))
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert "[/] (player 1) flips" in screen_text(app) and "[i]bob (player 2) flips" in screen_text(app)
        await pilot.press("escape")
        for _ in range(2):
            await pilot.press("f", "j")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        assert "[/]" in str(app.screen.query_one("#result-title").render())
        assert_unharmed(app)


async def test_the_statistics_screen_shows_a_winners_name_as_typed(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    for index, raw in enumerate(HOSTILE.values()):
        game = Game.deal(index + 1, Rules())
        game.play()
        winner = 0 if game.result is Result.P1 else 1
        names = (reduce_name(raw), "bob") if winner == 0 else ("bob", reduce_name(raw))
        finished = datetime(2024, 5, 1, 12, index, tzinfo=UTC).isoformat(timespec="seconds")
        assert store.record(GameRecord.from_game(game, names, seconds=60, finished_at=finished))
    app = Host(store)
    async with app.run_test(size=SIZE) as pilot:
        await stats_shown(pilot)
        shown = screen_text(app)
        for raw in HOSTILE.values():
            assert reduce_name(raw) in shown, (raw, shown)
        assert_unharmed(app)


@pytest.mark.server_side
async def test_a_name_typed_in_the_browser_is_text_on_the_terminal_page_and_the_plain_text_page(tmp_path, monkeypatch):
    """A browser's ``[/]`` at a table with the real game: its own screen, a plain-text page's player across
    the table and a browser in the lobby show it as typed (before: the lobby's game ended with an error)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": (sys.executable, "-c", GAME_BOOTSTRAP)}) as (srv, door):
        async with web_client() as closer_client, web_client("u" * 43) as bob_client:
            closer = await open_socket(closer_client, door, "/table/oak", name="[/]", cols=100, rows=30)
            screen = await read_screen(closer, r"\[/\] \(you\)")  # the seats line (styles between its words)
            bob = await open_socket(bob_client, door, "/line/table/oak", name="bob")
            said = await read_lines(bob, r"\[/\]")
            assert "\x1b]8;" not in await read_screen(closer, r"bob sits at seat 2", bytearray(screen.encode()))
            assert all(line.isprintable() for line in said)
            assert any(re.search(r"\[/\]", line) for line in said), said
            async with web_client("v" * 43) as lou_client:
                lou = await open_socket(lou_client, door, "/tables", name="[i]lou", cols=100, rows=30)
                lobby = await read_screen(lou, r"oak")
                lobby = await read_screen(lou, r"\[/\]", bytearray(lobby.encode()))  # the lobby's row of oak
                start = len(said)
                await bob.send_str("s")  # the score, with the name as typed
                await read_lines(bob, r"\[/\] has 26, you have 26", said, since=start)
                assert "ended with an error" not in lobby and "\x1b]8;" not in lobby
                await lou.close()
            await closer.close()
            await bob.close()
