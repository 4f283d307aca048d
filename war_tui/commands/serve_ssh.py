"""``war-tui serve-ssh``: offer the game to SSH clients, one game process on its own pty per connection.

Game flags go after ``--`` and are checked at start-up, so a typo stops the server, not every session.
The hidden ``--session-command`` runs another program instead of the game, for the tests and benchmarks.
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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..cluster.config import DEFAULT_LEASE, MAX_LEASE, MIN_LEASE
from ..cluster.errors import ClusterUnavailable
from ..core.rules import Rules
from ..presentation.words import plural
from ..serving.config import (
    DEFAULT_PORT,
    GAME_OPTIONS,
    LISTEN_HOST,
    MAX_UNAUTHENTICATED,
    NO_FANOUT,
    RENDERERS_PER_TABLE,
    SPECTATOR_BACKLOG_KB,
    GameConfig,
)
from ..settings.options import Option, add_flags, from_flags, whole
from ..settings.served import ERROR_FD_VARIABLE
from ..settings.values import nats_url_value, rows_value
from ..stats import StatsStore, served_path
from ..stats.store import MAX_ROWS, MIN_ROWS
from .cluster_access import cluster_config, creds_value, tls_ca_value, tls_cert_value, tls_key_value, token_file_value
from .common import Commands, UsageError

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from ..serving.metrics_http import MetricsListener
    from ..serving.server import GameServer
    from ..serving.systemd import Notifier
    from ..ssh.server import SshServer  # asyncssh loads only when the SSH door really opens
    from ..web.server import WebDoor  # aiohttp likewise, only when serve --web really serves

    WebStarter = Callable[[GameServer], Awaitable[WebDoor]]

CLUSTER = "where the tables are kept"
OPERATIONS = "metrics and probes (docs/operations.md)"
METRICS_HOST = "127.0.0.1"
DEFAULT_SERVED_STATS_ROWS = 100_000
WHO_MAY_ENTER = "the SSH door needs --authorized-keys PATH (the players' public keys) or --public (anyone may enter)"
"""Said after why the keys file cannot be used: nothing is served without one or the other."""

# From the first import, a crash goes to the server's log (WAR_TUI_ERROR_FD), not the screen.
GAME_BOOTSTRAP = (
    "import os, runpy, sys\n"
    f"fd = os.environ.get({ERROR_FD_VARIABLE!r}, '')\n"
    "if fd.isdigit():\n"
    "    sys.stderr = open(int(fd), 'w', encoding='utf-8', errors='replace', buffering=1)\n"
    "sys.argv[0] = 'war-tui'\n"
    "runpy.run_module('war_tui', run_name='__main__', alter_sys=True)\n"
)


def port_value(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number, not '{text}'") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be from 0 to 65535 (0: any free port), not {value}")
    return value


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "serve-ssh", help="serve the game over SSH",
        description="Serve the full-screen game over SSH: 'ssh -p PORT HOST' lands straight in a game; "
        "'ssh -t -p PORT HOST table NAME' sits at a shared table (a second player sits too, later arrivals "
        "watch), 'watch NAME' watches one and 'tables' lists them; 'ssh -T -p PORT HOST line' plays in plain "
        "sentences with no terminal ('line table NAME', 'line watch NAME' at a table). Other commands, sftp, "
        "forwarding and other sessions without a terminal are refused.",
        epilog="Game flags after '--' apply to every session, e.g. "
        "'war-tui serve-ssh --public -- --screensaver'.",
    )
    add_flags(parser, [PORT])
    add_server_flags(parser)
    parser.set_defaults(run=run)


PORT = Option("port", DEFAULT_PORT, parse=port_value, help="port to listen on (default {default}; 0 picks a free one)")
SERVER = (
    LISTEN_HOST,
    Option(
        "host_key", None, parse=Path, metavar="PATH",
        help="the server's private host key (default: an ed25519 key made on first start in the user data directory)",
    ),
    Option(
        "authorized_keys", None, parse=Path, metavar="PATH", exclusive="who",
        help="public keys allowed in (default ~/.ssh/authorized_keys); re-read when it changes",
    ),
    Option("public", False, kind="switch", exclusive="who",
           help="let anyone in without authentication (a public kiosk)"),
    GAME_OPTIONS["max_sessions"],
    GAME_OPTIONS["max_sessions_per_address"],
    MAX_UNAUTHENTICATED,
    GAME_OPTIONS["game_memory_mb"],
    GAME_OPTIONS["game_nice"],
    GAME_OPTIONS["max_speed"],
    GAME_OPTIONS["max_tables"],
    GAME_OPTIONS["seat_timeout"],
    GAME_OPTIONS["max_spectators"],
    RENDERERS_PER_TABLE,
    SPECTATOR_BACKLOG_KB,
    NO_FANOUT,
    GAME_OPTIONS["max_lobby"],
    GAME_OPTIONS["max_tables_per_address"],
    GAME_OPTIONS["max_seats_per_address"],
    GAME_OPTIONS["max_session_minutes"],
    GAME_OPTIONS["max_attempts_per_minute"],
    Option("served_stats_rows", DEFAULT_SERVED_STATS_ROWS, parse=rows_value("--served-stats-rows"), low=MIN_ROWS,
           high=MAX_ROWS, metavar="N",
           help="games the served statistics keep, {low:,}-{high:,}; past it the oldest tenth goes"
           " (default {default:,})"),
    GAME_OPTIONS["idle_minutes"],
    GAME_OPTIONS["idle_exempt_screensaver"],
    GAME_OPTIONS["max_server_mb"],
    Option("nats", None, parse=nats_url_value, kind="repeat", metavar="URL", group=CLUSTER,
           help="keep the tables in this NATS cluster (nats://HOST:PORT, or tls://HOST:PORT: TLS or nothing)"
           " instead of starting a nats-server of our own; repeat for each server of the cluster. Credentials go in"
           " --nats-token-file or --nats-creds, out of sight of ps (docs/cluster.md)"),
    Option("nats_token_file", None, parse=token_file_value, metavar="FILE", group=CLUSTER, exclusive="nats-sign-in",
           help="sign in to --nats with the token (or user:password) on this file's one line (mode 0600)"),
    Option("nats_creds", None, parse=creds_value, metavar="FILE", group=CLUSTER, exclusive="nats-sign-in",
           help="sign in to --nats with this NATS credentials file (a user JWT and its NKey seed; mode 0600)"),
    Option("nats_tls_ca", None, parse=tls_ca_value, metavar="FILE", group=CLUSTER,
           help="check tls:// servers' certificates against this CA (PEM) instead of the system's"),
    Option("nats_tls_cert", None, parse=tls_cert_value, metavar="FILE", group=CLUSTER,
           help="this server's certificate (PEM) for tls:// servers that ask for one (mutual TLS)"),
    Option("nats_tls_key", None, parse=tls_key_value, metavar="FILE", group=CLUSTER,
           help="the unencrypted private key (PEM, mode 0600) of --nats-tls-cert"),
    whole("node_lease", MIN_LEASE, MAX_LEASE, DEFAULT_LEASE, metavar="S", group=CLUSTER,
          help="seconds this server's lease in the cluster lasts unless renewed, {low}-{high}: how long its tables"
          " wait for it after it dies before another server takes them (default {default})"),
    Option("metrics", None, parse=port_value, metavar="PORT", group=OPERATIONS,
           help="serve /metrics (Prometheus), /healthz and /readyz over HTTP on PORT, a listener of its own"
           " (0 picks a free one, printed at start; default: none)"),
    Option("metrics_host", None, metavar="ADDR", group=OPERATIONS,
           help=f"address the --metrics listener listens on (default {METRICS_HOST}, whatever --host says)"),
    GAME_OPTIONS["no_leaderboard"],
    GAME_OPTIONS["log_level"],
    Option("log_format", "text", choices=("text", "json"),
           help="json: every log line one JSON object (time, level, event, message and the line's fields such as"
           " address, user, table, seat, reason) for a log collector; text: a time stamp and a sentence"
           " (default {default})"),
    Option("no_preload", False, kind="switch",
           help="start every game afresh (a new Python that imports the game) instead of forking it from a"
           " preloaded game parent: slower to start and more memory per game, one process fewer"),
    Option("session_command", None, hidden=True),
)
"""The flags of ``serve-ssh`` but its port; ``serve`` takes them all for both its doors."""


def add_server_flags(parser: argparse.ArgumentParser) -> None:
    add_flags(parser, SERVER)
    parser.add_argument(
        "game_flags", nargs=argparse.REMAINDER, metavar="-- GAME_FLAGS",
        help="the game's own flags (see war-tui --help), passed to every session",
    )


def game_flags(args: argparse.Namespace) -> tuple[list[str], argparse.Namespace | None]:
    """The game flags after ``--``, and what they mean as the game parses them (None: not checked)."""
    flags = list(args.game_flags)
    if flags and flags[0] != "--":
        raise UsageError(f"unexpected '{flags[0]}': put the game's flags after '--'")
    flags = flags[1:]
    if args.session_command is not None:
        return flags, None
    return flags, check_game_flags(flags, args.top_parser)


def check_game_flags(flags: list[str], build_parser: Callable[[], argparse.ArgumentParser]) -> argparse.Namespace:
    """Parse the flags as ``war-tui`` (the game) would, so a mistake is reported once, now."""
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
    from .play import NOT_SERVED, settings_from_args

    if parsed.two_players:
        raise UsageError(f"game flags after '--': {NOT_SERVED}")

    try:
        settings_from_args(parsed)  # what the flags mean together (names, rules), as each game will check
    except UsageError as exc:
        raise UsageError(f"game flags after '--': {exc}") from None
    return parsed


def refuse_misplaced_game_flags(args: argparse.Namespace) -> None:
    """``war-tui --screensaver serve-ssh`` would silently serve without it: say where game flags go."""
    for name, default in vars(args.top_parser().parse_args([])).items():
        if name != "command" and hasattr(args, name) and getattr(args, name) != default:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"game flags go after serve-ssh's '--': war-tui serve-ssh ... -- {flag}")


def session_argv(args: argparse.Namespace, flags: list[str]) -> list[str]:
    if args.session_command is None:
        return [sys.executable, "-c", GAME_BOOTSTRAP, *flags]
    command = shlex.split(args.session_command)
    if not command:
        raise UsageError("--session-command is empty")
    return [*command, *flags]


def preload_argv(args: argparse.Namespace) -> list[str] | None:
    """The preloaded game parent's command; it loads the game only when the sessions run the game."""
    if args.no_preload:
        return None
    return [sys.executable, "-m", "war_tui.preload", *(["--warm"] if args.session_command is None else [])]


def run(args: argparse.Namespace) -> int:
    metrics = metrics_address(args)
    server, banner, forget_key = prepare_server(args, args.port)
    try:
        return asyncio.run(_serve(server, banner, args.host, args.port, metrics=metrics))
    except UsageError:
        forget_key()
        raise


def metrics_address(args: argparse.Namespace) -> tuple[str, int] | None:
    """Where the ``--metrics`` listener listens (None: it does not)."""
    if args.metrics is None:
        if args.metrics_host is not None:
            raise UsageError("--metrics-host is for the metrics listener: add --metrics PORT")
        return None
    return args.metrics_host or METRICS_HOST, args.metrics


def prepare_server(
    args: argparse.Namespace, port: int, ssh: bool = True
) -> tuple[GameServer, list[str], Callable[[], None]]:
    """The server the flags describe (not started), its banner, and what undoes a host key made for it.

    Without ``ssh`` (the web door alone) no client key is read, but the host key still seeds the identities.
    """
    refuse_misplaced_game_flags(args)
    flags, parsed = game_flags(args)
    stats_path = served_stats_path(parsed)
    argv = session_argv(args, flags + served_stats_flags(stats_path, args.served_stats_rows, parsed))
    table_rules, stats = table_settings(parsed, args.served_stats_rows)
    if args.idle_exempt_screensaver and parsed is not None and not (parsed.screensaver or parsed.auto):
        raise UsageError(
            "--idle-exempt-screensaver is for games that start on auto-play: add '-- --screensaver' (or --auto)"
        )
    from ..serving.host_key import KeyFileError, default_host_key_path, load_or_create_host_key
    from ..serving.log_format import stream_log
    from ..serving.server import GameServer

    host_key_path = args.host_key or default_host_key_path()
    cluster, warnings = cluster_config(args)
    derived: dict[str, Any] = dict(
        session_argv=argv, table_rules=table_rules, stats=stats, preload_argv=preload_argv(args), cluster=cluster,
    )  # what no one flag says; the rest of the config is the flags' (``from_flags``)
    server: GameServer
    players: Path | None = None
    try:
        if ssh:
            server, players, fingerprint, created = ssh_server(args, port, host_key_path, derived)
        else:
            # The web door alone: the host key file only seeds the identities, and asyncssh stays unloaded.
            key = load_or_create_host_key(host_key_path)
            config = GameConfig(secret_key=key.secret, **from_flags(GameConfig, args), **derived)
            server = GameServer(config, stream_log(args.log_format))
            fingerprint, created = key.fingerprint, key.created
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None
    banner = [f"host key {fingerprint} ({'made now at' if created else 'from'} {host_key_path})"
              + ("" if ssh else ": it seeds the browsers' identities")]
    if stats_path is None:
        banner.append("statistics: none (--no-stats)")
    else:
        banner.append(f"statistics of served games: {stats_path} (at most {plural(args.served_stats_rows, 'game')})"
                      + ("; no leaderboard (--no-leaderboard)" if args.no_leaderboard else ""))
    if ssh and players is None:
        banner.append(f"PUBLIC: anyone who can reach {args.host} may play, without authentication")
    elif ssh and players is not None:
        banner.append(f"players: the keys in {players}")
    banner.extend(warnings)

    def forget_key() -> None:
        if created:  # a key made by a start that failed: the next start makes its own
            with contextlib.suppress(OSError):
                host_key_path.unlink()

    return server, banner, forget_key


def ssh_server(
    args: argparse.Namespace, port: int, host_key_path: Path, derived: dict[str, Any]
) -> tuple[SshServer, Path | None, str, bool]:
    """The server with the SSH door on it, its players' keys file (None: public), its host key's fingerprint,
    and whether the key was made now."""
    # asyncssh is imported only by this command: the game itself never pays for it.
    from ..serving.host_key import KeyFileError
    from ..serving.log_format import stream_log
    from ..ssh.keys import (
        AuthorizedKeys,
        default_authorized_keys_path,
        fingerprint,
        host_secret,
        load_or_create_host_key,
    )
    from ..ssh.server import ServerConfig, SshServer

    try:
        authorized = None if args.public else AuthorizedKeys(args.authorized_keys or default_authorized_keys_path())
    except KeyFileError as exc:
        raise UsageError(f"{exc}; {WHO_MAY_ENTER}") from None
    host_key, created = load_or_create_host_key(host_key_path)
    config = ServerConfig(
        host_key=host_key, secret_key=host_secret(host_key), authorized_keys=authorized, port=port,
        **from_flags(ServerConfig, args), **derived,
    )
    return SshServer(config, stream_log(args.log_format)), None if authorized is None else authorized.path, fingerprint(host_key), created


def served_stats_path(parsed: argparse.Namespace | None) -> Path | None:
    """Where served games are recorded: the game flags' ``--stats-db``, or a file of their own beside the
    user's statistics (never in them); None with ``--no-stats``."""
    if parsed is None:
        return served_path()
    if parsed.stats_rows is not None:
        raise UsageError("the row cap of served statistics is serve-ssh's --served-stats-rows, not a game flag")
    if parsed.no_stats:
        return None
    return Path(parsed.stats_db).expanduser().absolute() if parsed.stats_db is not None else served_path()


def served_stats_flags(path: Path | None, rows: int, parsed: argparse.Namespace | None) -> list[str]:
    """What each game is told about statistics beyond the operator's flags: the file and its row cap."""
    if path is None or parsed is None:  # --no-stats, or a --session-command that is not the game
        return []
    where = ["--stats-db", str(path)] if parsed.stats_db is None else []
    return [*where, "--stats-rows", str(rows)]


def table_settings(
    parsed: argparse.Namespace | None, rows: int = DEFAULT_SERVED_STATS_ROWS
) -> tuple[Rules, Callable[[], StatsStore] | None]:
    """The rules of the server's tables and where their finished games are recorded, as the game flags say.

    The same flags the solo games get: ``--war-cards`` and the like, ``--stats-db`` or ``--no-stats``;
    the file keeps at most ``rows`` games.
    """
    path = served_stats_path(parsed)
    rules = Rules()
    if parsed is not None:
        from .play import settings_from_args

        rules = settings_from_args(parsed).rules
    if path is None:
        return rules, None
    return rules, lambda: StatsStore.open(path, max_rows=rows)


def listen_error(host: str, port: int, exc: OSError) -> str:
    """Why the server cannot listen, in one line a person can act on."""
    if isinstance(exc, socket.gaierror):  # its errno is a resolver code: os.strerror says "unknown error"
        detail = f" ({lower_first(exc.strerror)})" if exc.strerror else ""
        return f"cannot listen on {host}: the host name cannot be resolved to an address{detail}"
    shown_host = f"[{host}]" if ":" in host else host
    where = f"{host} (any free port)" if port == 0 else f"{shown_host}:{port}"
    reason = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else (exc.strerror or str(exc))
    return f"cannot listen on {where}: {lower_first(reason)}"


def raise_file_limit() -> str | None:
    """Raise the soft limit on open files to the hard one: each connection and game holds a few.

    Returns a line for the log when the limit stays low enough for a flood of connections to reach it.
    """
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    if soft != resource.RLIM_INFINITY and soft < 4096:
        return f"open files limited to {soft:,} (ulimit -n): a flood of connections may reach it"
    return None


def lower_first(text: str) -> str:
    """"Address already in use" as the end of our sentence; an acronym ("EOF") is left alone."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def log_listening(
    server: GameServer, host: str, ssh: bool, door: WebDoor | None, metrics: MetricsListener | None = None
) -> None:
    """Each open door's "listening" line: what a player connects to; then the metrics listener's."""
    host = f"[{host}]" if ":" in host else host
    if ssh:
        listening = cast("SshServer", server).port
        server.log(f"listening on {host}:{listening}: ssh -p {listening} {host}")
    if door is not None:
        server.log(f"listening on {host}:{door.port}: open {door.scheme}://{host}:{door.port}/ in a browser")
    if metrics is not None:
        url = metrics.url()
        server.log(f"listening on {url.removeprefix('http://')}: metrics at {url}/metrics, probes at {url}/healthz"
                   f" and {url}/readyz")


async def first_done(*waits: Awaitable[object]) -> None:
    """Wait until the first of ``waits`` is done; the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _serve(
    server: GameServer, banner: list[str], host: str, port: int, web: WebStarter | None = None, ssh: bool = True,
    metrics: tuple[str, int] | None = None,
) -> int:
    """Serve until a signal; ``web`` makes and starts the web door beside (or instead of, without ``ssh``) SSH.

    With ``ssh`` the server is the SSH door too (an ``SshServer``, listening at ``host``:``port``). ``metrics``:
    where the metrics listener listens; it opens first, so its probes answer (not ready) while the server starts,
    and closes last.
    """
    from ..serving.log_format import library_logs
    from ..serving.systemd import Notifier

    raised = raise_file_limit()
    listener = await open_metrics(server, metrics)
    notifier = Notifier.from_environment(lambda: serving_status(server))
    try:
        with library_logs(server.flood_log):
            return await _serve_doors(server, banner, host, port, web, ssh, listener, raised, notifier)
    finally:
        if notifier is not None:
            await notifier.close()
        if listener is not None:
            await listener.stop()


def serving_status(server: GameServer) -> str:
    """What ``systemctl status`` shows of a running server."""
    tables = sum(1 for table in server.tables.registry.tables if not table.closed)
    return f"serving {plural(server.games(), 'game')} at {plural(tables, 'table')} and solo"


async def open_metrics(server: GameServer, where: tuple[str, int] | None) -> MetricsListener | None:
    """The metrics listener, listening (None without ``--metrics``); a port it cannot take is one line, exit 2."""
    if where is None:
        return None
    from ..serving.metrics_http import MetricsListener  # prometheus_client loads only with --metrics

    listener = MetricsListener(server, *where)
    try:
        await listener.start()
    except OSError as exc:
        raise UsageError(f"--metrics: {listen_error(*where, exc)}") from None
    return listener


def log_banner(server: GameServer, banner: list[str], raised: str | None) -> None:
    """What the server says of itself before it listens: its keys, statistics, players, NATS, open files."""
    for line in banner:
        server.log(line)
    if server.cluster is not None:
        server.log(server.cluster.describe())
    if raised is not None:
        server.log(raised)


def tell_serving(metrics: MetricsListener | None, notifier: Notifier | None) -> None:
    """The probes and systemd learn that the doors listen."""
    if metrics is not None:
        metrics.serving()
    if notifier is not None:
        notifier.ready()


def tell_stopping(metrics: MetricsListener | None, notifier: Notifier | None) -> None:
    """Before a door closes: /readyz first, so a balancer sends no one new while the tables are handed over."""
    if metrics is not None:
        metrics.stopping()
    if notifier is not None:
        notifier.stopping()


async def _serve_doors(
    server: GameServer, banner: list[str], host: str, port: int, web: WebStarter | None, ssh: bool,
    metrics: MetricsListener | None, raised: str | None, notifier: Notifier | None = None,
) -> int:
    try:
        await server.start()
    except OSError as exc:
        raise UsageError(listen_error(host, port, exc)) from None
    except ClusterUnavailable as exc:
        raise UsageError(str(exc)) from None
    door = None
    if web is not None:
        try:
            door = await web(server)
        except BaseException:
            await server.stop()
            raise
    log_banner(server, banner, raised)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    if server.game_parent is not None:  # "listening" is the line a player acts on: games fork from then on
        await first_done(server.game_parent.first_start(), stop.wait())
    if not stop.is_set():
        log_listening(server, host, ssh, door, metrics)
        tell_serving(metrics, notifier)
    await stop.wait()
    tell_stopping(metrics, notifier)
    server.log(f"stopping: ending {plural(server.games(), 'game')}")
    if door is not None:
        await door.stop()
    await server.stop()
    server.log("stopped")
    return 0
