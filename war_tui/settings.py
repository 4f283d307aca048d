"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Card
from .presentation.cells import cell_width
from .presentation.speed import DEFAULT_SPEED
from .presentation.unfolding import WAR_STEP
from .rules import Rules

if TYPE_CHECKING:
    from .config import Preferences

SESSION_MINUTES_VARIABLE = "WAR_TUI_SESSION_MINUTES"
"""Set by ``war-tui serve-ssh --max-session-minutes`` for each game it runs: the game shows the time left."""
DEFAULT_NAMES = ("Player 1", "Player 2")
MAX_NAME_LENGTH = 16
SCREENSAVER_PAUSE = 5.0
"""Seconds the screensaver shows a finished game before dealing the next."""
RESULT_HOLD = 1.0
"""Seconds a result stays before space, enter or r deal again: a key held through the last battle cannot skip it."""


def names_value(names: Sequence[str]) -> tuple[str, str]:
    """Two players' names, trimmed; the ``--names`` flag and the preferences file both check them here."""
    if len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise ValueError("--names must be two names")
    for name in names:
        if not name.strip() or not name.isprintable():
            raise ValueError("--names must be two printable, non-blank names")
        if cell_width(name) > MAX_NAME_LENGTH:
            raise ValueError(
                f"--names: '{name}' is wider than {MAX_NAME_LENGTH} columns (wide characters such as 山 take two)"
            )
    pair = (names[0].strip(), names[1].strip())
    if pair[0].casefold() == pair[1].casefold():
        raise ValueError("--names: the two players need different names")
    return pair


@dataclass(frozen=True)
class PlaySettings:
    seed: int | None = None
    rules: Rules = field(default_factory=Rules)
    auto: bool = False
    speed: float = DEFAULT_SPEED
    screensaver: bool = False
    pause_on_war: bool = False
    time_limit: float | None = None  # minutes per game
    session_minutes: float | None = None  # the server's limit on the whole session (it ends the game itself)
    names: tuple[str, str] = DEFAULT_NAMES
    ascii: bool = False
    packets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None  # a hand-made deal (tests, replays)
    screensaver_pause: float = SCREENSAVER_PAUSE
    war_step: float = WAR_STEP  # seconds each step of a war stays on the pile; 0 shows wars whole
    result_hold: float = RESULT_HOLD  # seconds a finished game's result ignores the keys that deal again
    theme: str | None = None  # a Textual theme's name; None keeps Textual's default
    config_problems: tuple[str, ...] = ()  # what was wrong in the preferences file, shown once at start
    preferences: Preferences | None = None  # where changes made in the game are saved; None: nowhere
