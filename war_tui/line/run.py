"""The line mode on real file descriptors: keys in, sentences out, auto-play on a timer.

Output is plain text and nothing else: every line goes through ``plain`` (no byte below 0x20 but the
newline, no escape or other control character), and the terminal is never asked to move the cursor.
On a terminal the keys are read one at a time (no echo, no waiting for enter); from a pipe, or when told
``lines`` (an SSH client without a terminal), a line at a time.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

from .keys import Command, KeyReader
from .player import LinePlayer

READ_SIZE = 1024


def plain(line: str) -> str:
    """``line`` with every control character (C0, DEL, C1) made a space: what may reach the reader."""
    return "".join(" " if (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0) else ch for ch in line)


class LineOutput:
    """Writes whole lines, plain, flushed at once (a screen reader speaks what arrives)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def say(self, lines: list[str]) -> None:
        if not lines:
            return
        data = "".join(plain(line) + "\n" for line in lines).encode("utf-8", errors="replace")
        self._stream.write(data)
        self._stream.flush()


@contextlib.contextmanager
def single_keys(fd: int) -> Iterator[bool]:
    """On a terminal: keys one at a time, not echoed; output processing is left as the terminal has it.

    Yields whether the keys come one at a time (False: not a terminal, they come as lines).
    """
    try:
        import termios
    except ImportError:  # not on POSIX
        yield False
        return
    if not os.isatty(fd):
        yield False
        return
    old = termios.tcgetattr(fd)
    new = termios.tcgetattr(fd)
    new[3] &= ~(termios.ICANON | termios.ECHO)
    new[6][termios.VMIN] = 1
    new[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, new)
    try:
        yield True
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSADRAIN, old)


def run_line(
    player: LinePlayer, fd_in: int, out: LineOutput, *, lines: bool | None = None,
    first: list[str] | None = None, clock: Callable[[], float] = time.monotonic,
) -> int:
    """Play until the player quits, or the input ends with no auto-play left to run. ``lines``: read
    lines even from a terminal (None: lines unless stdin is a terminal)."""
    with single_keys(fd_in) if not lines else contextlib.nullcontext(False) as one_at_a_time:
        reader = KeyReader(lines=not one_at_a_time)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        out.say([*(first or []), *player.opening()])
        open_input = True
        while not player.done:
            due = player.due()
            if not open_input and due is None:
                break
            timeout = None if due is None else max(0.0, due - clock())
            ready = select.select([fd_in] if open_input else [], [], [], timeout)[0]
            if ready:
                try:
                    data = os.read(fd_in, READ_SIZE)
                except OSError:  # the terminal went away
                    data = b""
                commands = reader.feed(decoder.decode(data)) if data else reader.end()
                if not data:
                    open_input = False
                for command in commands:
                    if command is Command.END:
                        open_input = False
                        break
                    out.say(player.command(command, clock()))
                    if player.done:
                        break
            elif due is not None and clock() >= due:
                out.say(player.tick(clock()))
        if not player.done:
            out.say(["The input ended. Goodbye."])
    return 0
