"""A client's window sizes on their way to its screen: the latest of each quarter second, and few in a storm."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..serving.pty_process import clamp_size

RESIZE_INTERVAL = 0.25
"""Seconds between window-size changes passed to a game: at most 4 a second, the latest size of each."""
RESIZE_SETTLE = 0.1
"""Seconds a new size waits before the game gets it: a size that comes back to the one on show within
this window (or within the interval after the last resize) costs the game no redraw at all."""
RESIZE_BURST = 8
RESIZE_PER_SECOND = 0.25
"""A game redraws for 8 resizes at up to 4 a second (a window dragged about), then for one every 4 s
while the sizes keep coming: a redraw at 500x200 costs a game about 0.17 s of CPU, so a storm of
sizes costs it 4% of a core, not 70%."""


class WindowSizes:
    """The size the client asked for (``wanted``) and the one on show, passed on by ``show``'s ``apply``."""

    def __init__(self) -> None:
        self.wanted = (80, 24)
        self.shown: tuple[int, int] | None = None
        """The size the screen was last given; None until it is up."""
        self._apply: Callable[[tuple[int, int]], None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._last = float("-inf")
        self._tokens = float(RESIZE_BURST)
        self._closed = False

    def offer(self, cols: int, rows: int) -> None:
        """A size from the client (a pty request or a window change); the screen gets the one on show when
        the window closes, whatever came between."""
        self.wanted = clamp_size(cols, rows)
        if self._timer is None and self.wanted != self.shown and not self._closed:
            loop = asyncio.get_running_loop()
            now = loop.time()
            wait = max(RESIZE_SETTLE, self._last + RESIZE_INTERVAL - now, (1 - self._tokens_at(now)) / RESIZE_PER_SECOND)
            self._timer = loop.call_later(wait, self._pass_on)

    def show(self, size: tuple[int, int], apply: Callable[[tuple[int, int]], None], catch_up: bool = False) -> None:
        """A screen is up at ``size``; later sizes go to ``apply``; ``catch_up``: one that came meanwhile, now."""
        self.shown, self._apply = size, apply
        if catch_up and self._timer is None:
            self._pass_on()

    def hold(self) -> None:
        """No screen to give a size to until the next ``show``."""
        self._apply = None

    def _tokens_at(self, now: float) -> float:
        """Resizes the screen may take now: refilled at RESIZE_PER_SECOND since the last, up to RESIZE_BURST."""
        return min(RESIZE_BURST, self._tokens + (now - self._last) * RESIZE_PER_SECOND)

    def _pass_on(self) -> None:
        """Give the screen the latest size, unless it is the one on show (a size that came back: no redraw)."""
        self._timer = None
        if self._apply is not None and not self._closed and self.wanted != self.shown:
            now = asyncio.get_running_loop().time()
            self._tokens = max(0.0, self._tokens_at(now) - 1)
            self._last = now
            self.shown = self.wanted
            self._apply(self.wanted)

    def close(self) -> None:
        """The client is gone: no size is passed on any more, and nothing here points at the session."""
        self._closed = True
        self._apply = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
