"""The web door's own settings, declared by their flags' options (``settings.options.setting``); the limits of
each game are the game server's (``GameConfig``)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any

from ..serving.config import LISTEN_HOST, MAX_IDLE_MINUTES, MAX_SESSIONS, SHUTDOWN_GRACE
from ..settings.options import Option, number, setting, whole
from .hosts import WebHost, web_host_value
from .http_guard import WEB_DOOR, GuardConfig

MAX_MESSAGE_KB = 1024
MAX_BACKLOG_KB = 65_536
KIB = 1024


def given(hosts: Any) -> tuple[WebHost, ...]:
    """``--web-host`` as argparse holds a repeated flag: a list of each one given, or None."""
    return tuple(hosts or ())


@dataclass(frozen=True)
class WebConfig:
    """The web door's own settings; the per-game limits are the game server's ``GameConfig``'s."""

    host: str = setting(LISTEN_HOST)
    port: int = 8080
    max_sessions: int = setting(whole(
        "web_max_sessions", 1, MAX_SESSIONS, 32, metavar="N", group=WEB_DOOR,
        help="browser games at once, {low}-{high:,} (default {default}); --max-sessions still counts the games"
        " of both doors"))
    max_sessions_per_address: int = setting(whole(
        "web_max_sessions_per_address", 1, MAX_SESSIONS, 4, metavar="N", group=WEB_DOOR,
        help="browser games at once from one address, {low}-{high:,} (default {default})"))
    idle_seconds: float | None = setting(
        number("web_idle_minutes", 0, MAX_IDLE_MINUTES, 30.0, "minutes", metavar="M", group=WEB_DOOR,
               help="end a browser game that sent no keys for M minutes, {low:g}-{high:,}, 0: never"
               " (default {default:g})"),
        lambda minutes: minutes * 60 or None)
    message_bytes: int = setting(
        whole("web_message_kb", 1, MAX_MESSAGE_KB, 16, metavar="KB", group=WEB_DOOR,
              help="the largest websocket message a browser may send, {low}-{high:,} KiB; a larger one ends the"
              " game (default {default})"),
        lambda kb: kb * KIB)
    messages_per_second: int = setting(whole(
        "web_messages_per_second", 1, 10_000, 200, metavar="N", group=WEB_DOOR,
        help="websocket messages a browser may send a second on average (twice as many in a burst),"
        " {low}-{high:,}; more ends the game (default {default})"))
    backlog_bytes: int = setting(
        whole("web_backlog_kb", 16, MAX_BACKLOG_KB, 256, metavar="KB", group=WEB_DOOR,
              help="screen bytes held for a browser that reads slowly, {low}-{high:,} KiB; past it the game waits"
              " for the browser (default {default})"),
        lambda kb: kb * KIB)
    ssl_context: ssl.SSLContext | None = None
    shutdown_grace: float = SHUTDOWN_GRACE
    heartbeat: float = 10.0
    """Seconds between pings; a browser that answers none within half of it is gone."""
    guard: GuardConfig = GuardConfig()
    """The bounds on HTTP connections before their websocket (``http_guard``)."""
    hosts: tuple[WebHost, ...] = setting(
        Option("web_host", None, parse=web_host_value, kind="repeat", metavar="NAME", group=WEB_DOOR,
               help="a host name the web door answers to (NAME, NAME:PORT, or https://NAME[:PORT] behind a proxy);"
               " repeat for more; any other name in a request is refused (default: the --host address and"
               " localhost, at the door's port)"),
        given)
    """The host names the door answers to (``--web-host``); none: the listening address and localhost."""
