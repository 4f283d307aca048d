"""A name typed fast over SSH into the lobby's new-table box names the table as typed.

Over a slow link, or from a fast typist, the game's pty hands it many keys in one read; here each burst
is one write on the SSH channel, backspaces (7F) among the letters.
"""

from __future__ import annotations

import asyncio
import re
import sys

import pyte
import pytest
from ssh_support import connect, start_server

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

pytestmark = pytest.mark.app  # see pyproject.toml's markers

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)  # the real game, as serve-ssh starts it
WAIT = 60.0
"""Seconds a screen is waited for: the real game starts in a few seconds, more on a busy machine."""
SIZE = (100, 30)
BACK = b"\x7f"


class Lobby:
    """An SSH client running ``tables`` on a pty, its screen read through a terminal emulator."""

    def __init__(self, process) -> None:
        self.process = process
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.stream.feed(chunk)

    @property
    def text(self) -> str:
        return "\n".join(row.rstrip() for row in self.screen.display)

    async def until(self, pattern: str) -> re.Match:
        deadline = asyncio.get_running_loop().time() + WAIT
        while (found := re.search(pattern, self.text, re.M)) is None:
            assert asyncio.get_running_loop().time() < deadline, f"no {pattern!r} on the screen:\n{self.text}"
            await asyncio.sleep(0.05)
        return found

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)


async def test_a_name_cleared_and_retyped_in_one_burst_names_the_table(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the games' data folder, not the user's
    async with await start_server(tmp_path, None, argv=GAME) as srv:
        conn = await connect(srv.port, None, username="lou")
        try:
            process = await conn.create_process("tables", term_type="xterm-256color", term_size=SIZE, encoding=None)
            lobby = Lobby(process)
            await lobby.until(r"n New")
            lobby.type(b"n")
            await lobby.until(r"Type a name and press enter")
            lobby.type(b"My Table!")
            await lobby.until(r"My Table!")
            lobby.type(BACK * len(b"My Table!") + b"my-table\r")  # cleared fast and typed anew, in one write
            await lobby.until(r"Table my-table · lou \(you\)")
        finally:
            conn.close()
