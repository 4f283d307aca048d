"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from .cards import Card
from .presentation import DEFAULT_SPEED, MAX
from .rules import Rules

DEFAULT_NAMES = ("Player 1", "Player 2")
MAX_NAME_LENGTH = 16
SCREENSAVER_PAUSE = 5.0

# What ``war-tui serve-ssh`` tells each game it starts. A client cannot set them: the server passes on
# none of a client's variables but a few of its own and these.
SERVED_VARIABLE = "WAR_TUI_SERVED"  # "1": played over SSH
TOP_SPEED_VARIABLE = "WAR_TUI_TOP_SPEED"  # battles per second that "max" means
NOTICE_VARIABLE = "WAR_TUI_NOTICE"  # one sentence to show once the board is up
ERROR_FD_VARIABLE = "WAR_TUI_ERROR_FD"  # where crash reports go (the server's log), never the player's screen
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
    top_speed: float = MAX  # auto-play's fastest; "max" means this when it is a number (served games)
    served: bool = False  # played over SSH: the player is not the machine's user, so no paths are shown
    notice: str | None = None  # said once the board is up (what the SSH server refused, for instance)


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
