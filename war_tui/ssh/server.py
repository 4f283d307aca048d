"""The SSH door: who may enter, how many at once, and one log line per connection and disconnection."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncssh

from ..presentation.words import plural
from .keys import AuthorizedKeys, KeyFileError
from .limits import AttemptLimiter
from .session import GameSession

REFUSE_FORWARDING = "port forwarding is not offered here: this server only plays War"
SERVER_FULL = "the server is full ({games} in progress); please try again later"
TOO_MANY_ATTEMPTS = "too many connection attempts from your address; please wait a minute"
NO_GAME_STARTED = "no game was started; this server only plays War"
SHUTDOWN_GRACE = 5.0


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
        self.limiter = AttemptLimiter(config.attempts_per_minute)
        self.connections: set[Connection] = set()
        self.admitted: set[Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._stopping = False

    async def start(self) -> None:
        """Start listening; OSError (port in use, bad address) reaches the caller."""
        self._acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            self.config.host,
            self.config.port,
            server_host_keys=[self.config.host_key],
            encoding=None,
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            login_timeout=self.config.login_timeout,
            keepalive_interval=self.config.keepalive_seconds,
            keepalive_count_max=3,
            server_version="war-tui",
        )

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
        return self._stopping or len(self.admitted) >= self.config.max_sessions

    def admit(self, link: Connection) -> bool:
        if self.full:
            return False
        self.admitted.add(link)
        return True

    async def stop(self) -> None:
        """Stop listening, end every game (the players are told), close every connection.

        Bounded by the grace period however slowly clients read: a session gives up on its goodbye at
        the deadline, and whatever is still connected then is dropped.
        """
        self._stopping = True
        if self._acceptor is not None:
            self._acceptor.close()
        for link in list(self.connections):
            link.stop_games("server shutdown")
        # Sessions keep to the grace period themselves; the margin covers a game's last SIGKILL.
        await self._settle(self.config.shutdown_grace + 1.0, connections=False)
        for link in list(self.connections):
            link.close()
        await self._settle(1.0)  # the dropped connections' last log lines
        if self._acceptor is not None:
            await self._acceptor.wait_closed()

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
        self.refusals: list[str] = []
        self.sessions: list[GameSession] = []
        self._game_running = False
        self._started = time.monotonic()
        self._rejection: str | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self.left = asyncio.Event()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.label = f"{peer[0]}:{peer[1]}" if ":" not in str(peer[0]) else f"[{peer[0]}]:{peer[1]}"
        self.server.connections.add(self)
        limiter = self.server.limiter
        attempts = limiter.attempt(self.address)
        if not limiter.allowed(attempts):
            self._rejection = TOO_MANY_ATTEMPTS
            if attempts > 2 * limiter.per_minute:
                # A flood: not even a key exchange for it.
                self.refusals.append("attempt rate")
                conn.abort()
        # Agent forwarding is off; this notes the request so the player is told (it has no reply of its own).
        conn.create_agent_listener = self._refuse_agent  # type: ignore[method-assign]

    async def _refuse_agent(self) -> bool:
        self.agent_refused = True
        self.refusals.append("agent forwarding")
        return False

    def begin_auth(self, username: str) -> bool:
        # The connect line waits for the user name: a connection that never gets this far (a port
        # scan, a failed key exchange, a flood) is logged once, by its disconnect line.
        if self.user is None:
            self.server.log(f"connect {self.label} user={shown_user(username)}")
        self.user = username
        if self._rejection is not None:
            self.refusals.append("attempt rate")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self._rejection)
            return True
        if self.server.full:
            # Told before authenticating, so the client reports it rather than a dropped session.
            self._refuse_full()
            return True
        if self.server.config.authorized_keys is None:
            return False  # --public: no authentication at all
        try:
            self.server.config.authorized_keys.refresh()
        except KeyFileError as exc:
            self.server.log(f"{exc}; keeping the keys read before")
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return self.server.config.authorized_keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        keys = self.server.config.authorized_keys
        if keys is None:
            return False
        host = self.conn.get_extra_info("peername", ("",))[0]
        return keys.allows(key, host, self.address)

    def auth_completed(self) -> None:
        self.authenticated = True
        if not self.server.admit(self):  # filled up while this client authenticated
            self._refuse_full()
            return
        # A slot is for playing: a client that holds one without starting a game (ssh -N) is let go.
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(self.server.config.login_timeout, self._close_if_no_game)

    def _close_if_no_game(self) -> None:
        if not self._game_running:
            self.refusals.append("no game started")
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, NO_GAME_STARTED)

    def _refuse_full(self) -> None:
        self.refusals.append("server full")
        self.conn.disconnect(
            asyncssh.DISC_TOO_MANY_CONNECTIONS, SERVER_FULL.format(games=plural(self.server.config.max_sessions, "game"))
        )

    def session_requested(self) -> GameSession:
        session = GameSession(self)
        self.sessions.append(session)
        return session

    # Forwarding in any direction and of any kind: refused, with the reason when the protocol carries one.

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        self.refusals.append("local forwarding")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.refusals.append("remote forwarding")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.refusals.append("local forwarding")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def unix_server_requested(self, listen_path: str) -> bool:
        self.refusals.append("remote forwarding")
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.refusals.append("tunnel")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSE_FORWARDING)

    def tap_requested(self, unit: int | None) -> bool:
        self.refusals.append("tunnel")
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
        self.refusals.append(what)

    def stop_games(self, reason: str) -> None:
        for session in self.sessions:
            session.stop(reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self.left.set()
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self.server.connections.discard(self)
        self.server.admitted.discard(self)
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
            self.refusals.append("not authenticated")
        refused = f", refused: {', '.join(dict.fromkeys(self.refusals))}" if self.refusals else ""
        self.server.log(
            f"disconnect {self.label} user={user} after {seconds:.1f}s, {self.exit_status}{refused}"
        )
