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

from ..serving.config import MAX_IDLE_MINUTES, MAX_SESSIONS
from ..settings.options import Option, add_flags, number, whole
from ..web.hosts import web_host_value
from .common import Commands, UsageError
from .serve_ssh import (
    _serve,
    add_server_flags,
    metrics_address,
    port_value,
    prepare_server,
)

MAX_MESSAGE_KB = 1024
MAX_BACKLOG_KB = 65_536
WEB = "the web door's own caps"

WEB_FLAGS = (
    whole("web_max_sessions", 1, MAX_SESSIONS, 32, metavar="N", group=WEB,
          help="browser games at once, {low}-{high:,} (default {default}); --max-sessions still counts the games"
          " of both doors"),
    whole("web_max_sessions_per_address", 1, MAX_SESSIONS, 4, metavar="N", group=WEB,
          help="browser games at once from one address, {low}-{high:,} (default {default})"),
    number("web_idle_minutes", 0, MAX_IDLE_MINUTES, 30.0, "minutes", "30", metavar="M", group=WEB,
           help="end a browser game that sent no keys for M minutes, {low:g}-{high:,}, 0: never"
           " (default {default:g})"),
    whole("web_message_kb", 1, MAX_MESSAGE_KB, 16, metavar="KB", group=WEB,
          help="the largest websocket message a browser may send, {low}-{high:,} KiB; a larger one ends the game"
          " (default {default})"),
    whole("web_messages_per_second", 1, 10_000, 200, metavar="N", group=WEB,
          help="websocket messages a browser may send a second on average (twice as many in a burst),"
          " {low}-{high:,}; more ends the game (default {default})"),
    whole("web_backlog_kb", 16, MAX_BACKLOG_KB, 256, metavar="KB", group=WEB,
          help="screen bytes held for a browser that reads slowly, {low}-{high:,} KiB; past it the game waits"
          " for the browser (default {default})"),
    whole("web_max_pending", 1, MAX_SESSIONS, 512, metavar="N", group=WEB,
          help="HTTP connections not yet a game's websocket (a page loading, or idle between requests),"
          " {low}-{high:,}; past it the oldest is closed (default {default})"),
    whole("web_max_pending_per_address", 1, MAX_SESSIONS, 32, metavar="N", group=WEB,
          help="such connections from one address, {low}-{high:,}; past it a new one is closed at once"
          " (default {default})"),
    number("web_header_seconds", 1, 300.0, 10.0, "seconds", "10", metavar="S", group=WEB,
           help="seconds a browser has to send a request's line and headers, {low:g}-{high:g}"
           " (default {default:g})"),
    number("web_keepalive_seconds", 1, 3600.0, 30.0, "seconds", "30", metavar="S", group=WEB,
           help="seconds a connection may wait idle between requests, {low:g}-{high:g} (default {default:g})"),
    Option("web_host", None, parse=web_host_value, kind="repeat", metavar="NAME", group=WEB,
           help="a host name the web door answers to (NAME, NAME:PORT, or https://NAME[:PORT] behind a proxy);"
           " repeat for more; any other name in a request is refused (default: the --host address and localhost,"
           " at the door's port)"),
    Option("web_cert", None, parse=Path, metavar="PATH", group=WEB,
           help="serve the web door over TLS with this certificate chain (PEM); needs --web-key"),
    Option("web_key", None, parse=Path, metavar="PATH", group=WEB, help="the private key of --web-cert (PEM)"),
)
"""The web door's own flags; ``serve`` takes ``serve-ssh``'s too, for both doors."""


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
    add_flags(parser, WEB_FLAGS)
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
    metrics = metrics_address(args)
    server, banner, forget_key = prepare_server(args, args.ssh or 0, ssh=args.ssh is not None)
    starter = None
    if args.web is not None:
        from ..web.config import WebConfig
        from ..web.http_guard import GuardConfig
        from ..web.server import WebDoor  # aiohttp loads only when the web door really opens
        from .serve_ssh import listen_error

        config = WebConfig(
            host=args.host, port=args.web, max_sessions=args.web_max_sessions,
            max_sessions_per_address=args.web_max_sessions_per_address,
            idle_seconds=args.web_idle_minutes * 60 or None, message_bytes=args.web_message_kb * 1024,
            messages_per_second=args.web_messages_per_second, backlog_bytes=args.web_backlog_kb * 1024,
            ssl_context=context, hosts=tuple(args.web_host or ()),
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
        return asyncio.run(_serve(
            server, banner, args.host, args.ssh or 0, web=starter, ssh=args.ssh is not None, metrics=metrics,
        ))
    except UsageError:
        forget_key()
        raise
