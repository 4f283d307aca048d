"""Fair shares between clients: how often an address may knock, and a log that a flood cannot fill."""

from __future__ import annotations

import ipaddress
import os
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable

WINDOW_SECONDS = 60.0
MAX_ADDRESSES = 10_000
"""Addresses the attempt table remembers (about 0.6 KiB each); past it, the one that knocked longest
ago is forgotten."""


def address_key(address: str) -> str:
    """What counts as one address: an IPv4 address, or an IPv6 /64 (one subscriber's whole network)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class AttemptLimiter:
    """Counts connection attempts per address over the last minute; refused attempts count too.

    Constant work per attempt and bounded memory, however many addresses knock: each address keeps at
    most ``2 * per_minute + 1`` times, and the table is kept in order of last attempt, so the addresses
    that went quiet are dropped from its front.
    """

    def __init__(
        self, per_minute: int, clock: Callable[[], float] = time.monotonic, max_addresses: int = MAX_ADDRESSES
    ) -> None:
        self.per_minute = per_minute
        self.max_addresses = max_addresses
        self._clock = clock
        self._attempts: OrderedDict[str, deque[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._attempts)

    def attempt(self, address: str) -> int:
        """Record an attempt from ``address``; returns how many it made within the window, this one included."""
        now = self._clock()
        recent = self._attempts.get(address)
        if recent is None:
            # Past twice the cap the exact count no longer matters.
            recent = self._attempts[address] = deque(maxlen=2 * self.per_minute + 1)
        else:
            self._attempts.move_to_end(address)
        while recent and now - recent[0] >= WINDOW_SECONDS:
            recent.popleft()
        recent.append(now)
        self._forget_quiet(now)
        return len(recent)

    def allowed(self, count: int) -> bool:
        return count <= self.per_minute

    def _forget_quiet(self, now: float) -> None:
        # Amortised O(1): every address leaves the front at most once per time it was put at the back.
        attempts = self._attempts
        while attempts:
            oldest = next(iter(attempts.values()))
            if len(attempts) <= self.max_addresses and now - oldest[-1] < WINDOW_SECONDS:
                break
            attempts.popitem(last=False)


class FloodLog:
    """Log lines as they come, up to ``burst`` a second; beyond that, one summary line a second.

    A flood of connections (or of errors) then costs a few lines a second instead of one per connection.
    ``flush`` is called once a second by the server; it writes the summary of what was held back.
    """

    def __init__(self, log: Callable[[str], None], burst: int = 20, clock: Callable[[], float] = time.monotonic) -> None:
        self._log = log
        self.burst = burst
        self._clock = clock
        self._second = -1
        self._written = 0
        self._held: Counter[str] = Counter()
        self.held_total = 0
        """Lines held back since the start (summarised instead), for ``--metrics``."""

    def __call__(self, line: str, kind: str = "connection lines") -> None:
        second = int(self._clock())
        if second != self._second:
            self._second, self._written = second, 0
        if self._written < self.burst:
            self._written += 1
            self._log(line)
        else:
            self._held[kind] += 1
            self.held_total += 1

    def flush(self) -> None:
        if self._held:
            parts = ", ".join(f"{n:,} {kind}" for kind, n in self._held.most_common())
            self._held.clear()
            self._log(f"flood: held back {parts} in the last second")


class OncePer:
    """True at most once per ``seconds``: for log lines a flood would otherwise repeat."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._last = float("-inf")

    def ready(self) -> bool:
        now = self._clock()
        if now - self._last < self.seconds:
            return False
        self._last = now
        return True


PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
STATM = "/proc/self/statm"


def resident_mb() -> float | None:
    """This process's resident size in MB (from ``/proc``); None where there is no ``/proc``."""
    try:
        with open(STATM, "rb") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * PAGE_SIZE / 1_000_000


class MemoryWatch:
    """Whether the server is past its memory ceiling, read at most every ``interval`` seconds.

    A connection flood then costs one small ``/proc`` read every quarter second, not one each.
    """

    def __init__(
        self, ceiling_mb: float, interval: float = 0.25, clock: Callable[[], float] = time.monotonic,
        read: Callable[[], float | None] = resident_mb,
    ) -> None:
        self.ceiling_mb = ceiling_mb
        self.interval = interval
        self._clock = clock
        self._read = read
        self._read_at = float("-inf")
        self.last_mb = 0.0

    def over(self) -> bool:
        now = self._clock()
        if now - self._read_at >= self.interval:
            self._read_at = now
            self.last_mb = self._read() or 0.0
        return self.last_mb > self.ceiling_mb
