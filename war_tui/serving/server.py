"""The game server both doors share: caps over every door, identities, the tables, the game parent, the log."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
import weakref
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Protocol

from ..cluster.seam import Cluster, Nodes, start_nodes
from ..presentation.words import plural
from ..tables import reduce_name
from ..tables.names import name_key
from .config import GameConfig
from .counts import ServerCounts
from .environment import home_directory, session_environment
from .game_parent import GameParent
from .limits import AttemptLimiter, FloodLog, MemoryWatch, OncePer
from .log_format import stream_log
from .pty_process import PtyProcess
from .tables.host import SharedTables

RESTARTING = "the server is restarting: reconnect in a moment"
"""What a table's screens read when a server that keeps its tables stops: they come back with it."""
KEEP_TIMEOUT = 2.0
"""Seconds a stopping server gives the store to keep the tables' last changes."""
TABLE_GOODBYE = 0.5
"""Seconds the games at tables get to read that the server is closing before they are ended."""


class Door(Protocol):
    """A way into the server (the web door): what the shared caps count of it, and what ``--metrics`` reads."""

    @property
    def listening(self) -> bool:
        """It takes connections (it opened, and is not stopping)."""
        ...

    def kinds(self) -> Iterator[tuple[str, str]]:
        """The door's name and the kind (``counts.SESSION_KINDS``) of each game in progress."""
        ...

    def games(self) -> int: ...

    def games_from(self, key: str) -> int: ...

    def addresses(self) -> Iterator[str]:
        """The address (``limits.address_key``) of each game in progress."""
        ...


stderr_log = stream_log("text")
"""The log of a server no flag chose one for: text on stderr."""


class GameServer:
    """Hosts what the doors share; on ``stop`` ends every game at a table, then the tables and the parent.

    A door that listens itself (SSH) extends it; another (the web door) registers in ``doors``.
    """

    def __init__(self, config: GameConfig, log: Callable[[str], None] = stderr_log) -> None:
        self.config = config
        self.log = log
        self.counts = ServerCounts()
        """What ``--metrics`` reads: refusals, battles, game ends, screens behind, checkpoint writes."""
        self.processes: weakref.WeakSet[PtyProcess] = weakref.WeakSet()
        """Every game process started (players, spectators, renderers), until its door lets go of it."""
        self.flood_log = FloodLog(log)
        """For the lines one per connection: a flood of connections gets a summary a second instead."""
        self.limiter = AttemptLimiter(config.max_attempts_per_minute)
        self.memory = MemoryWatch(config.max_server_mb)
        self._full_noted = OncePer(1.0)
        self._memory_noted = OncePer(1.0)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self._summaries: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_handler: Any = None
        self.game_parent: GameParent | None = None
        self.doors: list[Door] = []
        """Doors sharing the server (the web door): their games count in the caps too."""
        self.cluster: Cluster | None = None
        """The NATS the tables are kept in, once started (``config.cluster``)."""
        self.restoring: asyncio.Task[Any] | None = None
        """Restoring the tables the store keeps, after the server listens (``SharedTables.restore_kept``)."""
        self.nodes: Nodes | None = None
        """This server as a node among the others on that NATS: the relay, the lobby of all, takeovers."""
        if config.preload_argv is not None and PtyProcess.forkable(config.session_argv):
            # The parent's environment is a game's without the client's part: what it reads at import is
            # what a game started afresh would read.
            env = session_environment(None, {})
            self.game_parent = GameParent(config.preload_argv, env, home_directory(env), log)
        # What turns an address into an identity: secret (from the host key, so it lasts across restarts
        # as the key does), so an identity says nothing of the address it stands for.
        self._address_secret = hashlib.sha256(b"war-tui address identity\0" + config.secret()).digest()
        self.tables = SharedTables(
            max_tables=config.max_tables, seat_timeout=config.seat_timeout, rules=config.table_rules,
            stats=config.stats, log=log, max_speed=config.max_speed, max_spectators=config.max_spectators,
            max_lobby=config.max_lobby, tables_per_address=config.max_tables_per_address,
            seats_per_address=config.max_seats_per_address, kept=config.cluster is not None,
            hide_address=self.table_address, counts=self.counts,
        )

    def address_identity(self, address_key: str, user: str) -> str:
        """The identity of a player who offered no key: their address together with their user name (as
        names are compared: ``Ann`` is ``ann``), hashed with the server's secret. Two people at one
        address (one home behind one router) with different names are two people; the same name from
        the same address is the same person."""
        person = f"{address_key}\0{name_key(reduce_name(user))}"
        digest = hmac.new(self._address_secret, person.encode(), hashlib.sha256).hexdigest()
        return f"addr:{digest[:24]}"

    def table_address(self, address_key: str) -> str:
        """An address as the tables hold it (and so their checkpoints and the relay between nodes): hashed with
        the same secret, alike on every node that shares the host key, so the caps per address still compare."""
        digest = hmac.new(self._address_secret, f"table address\0{address_key}".encode(), hashlib.sha256).hexdigest()
        return f"at:{digest[:24]}"

    def door_identity(self, door: str, token: str) -> str:
        """The identity of a player of another door (a browser's cookie token), hashed with the same secret."""
        digest = hmac.new(self._address_secret, f"{door}\0{token}".encode(), hashlib.sha256).hexdigest()
        return f"{door}:{digest[:24]}"

    async def start(self) -> None:
        """Start what the doors share: the cluster (NATS), the tables and the game parent.

        ``ClusterUnavailable`` (one line) when NATS cannot be started or reached; nothing is left running."""
        if self.config.cluster is not None:
            self.cluster = await Cluster.open(self.config.cluster, lambda line: self.flood_log(line, "NATS lines"))
        try:
            await self._start()
        except BaseException:
            await self._close_cluster()
            raise

    async def _start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        # Errors asyncio reports on its own (an accept that fails for want of file descriptors, for
        # one) become one line each, and at most a few a second, instead of a traceback each.
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        self._summaries = loop.call_later(1.0, self._summarise)
        if self.cluster is not None and self.cluster.store is not None:
            await self.tables.keep_in(self.cluster.store, self.cluster.owners)
            self.nodes = await start_nodes(self.cluster, self.tables, self.log, self.config.secret())
            self.nodes.sessions_here = self.addresses
        await self._open()
        self.tables.start()
        if self.tables.keeper is not None:
            # Listening already: each kept table is restored in turn, or at once when someone asks for it.
            self.restoring = self.track(self.tables.restore_kept())
        if self.game_parent is not None:
            await self.game_parent.start()

    async def _open(self) -> None:
        """What a door that is the server opens before the tables start (SSH: its listener)."""

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

    def track(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- what --metrics reads -------------------------------------------------------------------------------

    @property
    def stopping(self) -> bool:
        """``stop`` has begun: no new player is taken."""
        return self._stopping

    @property
    def listening(self) -> bool:
        """Every door takes connections (a door that is the server adds its own listener)."""
        return not self._stopping and all(door.listening for door in self.doors)

    def kinds(self) -> Iterator[tuple[str, str]]:
        """The door and the kind of each game in progress, through every door."""
        for door in self.doors:
            yield from door.kinds()

    def game_processes(self) -> int:
        """Game processes running now, renderers included."""
        return sum(1 for process in self.processes if process.returncode is None)

    def behind(self) -> list[float]:
        """How far each screen at the tables (its game's table socket) is behind its table, in seconds."""
        return [screen.behind() for screen in list(self.tables.screens)]

    # -- the caps, over every door ------------------------------------------------------------------------

    @property
    def full(self) -> bool:
        """``--max-sessions`` reached: this server's games and, as last read, the other nodes'."""
        elsewhere = self.nodes.elsewhere.sessions_total() if self.nodes is not None else 0
        return self._stopping or self.games() + elsewhere >= self.config.max_sessions

    def games(self) -> int:
        """Games in progress through every door (--max-sessions counts them all)."""
        return sum(door.games() for door in self.doors)

    def games_from(self, key: str) -> int:
        return sum(door.games_from(key) for door in self.doors)

    def addresses(self) -> Iterator[str]:
        """The address of each game in progress, through every door: what the other nodes count of this one."""
        for door in self.doors:
            yield from door.addresses()

    def address_full(self, key: str) -> bool:
        """``--max-sessions-per-address`` reached for ``key``, here and, as last read, on the other nodes."""
        elsewhere = self.nodes.elsewhere.sessions_from(key) if self.nodes is not None else 0
        return self.games_from(key) + elsewhere >= self.config.max_sessions_per_address

    def held(self) -> tuple[int, int]:
        """Games the "server full" line counts, and how many of them are idle (no keys for ``idle_note_seconds``)."""
        return 0, 0

    def note_full(self) -> None:
        """A client was refused because every slot is taken: say, at most once a second, who holds them."""
        if self._stopping or not self._full_noted.ready():
            return
        games, idle = self.held()
        minute = plural(round(self.config.idle_note_seconds / 60), "minute") if self.config.idle_note_seconds >= 60 \
            else f"{self.config.idle_note_seconds:g} s"
        self.log(f"server full: {plural(games, 'game')} in progress, {idle} of them idle "
                 f"(no keys for {minute} or more)")

    def out_of_memory(self) -> bool:
        """Past ``--max-server-mb``: logged at most once a second, with the size."""
        over = self.memory.over()
        if over and self._memory_noted.ready():
            self.log(f"memory: the server uses {self.memory.last_mb:,.0f} MB, past --max-server-mb "
                     f"{self.config.max_server_mb:,}: new connections are refused")
        return over

    # -- stopping -------------------------------------------------------------------------------------------

    async def stop(self) -> None:
        """End every game (the players are told), then the tables and the game parent.

        Bounded by the grace period however slowly clients read: a session gives up on its goodbye at
        the deadline, and whatever is still connected then is dropped.
        """
        self._stopping = True
        self._stop_listening()
        if self.restoring is not None:
            self.restoring.cancel()  # the tables not restored yet stay in the store as they are
        if self.tables.keeper is not None:
            await self.tables.stop_keeping(KEEP_TIMEOUT)
            if self.nodes is not None:
                await self.nodes.relay.hand_over()
            self.tables.close(RESTARTING)
        else:
            self.tables.close("the server is shutting down")
        await self._tables_told(TABLE_GOODBYE)
        self._stop_games()
        # Sessions keep to the grace period themselves; the margin covers a game's last SIGKILL.
        await self._settle(self.config.shutdown_grace + 1.0, connections=False)
        await self._close_connections()
        if self.nodes is not None:  # the last games to the stream, while the writer thread still takes them
            await self.nodes.games.stop(KEEP_TIMEOUT)
        await self.tables.stop()
        if self.game_parent is not None:
            await self.game_parent.stop()
        await self._close_cluster()
        if self._summaries is not None:
            self._summaries.cancel()
        self.flood_log.flush()
        if self._loop is not None:
            self._loop.set_exception_handler(self._previous_handler)

    async def _close_cluster(self) -> None:
        if self.nodes is not None:
            await self.nodes.stop()
            self.nodes = None
        if self.cluster is not None:
            await self.cluster.close()
            self.cluster = None

    def _stop_listening(self) -> None:
        """A door that is the server stops taking connections (SSH: its listener closes)."""

    def _stop_games(self) -> None:
        """A door that is the server ends its games, each with a goodbye."""

    def _tables_read(self) -> bool:
        """Every game at a table has read what its link said (a door that is the server knows its games)."""
        return True

    def _connected(self) -> bool:
        """Connections of a door that is the server are still open."""
        return False

    async def _close_connections(self) -> None:
        """A door that is the server lets go of whatever is still connected."""

    async def _tables_told(self, timeout: float) -> None:
        """Wait, at most ``timeout``, until every game at a table has read what its link said."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._tables_read():
                return
            await asyncio.sleep(0.02)

    async def _settle(self, timeout: float, connections: bool = True) -> None:
        """Wait, at most ``timeout``, until every task (new ones too) is done and, if asked, every connection gone."""
        deadline = time.monotonic() + timeout
        while (self._tasks or (connections and self._connected())) and time.monotonic() < deadline:
            if self._tasks:
                await asyncio.wait(set(self._tasks), timeout=min(0.1, deadline - time.monotonic()))
            else:
                await asyncio.sleep(0.02)
