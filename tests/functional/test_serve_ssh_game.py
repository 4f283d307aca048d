"""serve-ssh with the real full-screen game: what a player at the other end can and cannot reach."""

from __future__ import annotations

import asyncio
import sys

import pytest
from ssh_support import TIMEOUT, connect, make_key, open_game, read_until, start_server, wait_gone
from ssh_support.players import Player

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

pytestmark = pytest.mark.app  # see pyproject.toml's markers

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)  # the game as serve-ssh starts it


@pytest.fixture
def server_home(tmp_path, monkeypatch):
    """The server's user, as far as the games know: a home and data folders of the test's own."""
    home = tmp_path / "home"
    home.mkdir()
    for name, folder in (("HOME", home), ("XDG_DATA_HOME", home / "data"), ("XDG_CONFIG_HOME", home / "config"),
                         ("XDG_STATE_HOME", home / "state"), ("XDG_CACHE_HOME", home / "cache")):
        monkeypatch.setenv(name, str(folder))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    return home


async def test_the_game_itself_is_served_follows_resizes_and_quits(tmp_path, server_home):
    player = make_key(tmp_path, "player_key")
    async with await start_server(tmp_path, [player], argv=(*GAME, "--screensaver")) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            seen = bytearray()
            await read_until(game.stdout, r"\x1b\[\?1049h", seen)  # the game took the whole screen
            await read_until(game.stdout, r"\x1b\[24;1H", seen)  # and drew down to row 24
            game.change_terminal_size(100, 40)
            await read_until(game.stdout, r"\x1b\[40;1H", seen)  # redrawn to the new height
            pids = [s.story.process.pid for c in srv.server.connections for s in c.sessions if s.story.process]
            game.stdin.write(b"q")
            result = await asyncio.wait_for(game.wait(), TIMEOUT)
            assert result.exit_status == 0
            assert b"\x1b[?1049l" in bytes(seen) + result.stdout  # and gave the screen back
        for pid in pids:
            assert await wait_gone(pid)


def served_app(tmp_path, **flags):
    """The app with the settings a game started by serve-ssh gets (its flags, the server's variables)."""
    from war_tui.cli import build_parser
    from war_tui.commands.play import settings_from_args
    from war_tui.serving.environment import served_variables
    from war_tui.ssh.session import NO_AGENT
    from war_tui.stats import StatsStore
    from war_tui.ui.app import WarApp

    args = build_parser().parse_args([f"--{k.replace('_', '-')}={v}" for k, v in flags.items()])
    settings = settings_from_args(args, served_variables(60, NO_AGENT))
    return WarApp(settings, stats=StatsStore.open(tmp_path / "server" / "stats.sqlite3"))


async def test_the_palette_of_a_served_game_offers_nothing_that_reaches_the_servers_files(tmp_path, server_home):
    (server_home / "Downloads").mkdir()  # where Textual's Screenshot writes
    app = served_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert titles <= {"Theme", "Quit", "Keys", "Maximize", "Minimize", "Flip", "Auto-play", "Faster",
                          "Slower", "Stop at wars", "Restart", "Statistics", "Help"}, titles
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        for key in "screenshot":
            await pilot.press(key)
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(1.0)
    written = [p for p in server_home.rglob("*") if p.is_file()]
    assert not written, written


async def test_a_served_game_shows_no_server_path_and_tops_out_at_the_servers_speed(tmp_path, server_home):
    from textual.widgets import Static

    app = served_app(tmp_path, speed="max")
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.board.speed == 60  # "max" is the server's top speed
        await pilot.press("plus")
        assert app.board.speed == 60
        await pilot.press("minus")
        assert app.board.speed == 32
        await pilot.press("s")
        await pilot.pause(0.3)
        shown = " ".join(str(static.render()) for static in app.screen.query(Static)) + app.screen.sub_title
        assert "No games recorded yet" in shown or "Statistics" in shown
        assert str(tmp_path) not in shown and "stats.sqlite3" not in shown, shown


async def test_a_refused_agent_is_said_inside_the_game_not_before_it(tmp_path, server_home):
    player = make_key(tmp_path, "player_key")
    async with await start_server(tmp_path, [player], argv=GAME) as srv:
        agent = str(tmp_path / "agent.sock")
        async with await connect(srv.port, player, agent_forwarding=True, agent_path=agent) as conn:
            game = await open_game(conn)
            seen = bytearray()
            await read_until(game.stdout, "Agent forwarding", seen)
            before, _, after = bytes(seen).partition(b"\x1b[?1049h")
            assert after and b"Agent forwarding" in after  # on the game's own screen
            assert b"gent" not in before
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
    assert "refused: agent forwarding" in srv.logs[-1]


@pytest.mark.serial  # 4,000 resizes, then the last size within TIMEOUT
async def test_a_storm_of_resizes_does_not_crash_the_game(tmp_path, server_home):
    """4,000 window changes at once: 500 times the burst a game redraws for (RESIZE_BURST)."""
    async with await start_server(tmp_path, None, argv=GAME) as srv:
        async with await connect(srv.port, None) as conn:
            game = await open_game(conn)
            seen = bytearray()
            await read_until(game.stdout, r"\x1b\[24;1H", seen)
            for i in range(4_000):
                game.change_terminal_size(60 + i % 60, 20 + i % 20)
            game.change_terminal_size(90, 30)
            await read_until(game.stdout, r"\x1b\[30;1H", seen)
            await asyncio.sleep(1.0)
            game.stdin.write(b"q")
            result = await asyncio.wait_for(game.wait(), TIMEOUT)
            output = bytes(seen) + result.stdout
            assert result.exit_status == 0
            assert b"Traceback" not in output and b"Error" not in output
    assert not [line for line in srv.logs if "reported an error" in line], srv.logs


@pytest.mark.parametrize(
    ("sent", "ascii"),
    [({"LANG": "C"}, True), ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, True), ({}, False),
     ({"LANG": "en_US.UTF-8"}, False)],
    ids=["LANG=C", "LC_ALL-wins", "nothing-sent", "LANG=en_US.UTF-8"],
)
async def test_the_clients_locale_decides_whether_the_board_is_drawn_in_ascii(tmp_path, server_home, sent, ascii):
    """As on the client's own machine: LC_ALL, then LC_CTYPE, then LANG (OpenSSH's SendEnv); a client that sends
    none of them gets the server's UTF-8."""
    player = make_key(tmp_path, "player_key")
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "1")) as srv:
        async with await connect(srv.port, player) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None,
                                                env=sent)
            person = Player(conn, process, (80, 24))
            await person.glass.until(r"Battle 0")
            await person.glass.until(r"Flip")  # the footer: the board is drawn whole
            assert person.glass.text.isascii() is ascii, person.glass.text
            person.type(b"q")
            result = await asyncio.wait_for(process.wait(), TIMEOUT)
            assert result.exit_status == 0
