"""Driving a table's (or a registry's) timers from asyncio: poll at each deadline, or sooner when woken.

The table has no timers of its own; this loop is all an asyncio host needs. A
host sets ``wake`` after anything that may bring a deadline closer (a request
carried out, someone joining), and cancels the task to stop. A Textual app can
use it as a worker, or schedule ``poll`` itself with ``set_timer`` at
``seconds_until(next_deadline())``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from .clock import Clock, monotonic, seconds_until


class Timed(Protocol):
    def next_deadline(self) -> float | None: ...

    def poll(self) -> None: ...


async def run_timers(timed: Timed, wake: asyncio.Event, clock: Clock = monotonic) -> None:
    """Call ``timed.poll()`` at every deadline it names, forever (until cancelled)."""
    while True:
        wake.clear()
        timed.poll()
        delay = seconds_until(timed.next_deadline(), clock)
        if delay is None:
            await wake.wait()
            continue
        if delay > 0:
            # asyncio.timeout: Python 3.11's wait_for can lose a cancel as its wait ends.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await wake.wait()
