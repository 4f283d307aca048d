"""A renderer's output copied to its spectators a slice at a time, so other tables' screens go out between.

Copying one read of a renderer's output to 300 spectators takes the server about 35 ms (a copy and an
encryption per channel). Done at once, every other table's frames wait that long on the server's one
event loop. ``SlicedCopy`` sends each read to ``slice_size`` spectators per turn of the loop, the first
slice at once. While a read is on its way the source is paused (``pause``/``resume``: the renderer's pty
holds what it draws meanwhile), and the reads are copied in order, each to everyone before the next.
``finished`` is told each read once every spectator has it; a spectator who arrives meanwhile gets the
rest of the read in flight too (see ``Renderer.paint_soon`` for what a repaint waits for).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

SLICE = 25
"""Spectators a read is copied to per turn of the event loop: about 3 ms of the server's time."""

T = TypeVar("T", bound=Hashable)


class SlicedCopy(Generic[T]):
    """Copies each read to every one of ``targets()``, a slice per turn of the loop, in order."""

    def __init__(
        self,
        targets: Callable[[], Iterable[T]],
        send: Callable[[T, bytes], None],
        finished: Callable[[bytes], None],
        pause: Callable[[], None],
        resume: Callable[[], None],
        slice_size: int = SLICE,
    ) -> None:
        self._targets = targets
        self._send = send
        self._finished = finished
        self._pause = pause
        self._resume = resume
        self.slice_size = slice_size
        self._reads: deque[bytes] = deque()
        self._sent: set[T] = set()
        """Who has the read in flight."""
        self._scheduled: asyncio.Handle | None = None

    @property
    def busy(self) -> bool:
        """A read is on its way: some spectators have it, some not yet."""
        return bool(self._reads)

    def copy(self, data: bytes) -> None:
        """Copy ``data`` to every target, after the reads before it; the first slice goes now."""
        if not self._reads:
            self._pause()
        self._reads.append(data)
        if self._scheduled is None:
            self._step()

    def close(self) -> None:
        """Copy nothing more (the renderer is ending)."""
        self._reads.clear()
        self._sent.clear()
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None

    def _step(self) -> None:
        self._scheduled = None
        while self._reads:
            data = self._reads[0]
            sent = 0
            for target in tuple(self._targets()):
                if target in self._sent:
                    continue
                if sent == self.slice_size:  # the rest on the next turn of the loop
                    self._scheduled = asyncio.get_running_loop().call_soon(self._step)
                    return
                self._sent.add(target)
                self._send(target, data)
                sent += 1
            self._reads.popleft()
            self._sent.clear()
            self._finished(data)
            if self._reads:  # the next read on the next turn: other tables go first
                self._scheduled = asyncio.get_running_loop().call_soon(self._step)
                return
        self._resume()
