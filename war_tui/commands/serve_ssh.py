"""``war-tui serve-ssh``: offer the game to SSH clients, one game process on its own pty per connection.

Game flags go after ``--`` and are passed to every session's ``war-tui`` (for example
``war-tui serve-ssh --public -- --screensaver``); they are checked against the game's own flags at
start-up, so a typo stops the server instead of every session.

A hidden ``--session-command "PROGRAM ARGS"`` replaces the game with another program (game flags are
then appended to it unchecked). It exists for the tests and the load benchmark, which need a program
whose behaviour on a pty they can observe; players never need it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import shlex
import signal
import socket
import sys
from pathlib import Path

from .common import UsageError, positive_int

DEFAULT_PORT = 2222
DEFAULT_MAX_SESSIONS = 32
DEFAULT_ATTEMPTS_PER_MINUTE = 30


def port_value(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number, not '{text}'") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be from 0 to 65535 (0: any free port), not {value}")
    return value


def minutes_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--max-session-minutes must be a number, not '{text}'") from None
    if not 0 < value <= 7 * 24 * 60 or value != value:
        raise argparse.ArgumentTypeError(f"--max-session-minutes must be above 0 and at most a week, not {text}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve-ssh", help="serve the game over SSH",
        description="Serve the full-screen game over SSH: 'ssh -p PORT HOST' lands straight in a game. "
        "Commands, sftp, forwarding and sessions without a terminal are refused.",
        epilog="Game flags after '--' apply to every session, e.g. "
        "'war-tui serve-ssh --public -- --screensaver'.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_value, default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--host-key", type=Path, metavar="PATH",
        help="the server's private host key (default: an ed25519 key made on first start "
        "in the user data directory)",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--authorized-keys", type=Path, metavar="PATH",
        help="public keys allowed in (default ~/.ssh/authorized_keys); re-read when it changes",
    )
    who.add_argument(
        "--public", action="store_true", help="let anyone in without authentication (a public kiosk)"
    )
    parser.add_argument(
        "--max-sessions", type=positive_int("--max-sessions", 10_000), default=DEFAULT_MAX_SESSIONS, metavar="N",
        help=f"games at once; the next client is told the server is full (default {DEFAULT_MAX_SESSIONS})",
    )
    parser.add_argument(
        "--max-session-minutes", type=minutes_value, metavar="M",
        help="end each game after M minutes (default: no limit, screensavers idle on purpose)",
    )
    parser.add_argument(
        "--max-attempts-per-minute", type=positive_int("--max-attempts-per-minute", 1_000_000),
        default=DEFAULT_ATTEMPTS_PER_MINUTE, metavar="N",
        help=f"connection attempts one address may make per minute (default {DEFAULT_ATTEMPTS_PER_MINUTE})",
    )
    parser.add_argument("--session-command", help=argparse.SUPPRESS)
    parser.add_argument(
        "game_flags", nargs=argparse.REMAINDER, metavar="-- GAME_FLAGS",
        help="the game's own flags (see war-tui --help), passed to every session",
    )
    parser.set_defaults(run=run)


def game_flags(args: argparse.Namespace) -> list[str]:
    flags = list(args.game_flags)
    if not flags:
        return []
    if flags[0] != "--":
        raise UsageError(f"unexpected '{flags[0]}': put the game's flags after '--'")
    flags = flags[1:]
    if args.session_command is None:
        check_game_flags(flags)
    return flags


def check_game_flags(flags: list[str]) -> None:
    """Parse the flags as ``war-tui`` (the game) would, so a mistake is reported once, now."""
    from ..cli import build_parser

    for flag in flags:
        if flag in ("-h", "--help", "--version"):
            raise UsageError(f"'{flag}' is not a game flag")
    captured = io.StringIO()
    try:
        with contextlib.redirect_stderr(captured):
            parsed = build_parser().parse_args(flags)
    except SystemExit:
        message = captured.getvalue().strip().removeprefix("war-tui: ")
        raise UsageError(f"game flags after '--': {message}") from None
    if parsed.command is not None:
        raise UsageError(f"game flags after '--' cannot name a command ('{parsed.command}')")
    from .play import settings_from_args

    try:
        settings_from_args(parsed)  # what the flags mean together (names, rules), as each game will check
    except UsageError as exc:
        raise UsageError(f"game flags after '--': {exc}") from None


def refuse_misplaced_game_flags(args: argparse.Namespace) -> None:
    """``war-tui --screensaver serve-ssh`` would silently serve without it: say where game flags go."""
    from ..cli import build_parser

    for name, default in vars(build_parser().parse_args([])).items():
        if name != "command" and hasattr(args, name) and getattr(args, name) != default:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"game flags go after serve-ssh's '--': war-tui serve-ssh ... -- {flag}")


def session_argv(args: argparse.Namespace, flags: list[str]) -> list[str]:
    if args.session_command is None:
        return [sys.executable, "-m", "war_tui", *flags]
    command = shlex.split(args.session_command)
    if not command:
        raise UsageError("--session-command is empty")
    return [*command, *flags]


def run(args: argparse.Namespace) -> int:
    refuse_misplaced_game_flags(args)
    flags = game_flags(args)
    argv = session_argv(args, flags)
    # asyncssh is imported only by this command: the game itself never pays for it.
    from ..ssh.keys import (
        AuthorizedKeys, KeyFileError, default_authorized_keys_path, default_host_key_path,
        fingerprint, load_or_create_host_key,
    )
    from ..ssh.server import GameServer, ServerConfig

    host_key_path = args.host_key or default_host_key_path()
    try:
        authorized = None if args.public else AuthorizedKeys(args.authorized_keys or default_authorized_keys_path())
        host_key, created = load_or_create_host_key(host_key_path)
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None
    minutes = args.max_session_minutes
    config = ServerConfig(
        host_key=host_key,
        session_argv=argv,
        authorized_keys=authorized,
        host=args.host,
        port=args.port,
        max_sessions=args.max_sessions,
        attempts_per_minute=args.max_attempts_per_minute,
        session_seconds=minutes * 60 if minutes else None,
    )
    server = GameServer(config)
    banner = [f"host key {fingerprint(host_key)} ({'made now at' if created else 'from'} {host_key_path})"]
    if authorized is None:
        banner.append(f"PUBLIC: anyone who can reach {args.host} may play, without authentication")
    else:
        banner.append(f"players: the keys in {authorized.path}")
    try:
        return asyncio.run(_serve(server, banner))
    except UsageError:
        if created:  # a key made by a start that failed: the next start makes its own
            with contextlib.suppress(OSError):
                host_key_path.unlink()
        raise


def listen_error(host: str, port: int, exc: OSError) -> str:
    """Why the server cannot listen, in one line a person can act on."""
    if isinstance(exc, socket.gaierror):  # its errno is a resolver code: os.strerror says "unknown error"
        detail = f" ({lower_first(exc.strerror)})" if exc.strerror else ""
        return f"cannot listen on {host}: the host name cannot be resolved to an address{detail}"
    shown_host = f"[{host}]" if ":" in host else host
    where = f"{host} (any free port)" if port == 0 else f"{shown_host}:{port}"
    reason = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else (exc.strerror or str(exc))
    return f"cannot listen on {where}: {lower_first(reason)}"


def lower_first(text: str) -> str:
    """"Address already in use" as the end of our sentence; an acronym ("EOF") is left alone."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


async def _serve(server: GameServer, banner: list[str]) -> int:
    config = server.config
    try:
        await server.start()
    except OSError as exc:
        raise UsageError(listen_error(config.host, config.port, exc)) from None
    for line in banner:
        server.log(line)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    host = f"[{config.host}]" if ":" in config.host else config.host
    server.log(f"listening on {host}:{server.port}: ssh -p {server.port} {host}")
    await stop.wait()
    server.log(f"stopping: ending {len(server.admitted)} game(s)")
    await server.stop()
    server.log("stopped")
    return 0
