"""What a terminal shows: a program's output fed through a terminal emulator (pyte), read as rows of text.

One class for every test that reads a screen: an SSH player's (``ssh_support.players.Player``), a game on a pty of
its own, a recorded cast."""

from __future__ import annotations

import asyncio
import re

import pyte

WAIT = 30.0
"""Seconds a screen is waited for: the real game starts in a few seconds, more on a busy machine."""


class Glass:
    """A terminal of ``size`` (columns, rows) fed everything a program wrote, as it arrives."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def feed(self, data: bytes | str) -> None:
        """More of the program's output (text is written as UTF-8, as a terminal reads it)."""
        chunk = data.encode() if isinstance(data, str) else data
        self.raw += chunk
        self.stream.feed(chunk)

    def catch_up(self, written: bytes) -> list[str]:
        """Feed what ``written`` (everything the program wrote so far) holds past what was fed; the rows then."""
        self.feed(written[len(self.raw):])
        return self.rows

    @property
    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    @property
    def text(self) -> str:
        return "\n".join(self.rows)

    def find(self, pattern: str) -> re.Match | None:
        return re.search(pattern, self.text, re.M)

    async def until(self, pattern: str, timeout: float = WAIT) -> re.Match:
        """Wait until ``pattern`` (a regex, ``^`` and ``$`` at each row) is on the screen; the match."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (found := self.find(pattern)) is None:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no {pattern!r} on the screen:\n{self.text}")
            await asyncio.sleep(0.05)
        return found
