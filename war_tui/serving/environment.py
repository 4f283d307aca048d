"""The environment a served game runs in: the client's terminal kind, its kind of locale, home, nothing secret."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ..presentation.glyphs import LOCALE_VARIABLES, locale_is_utf8
from ..settings.options import served_environment
from ..settings.served import (
    ACCESSIBLE_VARIABLE,
    NOTICE_VARIABLE,
    PLAYER_ID_VARIABLE,
    SESSION_MINUTES_VARIABLE,
    accessible,
)
from .config import GameConfig

UTF8_LOCALE = "C.UTF-8"
PLAIN_LOCALE = "C"
DEFAULT_TERM = "xterm-256color"
# A terminal name is looked up as a file name in terminfo: letters, digits and a little punctuation only.
TERM_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
# Server-side settings the game may need to find its data as the server's user does; nothing else leaks.
SERVER_VARIABLES = ("HOME", "PATH", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
PERSONAL_VARIABLES = frozenset({SESSION_MINUTES_VARIABLE, PLAYER_ID_VARIABLE, NOTICE_VARIABLE})
"""What a game is told about its own connection only: never given to a renderer drawn for many."""


def session_environment(
    term: str | None, client_env: Mapping[str, str], session_seconds: float | None = None
) -> dict[str, str]:
    """The game's whole environment: the client's terminal type, its kind of locale and where home is.

    Never COLUMNS or LINES (they would pin the size and hide resizes), nothing else from the client
    but a well-formed COLORTERM, NO_COLOR and ACCESSIBLE, nothing of the server's secrets. With a session limit,
    the game is told it, so it can show the time left and warn a minute before the end.
    """
    env = {name: os.environ[name] for name in SERVER_VARIABLES if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env["TERM"] = term if term and TERM_PATTERN.fullmatch(term) else DEFAULT_TERM
    env.update(locale_variables(client_env))
    if client_env.get("COLORTERM") in ("truecolor", "24bit"):
        env["COLORTERM"] = client_env["COLORTERM"]
    if client_env.get("NO_COLOR"):
        env["NO_COLOR"] = "1"
    if accessible(client_env):
        env[ACCESSIBLE_VARIABLE] = "1"
    if session_seconds:
        env.update(served_environment(session_minutes=session_seconds / 60))
    return env


def locale_variables(client_env: Mapping[str, str]) -> dict[str, str]:
    """The game's locale: C.UTF-8, or C when the locale the client sends is not UTF-8 (``LC_ALL``, then
    ``LC_CTYPE``, then ``LANG``, as the C library reads them), so the board draws in ASCII as it would on the
    client's own machine. A client that sends none of them gets C.UTF-8, as sshd gives the server's own.

    C goes in ``LC_ALL``: a Python on the way to the game (the pty's launcher) would turn a ``LANG=C`` into
    ``LC_CTYPE=C.UTF-8`` for the processes after it (PEP 538), never an ``LC_ALL``. ``PYTHONUTF8`` keeps the
    game's own text (names, the line mode's sentences) in UTF-8 all the same.
    """
    if any(client_env.get(name) for name in LOCALE_VARIABLES) and not locale_is_utf8(client_env):
        return {"LC_ALL": PLAIN_LOCALE, "PYTHONUTF8": "1"}
    return {"LANG": UTF8_LOCALE, "LC_CTYPE": UTF8_LOCALE}


def served_variables(max_speed: float, notice: str | None, leaderboard: bool = True) -> dict[str, str]:
    """What the server tells the game about being served (the served variables of ``war_tui.settings.options``)."""
    return served_environment(served=True, top_speed=max_speed, notice=notice or None, leaderboard=leaderboard)


def game_environment(
    config: GameConfig, term: str | None, client_env: Mapping[str, str], *, line_input: str | None,
    identity: str | None, notice: str | None = None, ssh_at: str | None = None, web_at: str | None = None,
) -> dict[str, str]:
    """A served game's environment, whichever door it came through: the client's terminal and the few variables
    kept (``session_environment``), what the server tells it (``served_variables``), the line mode reading "keys"
    or whole "lines" (None: the full screen), and who plays (None: not told, the game records under a session's
    own). Whole lines come from a client with no terminal to draw on: its TERM is dumb.
    """
    env = session_environment(term, client_env, config.session_seconds)
    env.update(served_variables(config.max_speed, notice, leaderboard=config.leaderboard))
    env.update(served_environment(line_input=line_input, player=identity, ssh_at=ssh_at, web_at=web_at))
    if line_input == "lines":
        env["TERM"] = "dumb"
    return env


def home_directory(env: Mapping[str, str]) -> str:
    home = env.get("HOME", "")
    return home if home and os.path.isdir(home) else "/"
