"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING

from .cards import Card
from .presentation.cells import cell_width
from .presentation.speed import DEFAULT_SPEED, MAX
from .presentation.unfolding import WAR_STEP
from .rules import Rules

if TYPE_CHECKING:
    from .config import Preferences

SESSION_MINUTES_VARIABLE = "WAR_TUI_SESSION_MINUTES"
"""Set by ``war-tui serve-ssh --max-session-minutes`` for each game it runs: the game shows the time left."""
DEFAULT_NAMES = ("Player 1", "Player 2")
MAX_NAME_LENGTH = 16
SCREENSAVER_PAUSE = 5.0

# What ``war-tui serve-ssh`` tells each game it starts. A client cannot set them: the server passes on
# none of a client's variables but a few of its own and these.
SERVED_VARIABLE = "WAR_TUI_SERVED"  # "1": played over SSH
TOP_SPEED_VARIABLE = "WAR_TUI_TOP_SPEED"  # battles per second that "max" means
NOTICE_VARIABLE = "WAR_TUI_NOTICE"  # one sentence to show once the board is up
ERROR_FD_VARIABLE = "WAR_TUI_ERROR_FD"  # where crash reports go (the server's log), never the player's screen
PLAYER_ID_VARIABLE = "WAR_TUI_PLAYER_ID"  # who the player is, opaque: "key:SHA256:..." (their key) or "addr:..."
# (their address, hashed, when they offered no key); a served game shows its player only their own games
# A game the server starts for a shared table (only honoured with WAR_TUI_SERVED=1): the process's end of a
# socket to the server's Link for this connection, and what the server already did with that connection.
TABLE_FD_VARIABLE = "WAR_TUI_TABLE_FD"  # the socket's file descriptor number, inherited
TABLE_MODE_VARIABLE = "WAR_TUI_TABLE_MODE"  # one of TABLE_MODES
TABLE_MODES = ("play", "watch", "lobby")
"""play: joined as a player (a spectator when the seats were full); watch: joined as a spectator;
lobby: watching the lobby (the game process asks to join when the person picks a table)."""
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
    top_speed: float = MAX  # auto-play's fastest; "max" means this when it is a number (served games)
    served: bool = False  # played over SSH: the player is not the machine's user, so no paths are shown
    notice: str | None = None  # said once the board is up (what the SSH server refused, for instance)
    two_players: bool = False  # --two-players: a local table, both seats at this keyboard
    table_fd: int | None = None  # served at a shared table: the socket to the server (TABLE_FD_VARIABLE)
    table_mode: str | None = None  # one of TABLE_MODES when table_fd is set


# A path as the statistics store words them: from the first slash to a space, comma, semicolon or bracket.
_PATH = re.compile(r"(?<![\w.])/[^\s;,()]*")


def without_paths(text: str, known: PurePath | None = None) -> str:
    """``text`` with the file-system paths in it named, not shown (a served game's notices)."""
    if known is not None:
        text = text.replace(str(known), "the statistics file")
        if len(str(known.parent)) > 1:
            folder = str(known.parent)
            text = text.replace(f"the folder {folder}", "the statistics folder").replace(folder, "the statistics folder")
    return _PATH.sub("a folder on the server", text)
