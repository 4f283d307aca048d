"""``war-tui serve --ssh PORT --web PORT``: one server, an SSH door, a web door, or both.

Both doors share the tables, the lobby, the statistics, the preloaded game parent and every flag of
``serve-ssh`` (the per-game limits, the caps on games at once and per address); the web door has caps
of its own besides (``--web-*``).
"""

from __future__ import annotations

import argparse
import asyncio
import ssl
from pathlib import Path

from ..settings.values import number_value, positive_int
from ..web.hosts import web_host_value
from .common import Commands, UsageError
from .serve_ssh import MAX_IDLE_MINUTES, MAX_SESSIONS, _serve, add_server_flags, port_value, prepare_server

DEFAULT_WEB_SESSIONS = 32
DEFAULT_WEB_PER_ADDRESS = 4
DEFAULT_WEB_IDLE_MINUTES = 30.0
DEFAULT_MESSAGE_KB = 16
MAX_MESSAGE_KB = 1024
DEFAULT_MESSAGES_PER_SECOND = 200
MAX_MESSAGES_PER_SECOND = 10_000
DEFAULT_BACKLOG_KB = 256
MIN_BACKLOG_KB = 16
MAX_BACKLOG_KB = 65_536

DEFAULT_PENDING = 512
DEFAULT_PENDING_PER_ADDRESS = 32
DEFAULT_HEADER_SECONDS = 10.0
MAX_HEADER_SECONDS = 300.0
DEFAULT_KEEPALIVE_SECONDS = 30.0
MAX_KEEPALIVE_SECONDS = 3600.0

web_idle_value = number_value("--web-idle-minutes", 0, MAX_IDLE_MINUTES, "minutes", "30")
header_seconds_value = number_value("--web-header-seconds", 1, MAX_HEADER_SECONDS, "seconds", "10")
keepalive_seconds_value = number_value("--web-keepalive-seconds", 1, MAX_KEEPALIVE_SECONDS, "seconds", "30")


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the game over SSH, to browsers, or both",
        description="Serve the full-screen game through an SSH door (--ssh PORT), a web door (--web PORT: "
        "the game in a browser, at http://HOST:PORT/, /tables, /table/NAME, /watch/NAME) or both, one "
        "server sharing the tables. The flags of serve-ssh apply to both doors; the --web-* flags are "
        "the web door's own.",
        epilog="Game flags after '--' apply to every session, e.g. 'war-tui serve --web 8080 -- --screensaver'.",
    )
    parser.add_argument("--ssh", type=port_value, metavar="PORT", help="open the SSH door on PORT (0: any free port)")
    parser.add_argument("--web", type=port_value, metavar="PORT", help="open the web door on PORT (0: any free port)")
    web = parser.add_argument_group("the web door's own caps")
    web.add_argument(
        "--web-max-sessions", type=positive_int("--web-max-sessions", MAX_SESSIONS),
        default=DEFAULT_WEB_SESSIONS, metavar="N",
        help=f"browser games at once, 1-{MAX_SESSIONS:,} (default {DEFAULT_WEB_SESSIONS}); --max-sessions "
        "still counts the games of both doors",
    )
    web.add_argument(
        "--web-max-sessions-per-address", type=positive_int("--web-max-sessions-per-address", MAX_SESSIONS),
        default=DEFAULT_WEB_PER_ADDRESS, metavar="N",
        help=f"browser games at once from one address, 1-{MAX_SESSIONS:,} (default {DEFAULT_WEB_PER_ADDRESS})",
    )
    web.add_argument(
        "--web-idle-minutes", type=web_idle_value, default=DEFAULT_WEB_IDLE_MINUTES, metavar="M",
        help=f"end a browser game that sent no keys for M minutes, 0-{MAX_IDLE_MINUTES:,}, 0: never "
        f"(default {DEFAULT_WEB_IDLE_MINUTES:g})",
    )
    web.add_argument(
        "--web-message-kb", type=positive_int("--web-message-kb", MAX_MESSAGE_KB), default=DEFAULT_MESSAGE_KB,
        metavar="KB", help=f"the largest websocket message a browser may send, 1-{MAX_MESSAGE_KB:,} KiB; a larger "
        f"one ends the game (default {DEFAULT_MESSAGE_KB})",
    )
    web.add_argument(
        "--web-messages-per-second", metavar="N", default=DEFAULT_MESSAGES_PER_SECOND,
        type=positive_int("--web-messages-per-second", MAX_MESSAGES_PER_SECOND),
        help=f"websocket messages a browser may send a second on average (twice as many in a burst), "
        f"1-{MAX_MESSAGES_PER_SECOND:,}; more ends the game (default {DEFAULT_MESSAGES_PER_SECOND})",
    )
    web.add_argument(
        "--web-backlog-kb", type=positive_int("--web-backlog-kb", MAX_BACKLOG_KB, minimum=MIN_BACKLOG_KB),
        default=DEFAULT_BACKLOG_KB, metavar="KB",
        help=f"screen bytes held for a browser that reads slowly, {MIN_BACKLOG_KB}-{MAX_BACKLOG_KB:,} KiB; past "
        f"it the game waits for the browser (default {DEFAULT_BACKLOG_KB})",
    )
    web.add_argument(
        "--web-max-pending", type=positive_int("--web-max-pending", MAX_SESSIONS), default=DEFAULT_PENDING,
        metavar="N", help=f"HTTP connections not yet a game's websocket (a page loading, or idle between "
        f"requests), 1-{MAX_SESSIONS:,}; past it the oldest is closed (default {DEFAULT_PENDING})",
    )
    web.add_argument(
        "--web-max-pending-per-address", type=positive_int("--web-max-pending-per-address", MAX_SESSIONS),
        default=DEFAULT_PENDING_PER_ADDRESS, metavar="N",
        help=f"such connections from one address, 1-{MAX_SESSIONS:,}; past it a new one is closed at once "
        f"(default {DEFAULT_PENDING_PER_ADDRESS})",
    )
    web.add_argument(
        "--web-header-seconds", type=header_seconds_value, default=DEFAULT_HEADER_SECONDS, metavar="S",
        help=f"seconds a browser has to send a request's line and headers, 1-{MAX_HEADER_SECONDS:g} "
        f"(default {DEFAULT_HEADER_SECONDS:g})",
    )
    web.add_argument(
        "--web-keepalive-seconds", type=keepalive_seconds_value, default=DEFAULT_KEEPALIVE_SECONDS, metavar="S",
        help=f"seconds a connection may wait idle between requests, 1-{MAX_KEEPALIVE_SECONDS:g} "
        f"(default {DEFAULT_KEEPALIVE_SECONDS:g})",
    )
    web.add_argument(
        "--web-host", type=web_host_value, action="append", default=[], metavar="NAME",
        help="a host name the web door answers to (NAME, NAME:PORT, or https://NAME[:PORT] behind a proxy); "
        "repeat for more; any other name in a request is refused (default: the --host address and localhost, "
        "at the door's port)",
    )
    web.add_argument("--web-cert", type=Path, metavar="PATH", help="serve the web door over TLS with this "
                     "certificate chain (PEM); needs --web-key")
    web.add_argument("--web-key", type=Path, metavar="PATH", help="the private key of --web-cert (PEM)")
    add_server_flags(parser)
    parser.set_defaults(run=run)


def tls_context(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The web door's TLS context from the operator's files, or None; a bad file is one clear line."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise UsageError("--web-cert and --web-key go together: give both, or neither for plain HTTP")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc)
        raise UsageError(f"cannot use --web-cert {cert} with --web-key {key}: {reason}") from None
    return context


def run(args: argparse.Namespace) -> int:
    if args.ssh is None and args.web is None:
        raise UsageError("say which door to open: --ssh PORT, --web PORT, or both")
    if args.web is None and (args.web_cert is not None or args.web_key is not None):
        raise UsageError("--web-cert and --web-key are for the web door: add --web PORT")
    if args.web is None and args.web_host:
        raise UsageError("--web-host is for the web door: add --web PORT")
    context = tls_context(args.web_cert, args.web_key) if args.web is not None else None
    if args.ssh is not None and args.web is not None and args.ssh == args.web != 0:
        raise UsageError(f"--ssh and --web cannot share port {args.ssh}")
    server, banner, forget_key = prepare_server(args, args.ssh or 0, ssh=args.ssh is not None)
    starter = None
    if args.web is not None:
        from ..web.http_guard import GuardConfig
        from ..web.server import WebConfig, WebDoor  # aiohttp loads only when the web door really opens
        from .serve_ssh import listen_error

        config = WebConfig(
            host=args.host, port=args.web, max_sessions=args.web_max_sessions,
            max_sessions_per_address=args.web_max_sessions_per_address,
            idle_seconds=args.web_idle_minutes * 60 or None, message_bytes=args.web_message_kb * 1024,
            messages_per_second=args.web_messages_per_second, backlog_bytes=args.web_backlog_kb * 1024,
            ssl_context=context, hosts=tuple(args.web_host),
            guard=GuardConfig(
                max_pending=args.web_max_pending, max_pending_per_address=args.web_max_pending_per_address,
                header_seconds=args.web_header_seconds, keepalive_seconds=args.web_keepalive_seconds,
            ),
        )
        banner.append("web door: anonymous, like --public: anyone who can reach it may play, under a name they choose")

        async def starter(game_server):
            door = WebDoor(game_server, config)
            try:
                await door.start()
            except OSError as exc:
                raise UsageError(listen_error(config.host, config.port, exc)) from None
            if door.hosts is not None:  # known once it listens: the port may have been 0
                banner.append(f"web door answers to {door.hosts.describe()}; any other host name gets 421")
            return door

    try:
        return asyncio.run(_serve(server, banner, web=starter, ssh=args.ssh is not None))
    except UsageError:
        forget_key()
        raise
