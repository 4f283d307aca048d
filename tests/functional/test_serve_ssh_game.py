"""serve-ssh with the real full-screen game (skipped until the game is part of this checkout)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys

import pytest
from ssh_support import TIMEOUT, make_key, read_until, start_server, wait_gone

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("war_tui.app") is None, reason="the full-screen game is not in this checkout yet"
)
GAME = (sys.executable, "-m", "war_tui")


async def test_the_game_itself_is_served_follows_resizes_and_quits(tmp_path):
    player = make_key(tmp_path, "player_key")
    srv = await start_server(tmp_path, [player], argv=(*GAME, "--screensaver"))
    try:
        from ssh_support import connect

        async with await connect(srv.port, player) as conn:
            game = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            seen = bytearray()
            await read_until(game.stdout, r"\x1b\[\?1049h", seen)  # the game took the whole screen
            await read_until(game.stdout, r"\x1b\[24;1H", seen)  # and drew down to row 24
            game.change_terminal_size(100, 40)
            await read_until(game.stdout, r"\x1b\[40;1H", seen)  # redrawn to the new height
            pids = [s._process.pid for c in srv.server.connections for s in c.sessions if s._process]
            game.stdin.write(b"q")
            result = await asyncio.wait_for(game.wait(), TIMEOUT)
            assert result.exit_status == 0
            assert b"\x1b[?1049l" in bytes(seen) + result.stdout  # and gave the screen back
        for pid in pids:
            assert await wait_gone(pid)
    finally:
        await srv.server.stop()
