"""A spectator's stay at a shared rendering (``fanout``): its watcher, moved to the renderer of each new size.

The session's story watches through a ``SharedView`` until a key of the spectator's own, the renderer's
end, or the session being stopped; a window size that changes meanwhile moves it to the renderer of
that size (or to a game of its own, past the renderers a table may have).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from ..serving.environment import PERSONAL_VARIABLES, home_directory
from .client_input import ClientInput
from .fanout import FanoutHub, Watcher


class SharedView:
    """One session watching the renderer of ``place()`` (a table's name, or the lobby's key; None once neither)."""

    def __init__(
        self, hub: FanoutHub, place: Callable[[], str | None], env: Mapping[str, str],
        send: Callable[[bytes], None], buffered: Callable[[], int], keys: ClientInput,
    ) -> None:
        self._hub = hub
        self._place = place
        # Drawn for all: none of this connection's own (identity, time left, notices).
        self._env = {name: value for name, value in env.items() if name not in PERSONAL_VARIABLES}
        self._cwd = home_directory(env)
        self._send = send
        self._buffered = buffered
        self._keys = keys
        self.watcher: Watcher | None = None

    def attach(self, size: tuple[int, int]) -> bool:
        """Watch the renderer of this size (started if need be); False if none serves it."""
        place = self._place()
        watcher = self.watcher = Watcher(self._send, self._buffered, self._hub.backlog)
        self._keys.to_watcher(watcher)  # before its first repaint: that may already fill the channel
        return place is not None and self._hub.attach(watcher, place, self._env, size, self._cwd)

    def move(self, size: tuple[int, int], behind: bool) -> None:
        """A new window size: the renderer of that size shows it (or a game of its own).

        ``behind``: the channel is full, so the new renderer paints once it is empty again.
        """
        watcher, place = self.watcher, self._place()
        if watcher is None or place is None:
            return
        self._hub.detach(watcher)
        moved = self.watcher = Watcher(self._send, self._buffered, self._hub.backlog)
        self._keys.to_watcher(moved)
        moved.behind = behind
        if not self._hub.attach(moved, place, self._env, size, self._cwd):
            moved.leave("alone")
        watcher.leave("moved")

    async def until_done(self, stopping: asyncio.Event) -> tuple[str, object] | None:
        """Follow the watcher (a move goes on with the next) until it leaves: its outcome; None once ``stopping``."""
        stopped = asyncio.ensure_future(stopping.wait())
        try:
            while (current := self.watcher) is not None:
                either: set[asyncio.Future[Any]] = {current.outcome, stopped}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                if stopped.done():
                    return None
                if current.outcome.result()[0] != "moved":
                    return current.outcome.result()
            return None
        finally:
            stopped.cancel()

    def caught_up(self) -> None:
        """The spectator's channel is empty again (asyncssh's flow control)."""
        if self.watcher is not None:
            self.watcher.caught_up()

    def leave(self) -> None:
        """Stop watching; safe to call twice."""
        watcher, self.watcher = self.watcher, None
        self._keys.watched()
        if watcher is not None:
            self._hub.detach(watcher)
