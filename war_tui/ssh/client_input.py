"""What a client types, on its way to the game: decoded as UTF-8, held within the input cap, timed for idling.

A session's story says where keys go at each step (``line_early``, ``to_game``, ``to_watcher``,
``drop``); asyncssh's ``data_received`` only hands them here. Until the story has chosen, keys wait
(within the cap) for it to keep them or not.
"""

from __future__ import annotations

import asyncio
import codecs
import re
from collections.abc import Callable
from typing import Protocol

from ..serving.pty_process import INPUT_LIMIT

# Mouse and focus reports, sent unasked: never a reason to leave a shared view.
TERMINAL_REPORT = re.compile(rb"\x1b\[(?:<[0-9;]*[Mm]|M[\s\S]{3}|[IO])")


class KeyReader(Protocol):
    """A game's pty as keys reach it: False when the keys would pass its input cap."""

    def write(self, data: bytes) -> bool: ...


class Leaver(Protocol):
    """A spectator's place at a shared rendering, which a key of its own leaves."""

    def leave(self, outcome: str, value: object = None) -> None: ...


class ClientInput:
    """Keys from the client, sent where the session's story says; past the cap, ``flood`` is called once."""

    def __init__(self, limit: int = INPUT_LIMIT) -> None:
        self.limit = limit
        self.last = 0.0
        """The loop's time of the last keys (of the game's start, before any)."""
        # Keys reach the game as UTF-8: a stray byte becomes U+FFFD; at most 3 bytes wait.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._early = bytearray()
        """Keys sent before the game was up (lines piped to ``line``): given to the game once it is."""
        self._pending = b""
        """The keys that took a spectator out of the shared rendering, for its own game once that draws."""
        self.flooded = False
        self._flood: Callable[[], None] | None = None
        self._game: KeyReader | None = None
        self._watcher: Leaver | None = None
        self._keep_early = True
        self._idle: tuple[float, Callable[[], None]] | None = None
        self._idle_timer: asyncio.TimerHandle | None = None

    def feed(self, data: bytes) -> None:
        """Keys from the client (asyncssh's ``data_received``); never paused: the bound is ours."""
        self.last = asyncio.get_running_loop().time()
        if self._watcher is not None:
            keys = TERMINAL_REPORT.sub(b"", self._decoder.decode(data).encode())
            if keys:
                self._pending = (self._pending + keys)[: self.limit]
                self._watcher.leave("key")
            return
        if self.flooded:
            return
        if self._game is None:
            if self._keep_early:
                # Piped lines (ssh -T HOST line < moves) wait for the game, under the keys' cap.
                self._early.extend(data)
                if len(self._early) > self.limit:
                    self._early.clear()
                    self._flooded()
            return
        keys = self._decoder.decode(data).encode()
        if keys:
            self._type(keys)

    def line_early(self, flood: Callable[[], None]) -> None:
        """A line session, its game not up yet: keys wait for it (a flood that came already ends it now)."""
        self._flood = flood
        self.last = asyncio.get_running_loop().time()
        if self.flooded:
            self.flooded = False
            self._flooded()

    def drop(self) -> None:
        """Keys before a screen is up (or for a refused session) are not kept."""
        self._early.clear()
        self._keep_early = self.flooded = False
        self.last = asyncio.get_running_loop().time()

    def to_watcher(self, watcher: Leaver) -> None:
        """A spectator at a shared rendering: its first key leaves it (and waits for a game of its own)."""
        self._watcher = watcher

    def watched(self) -> None:
        self._watcher = None

    def to_game(self, game: KeyReader, flood: Callable[[], None]) -> None:
        """The game is up: keys go to it, those that waited first (as if sent now)."""
        self._watcher = None
        self._game, self._flood = game, flood
        if self._early:
            early, self._early = bytes(self._early), bytearray()
            self.feed(early)

    def first_output(self) -> None:
        """The game drew, so its terminal is raw: the key that brought a spectator to it is read as a key."""
        if self._pending and self._game is not None:
            keys, self._pending = self._pending, b""
            self._type(keys)

    def _type(self, keys: bytes) -> None:
        if self._game is not None and not self.flooded and not self._game.write(keys):
            self._flooded()

    def _flooded(self) -> None:
        self.flooded = True
        if self._flood is not None:
            self._flood()

    # -- idling: no keys for a while -----------------------------------------------------------------------

    @property
    def idle_seconds(self) -> float:
        """Seconds since the client last sent a key (since the game started, if it never did)."""
        return asyncio.get_running_loop().time() - self.last

    def end_when_idle(self, seconds: float, on_idle: Callable[[], None]) -> None:
        """Call ``on_idle`` once no keys came for ``seconds``; one timer, moved only when it fires."""
        self._idle = (seconds, on_idle)
        self._idle_timer = asyncio.get_running_loop().call_at(self.last + seconds, self._idle_check)

    def _idle_check(self) -> None:
        self._idle_timer = None
        if self._idle is None:
            return
        seconds, on_idle = self._idle
        if self.idle_seconds >= seconds:
            self._idle = None
            on_idle()
        else:
            self.end_when_idle(seconds, on_idle)

    def idle_off(self) -> None:
        """The session is ending anyway: idling ends nothing more."""
        self._idle = None
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    def release(self) -> None:
        """Let go of the game, the watcher and the session's handlers (no reference cycle waits)."""
        self.idle_off()
        self._game = self._watcher = self._flood = None
        self._early.clear()
        self._pending = b""
