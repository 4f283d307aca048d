"""Serve-ssh clients whose screens a test reads (a terminal emulator on each), and the pieces they share."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from support.glass import Glass as Glass  # the tests' one terminal screen
from support.present import present

from ssh_support import TIMEOUT, InProcessServer, PtyClient, connect, start_server
from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)  # the real game, as serve-ssh starts it
GAME_TIMEOUT = 30.0
"""The real game starts in a few seconds, more on a busy machine."""
SSH = shutil.which("ssh")
KEYLESS_SSH_OPTIONS = (
    "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes",
)
"""OpenSSH's options without BatchMode: with no key, it gets into a --public server by keyboard-interactive
(nothing is asked), which BatchMode turns off."""
MANY = {"max_sessions_per_address": 64}
"""Every client of a test comes from 127.0.0.1."""


@contextlib.asynccontextmanager
async def openssh_at_oak(tmp_path: Path, port: int, user: str = "ann"):
    """OpenSSH's ``ssh -t`` on a 100x30 pty of its own, as ``user`` at table oak; closed at the end."""
    env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", os.defpath), "TERM": "xterm-256color"}
    argv = [present(SSH), *KEYLESS_SSH_OPTIONS, "-o", "LogLevel=ERROR", "-t", "-p", str(port), "-l", user, "127.0.0.1", "table", "oak"]
    async with PtyClient() as client:
        await client.start(argv, env, (100, 30))
        yield client


class Player:
    """An asyncssh client on a pty whose screen is read through ``Glass``: the tests' SSH player with a screen."""

    def __init__(self, conn, process, size) -> None:
        self.conn = conn
        self.process = process
        self.glass = Glass(size)
        self.pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.glass.feed(chunk)

    @property
    def text(self) -> str:
        return self.glass.text

    async def until(self, pattern: str, timeout: float = GAME_TIMEOUT) -> re.Match:
        """Wait until ``pattern`` is on this player's screen."""
        return await self.glass.until(pattern, timeout)

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)


@contextlib.asynccontextmanager
async def served(tmp_path: Path, argv=GAME, **options) -> AsyncIterator[tuple[InProcessServer, list[Player]]]:
    """A --public server of ``argv`` (``start_server``'s options) and a list for the people a test seats there: at
    the end they hang up and the server stops, however the test ends."""
    async with await start_server(tmp_path, None, argv=argv, **options) as srv:
        yield srv, srv.people


async def take_a_seat(port: int, user: str, command: str, size=(100, 30)) -> Player:
    conn = await connect(port, None, username=user)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=size, encoding=None)
    return Player(conn, process, size)


async def agreed(people: list[Player]) -> tuple[str, str, str]:
    """What every screen shows alike, once the last of them has drawn it (a war takes a few frames)."""
    deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT
    while len(seen := {board(person.glass) for person in people}) != 1:
        assert asyncio.get_running_loop().time() < deadline, seen
        await asyncio.sleep(0.05)
    return seen.pop()


def board(glass: Glass) -> tuple[str, str, str]:
    """The battle on show, both counts and the log's last battle: what must agree on every screen."""
    header = glass.find(r"Battle (\d+) · Wars")
    counts = glass.find(r"^ (\S+) (\d+) [█░]+ (\d+) (\S+)$")
    logged = [found.group(1) for row in glass.rows if (found := re.match(r"│\s+(\d+\s.*?\d+·\d+)", row))]
    assert header and counts and logged, glass.text
    return header.group(1), counts.group(0).strip(), logged[-1]


def serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", *args], capture_output=True, text=True, timeout=TIMEOUT,
    )


def game_pids(srv) -> list[int]:
    return [s.story.process.pid for c in srv.server.connections for s in c.sessions if s.story.process is not None]


class Listener:
    """A line-mode client with no terminal (``ssh -T HOST line ...``): its lines as they arrive."""

    def __init__(self, conn, process) -> None:
        self.conn, self.process = conn, process
        self.seen = bytearray()

    async def until(self, pattern: str) -> str:
        regex = re.compile(pattern)

        async def reader() -> str:
            while not regex.search(self.seen.decode(errors="replace")):
                chunk = await self.process.stdout.read(4096)
                assert chunk, f"output ended before {pattern!r}: {self.seen.decode(errors='replace')!r}"
                self.seen.extend(chunk)
            return self.seen.decode(errors="replace")

        try:
            return await asyncio.wait_for(reader(), GAME_TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"no {pattern!r} in {self.seen.decode(errors='replace')!r}") from None

    def say(self, line: bytes) -> None:
        self.process.stdin.write(line)

    @property
    def lines(self) -> list[str]:
        return self.seen.decode().splitlines()
