"""What a host chooses about its tables (``TableOptions``), and the bounds every table keeps to.

The options are checked once, when they are made, so each room of a table (seats, journal,
auto-play) reads them as facts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.rules import Rules
from ..core.table_limits import (
    DEFAULT_MAX_SPECTATORS,
    DEFAULT_SEAT_TIMEOUT,
    MAX_MAX_SPECTATORS,
    MAX_SEAT_TIMEOUT,
    MIN_SEAT_TIMEOUT,
)
from .agreement import REQUEST_TIMEOUT

DEFAULT_RECONNECT_GRACE = 300.0
"""Seconds a seat is kept for the identity that sat in it after they left."""
DEFAULT_CLOSE_AFTER = 30.0
"""Seconds a table with nobody at it (and no seat kept for anyone) stays open."""
DEFAULT_SHORT_STAY = 10.0
"""A player who leaves within this many seconds of first sitting in a seat, before anyone flipped, keeps nothing."""
DEFAULT_LOG_LINES = 100
MIN_AUTO_SPEED = 0.5
MAX_AUTO_SPEED = 128.0
"""Battles per second at most at a shared table ("max" means this): every link carries every battle."""
DEFAULT_AUTO_SPEED = 4.0


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Everything a host chooses about its tables; out-of-range values raise ``ValueError``."""

    rules: Rules = field(default_factory=Rules)
    seat_timeout: float = DEFAULT_SEAT_TIMEOUT
    reconnect_grace: float = DEFAULT_RECONNECT_GRACE
    close_after: float = DEFAULT_CLOSE_AFTER
    short_stay: float = DEFAULT_SHORT_STAY
    max_speed: float = MAX_AUTO_SPEED
    """Auto-play's top speed, battles per second, whatever a player asks ("max" means this)."""
    max_spectators: int = DEFAULT_MAX_SPECTATORS
    log_lines: int = DEFAULT_LOG_LINES
    request_timeout: float = REQUEST_TIMEOUT
    """Seconds a request waits for the other player's answer."""

    def __post_init__(self) -> None:
        for label, value, low, high in (
            ("seat timeout", self.seat_timeout, MIN_SEAT_TIMEOUT, MAX_SEAT_TIMEOUT),
            ("reconnect grace", self.reconnect_grace, 0.0, 86400.0),
            ("close after", self.close_after, 0.0, 86400.0),
            ("short stay", self.short_stay, 0.0, 3600.0),
            ("max speed", self.max_speed, MIN_AUTO_SPEED, 1000.0),
            ("request timeout", self.request_timeout, 1.0, 3600.0),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{label} must be a number of seconds, not {value!r}")
            if not low <= value <= high:
                raise ValueError(f"{label} must be from {low:g} to {high:g} seconds, not {value:g}")
        if isinstance(self.log_lines, bool) or not isinstance(self.log_lines, int) or not 0 <= self.log_lines <= 1000:
            raise ValueError(f"log lines must be a whole number from 0 to 1000, not {self.log_lines!r}")
        spectators = self.max_spectators
        if isinstance(spectators, bool) or not isinstance(spectators, int) or not 0 <= spectators <= MAX_MAX_SPECTATORS:
            raise ValueError(f"max spectators must be a whole number from 0 to {MAX_MAX_SPECTATORS}, not {spectators!r}")


def clamp_speed(speed: float, top: float = MAX_AUTO_SPEED) -> float:
    """An auto-play speed a shared table plays: from 0.5 battles per second to ``top`` (at most 128; "max": that)."""
    if math.isnan(speed):
        return min(DEFAULT_AUTO_SPEED, top)
    return min(MAX_AUTO_SPEED, top, max(MIN_AUTO_SPEED, speed))
