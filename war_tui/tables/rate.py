"""A token bucket: what a client may send, bounded on average and at once, by us rather than by its good behaviour."""

from __future__ import annotations


class TokenBucket:
    """``rate`` units a second on average, up to ``burst`` at once (requests, bytes)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._at = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate)
        self._at = now

    def allow(self, now: float, amount: float = 1.0) -> bool:
        """Take ``amount`` if the bucket holds it; False (and nothing taken) if not."""
        self._refill(now)
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True

    def spend(self, amount: float, now: float) -> float:
        """Take ``amount`` whatever the bucket holds; the seconds until it is back above empty (0: not empty)."""
        self._refill(now)
        self.tokens -= amount
        return -self.tokens / self.rate if self.tokens < 0 else 0.0
