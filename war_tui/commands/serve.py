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

from ..settings.options import Option, add_flags, declared_options, from_flags
from ..web.config import WebConfig
from ..web.http_guard import WEB_DOOR, GuardConfig
from .common import Commands, UsageError
from .serve_ssh import (
    _serve,
    add_server_flags,
    metrics_address,
    port_value,
    prepare_server,
)

WEB_OPTIONS = {**declared_options(WebConfig), **declared_options(GuardConfig)}
WEB_FLAGS = (
    *(WEB_OPTIONS[name] for name in (
        "web_max_sessions", "web_max_sessions_per_address", "web_idle_minutes", "web_message_kb",
        "web_messages_per_second", "web_backlog_kb", "web_max_pending", "web_max_pending_per_address",
        "web_header_seconds", "web_keepalive_seconds", "web_host",
    )),
    Option("web_cert", None, parse=Path, metavar="PATH", group=WEB_DOOR,
           help="serve the web door over TLS with this certificate chain (PEM); needs --web-key"),
    Option("web_key", None, parse=Path, metavar="PATH", group=WEB_DOOR, help="the private key of --web-cert (PEM)"),
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
        from ..web.server import WebDoor  # aiohttp loads only when the web door really opens
        from .serve_ssh import listen_error

        config = WebConfig(
            port=args.web, ssl_context=context, guard=GuardConfig(**from_flags(GuardConfig, args)),
            **from_flags(WebConfig, args),
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
