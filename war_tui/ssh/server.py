"""The SSH door: who may enter, how many at once, and one log line per connection and disconnection."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import asyncssh

from ..presentation.words import plural
from ..core.rules import Rules
from ..stats import StatsStore
from ..tables import reduce_name
from ..tables.names import name_key
from .env_requests import env_hook_missing, refuse_unwanted_env
from .fanout import DEFAULT_RENDERERS_PER_TABLE, SPECTATOR_BACKLOG, FanoutHub
from .game_parent import GameParent
from .keys import AuthorizedKeys, without_sha1
from .limits import AttemptLimiter, FloodLog, MemoryWatch, OncePer, address_key
from .pty_process import PtyProcess
from .session import GameSession, home_directory, session_environment
from .table_host import TableHost
from .user_names import let_in_any_user_name

REFUSE_FORWARDING = "port forwarding is not offered here: this server only plays War"
ONE_SESSION = "one session per connection: open another connection to play another game"
SERVER_FULL = "the server is full ({games} in progress); please try again later"
ADDRESS_FULL = "your address already has {games} in progress here, the most one address may have"
OUT_OF_MEMORY = "the server is out of memory for new games; please try again later"
TOO_MANY_ATTEMPTS = "too many connection attempts from your address; please wait a minute"
TOO_MANY_REFUSALS = "too many refused requests; this server only plays War"
NO_GAME_STARTED = "no game was started; this server only plays War"
SHUTDOWN_GRACE = 5.0
TABLE_GOODBYE = 0.5
"""Seconds the games at tables get to read that the server is closing before they are ended."""
MAX_REFUSED_REQUESTS = 16
"""Refused channels and requests a connection may ask for before it is let go."""
MAX_AUTH_TRIES = 6
"""Keys a connection may offer that are not let in, as OpenSSH's MaxAuthTries; the next ends it."""
MAX_KEY_CHECKS = 3 * MAX_AUTH_TRIES
"""Keys checked per connection at most, let in or not (each is checked once offered and once signed)."""
TOO_MANY_KEYS = "too many keys offered; at most {tries} may be tried on one connection"
# Signatures the server advertises (server-sig-algs): no SHA-1 (ssh-rsa), no DSA (ssh-dss).
SIGNATURE_ALGORITHMS = [
    "ssh-ed25519", "ssh-ed448", "ecdsa-sha2-nistp521", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp256",
    "rsa-sha2-512", "rsa-sha2-256", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
]


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``serve-ssh`` decided before listening. ``authorized_keys`` None means public."""

    host_key: asyncssh.SSHKey
    session_argv: Sequence[str]
    authorized_keys: AuthorizedKeys | None
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 32
    attempts_per_minute: int = 30
    session_seconds: float | None = None
    login_timeout: float = 30.0
    keepalive_seconds: float = 30.0
    shutdown_grace: float = SHUTDOWN_GRACE
    max_sessions_per_address: int = 4
    max_unauthenticated: int = 64
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
    fanout: bool = False
    """Spectators who share a table, a screen size and a terminal kind watch one renderer (``fanout``);
    False: each spectator runs a game of its own."""
    renderers_per_table: int = DEFAULT_RENDERERS_PER_TABLE
    """Renderers one table may have at once; a spectator past it gets a game of its own."""
    spectator_backlog: int = SPECTATOR_BACKLOG
    """Bytes of a renderer's output held for one spectator; past it they get a fresh repaint once caught up."""
    preload_argv: Sequence[str] | None = None
    """The preloaded game parent's command (``war_tui.preload``; its socket's fd is appended), from which
    games are forked; None: every game is started afresh. Only for a ``session_argv`` that runs this Python."""


class Door(Protocol):
    """Another way into the same server (the web door): what the shared caps count of it."""

    def games(self) -> int: ...

    def games_from(self, key: str) -> int: ...


def shown_user(name: str) -> str:
    """A client-chosen user name, safe for a log line: no spaces or control characters, not too long."""
    if name and len(name) <= 32 and name.isprintable() and " " not in name:
        return name
    return ascii(name[:32]).replace(" ", "\\x20")


def stderr_log(line: str) -> None:
    stamp = datetime.now().astimezone().isoformat(timespec="seconds")
    sys.stderr.write(f"{stamp} {line}\n")
    sys.stderr.flush()


class GameServer:
    """Listens, admits, and on ``stop`` ends every game before the last connection closes."""

    def __init__(self, config: ServerConfig, log: Callable[[str], None] = stderr_log) -> None:
        self.config = config
        self.log = log
        self.flood_log = FloodLog(log)
        """For the lines one per connection: a flood of connections gets a summary a second instead."""
        self.limiter = AttemptLimiter(config.attempts_per_minute)
        self.memory = MemoryWatch(config.max_server_mb)
        self._full_noted = OncePer(1.0)
        self._memory_noted = OncePer(1.0)
        self.connections: set[Connection] = set()
        self.admitted: set[Connection] = set()
        self.unauthenticated: OrderedDict[Connection, None] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._stopping = False
        self._summaries: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_handler: Any = None
        self.game_parent: GameParent | None = None
        self.other_doors: list[Door] = []
        """Doors beside this one sharing the server (the web door): their games count in the caps too."""
        if config.preload_argv is not None and PtyProcess.forkable(config.session_argv):
            # The parent's environment is a game's without the client's part: what it reads at import is
            # what a game started afresh would read.
            env = session_environment(None, {})
            self.game_parent = GameParent(config.preload_argv, env, home_directory(env), log)
        self.fanout = FanoutHub(self, config.renderers_per_table, config.spectator_backlog) if config.fanout else None
        self.tables = TableHost(
            max_tables=config.max_tables, seat_timeout=config.seat_timeout, rules=config.table_rules,
            stats=config.stats, log=log, max_speed=config.max_speed, max_spectators=config.max_spectators,
            max_lobby=config.max_lobby, tables_per_address=config.tables_per_address,
            seats_per_address=config.seats_per_address,
        )
        # What turns an address into an identity: secret (from the host key, so it lasts across restarts
        # as the key does), so an identity says nothing of the address it stands for.
        self._address_secret = hashlib.sha256(b"war-tui address identity\0" + config.host_key.export_private_key()).digest()

    def address_identity(self, address_key: str, user: str) -> str:
        """The identity of a player who offered no key: their address together with their user name (as
        names are compared: ``Ann`` is ``ann``), hashed with the server's secret. Two people at one
        address (one home behind one router) with different names are two people; the same name from
        the same address is the same person."""
        person = f"{address_key}\0{name_key(reduce_name(user))}"
        digest = hmac.new(self._address_secret, person.encode(), hashlib.sha256).hexdigest()
        return f"addr:{digest[:24]}"

    def door_identity(self, door: str, token: str) -> str:
        """The identity of a player of another door (a browser's cookie token), hashed with the same secret."""
        digest = hmac.new(self._address_secret, f"{door}\0{token}".encode(), hashlib.sha256).hexdigest()
        return f"{door}:{digest[:24]}"

    async def start(self, listen: bool = True) -> None:
        """Start listening (for SSH only with ``listen``); OSError (port in use, bad address) reaches the caller.

        Without ``listen`` the server only hosts what the doors share: the tables and the game parent.
        """
        loop = self._loop = asyncio.get_running_loop()
        # Errors asyncio reports on its own (an accept that fails for want of file descriptors, for
        # one) become one line each, and at most a few a second, instead of a traceback each.
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        self._summaries = loop.call_later(1.0, self._summarise)
        if self.config.authorized_keys is not None:
            for line in self.config.authorized_keys.take_warnings():
                self.log(line)
        missing = env_hook_missing() if listen else None
        if missing is not None:
            self.log(missing)
        if listen:
            await self._listen()
        self.tables.start()
        if self.game_parent is not None:
            await self.game_parent.start()

    async def _listen(self) -> None:
        let_in_any_user_name()  # an emoji in a user name is reduced with the rest of the name, not refused
        self._acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            self.config.host,
            self.config.port,
            server_host_keys=[self.config.host_key],
            encoding=None,
            line_editor=False,
            agent_forwarding=False,
            compression_algs=["none"],  # a game's frames are small diffs; zlib would let a client inflate input
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            login_timeout=self.config.login_timeout,
            keepalive_interval=self.config.keepalive_seconds,
            keepalive_count_max=3,
            server_version="war-tui",
            signature_algs=SIGNATURE_ALGORITHMS,
        )

    def _summarise(self) -> None:
        self.flood_log.flush()
        if not self._stopping and self._loop is not None:
            self._summaries = self._loop.call_later(1.0, self._summarise)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        where = ""
        if exc is not None and exc.__traceback__ is not None:
            last = exc.__traceback__
            while last.tb_next is not None:
                last = last.tb_next
            where = f" at {last.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{last.tb_lineno}"
        detail = f": {type(exc).__name__}: {exc}{where}" if exc is not None else ""
        self.flood_log(f"error: {context.get('message', 'unexpected error')}{detail}", "errors")

    @property
    def port(self) -> int:
        assert self._acceptor is not None
        return self._acceptor.get_port()

    def track(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @property
    def full(self) -> bool:
        return self._stopping or self.games() >= self.config.max_sessions

    def games(self) -> int:
        """Games in progress through every door (--max-sessions counts them all)."""
        return len(self.admitted) + sum(door.games() for door in self.other_doors)

    def games_from(self, key: str) -> int:
        ssh = sum(1 for link in self.admitted if link.address_key == key)
        return ssh + sum(door.games_from(key) for door in self.other_doors)

    def address_full(self, key: str) -> bool:
        return self.games_from(key) >= self.config.max_sessions_per_address

    def idle_sessions(self) -> int:
        """Admitted connections whose game has had no keys for ``idle_note_seconds`` or more."""
        note = self.config.idle_note_seconds
        return sum(1 for link in self.admitted for s in link.sessions if s.played and s.idle_seconds >= note)

    def note_full(self) -> None:
        """A client was refused because every slot is taken: say, at most once a second, who holds them."""
        if self._stopping or not self._full_noted.ready():
            return
        idle = self.idle_sessions()
        minute = plural(round(self.config.idle_note_seconds / 60), "minute") if self.config.idle_note_seconds >= 60 \
            else f"{self.config.idle_note_seconds:g} s"
        self.log(f"server full: {plural(len(self.admitted), 'game')} in progress, {idle} of them idle "
                 f"(no keys for {minute} or more)")

    def out_of_memory(self) -> bool:
        """Past ``--max-server-mb``: logged at most once a second, with the size."""
        over = self.memory.over()
        if over and self._memory_noted.ready():
            self.log(f"memory: the server uses {self.memory.last_mb:,.0f} MB, past --max-server-mb "
                     f"{self.config.max_server_mb:,}: new connections are refused")
        return over

    def admit(self, link: Connection) -> bool:
        if self.full or self.address_full(link.address_key):
            return False
        self.admitted.add(link)
        return True

    def knock(self, link: Connection) -> None:
        """A new connection, not yet authenticated: past the cap the oldest such one is dropped."""
        waiting = self.unauthenticated
        waiting[link] = None
        while len(waiting) > self.config.max_unauthenticated:
            oldest, _ = waiting.popitem(last=False)
            oldest.drop("unauthenticated cap")

    async def stop(self) -> None:
        """Stop listening, end every game (the players are told), close every connection.

        Bounded by the grace period however slowly clients read: a session gives up on its goodbye at
        the deadline, and whatever is still connected then is dropped.
        """
        self._stopping = True
        if self._acceptor is not None:
            self._acceptor.close()
        self.tables.close("the server is shutting down")
        await self._tables_told(TABLE_GOODBYE)
        for link in list(self.connections):
            link.stop_games("server shutdown")
        # Sessions keep to the grace period themselves; the margin covers a game's last SIGKILL.
        await self._settle(self.config.shutdown_grace + 1.0, connections=False)
        if self.fanout is not None:
            await self.fanout.close()
        for link in list(self.connections):
            link.close()
        await self._settle(1.0)  # the dropped connections' last log lines
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        await self.tables.stop()
        if self.game_parent is not None:
            await self.game_parent.stop()
        if self._summaries is not None:
            self._summaries.cancel()
        self.flood_log.flush()
        if self._loop is not None:
            self._loop.set_exception_handler(self._previous_handler)

    async def _tables_told(self, timeout: float) -> None:
        """Wait, at most ``timeout``, until every game at a table has read what its link said."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(session.table_told for link in self.connections for session in link.sessions):
                return
            await asyncio.sleep(0.02)

    async def _settle(self, timeout: float, connections: bool = True) -> None:
        """Wait, at most ``timeout``, until every task (new ones too) is done and, if asked, every connection gone."""
        deadline = time.monotonic() + timeout
        while (self._tasks or (connections and self.connections)) and time.monotonic() < deadline:
            if self._tasks:
                await asyncio.wait(set(self._tasks), timeout=min(0.1, deadline - time.monotonic()))
            else:
                await asyncio.sleep(0.02)


class Connection(asyncssh.SSHServer):
    """One client connection: admission, authentication and the refusals that are not per channel."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection
        self.label = "?"
        self.user: str | None = None
        self.authenticated = False
        self.agent_refused = False
        self.exit_status = "no game"
        self.identity: str | None = None
        """Whom a seat taken on this connection is kept for: "key:SHA256:..." (the key it logged in
        with) or "addr:..." (no key: its address and user name, hashed); known once authenticated."""
        self._signing_key: asyncssh.SSHKey | None = None
        self._keys_refused = 0
        self._keys_checked = 0
        self.table: str | None = None
        """Where a table command took this connection ("table oak seat 1 as ann", "lobby"), for the log."""
        self.refusals: dict[str, None] = {}  # an ordered set: each kind of refusal once
        self._refused_requests = 0
        self.sessions: list[GameSession] = []
        self.address = "?"
        self.address_key = "?"
        self._game_running = False
        self._started = time.monotonic()
        self._rejection: str | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self.left = asyncio.Event()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.address_key = address_key(self.address)
        self.label = f"{peer[0]}:{peer[1]}" if ":" not in str(peer[0]) else f"[{peer[0]}]:{peer[1]}"
        self.server.connections.add(self)
        limiter = self.server.limiter
        attempts = limiter.attempt(self.address_key)
        if not limiter.allowed(attempts):
            self._rejection = TOO_MANY_ATTEMPTS
            if attempts > 2 * limiter.per_minute:
                # A flood: not even a key exchange for it.
                self.refused("attempt rate")
                conn.abort()
                return
        self.server.knock(self)
        # Agent and X11 forwarding are off; these note the requests, for the log and so the player is
        # told about the agent (the request has no reply of its own).
        conn.create_agent_listener = self._refuse_agent  # type: ignore[method-assign]  # asyncssh has no hook of its own for these
        conn.attach_x11_listener = self._refuse_x11  # type: ignore[method-assign]  # likewise

    async def _refuse_agent(self) -> bool:
        self.agent_refused = True
        self.refused("agent forwarding")
        return False

    async def _refuse_x11(self, chan: Any, auth_proto: bytes, auth_data: bytes, screen: int) -> None:
        self.refused("X11 forwarding")
        return None

    def drop(self, why: str) -> None:
        """Let go of this connection at once (no goodbye): it is the oldest of too many unauthenticated."""
        self.refused(why)
        self.conn.abort()

    def begin_auth(self, username: str) -> bool:
        # The connect line waits for the user name: a connection that never gets this far (a port
        # scan, a failed key exchange, a flood) is logged once, by its disconnect line.
        if self.user is None:
            self.server.flood_log(f"connect {self.label} user={shown_user(username)}")
        self.user = username
        if self._rejection is not None:
            self.refused("attempt rate")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self._rejection)
            return True
        if self.server.full:
            # Told before authenticating, so the client reports it rather than a dropped session.
            self._refuse_full()
            return True
        if self.server.out_of_memory():
            self.refused("server memory")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, OUT_OF_MEMORY)
            return True
        if self.server.address_full(self.address_key):
            self._refuse_address_full()
            return True
        keys = self.server.config.authorized_keys
        if keys is not None:
            for line in keys.refresh():  # the file as it is now decides, as with sshd
                self.server.log(line)
        # --public authenticates too, only to learn who is who: any key a client proves it holds is let
        # in (its fingerprint keeps a seat for it), and a client with no key gets in by keyboard-interactive
        # with no question asked.
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return self.server.config.authorized_keys is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._signing_key = None  # whatever key was offered before, this login proves none
        return self.server.config.authorized_keys is None

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._keys_checked += 1
        if self._keys_checked > MAX_KEY_CHECKS:
            self._too_many_keys()
            return False
        keys = self.server.config.authorized_keys
        if keys is None:
            allowed = True
        else:
            host = self.conn.get_extra_info("peername", ("",))[0]
            verdict = keys.check(key, host, self.address)
            if verdict.refusal is not None:
                self.refused(verdict.refusal)
            allowed = verdict.allowed
        if not allowed:
            self._keys_refused += 1
            if self._keys_refused >= MAX_AUTH_TRIES:
                self._too_many_keys()
            return False
        without_sha1(key)  # the signature that follows is checked on this very key object
        # The last key let in before authentication completes is the one whose signature completed it.
        self._signing_key = key
        return True

    def _too_many_keys(self) -> None:
        if "too many keys" in self.refusals:
            return
        self.refusals["too many keys"] = None
        user = shown_user(self.user) if self.user is not None else "-"
        self.server.flood_log(
            f"{self.label} user={user}: {plural(self._keys_refused, 'key')} refused in {plural(self._keys_checked, 'check')}; "
            f"disconnected (at most {MAX_AUTH_TRIES} tries)",
            "key attempt lines",
        )
        with contextlib.suppress(Exception):
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, TOO_MANY_KEYS.format(tries=MAX_AUTH_TRIES))

    def auth_completed(self) -> None:
        key = self._signing_key
        if key is not None:
            self.identity = f"key:{key.get_fingerprint('sha256')}"
        else:
            self.identity = self.server.address_identity(self.address_key, self.user or "")
        self.authenticated = True
        self.server.unauthenticated.pop(self, None)
        if not self.server.admit(self):  # filled up while this client authenticated
            if self.server.full:
                self._refuse_full()
            else:
                self._refuse_address_full()
            return
        # A slot is for playing: a client that holds one without starting a game (ssh -N) is let go.
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(self.server.config.login_timeout, self._close_if_no_game)

    def _close_if_no_game(self) -> None:
        self._idle_timer = None
        if not self._game_running:
            self.refused("no game started")
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, NO_GAME_STARTED)

    def _refuse_full(self) -> None:
        self.refused("server full")
        self.server.note_full()
        self.conn.disconnect(
            asyncssh.DISC_TOO_MANY_CONNECTIONS, SERVER_FULL.format(games=plural(self.server.config.max_sessions, "game"))
        )

    def _refuse_address_full(self) -> None:
        self.refused("address full")
        games = plural(self.server.config.max_sessions_per_address, "game")
        self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, ADDRESS_FULL.format(games=games))

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel, GameSession]:
        if self.sessions or self.left.is_set():  # one session channel per connection, ever: the others cost nothing
            self.refused("second session")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, ONE_SESSION)
        session = GameSession(self)
        self.sessions.append(session)
        chan = self.conn.create_server_channel()
        refuse_unwanted_env(chan, session.environment)
        return chan, session

    # Forwarding in any direction and of any kind: refused, with the reason when the protocol carries one.

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        self.refused("local forwarding")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.refused("remote forwarding")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.refused("local forwarding")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def unix_server_requested(self, listen_path: str) -> bool:
        self.refused("remote forwarding")
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.refused("tunnel")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def tap_requested(self, unit: int | None) -> bool:
        self.refused("tunnel")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    # -- games on this connection -----------------------------------------------------------------------

    def begin_game(self) -> bool:
        """One game per connection, so --max-sessions counts games as well as connections."""
        if self._game_running:
            return False
        self._game_running = True
        return True

    def game_started(self, pid: int) -> None:
        self.exit_status = "playing"

    def game_closed(self) -> None:
        # The game is over and reported; the connection has nothing else to offer.
        self.close()

    def close(self) -> None:
        if not self.left.is_set():
            self.conn.close()

    def refused(self, what: str) -> None:
        """Note a refusal for the log; a client that keeps asking for what is refused is let go."""
        self.refusals[what] = None
        self._refused_requests += 1
        if self._refused_requests == MAX_REFUSED_REQUESTS and not self.left.is_set():
            self.refusals["too many refusals"] = None
            with contextlib.suppress(Exception):
                self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, TOO_MANY_REFUSALS)

    def stop_games(self, reason: str) -> None:
        for session in self.sessions:
            session.stop(reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self.left.set()
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        self.server.connections.discard(self)
        self.server.admitted.discard(self)
        self.server.unauthenticated.pop(self, None)
        self.stop_games("client left")
        ended = time.monotonic()
        games = [s.task for s in self.sessions if s.task is not None and not s.task.done()]
        if games:
            # Log once the game is really gone, with how it ended.
            self.server.track(self._log_after(games, ended))
        else:
            self._log_disconnect(ended)

    async def _log_after(self, games: list[asyncio.Task[None]], ended: float) -> None:
        await asyncio.wait(games)
        self._log_disconnect(ended)

    def _log_disconnect(self, ended: float) -> None:
        seconds = ended - self._started
        user = shown_user(self.user) if self.user is not None else "-"
        if not self.authenticated and not self.refusals:
            self.refusals["not authenticated"] = None
        refused = f", refused: {', '.join(self.refusals)}" if self.refusals else ""
        table = f", {self.table}" if self.table is not None else ""
        line = f"disconnect {self.label} user={user} after {seconds:.1f}s, {self.exit_status}{table}{refused}"
        if self.authenticated:
            self.server.log(line)
        else:
            self.server.flood_log(line, "connections closed before authenticating")
        self._release()

    def _release(self) -> None:
        """Break every cycle between this connection, its session, its channel and asyncssh's connection.

        Then whatever the client made the server hold is freed as soon as the connection is gone, not
        whenever the cycle collector next runs.
        """
        for session in self.sessions:
            session.release()
        self.sessions.clear()
        conn = getattr(self, "conn", None)
        if conn is not None:
            for name in ("create_agent_listener", "attach_x11_listener"):
                vars(conn).pop(name, None)  # our refusals, bound to this object
