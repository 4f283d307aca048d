"""What every door's games share: the limits of one game, of the house, and of the shared tables.

Each of them an operator chooses is declared once, by its flag's option (its name, range, default and help):
the field's default is the option's, ``serve-ssh``'s flag table shows the option, and ``from_flags`` fills the
field from what was parsed (``settings.options.setting``). The tables' own bounds are the tables' (``tables``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.rules import Rules
from ..core.table_limits import (
    DEFAULT_MAX_LOBBY_READERS,
    DEFAULT_MAX_SPECTATORS,
    DEFAULT_MAX_TABLES,
    DEFAULT_SEAT_TIMEOUT,
    DEFAULT_SEATS_PER_VISITOR,
    DEFAULT_TABLES_PER_VISITOR,
    MAX_MAX_SPECTATORS,
    MAX_MAX_TABLES,
    MAX_PER_VISITOR,
    MAX_SEAT_TIMEOUT,
    MIN_SEAT_TIMEOUT,
)
from ..settings.options import Option, declared_options, number, setting, whole
from ..settings.values import MAX_MINUTES, minutes_value

if TYPE_CHECKING:  # the command line reads the flags below with neither loaded
    from ..cluster.seam import ClusterConfig
    from ..stats import StatsStore

SHUTDOWN_GRACE = 5.0
"""Seconds a game gets to say goodbye once the server is stopping."""
MAX_SESSIONS = 10_000
MAX_NICE = 19  # the lowest priority there is
MAX_IDLE_MINUTES = 7 * 24 * 60
LISTEN_HOST = Option("host", "127.0.0.1", help="address to listen on (default {default})")
"""Where the doors listen: ``--host``, the SSH door's and ``serve``'s web door's alike."""

# The SSH door's own flags (``ssh.server.ServerConfig``'s fields take them). They are declared here, with the
# flags every door shares, because ``serve`` parses them whichever doors it opens: the web door alone loads
# nothing of the SSH door.
DEFAULT_PORT = 2222
KIB = 1024
MAX_RENDERERS_PER_TABLE = 64
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


@dataclass(frozen=True, kw_only=True)
class GameConfig:
    """Everything the game server decided before any door opened. A door's own settings are its own."""

    session_argv: Sequence[str]
    secret_key: bytes = field(default=b"", repr=False)
    """What identities and cookies are hashed with; a door's config may derive it instead (``secret``)."""
    max_sessions: int = setting(whole(
        "max_sessions", 1, MAX_SESSIONS, 32, metavar="N",
        help="games at once (on every node of a cluster together), {low}-{high:,}; the next client is told the"
        " server is full (default {default})"))
    max_sessions_per_address: int = setting(whole(
        "max_sessions_per_address", 1, MAX_SESSIONS, 4, metavar="N",
        help="games at once from one address (an IPv6 /64 counts as one; on every node of a cluster together),"
        " {low}-{high:,} (default {default})"))
    max_attempts_per_minute: int = setting(whole(
        "max_attempts_per_minute", 1, 1_000_000, 30, metavar="N",
        help="connection attempts one address may make per minute, {low}-{high:,} (default {default})"))
    session_seconds: float | None = setting(
        Option("max_session_minutes", None, parse=minutes_value("--max-session-minutes"), high=MAX_MINUTES,
               metavar="M", help="end each game after M minutes, more than 0 and at most {high:,} (default: no"
               " limit, screensavers idle on purpose)"),
        lambda minutes: minutes * 60 if minutes else None)
    shutdown_grace: float = SHUTDOWN_GRACE
    game_memory_mb: int = setting(whole(
        "game_memory_mb", 128, 65536, 512, metavar="MB",
        help="address space each game may use, {low}-{high:,} MiB; a game past it ends with a goodbye"
        " (default {default})"))
    game_nice: int = setting(whole(
        "game_nice", 0, MAX_NICE, 10, metavar="N",
        help="how far below the server's CPU priority each game runs, {low}-{high}: added to the server's nice"
        " value; from 1 a game's session group also settles after its first 2 s, at nice 5 at a table and"
        " {high} solo, 0 runs games beside the server (default {default})"))
    max_speed: float = setting(number(
        "max_speed", 1, 1000, 60.0, "battles per second", metavar="S",
        help="auto-play's top speed in served games, {low:g}-{high:g} battles per second; the game's 'max'"
        " means this (default {default:g})"))
    input_limit: int = 64 * 1024
    max_tables: int = setting(whole(
        "max_tables", 1, MAX_MAX_TABLES, DEFAULT_MAX_TABLES, metavar="N",
        help="shared tables open at once, {low}-{high}; past it a new table is refused and the lobby says"
        " the server is full (default {default})"))
    seat_timeout: float = setting(number(
        "seat_timeout", MIN_SEAT_TIMEOUT, MAX_SEAT_TIMEOUT, DEFAULT_SEAT_TIMEOUT, "seconds", metavar="S",
        help="seconds a player at a table may stay idle after the other flipped before the house flips"
        " for them, {low:g}-{high:g} (default {default:g})"))
    max_spectators: int = setting(whole(
        "max_spectators", 0, MAX_MAX_SPECTATORS, DEFAULT_MAX_SPECTATORS, metavar="N",
        help="spectators at one table, {low}-{high:,}; the next one is refused in one line (default {default})"))
    max_lobby: int = setting(whole(
        "max_lobby", 1, MAX_SESSIONS, DEFAULT_MAX_LOBBY_READERS, metavar="N",
        help="people in the lobby ('tables') at once, {low}-{high:,} (default {default})"))
    max_tables_per_address: int = setting(whole(
        "max_tables_per_address", 1, MAX_PER_VISITOR, DEFAULT_TABLES_PER_VISITOR, metavar="N",
        help="open tables one address (or one key) may have opened, on every node of a cluster together,"
        " {low}-{high:,} (default {default})"))
    max_seats_per_address: int = setting(whole(
        "max_seats_per_address", 1, MAX_PER_VISITOR, DEFAULT_SEATS_PER_VISITOR, metavar="N",
        help="seats one address (or one key) may hold at once, sitting or kept while away, on every node of"
        " a cluster together, {low}-{high:,}; past it they watch (default {default})"))
    table_rules: Rules = field(default_factory=Rules)
    stats: Callable[[], StatsStore] | None = None
    """Opens the store that records finished table games (on first need, in a thread); None: not recorded."""
    leaderboard: bool = setting(
        Option("no_leaderboard", False, kind="switch",
               help="keep no leaderboard: the lobby's s shows none (finished table games are still recorded)"),
        lambda off: not off)
    """The lobby offers the leaderboard read from that store (``--no-leaderboard``: it does not)."""
    idle_seconds: float | None = setting(
        number("idle_minutes", 0, MAX_IDLE_MINUTES, 30.0, "minutes", metavar="M",
               help="end a session (player, spectator, lobby or solo game) that sent no keys for M minutes, with a"
               " goodbye; {low:g}-{high:,}, 0: never (default {default:g})"),
        lambda minutes: minutes * 60 or None)
    """A session that sends no keys for this long is ended with a goodbye; None or 0: never."""
    idle_exempt_screensaver: bool = setting(Option(
        "idle_exempt_screensaver", False, kind="switch",
        help="never end a solo game for idling when the game flags start it on auto-play"
        " (-- --screensaver or -- --auto): a kiosk's screensaver; table sessions still end"))
    """Solo games (the operator's screensaver) are never ended for idling; table sessions still are."""
    idle_note_seconds: float = 60.0
    """No keys for this long counts a session as idle in the "server full" log line."""
    max_server_mb: int = setting(whole(
        "max_server_mb", 32, 1_048_576, 400, metavar="MB",
        help="past this resident memory the server refuses new connections, {low}-{high:,} MB (default {default});"
        " games have their own limit"))
    """Past this resident size the server refuses new connections."""
    debug: bool = setting(
        Option("log_level", "info", choices=("info", "debug"),
               help="debug: whole crash reports of games in the log, not one line each, and the web door's"
               " connections closed before they sent a byte (default {default})"),
        lambda level: level == "debug")
    """Whole crash reports in the log (``--log-level debug``), not one line each."""
    preload_argv: Sequence[str] | None = None
    """The preloaded game parent's command (``war_tui.preload``; its socket's fd is appended), from which
    games are forked; None: every game is started afresh. Only for a ``session_argv`` that runs this Python."""
    cluster: ClusterConfig | None = None
    """The NATS the tables are kept in (an embedded nats-server, or ``--nats``); None: none (the tables live
    in this process alone, as in tests of the server's other parts)."""

    def secret(self) -> bytes:
        """The server's secret: identities made from addresses and cookie tokens are hashed with it."""
        if not self.secret_key:
            raise ValueError("a game server needs a secret to hash identities with")
        return self.secret_key


GAME_OPTIONS = declared_options(GameConfig)
"""The flags that declare ``GameConfig``'s fields, by name: ``serve-ssh``'s flag table shows them."""
