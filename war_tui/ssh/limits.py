"""How often one address may knock: a sliding one-minute window per address."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW_SECONDS = 60.0


class AttemptLimiter:
    """Counts connection attempts per address over the last minute; refused attempts count too."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._attempts: dict[str, deque[float]] = {}

    def attempt(self, address: str) -> int:
        """Record an attempt from ``address``; returns how many it made within the window, this one included."""
        now = self._clock()
        # Bounded: past twice the cap the exact count no longer matters.
        recent = self._attempts.setdefault(address, deque(maxlen=2 * self.per_minute + 1))
        while recent and now - recent[0] >= WINDOW_SECONDS:
            recent.popleft()
        recent.append(now)
        if len(self._attempts) > 4096:
            self._forget_idle(now)
        return len(recent)

    def allowed(self, count: int) -> bool:
        return count <= self.per_minute

    def _forget_idle(self, now: float) -> None:
        for address in [a for a, r in self._attempts.items() if not r or now - r[-1] >= WINDOW_SECONDS]:
            del self._attempts[address]
