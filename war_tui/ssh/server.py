"""The SSH door: the game server listening for SSH clients; who may enter, how many at once,
and one log line per connection and disconnection."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import asyncssh

from ..presentation.words import plural
from ..serving.config import (
    DEFAULT_PORT,
    KIB,
    LISTEN_HOST,
    MAX_UNAUTHENTICATED,
    NO_FANOUT,
    RENDERERS_PER_TABLE,
    SPECTATOR_BACKLOG_KB,
    GameConfig,
)
from ..serving.goodbyes import SHUTDOWN
from ..serving.limits import address_key
from ..serving.log_format import LogLine, place_fields
from ..serving.server import GameServer, stderr_log
from ..settings.options import setting
from .env_requests import env_hook_missing, refuse_unwanted_env
from .fanout import FanoutHub
from .keys import AuthorizedKeys, host_secret, without_sha1
from .session import GameSession
from .user_names import let_in_any_user_name

REFUSE_FORWARDING = "port forwarding is not offered here: this server only plays War"
ONE_SESSION = "one session per connection: open another connection to play another game"
SERVER_FULL = "the server is full ({games} in progress); please try again later"
ADDRESS_FULL = "your address already has {games} in progress here, the most one address may have"
OUT_OF_MEMORY = "the server is out of memory for new games; please try again later"
TOO_MANY_ATTEMPTS = "too many connection attempts from your address; please wait a minute"
TOO_MANY_REFUSALS = "too many refused requests; this server only plays War"
NO_GAME_STARTED = "no game was started; this server only plays War"
MAX_REFUSED_REQUESTS = 16
"""Refused channels and requests a connection may ask for before it is let go."""
MAX_AUTH_TRIES = 6
"""Keys a connection may offer that are not let in, as OpenSSH's MaxAuthTries; the next ends it."""
MAX_KEY_CHECKS = 3 * MAX_AUTH_TRIES
"""Keys checked per connection at most, let in or not (each is checked once offered and once signed)."""
TOO_MANY_KEYS = "too many keys offered; at most {tries} may be tried on one connection"
# Our server-sig-algs: no SHA-1 (ssh-rsa), no DSA (ssh-dss).
REFUSAL_REASONS = {
    "attempt rate": "rate", "server full": "full", "address full": "caps", "server memory": "memory",
    "unauthenticated cap": "flood", "input flood": "flood", "too many refusals": "flood",
    "not authenticated": "auth", "too many keys": "auth", "expired key": "auth",
    "agent forwarding": "forwarding", "X11 forwarding": "forwarding", "local forwarding": "forwarding",
    "remote forwarding": "forwarding", "tunnel": "forwarding", "game id": "game_id",
}
"""How each of the connection's refusals is counted (``counts.REFUSAL_REASONS``); any other is bad input, a key
with refused options is a refused key. A table's own refusals ("table") are counted by the tables."""
SIGNATURE_ALGORITHMS = [
    "ssh-ed25519", "ssh-ed448", "ecdsa-sha2-nistp521", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp256",
    "rsa-sha2-512", "rsa-sha2-256", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
]


@dataclass(frozen=True, kw_only=True)
class ServerConfig(GameConfig):
    """Everything ``serve-ssh`` decided before listening. ``authorized_keys`` None means public."""

    host_key: asyncssh.SSHKey
    authorized_keys: AuthorizedKeys | None
    host: str = setting(LISTEN_HOST)
    port: int = DEFAULT_PORT
    login_timeout: float = 30.0
    keepalive_seconds: float = 30.0
    max_unauthenticated: int = setting(MAX_UNAUTHENTICATED)
    fanout: bool = setting(NO_FANOUT, lambda off: not off)
    """Spectators who share a table, a screen size and a terminal kind watch one renderer (``fanout``);
    False: each spectator runs a game of its own."""
    renderers_per_table: int = setting(RENDERERS_PER_TABLE)
    """Renderers one table may have at once; a spectator past it gets a game of its own."""
    spectator_backlog: int = setting(SPECTATOR_BACKLOG_KB, lambda kb: kb * KIB)
    """Bytes of a renderer's output held for one spectator; past it they get a fresh repaint once caught up."""

    def secret(self) -> bytes:
        """Drawn from the host key: identities last across restarts as the key does."""
        return self.secret_key or host_secret(self.host_key)


MAX_LOGGED_USER = 64
"""Characters of a client-chosen user name a JSON log line keeps (a field of its own, escaped)."""


def shown_user(name: str) -> str:
    """A client-chosen user name, safe for a log line: no spaces or control characters, not too long."""
    if name and len(name) <= 32 and name.isprintable() and " " not in name:
        return name
    return ascii(name[:32]).replace(" ", "\\x20")


class SshServer(GameServer):
    """The game server with the SSH door on it: listens, admits, and on ``stop`` ends every game before
    the last connection closes."""

    def __init__(self, config: ServerConfig, log: Callable[[str], None] = stderr_log) -> None:
        super().__init__(config, log)
        self.config: ServerConfig = config
        self.connections: set[Connection] = set()
        self.admitted: set[Connection] = set()
        self.unauthenticated: OrderedDict[Connection, None] = OrderedDict()
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.fanout = FanoutHub(self, config.renderers_per_table, config.spectator_backlog) if config.fanout else None

    async def _open(self) -> None:
        if self.config.authorized_keys is not None:
            for line in self.config.authorized_keys.take_warnings():
                self.log(line)
        missing = env_hook_missing()
        if missing is not None:
            self.log(missing)
        await self._listen()

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

    @property
    def port(self) -> int:
        assert self._acceptor is not None
        return self._acceptor.get_port()

    @property
    def listening(self) -> bool:
        return self._acceptor is not None and super().listening

    def kinds(self) -> Iterator[tuple[str, str]]:
        for link in self.admitted:
            for session in link.sessions:
                kind = session.kind
                if kind is not None:
                    yield "ssh", kind
        yield from super().kinds()

    def games(self) -> int:
        return len(self.admitted) + super().games()

    def games_from(self, key: str) -> int:
        ssh = sum(1 for link in self.admitted if link.address_key == key)
        return ssh + super().games_from(key)

    def addresses(self) -> Iterator[str]:
        for link in self.admitted:
            yield link.address_key
        yield from super().addresses()

    def held(self) -> tuple[int, int]:
        note = self.config.idle_note_seconds
        idle = sum(1 for link in self.admitted for s in link.sessions if s.played and s.idle_seconds >= note)
        return len(self.admitted), idle

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

    # -- stopping: the steps of ``GameServer.stop`` that are this door's ------------------------------------

    def _stop_listening(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()

    def _tables_read(self) -> bool:
        return all(session.table_drained for link in self.connections for session in link.sessions)

    def _stop_games(self) -> None:
        for link in list(self.connections):
            link.stop_games(SHUTDOWN)

    def _connected(self) -> bool:
        return bool(self.connections)

    async def _close_connections(self) -> None:
        if self.fanout is not None:
            await self.fanout.close()
        for link in list(self.connections):
            link.close()
        await self._settle(1.0)  # the dropped connections' last log lines
        if self._acceptor is not None:
            await self._acceptor.wait_closed()


class Connection(asyncssh.SSHServer):
    """One client connection: admission, authentication and the refusals that are not per channel."""

    def __init__(self, server: SshServer) -> None:
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
        # Forwarding is off; these log the requests and tell the player of the agent (it has no reply).
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
        # The connect line waits for a user name: a scan or failed key exchange logs once.
        if self.user is None:
            self.server.flood_log(LogLine(f"connect {self.label} user={shown_user(username)}", "connect",
                                          address=self.label, user=username[:MAX_LOGGED_USER]))
        self.user = username
        if self._rejection is not None:
            self.refused("attempt rate")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self._rejection)
            return True
        if self.server.full:
            # Refused before authenticating: the client shows why, not a dropped session.
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
        # --public authenticates only to tell players apart: any proven key gets in (its fingerprint
        # keeps its seat); a keyless client gets in by keyboard-interactive, asked nothing.
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
        # The last key let in is the one whose signature completed authentication.
        self._signing_key = key
        return True

    def _too_many_keys(self) -> None:
        if "too many keys" in self.refusals:
            return
        self.refusals["too many keys"] = None
        self.server.counts.refused("auth")
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
        # A slot is for playing: a client holding one with no game (ssh -N) is let go.
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

    # Forwarding of any kind: refused, with a reason where the protocol carries one.

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

    def game_closed(self) -> None:
        # The game is over and reported; the connection has nothing else to offer.
        self.close()

    def close(self) -> None:
        if not self.left.is_set():
            self.conn.close()

    def refused(self, what: str) -> None:
        """Note a refusal for the log and the counts; a client that keeps asking for what is refused is let go."""
        self.refusals[what] = None
        if what != "table":
            reason = REFUSAL_REASONS.get(what, "auth" if what.startswith("key with ") else "bad_input")
            self.server.counts.refused(reason)
        self._refused_requests += 1
        if self._refused_requests == MAX_REFUSED_REQUESTS and not self.left.is_set():
            self.refusals["too many refusals"] = None
            self.server.counts.refused("flood")
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
            self.server.counts.refused("auth")
        refused = f", refused: {', '.join(self.refusals)}" if self.refusals else ""
        table = f", {self.table}" if self.table is not None else ""
        line = LogLine(
            f"disconnect {self.label} user={user} after {seconds:.1f}s, {self.exit_status}{table}{refused}",
            "disconnect", address=self.label, user=None if self.user is None else self.user[:MAX_LOGGED_USER],
            seconds=round(seconds, 1), end=self.exit_status, reason=", ".join(self.refusals) or None,
            **place_fields(self.table),
        )
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
