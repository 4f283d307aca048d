"""This server as one node of many sharing one NATS: which tables it serves, the lobby of all, and takeovers.

- **A table is served by the node that owns its record** (``serve``): a node opens a table only once it has
  claimed it (``Owners.claim``: of nodes racing, one wins), and a table the store keeps is restored from it
  first. Connections to a table another node serves are relayed there (``router``, ``relay``).
- **The lobby of every node** is a KV bucket (``LOBBY_BUCKET``): each node writes its tables' entries (at most
  once a ``LOBBY_INTERVAL`` per table, deleted when the table closes here) and reads every node's entries back
  as often, for its lobby (``Registry.set_others``). It reads the bucket whole each time rather than watching
  it: a watch can stall after a reconnect (nats.py #510), a read cannot.
- **Caps across nodes** (``cluster.caps``): each lobby entry carries who opened the table and who holds its
  seats, hashed; each node writes its session counts (in all, per address, hashed) to a key of its own in the
  leases bucket, expiring with a lease. Each poll reads both into ``elsewhere``, which the registry's caps per
  visitor and the server's session caps add to what this node holds.
- **Takeover**: a node whose lease ran out (killed, cut off, paused) has its tables taken by the nodes that
  see its entries in the lobby: each claims them (one wins a table) and restores it from the store as it is
  (unwritten: its first write, at its first change here, names the revision read, so whichever of it and a
  paused old owner writes second is refused and lets the table go; the new owner then restores it again).
  A table restored so waits for its players even when their address left another (``Registry``'s awaited
  tables): closing it would delete its checkpoint, and its name would be dealt afresh.
- **A node that learns it lost its lease** (``step_down``) stops acting as owner at once: the doors relaying to
  it are told the table moved and its own connections follow the table too (``Router.follow``); its lobby
  entries stay for the nodes that take its tables over. Once it holds a fresh lease it takes back those no other node took (its own entries, the
  owner records still naming it) and takes over the tables of dead nodes again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from nats.aio.client import Client
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from ..presentation.words import plural
from ..tables.clock import monotonic
from ..tables.messages import Lobby, LobbyEntry
from ..tables.protocol import ProtocolError, decode_update, encode
from ..tables.store import StoredTable
from ..untrusted import BadRecord, BadRecords, fields, read_json, shown_key, text
from .buckets import delete, open_bucket, sweep_markers
from .caps import (
    MAX_SESSIONS,
    SESSIONS_PREFIX,
    Elsewhere,
    NodeSessions,
    TableVisitors,
    VisitorKeys,
    node_sessions,
    read_sessions,
    read_visitors,
    table_visitors,
)
from .errors import ClusterUnavailable
from .game_records import GameKey
from .game_stream import GameStream
from .keys import table_key, table_name
from .leases import NODE_ID, RENEWALS, LeaseBucket, Owners
from .node import Cluster
from .relay import RelayNode
from .relay_wire import NATS_ERRORS, RelayKey
from .router import Router
from .served import ServerKeeper, ServerTables
from .table_store import NatsTableStore
from .tasks import cancel_requested, end_tasks

LOBBY_BUCKET = "war-tui-lobby"
LOBBY_INTERVAL = 1.0
"""Seconds between a node's writes of its tables' lobby entries, and its reads of every node's."""
MAX_LOBBY_VALUE = 8 * 1024
GAMES_TIMEOUT = 2.0
"""Seconds a stopping node gives the games stream to take the finished games still waiting."""
TAKEN_FLUSH = 10.0
"""Seconds a takeover waits for the keeper's writes under way before it serves the table (the table itself is
restored unchanged, ``Registry.restore``: its first write is its first change here)."""
MAX_UNRESTORABLE = 1024
"""Tables a node remembers it could not restore (the oldest forgotten first, and tried once more)."""
MAX_NODES = 256
"""Other nodes whose session counts a node reads at most."""


def entry_value(node: str, entry: LobbyEntry, visitors: TableVisitors | None = None) -> bytes:
    raw: dict[str, Any] = {"node": node, "entry": encode(Lobby((entry,), 1)).decode()}
    if visitors is not None:
        raw["visitors"] = visitors.to_json()
    return json.dumps(raw).encode()


def read_entry(value: bytes) -> tuple[str, LobbyEntry, TableVisitors]:
    """The node, lobby entry and visitors a value of the bucket holds; ``BadRecord`` for anything else. A value
    without visitors (none to tell) has none."""
    raw = fields(read_json(value, MAX_LOBBY_VALUE, 4), "a lobby entry", required=("node", "entry"))
    node = text(raw["node"], "its node", 63, NODE_ID)
    line = text(raw["entry"], "its entry", MAX_LOBBY_VALUE)
    try:
        lobby = decode_update(line)
    except ProtocolError as exc:
        raise BadRecord(f"its entry: {exc}") from None
    if not isinstance(lobby, Lobby) or len(lobby.tables) != 1:
        raise BadRecord("its entry is not one table's")
    visitors = read_visitors(raw["visitors"]) if "visitors" in raw else TableVisitors()
    return node, lobby.tables[0], visitors


class Nodes:
    """This node's part in the cluster: ``start`` after the keeper listed the tables, ``stop`` before it stops."""

    def __init__(
        self, client: Client, node: str, lease_seconds: float, host: ServerTables, keeper: ServerKeeper,
        store: NatsTableStore, owners: Owners, log: Callable[[str], None], secret: bytes,
    ) -> None:
        self.client = client
        self.node = node
        self.lease = lease_seconds
        self.host = host
        self.keeper = keeper
        self.store = store
        self.owners = owners
        self.log = log
        self.bad = owners.bad or BadRecords(log)
        """Records in NATS that are not what they should be: one log line each, within a budget of their own."""
        self.relay = RelayNode(
            client, node, lease_seconds, serve=self.serve, link=self.host.local_link, alive=owners.alive,
            owner=owners.owner, wake=host.wake, log=log, key=RelayKey(secret), kept=host.registry.kept,
            bad=self.bad,
        )
        self.games = GameStream(client, node, store=host.store, here=host.record_here, log=log, key=GameKey(secret),
                                bad=self.bad)
        """Finished games to and from every node's statistics."""
        self.lobby: KeyValue | None = None
        self._lobby_stream = LeaseBucket(client.jetstream(), LOBBY_BUCKET)
        """The lobby bucket read on its stream, as the leases are: no consumer for a read."""
        self._lobby_mark: tuple[int, int] | None = None
        """The lobby bucket's last sequence number and message count when it was last read."""
        self._lobby_reads: dict[str, tuple[str, LobbyEntry, TableVisitors]] = {}
        """What that read found: each table's node, entry and visitors."""
        self.others: dict[str, tuple[str, LobbyEntry]] = {}
        """Every table in the lobby bucket, by name: its node and entry (this node's included)."""
        self.keys = VisitorKeys(secret)
        self.elsewhere = Elsewhere(self.keys)
        """What the other nodes hold per visitor, as last read: the caps add it to this node's."""
        self.sessions_here: Callable[[], Iterable[str]] | None = None
        """This node's sessions, an address each (the server's doors); None: it tells none."""
        self._sessions_written: tuple[NodeSessions, float] | None = None
        """This node's session counts as last written, and when."""
        self.bad = owners.bad or BadRecords(log)
        """Records in NATS that are not what they should be: one log line each, within a budget of their own."""
        self._written: dict[str, tuple[tuple[LobbyEntry, TableVisitors], int]] = {}
        """This node's entries (with their visitors) as last written, and their revisions."""
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """One claim-and-restore at a time per table, and how many wait for it (the entry goes with the last)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._reclaiming: asyncio.Task[None] | None = None
        """Claiming this node's tables again after its lease lapsed while NATS did not answer (``reclaim``)."""
        self._routers: weakref.WeakSet[Router] = weakref.WeakSet()
        """This node's connections to the tables (``route``): those at a table this node lets go follow it."""
        self.polls = 0
        """Reads of the lobby and the session counts done (for the tests)."""
        self._unrestored: set[str] = set()
        """Tables whose stored checkpoint could not be restored, since a takeover last looked."""
        self._unrestorable: dict[str, str] = {}
        """Tables of a dead node whose checkpoints could not be restored, and that node: not tried again while the
        lobby entry names it (a new table of that name, served by a live node, has an entry of its own)."""
        self.clock = monotonic
        """The clock ``_let_go_at`` is read on (a test's own)."""
        self._let_go_at: dict[str, float] = {}
        """Tables this node let go (another node wrote them, or its lease ran out), and when: not claimed again
        for a renewal's time (``_serve``)."""
        self.taken: list[str] = []
        """Tables this node restored from the store to serve them: taken over from a node whose lease ran out
        (for the log and the tests)."""

    async def start(self) -> None:
        config = KeyValueConfig(
            bucket=LOBBY_BUCKET, description="war-tui: every node's tables, for the lobby", history=1,
            max_value_size=MAX_LOBBY_VALUE, storage=StorageType.MEMORY,
        )
        self.lobby = await open_bucket(self.client.jetstream(), config)
        await sweep_markers(self.client.jetstream(), self.lobby, LOBBY_BUCKET)
        await self.relay.start()
        await self.games.start()
        self.host.router = self.route
        self.host.publish = self.games.publish
        self.keeper.on_let_go = self._let_go
        self.host.registry.elsewhere = self.elsewhere
        self._tasks = [asyncio.get_running_loop().create_task(self._lobby_loop())]

    async def stop(self) -> None:
        self.host.router = None
        self.host.publish = None
        self.keeper.on_let_go = None
        self.host.registry.elsewhere = None
        await self.games.stop(GAMES_TIMEOUT)
        await end_tasks([*self._tasks, *([self._reclaiming] if self._reclaiming is not None else [])])
        self._tasks, self._reclaiming = [], None
        if self._sessions_written is not None and self._sessions_written[0].total:
            with contextlib.suppress(*NATS_ERRORS):  # stopping: the record expires with a lease anyway
                await self.owners.bucket.put(SESSIONS_PREFIX + self.node, NodeSessions().to_bytes(), 1)
            self._sessions_written = None
        await self.relay.stop()

    def route(self, user_name: str, identity: str | None, address: str | None) -> Router:
        """A new connection's way to the tables of every node."""
        router = Router(self, user_name, identity, address)
        self._routers.add(router)
        return router

    def _let_go(self, table: str) -> None:
        """This node lets ``table`` go: every connection at it, relayed here or this node's own, follows it to
        whichever node serves it, seats kept as they were."""
        now = self.clock()
        for name in [n for n, at in self._let_go_at.items() if now - at >= self.lease / RENEWALS]:
            del self._let_go_at[name]
        self._let_go_at[table] = now
        self.relay.move_table(table)
        for router in list(self._routers):
            router.follow(table)

    # -- who serves a table -----------------------------------------------------------------------------

    async def serve(self, name: str) -> bool:
        """Whether this node serves ``name`` (open here, or claimed now: restored first if the store has it)."""
        registry = self.host.registry
        if registry.table(name) is not None:
            return True
        if registry.closed:
            return False
        lock, users = self._locks.get(name, (asyncio.Lock(), 0))
        self._locks[name] = (lock, users + 1)
        try:
            async with lock:
                return await self._serve(name)
        finally:
            lock, users = self._locks[name]
            if users > 1:
                self._locks[name] = (lock, users - 1)
            else:
                del self._locks[name]

    async def _serve(self, name: str) -> bool:
        registry = self.host.registry
        if registry.table(name) is not None:
            return True
        let_go = self._let_go_at.get(name)
        if let_go is not None and self.clock() - let_go < self.lease / RENEWALS:
            # The node whose write made this one let the table go may not know yet that its lease ran out (it
            # learns at its next renewal): a claim now would restore the table only to be refused at its next
            # write, again and again while that node plays on. Its connections wait a renewal's time.
            return False
        try:
            if not await self.keeper.claim(name):
                return False
            await self.keeper.restore_now(name)  # kept here before a restart: as at start
            if registry.table(name) is not None:
                return True
            stored = await self._stored(name)
        except NATS_ERRORS:
            return False
        if stored is None:
            return True  # a new table: the first to join opens it
        data, revision = stored
        if not await self.keeper.open_stored(StoredTable(name, data, revision), claimed=True):
            if registry.table(name) is None:
                self._unrestored.add(name)
            return True  # it could not be restored (logged): a new table of that name replaces it
        self.keeper.poke()
        await self.keeper.flush(TAKEN_FLUSH)
        if registry.table(name) is None:  # a refused first write let it go
            return False
        self.taken.append(name)
        self.log(f"tables: {name} taken over from the store, at the battle its last server reached")
        self.host.record_restored([name])
        return True

    async def _stored(self, name: str) -> tuple[bytes, int] | None:
        try:
            entry = await self.store.kv.get(table_key(name))
        except KeyNotFoundError:
            return None
        if entry.value is None:
            return None
        return entry.value, entry.revision or 0

    async def owner(self, name: str) -> str | None:
        """The node named by the table's owner record; None when it has none or NATS does not answer."""
        try:
            return await self.owners.owner(name)
        except NATS_ERRORS:
            return None

    def step_down(self) -> None:
        """This node's lease ran out under it (paused, cut off): others may take its tables, so it stops acting as
        their owner at once. Doors relaying here are told the table moved and its own connections follow it too (seats kept,
        ``_let_go``); the lobby entries stay, for the nodes that take the tables over."""
        self.relay.move_all()
        names = self.keeper.let_go_all()
        for name in names:
            self._written.pop(name, None)  # the entry stays: who takes the table over (this node too) writes its own
        if names:
            self.log(f"tables: {plural(len(names), 'table')} let go until this node holds a fresh lease: "
                     f"{', '.join(names)}")
        self.host.wake()

    def reclaim(self) -> None:
        """This node took its lease again after it expired while NATS did not answer (``NodeLease.on_lapsed``):
        meanwhile another node may have taken a table of its, so it claims each again (compare-and-set on the owner
        record: of it and a node that read the record before, one wins) and lets go those it cannot keep."""
        if self._reclaiming is None or self._reclaiming.done():
            self._reclaiming = asyncio.get_running_loop().create_task(self._reclaim())

    async def _reclaim(self) -> None:
        let_go: list[str] = []
        for name in [table.name for table in self.host.registry.tables if not table.closed]:
            try:
                kept = await self.keeper.claim(name)
            except NATS_ERRORS:
                kept = False  # not known to be ours: let go, as a lost lease would
            if not kept and self.host.registry.table(name) is not None:
                self.keeper.let_go(name)
                self._written.pop(name, None)  # the entry stays, for the node that took the table to write its own
                let_go.append(name)
        if let_go:
            self.log(f"tables: {plural(len(let_go), 'table')} taken by another node while NATS did not answer, "
                     f"let go here: {', '.join(let_go)}")
        self.host.wake()

    # -- the lobby, and takeovers ------------------------------------------------------------------------

    async def _lobby_loop(self) -> None:
        """The lobby, takeovers and caps, every ``LOBBY_INTERVAL``: each part goes on whatever another met."""
        while not cancel_requested():
            for part in (self._write_lobby, self._read_lobby, self._takeovers, self._sessions_round):
                try:
                    await part()
                except NATS_ERRORS:
                    pass  # NATS away: the next round tries again
                except Exception as exc:  # noqa: BLE001 - a record no check foresaw must not stop every lobby
                    self.bad(f"cluster: the lobby's round met {type(exc).__name__}; it goes on")
            self.bad.flush()
            self.polls += 1
            await asyncio.sleep(LOBBY_INTERVAL)

    async def _takeovers(self) -> None:
        """Tables no live node serves taken over (from the lobby as last read), while this node holds its lease."""
        if not self.owners.lease.lost:
            await self._take_over()

    async def _sessions_round(self) -> None:
        await self._write_sessions()
        await self._read_sessions()

    async def _write_lobby(self) -> None:
        assert self.lobby is not None
        tables = {table.name: table for table in self.host.registry.tables if not table.closed}
        for name, table in tables.items():
            told = (table.lobby_entry(), table_visitors(self.keys, table.opened_by, table.seat_holders()))
            written = self._written.get(name)
            if written is not None and written[0] == told and self._still_ours(name, written[1]):
                continue
            revision = await self.lobby.put(table_key(name), entry_value(self.node, *told))
            self._written[name] = (told, revision)
        for name in [n for n in self._written if n not in tables]:
            _, revision = self._written.pop(name)
            with contextlib.suppress(*NATS_ERRORS, Exception):  # another node wrote it since: its entry stays
                await delete(self.client.jetstream(), LOBBY_BUCKET, table_key(name), revision)

    def _still_ours(self, name: str, revision: int) -> bool:
        """Whether the lobby, as last read, still holds this node's entry for ``name`` (or was read before it was
        written). A node that lost the table while paused may write its own entry over it on waking, then delete
        that: the table would be missing from every lobby, and from the takeovers, until its entry changed."""
        read = self._lobby_reads.get(name)
        if read is not None and read[0] == self.node:
            return True
        return self._lobby_mark is None or self._lobby_mark[0] < revision

    async def _read_lobby(self) -> None:
        """Every node's lobby entries, read again only when the bucket changed since the last read (its stream's
        last sequence number and message count): a still lobby costs one request a second, not a listing and a
        read per table."""
        assert self.lobby is not None
        state = (await self.lobby.status()).stream_info.state
        mark = (state.last_seq, state.messages)
        if mark != self._lobby_mark:
            self._lobby_reads = await self._read_entries()
            self._lobby_mark = mark
        registry = self.host.registry
        self.others = {name: (node, entry) for name, (node, entry, _) in self._lobby_reads.items()}
        self.elsewhere.tables = tuple(
            visitors for name, (node, _, visitors) in self._lobby_reads.items()
            if node != self.node and registry.table(name) is None
        )
        registry.set_others(tuple(entry for node, entry in self.others.values() if node != self.node))
        self.host.wake()

    async def _read_entries(self) -> dict[str, tuple[str, LobbyEntry, TableVisitors]]:
        """The bucket's keys listed from its stream's state and each read on its own (one request each): no
        consumer is made, as nats-py's ``KeyValue.keys`` makes one per call, which lingers for minutes."""
        found: dict[str, tuple[str, LobbyEntry, TableVisitors]] = {}
        for key in await self._lobby_stream.keys("", self.host.registry.max_tables * 4):
            name = table_name(key)
            if name is None:
                continue
            record = await self._lobby_stream.read(key)
            if record.value is None:
                continue
            try:
                read = read_entry(record.value)
                if read[1].table != name:
                    raise BadRecord("its entry is another table's")
            except BadRecord as exc:
                self._skipped("lobby entry", key, record.revision, exc)
                continue
            found[name] = read
        return found

    async def _write_sessions(self) -> None:
        """This node's session counts, when they changed or a third of a lease after the last write (so they
        do not expire while it runs); nothing while it has none and told none."""
        if self.sessions_here is None:
            return
        sessions = node_sessions(self.keys, list(self.sessions_here())[:MAX_SESSIONS])
        now = asyncio.get_running_loop().time()
        written = self._sessions_written
        if sessions.total == 0 and (written is None or written[0].total == 0):
            return  # none to tell: a record of none expires by itself
        if written is not None and written[0] == sessions and now - written[1] < self.lease / RENEWALS:
            return
        await self.owners.bucket.put(SESSIONS_PREFIX + self.node, sessions.to_bytes(), max(1, round(self.lease)))
        self._sessions_written = (sessions, now)

    async def _read_sessions(self) -> None:
        """Every other node's session counts, into ``elsewhere``; a node whose key expired (it died) has none."""
        bucket = self.owners.bucket
        found: dict[str, NodeSessions] = {}
        for key in await bucket.keys(SESSIONS_PREFIX, MAX_NODES + 1):
            node = key[len(SESSIONS_PREFIX):]
            if node == self.node:
                continue
            record = await bucket.read(key)
            if record.value is None:
                continue
            try:
                if not NODE_ID.fullmatch(node):
                    raise BadRecord("its key names no node")
                found[node] = read_sessions(record.value)
            except BadRecord as exc:
                self._skipped("session record", key, record.revision, exc)
        self.elsewhere.sessions = found

    def _skipped(self, what: str, key: str, revision: int, reason: BadRecord) -> None:
        """One log line per bad record (by key and revision), within the bad records' budget: it counts for nothing."""
        self.bad(f"cluster: the {what} {shown_key(key)} in NATS is skipped ({reason})", (key, revision))

    async def _take_over(self) -> None:
        """Serve each table of the lobby that no live node serves: one whose owner record names a node whose lease
        ran out, or this node (a table it let go when its own lease ran out, that no other node took meanwhile),
        or none while its entry names a dead node."""
        alive: dict[str, bool] = {self.node: True}
        registry = self.host.registry
        for name, (node, _) in list(self.others.items()):
            if registry.table(name) is not None:
                continue
            if node not in alive:
                alive[node] = await self.owners.alive(node)
            if alive[node] and node != self.node:
                continue  # its node serves it, and says so in the lobby
            if self._unrestorable.get(name) == node:
                continue  # its stored state cannot be restored: said once, not tried again at every round
            owner = await self.owners.owner(name)
            if owner is None and node == self.node:
                continue  # closed here
            if owner is not None and owner != self.node:
                if owner not in alive:
                    alive[owner] = await self.owners.alive(owner)
                if alive[owner]:
                    continue  # another node took it already
            await self._take(name, node)

    async def _take(self, name: str, node: str) -> None:
        """Take ``name`` over from ``node`` (dead); one whose stored state cannot be restored is remembered so."""
        try:
            if await self.serve(name) and self.host.registry.table(name) is None:
                await self.keeper.unclaim(name)  # the store keeps it no more: nothing to take over
                if name in self._unrestored:
                    self._unrestorable[name] = node
                    while len(self._unrestorable) > MAX_UNRESTORABLE:
                        del self._unrestorable[next(iter(self._unrestorable))]
            self._unrestored.discard(name)
        except NATS_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - one table's stored state no check foresaw: the others go on
            self.bad(f"tables: {name} could not be taken over ({type(exc).__name__}); the others are taken as ever",
                     ("take over", name))

    def snapshot(self) -> dict[str, Any]:
        """What the node holds, for the log and the benchmark."""
        return {"relayed": len(self.relay.relayed), "relaying": len(self.relay.doors), "others": len(self.others)}


async def start_nodes(cluster: Cluster, host: ServerTables, log: Callable[[str], None], secret: bytes) -> Nodes:
    """``cluster``'s node serving ``host``'s tables among the others, started (after the keeper listed them: they are restored once the server listens).

    ``secret`` (the host key's, the same on every node) is what visitors are hashed with for the caps."""
    assert cluster.client is not None and cluster.store is not None and cluster.owners is not None
    assert cluster.lease is not None and host.keeper is not None
    nodes = Nodes(cluster.client, cluster.node, cluster.lease.seconds, host, host.keeper, cluster.store,
                  cluster.owners, log, secret)
    try:
        await nodes.start()
    except NATS_ERRORS as exc:
        await nodes.stop()
        raise ClusterUnavailable(f"NATS refused the relay between nodes: {exc}") from None
    cluster.on_reconnect.append(nodes.relay.resend_after_reconnect)  # at once, not at the relay's next round
    cluster.on_lost.append(nodes.step_down)
    cluster.on_lapsed.append(nodes.reclaim)
    return nodes
