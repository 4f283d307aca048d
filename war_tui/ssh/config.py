"""The SSH door's own settings, declared by their flags' options: ``ServerConfig``'s fields take them
(``settings.options.setting``), and ``serve-ssh``'s flag table shows them. Nothing here loads asyncssh: the
command line reads them before any door opens."""

from __future__ import annotations

from ..serving.config import MAX_SESSIONS
from ..settings.options import Option, whole

DEFAULT_PORT = 2222
MAX_RENDERERS_PER_TABLE = 64
KIB = 1024

MAX_UNAUTHENTICATED = whole(
    "max_unauthenticated", 1, MAX_SESSIONS, 64, metavar="N",
    help="connections not yet logged in, {low}-{high:,}; past it the oldest is dropped (default {default})")
RENDERERS_PER_TABLE = whole(
    "renderers_per_table", 1, MAX_RENDERERS_PER_TABLE, 4, metavar="N",
    help="game processes drawing one table for its spectators, or the lobby for those browsing it (one per"
    " screen size and terminal kind), {low}-{high}; a spectator past it gets a game of their own"
    " (default {default})")
SPECTATOR_BACKLOG_KB = whole(
    "spectator_backlog_kb", 16, 16 * KIB, 128, metavar="KB",
    help="a shared rendering's output the server holds for one slow spectator, {low}-{high:,} KB; past it"
    " they get the whole screen afresh once they catch up (default {default})")
SPECTATOR_BACKLOG = SPECTATOR_BACKLOG_KB.default * KIB
"""Bytes of a renderer's stream the server holds for one spectator before it stops copying to them."""
NO_FANOUT = Option(
    "no_fanout", False, kind="switch",
    help="give every spectator a game process of their own instead of sharing one rendering per table,"
    " screen size and terminal kind")
