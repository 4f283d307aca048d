"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .presentation.speed import DEFAULT_SPEED
from .rules import Rules

DEFAULT_NAMES = ("Player 1", "Player 2")
MAX_NAME_LENGTH = 16
SCREENSAVER_PAUSE = 5.0
"""Seconds the screensaver shows a finished game before dealing the next."""


@dataclass(frozen=True)
class PlaySettings:
    seed: int | None = None
    rules: Rules = field(default_factory=Rules)
    auto: bool = False
    speed: float = DEFAULT_SPEED
    screensaver: bool = False
    pause_on_war: bool = False
    time_limit: float | None = None  # minutes per game
    names: tuple[str, str] = DEFAULT_NAMES
    ascii: bool = False
    packets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None  # a hand-made deal (tests, replays)
    screensaver_pause: float = SCREENSAVER_PAUSE
