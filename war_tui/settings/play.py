"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.cards import Card
from ..core.rules import Rules
from ..core.pace import MAX
from ..presentation.speed import DEFAULT_SPEED
from ..presentation.unfolding import WAR_STEP

if TYPE_CHECKING:
    from .preferences import Preferences

DEFAULT_NAMES = ("Player 1", "Player 2")
SCREENSAVER_PAUSE = 5.0
"""Seconds the screensaver shows a finished game before dealing the next."""
RESULT_HOLD = 1.0
"""Seconds a result stays before space, enter or r deal again: a key held through the last battle cannot skip it."""


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
    deck: str = "two-colour"  # one of settings.values.DECKS: "four-colour" gives diamonds and clubs colours of their own
    config_problems: tuple[str, ...] = ()  # what was wrong in the preferences file, shown once at start
    preferences: Preferences | None = None  # where changes made in the game are saved; None: nowhere
    top_speed: float = MAX  # auto-play's fastest; "max" means this when it is a number (served games)
    served: bool = False  # played over SSH: the player is not the machine's user, so no paths are shown
    player: str | None = None  # served: who plays (PLAYER_ID_VARIABLE), recorded with each game; their stats only
    notice: str | None = None  # said once the board is up (what the SSH server refused, for instance)
    two_players: bool = False  # --two-players: a local table, both seats at this keyboard
    table_fd: int | None = None  # served at a shared table: the socket to the server (TABLE_FD_VARIABLE)
    table_mode: str | None = None  # one of TABLE_MODES when table_fd is set
