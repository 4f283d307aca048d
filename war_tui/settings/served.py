"""What ``war-tui serve-ssh`` tells each game it starts, and what a served game keeps to itself.

A client cannot set these variables: the server passes on none of a client's variables but a few of
its own and these.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import PurePath

SESSION_MINUTES_VARIABLE = "WAR_TUI_SESSION_MINUTES"
"""Set by ``war-tui serve-ssh --max-session-minutes`` for each game it runs: the game shows the time left."""
SERVED_VARIABLE = "WAR_TUI_SERVED"  # "1": played over SSH
TOP_SPEED_VARIABLE = "WAR_TUI_TOP_SPEED"  # battles per second that "max" means
NOTICE_VARIABLE = "WAR_TUI_NOTICE"  # one sentence to show once the board is up
ERROR_FD_VARIABLE = "WAR_TUI_ERROR_FD"  # crash reports go to the server's log, not the player's screen
PLAYER_ID_VARIABLE = "WAR_TUI_PLAYER_ID"
"""Who plays, opaque: "key:SHA256:..." or, with no key, "addr:..." (hashed); their games are recorded and
shown under it."""
# A game at a shared table (with WAR_TUI_SERVED=1): its socket to the server's Link.
TABLE_FD_VARIABLE = "WAR_TUI_TABLE_FD"  # the socket's file descriptor number, inherited
TABLE_MODE_VARIABLE = "WAR_TUI_TABLE_MODE"  # one of TABLE_MODES
LEADERBOARD_VARIABLE = "WAR_TUI_LEADERBOARD"  # "0": the server keeps no leaderboard (--no-leaderboard)
SSH_AT_VARIABLE = "WAR_TUI_SSH_AT"
"""Where the SSH door was reached, as ssh's arguments: ``-p 2222 192.0.2.7`` (a served game's links)."""
WEB_AT_VARIABLE = "WAR_TUI_WEB_AT"
"""The web door's origin as the browser asked for it: ``https://war.example.org`` (a served game's links)."""
REPLAY_VARIABLE = "WAR_TUI_REPLAY"
"""A replay of the served statistics instead of a game: ``GAME_ID`` or ``GAME_ID@BATTLE`` (``ssh HOST replay``)."""
EXPORT_VARIABLE = "WAR_TUI_EXPORT"
"""A game of the served statistics written out instead of a game: ``GAME_ID --format FORMAT`` (``ssh HOST export``)."""
LINE_VARIABLE = "WAR_TUI_LINE"
"""The line mode, reading "keys" one at a time or whole "lines" (an SSH client without a terminal)."""
LINE_INPUTS = ("keys", "lines")
ACCESSIBLE_VARIABLE = "ACCESSIBLE"
"""Set (not empty, 0, false, no or off): the line mode, locally as ``ACCESSIBLE=1 war-tui`` and from an SSH
client that sends it (``ssh -o SetEnv=ACCESSIBLE=1 HOST``): the one variable of a client's a game is given."""
MAX_PLAYER_ID = 256  # characters; printable ASCII
SESSION_PLAYER_PREFIX = "session:"
"""A served game told no identity records and shows only its own session's games, under a random one."""


def accessible(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` asks for the line mode by ``ACCESSIBLE``."""
    return switched_on(environ.get(ACCESSIBLE_VARIABLE, ""))


def switched_on(text: str) -> bool:
    """A variable as a switch: on unless empty, 0, false, no or off."""
    return text.strip().lower() not in ("", "0", "false", "no", "off")


def fd_number(variable: str, high: int) -> Callable[[str], int]:
    """Reads an inherited file descriptor's number (3 to ``high``); refuses in a sentence naming ``variable``."""

    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or not 3 <= int(text) <= high:
            raise ValueError(f"{variable} must be a file descriptor number from 3 to {high}")
        return int(text)

    return parse


def one_of(variable: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    """Reads one of ``choices``; refuses anything else in a sentence naming ``variable``."""

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"{variable} must be one of {', '.join(choices)}")
        return text

    return parse


class TableMode(StrEnum):
    """What a game process at a table is for: the server tells it from the connection's command."""

    PLAY = "play"  # sit at the table (or watch, if both seats are taken)
    WATCH = "watch"
    LOBBY = "lobby"
    TV = "tv"


TABLE_MODES = tuple(mode.value for mode in TableMode)
"""play: joined as a player (a spectator when the seats were full); watch: joined as a spectator;
lobby: watching the lobby (the game process asks to join when the person picks a table); tv: War TV, a spectator
the server moves from table to table (``serving.tables.tv``)."""


# A path in the store's words: a slash up to a space, comma, semicolon or bracket.
_PATH = re.compile(r"(?<![\w.])/[^\s;,()]*")


def without_paths(text: str, known: PurePath | None = None) -> str:
    """``text`` with the file-system paths in it named, not shown (a served game's notices)."""
    if known is not None:
        text = text.replace(str(known), "the statistics file")
        if len(str(known.parent)) > 1:
            folder = str(known.parent)
            text = text.replace(f"the folder {folder}", "the statistics folder").replace(folder, "the statistics folder")
    return _PATH.sub("a folder on the server", text)
