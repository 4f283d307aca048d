"""What every door's games share: the limits of one game, of the house, and of the shared tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..cluster.seam import ClusterConfig
from ..core.rules import Rules
from ..stats import StatsStore

SHUTDOWN_GRACE = 5.0
"""Seconds a game gets to say goodbye once the server is stopping."""


@dataclass(frozen=True, kw_only=True)
class GameConfig:
    """Everything the game server decided before any door opened. A door's own settings are its own."""

    session_argv: Sequence[str]
    secret_key: bytes = field(default=b"", repr=False)
    """What identities and cookies are hashed with; a door's config may derive it instead (``secret``)."""
    max_sessions: int = 32
    max_sessions_per_address: int = 4
    attempts_per_minute: int = 30
    session_seconds: float | None = None
    shutdown_grace: float = SHUTDOWN_GRACE
    game_memory_mb: int = 512
    game_niceness: int = 10
    max_speed: float = 60.0
    input_limit: int = 64 * 1024
    max_tables: int = 16
    seat_timeout: float = 60.0
    max_spectators: int = 10
    max_lobby: int = 32
    tables_per_address: int = 4
    seats_per_address: int = 4
    table_rules: Rules = field(default_factory=Rules)
    stats: Callable[[], StatsStore] | None = None
    """Opens the store that records finished table games (on first need, in a thread); None: not recorded."""
    leaderboard: bool = True
    """The lobby offers the leaderboard read from that store (``--no-leaderboard``: it does not)."""
    idle_seconds: float | None = 30 * 60.0
    """A session that sends no keys for this long is ended with a goodbye; None or 0: never."""
    idle_exempt_screensaver: bool = False
    """Solo games (the operator's screensaver) are never ended for idling; table sessions still are."""
    idle_note_seconds: float = 60.0
    """No keys for this long counts a session as idle in the "server full" log line."""
    max_server_mb: int = 400
    """Past this resident size the server refuses new connections."""
    debug: bool = False
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
