"""Time for the table logic: a clock is any function that returns seconds, never the wall clock.

The table never sleeps or starts timers. It reads the injected clock, and says
when it next needs attention as a deadline on that clock (``next_deadline()``);
the host calls ``poll()`` then. An asyncio server, a Textual app and a test with
a ``FakeClock`` all drive the same code this way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]
"""Seconds on a monotonic scale; only differences matter."""

monotonic: Clock = time.monotonic


class FakeClock:
    """A clock that moves only when told to, for tests and replays."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the clock forward by ``seconds`` (never back); returns the new time."""
        if seconds < 0:
            raise ValueError("a clock does not run backwards")
        self.now += seconds
        return self.now


def seconds_until(deadline: float | None, clock: Clock) -> float | None:
    """How long a host may sleep before ``deadline`` (0 when it has passed; None: no deadline)."""
    if deadline is None:
        return None
    return max(0.0, deadline - clock())
