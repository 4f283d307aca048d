"""The web door's own settings; the limits of each game are the game server's (``GameConfig``)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

from ..serving.config import SHUTDOWN_GRACE
from .hosts import WebHost
from .http_guard import GuardConfig


@dataclass(frozen=True)
class WebConfig:
    """The web door's own settings; the per-game limits are the game server's ``GameConfig``'s."""

    host: str = "127.0.0.1"
    port: int = 8080
    max_sessions: int = 32
    max_sessions_per_address: int = 4
    idle_seconds: float | None = 30 * 60.0
    message_bytes: int = 16 * 1024
    messages_per_second: int = 200
    backlog_bytes: int = 256 * 1024
    ssl_context: ssl.SSLContext | None = None
    shutdown_grace: float = SHUTDOWN_GRACE
    heartbeat: float = 10.0
    """Seconds between pings; a browser that answers none within half of it is gone."""
    guard: GuardConfig = GuardConfig()
    """The bounds on HTTP connections before their websocket (``http_guard``)."""
    hosts: tuple[WebHost, ...] = ()
    """The host names the door answers to (``--web-host``); none: the listening address and localhost."""
