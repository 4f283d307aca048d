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
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO, Protocol, TypeVar

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


K = TypeVar("K")
K_co = TypeVar("K_co", covariant=True)


class Typed(Protocol[K_co]):
    """Typed text turned into a session's keys (``KeyReader``'s commands, ``ReplayKeys``' words)."""

    def feed(self, text: str) -> Sequence[K_co]: ...

    def end(self) -> Sequence[K_co]:
        """The input ended: what was typed without its enter."""
        ...


class LineSession(Protocol[K]):
    """What the line mode's loop (``run_session``) asks of what it runs: a game, a replay."""

    @property
    def done(self) -> bool: ...

    def keys(self, lines: bool) -> Typed[K]:
        """The reader of typed text: single keys, or (``lines``) whole lines."""
        ...

    def opening(self) -> list[str]: ...

    def answer(self, key: K, now: float) -> list[str] | None:
        """The lines that answer ``key`` at ``now``; None: the input ends here (nothing more is read)."""
        ...

    def due(self) -> float | None:
        """When the session speaks by itself next (auto-play, a replay playing); None: it waits for a key."""
        ...

    def tick(self, now: float) -> list[str]: ...

    def input_ended(self) -> list[str]:
        """Said when the input ended and nothing is left to run before the session was done."""
        ...


def run_session(
    session: LineSession[K], fd_in: int, out: LineOutput, *, lines: bool | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Answer keys (or lines) until the session is done, or the input ends with nothing left to run (``due``);
    ``lines``: read lines even from a terminal (None: lines unless stdin is a terminal)."""
    with single_keys(fd_in) if not lines else contextlib.nullcontext(False) as one_at_a_time:
        keys = session.keys(not one_at_a_time)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        out.say(session.opening())
        open_input = True
        while not session.done:
            due = session.due()
            if not open_input and due is None:
                break
            timeout = None if due is None else max(0.0, due - clock())
            ready = select.select([fd_in] if open_input else [], [], [], timeout)[0]
            if ready:
                try:
                    data = os.read(fd_in, READ_SIZE)
                except OSError:  # the terminal went away
                    data = b""
                typed = keys.feed(decoder.decode(data)) if data else keys.end()
                if not data:
                    open_input = False
                for key in typed:
                    said = session.answer(key, clock())
                    if said is None:
                        open_input = False
                        break
                    out.say(said)
                    if session.done:
                        break
            elif due is not None and clock() >= due:
                out.say(session.tick(clock()))
        if not session.done:
            out.say(session.input_ended())
    return 0


class GameSession:
    """A game in the line mode (``LinePlayer``) as the loop runs it."""

    def __init__(self, player: LinePlayer, first: list[str] | None = None) -> None:
        self.player = player
        self.first = first or []

    @property
    def done(self) -> bool:
        return self.player.done

    def keys(self, lines: bool) -> KeyReader:
        return KeyReader(lines=lines)

    def opening(self) -> list[str]:
        return [*self.first, *self.player.opening()]

    def answer(self, key: Command, now: float) -> list[str] | None:
        return None if key is Command.END else self.player.command(key, now)

    def due(self) -> float | None:
        return self.player.due()

    def tick(self, now: float) -> list[str]:
        return self.player.tick(now)

    def input_ended(self) -> list[str]:
        return ["The input ended. Goodbye."]


def run_line(
    player: LinePlayer, fd_in: int, out: LineOutput, *, lines: bool | None = None,
    first: list[str] | None = None, clock: Callable[[], float] = time.monotonic,
) -> int:
    """Play until the player quits, or the input ends with no auto-play left to run. ``lines``: read
    lines even from a terminal (None: lines unless stdin is a terminal)."""
    return run_session(GameSession(player, first), fd_in, out, lines=lines, clock=clock)
