"""A connection's way to the tables of a cluster: its own node's registry, or the node that serves its table.

The router stands where a ``Link`` stands (the door's table socket pumps it the same way). It reads each
request line the connection sends with the protocol's checked reader, and hands the lines on to its target:
this node's ``Link`` (the lobby, and the tables this node serves), or a ``RemoteLink`` to the owner of the
table (``relay``), where the lines are checked again as at any door. A ``Join`` is the
router's: the table is served here if it is open here or this node wins its claim (``Nodes.serve``: a table
is opened only by the node that owns its record), else the connection is relayed to the node that does.

When the owner of a relayed table dies, the router routes the connection again, to whichever node took the
table over (this one, perhaps): the screen is told ``MOVED`` and gets a fresh snapshot; its seat, kept for its
identity, is its again, and the keys the old owner never acknowledged that are harmless twice go to the new one.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

from ..tables import Link, TableRefused
from ..tables.clock import monotonic
from ..tables.link import FROM_LOBBY, MAX_QUEUED_BYTES, TableLink
from ..tables.messages import Join, Leave, Notice, NoticeCode, Request
from ..tables.names import parse_table_name
from ..tables.protocol import MessageReader, ProtocolError, decode_request, encode
from ..tables.rate import TokenBucket
from ..tables.table import Member
from .remote_link import RemoteLink, Unanswered, resendable
from .served import TableNode

MOVED = "the table moved to another server; you keep your seat"
MOVED_HERE = "the table moved here"
"""How a connection came to a table this node took over while it was relayed to the table's last owner (the log)."""
ROUTE_WAIT = 50.0
"""Seconds a connection tries to reach its table's owner before it is told it cannot (a try after each pause)."""
ROUTE_PAUSE = 0.25
"""Seconds between attempts, growing by this much each time up to ``ROUTE_PAUSE_MOST``."""
ROUTE_PAUSE_MOST = 0.5
"""Seconds between attempts at most: a dead owner's lease runs out within a lease, and the connection takes (or
finds) the table's next owner within half a second of it, not at the end of a long pause."""
JOIN_RATE = 1.0
JOIN_BURST = 5.0
"""Tables a connection may ask for from the lobby, a second on average: each may claim a table in NATS."""
PENDING_BYTES = 4 * 1024
"""Bytes of request lines a connection may send while its join is on its way (a few keys; the rest is dropped)."""
BAD_LINE = b"!\n"
"""What the target reads for a line too long to pass on: a malformed line, counted as any other."""


def _read(line: bytes) -> tuple[bytes, Request | None]:
    try:
        return line, decode_request(line)
    except ProtocolError:
        return line, None


class Router:
    """One connection's link to the tables of every node (see the module's docstring)."""

    def __init__(self, nodes: TableNode, user_name: str, identity: str | None, address: str | None) -> None:
        self.nodes = nodes
        self.user_name = user_name
        self.identity = identity
        self.address = address
        self.clock = monotonic
        self.on_join: Callable[[str, Member, str], None] | None = None
        self._on_output: Callable[[], None] | None = None
        self._target: TableLink = self._local()
        self._reader: MessageReader[tuple[bytes, Request | None]] = MessageReader(_read)
        self._own: list[bytes] = []
        """Lines of the router's own (a refusal, the table moved) ahead of the target's."""
        self._routing: asyncio.Task[None] | None = None
        self._pending: list[bytes] = []
        """Lines that came while a join was being routed: for the target it reaches."""
        self._table: tuple[str, bool] | None = None
        """The table the connection is at (or on its way to), and whether it watches."""
        self._closed = False
        self._reason: str | None = None
        self._counted = True
        """False for a spectator that draws for others (``Table.join``'s ``counted``)."""
        self._max_queued = MAX_QUEUED_BYTES
        self._joins = TokenBucket(JOIN_RATE, JOIN_BURST, self.clock())

    def _local(self) -> Link:
        link = self.nodes.host.local_link(self.user_name, self.identity, self.address)
        link.on_join = self._joined
        return link

    def _joined(self, table: str, member: Member, how: str) -> None:
        if self.on_join is not None:
            self.on_join(table, member, how)

    def _switch(self, target: TableLink) -> None:
        old = self._target
        rest = old.take()
        if rest:
            self._own.append(rest)
        old.on_output = None
        if old is not target:
            old.close()  # the lobby here, or a relay to an owner it leaves
        self._target = target
        target.max_queued = self._max_queued
        target.on_output = self._on_output
        if isinstance(target, RemoteLink):
            target.on_moved = self._moved
        self._wanted()

    # -- what the doors use ---------------------------------------------------------------------------

    @property
    def on_output(self) -> Callable[[], None] | None:
        return self._on_output

    @on_output.setter
    def on_output(self, call: Callable[[], None] | None) -> None:
        self._on_output = call
        self._target.on_output = call

    @property
    def closed(self) -> bool:
        return self._closed or (self._routing is None and self._target.closed)

    @property
    def close_reason(self) -> str | None:
        return self._reason if self._reason is not None else self._target.close_reason

    @property
    def member(self) -> Member | None:
        return self._target.member  # a relayed connection's member is the owner's: None here

    @property
    def relayed_to(self) -> str | None:
        """The node the connection is relayed to; None while its target is this node."""
        return self._target.owner if isinstance(self._target, RemoteLink) else None

    @property
    def queued(self) -> int:
        return sum(map(len, self._own)) + self._target.queued

    @property
    def finished(self) -> bool:
        return self.closed and not self._own and self._target.finished

    @property
    def max_queued(self) -> int:
        return self._target.max_queued

    @max_queued.setter
    def max_queued(self, size: int) -> None:
        self._max_queued = size
        self._target.max_queued = size

    def join(self, table_name: str, watch: bool = False, counted: bool = True) -> Member | None:
        """Sit at (or watch) a table: at once (its ``Member``) if it is open here, else on its way (None);
        ``TableRefused`` for a name no table has, or a server closing."""
        try:
            name = parse_table_name(table_name)
        except ValueError as error:
            raise TableRefused(str(error)) from None
        self._counted = counted
        if self.nodes.host.registry.table(name) is not None or self.nodes.host.registry.closed:
            assert isinstance(self._target, Link)
            member = self._target.join(name, watch, counted)
            self._table = (name, watch)
            return member
        self._route(name, watch, first=True)
        return None

    def watch_lobby(self) -> None:
        if isinstance(self._target, Link):
            self._target.watch_lobby()

    def receive(self, data: bytes) -> None:
        if self.closed:
            return
        lines: list[bytes] = []
        for item in self._reader.feed(data):
            if isinstance(item, ProtocolError):
                lines.append(BAD_LINE)
                continue
            line, request = item
            if isinstance(request, Join) and (self._table is None or self._routing is not None):
                self._pass(lines)
                lines = []
                self._join(request)
                continue
            if isinstance(request, Leave):
                self._table = None
            lines.append(line + b"\n")
        self._pass(lines)

    def _join(self, request: Join) -> None:
        """A table chosen in the lobby: routed, one at a time, at most ``JOIN_RATE`` a second (each may claim it)."""
        if self._routing is not None:
            self._say(NoticeCode.REFUSED, "you are on your way to a table already")
            return
        if not self._joins.allow(self.clock()):
            self._say(NoticeCode.REFUSED, "too many tables asked for at once; wait a moment")
            return
        try:
            name = parse_table_name(request.table)
        except ValueError as error:
            self._say(NoticeCode.REFUSED, str(error))
            return
        self._route(name, request.watch, first=False)

    def _pass(self, lines: list[bytes]) -> None:
        if not lines:
            return
        if self._routing is not None:  # a few keys typed while the table is reached: the newest, bounded
            self._pending += lines
            while sum(map(len, self._pending)) > PENDING_BYTES:
                self._pending.pop(0)
            return
        self._target.receive(b"".join(lines))

    def take(self) -> bytes:
        own = b"".join(self._own)
        self._own.clear()
        return own + self._target.take()

    def next_deadline(self) -> float | None:
        return self._target.next_deadline()

    def poll(self) -> None:
        self._target.poll()

    def close(self, reason: str | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        self._reason = reason
        if self._routing is not None:
            self._routing.cancel()
            self._routing = None
        self._target.close(reason)

    # -- routing --------------------------------------------------------------------------------------

    def _say(self, code: NoticeCode, text: str) -> None:
        self._own.append(encode(Notice(code, text)))
        self._wanted()

    def _wanted(self) -> None:
        if self._on_output is not None:
            self._on_output()

    def _route(self, name: str, watch: bool, *, first: bool, moved: bool = False) -> None:
        self._table = (name, watch)
        self._routing = asyncio.get_running_loop().create_task(self._reach(name, watch, first, moved))

    async def _reach(self, name: str, watch: bool, first: bool, moved: bool) -> None:
        refusal: str | None = None
        try:
            refusal = await self._try(name, watch, first, moved)
        except TableRefused as refused:
            refusal = str(refused)
        finally:
            self._routing = None
        if refusal is not None:
            self._table = None
            if first or moved:  # the connection came for this table: it ends, saying why
                self._own.append(encode(Notice(NoticeCode.CLOSING, f"closing the connection: {refusal}")))
                self._closed = True  # no close_reason: a refusal, not garbage from the game
                self._target.close()
                self._wanted()
            else:
                self._say(NoticeCode.REFUSED, refusal)
            return
        pending, self._pending = self._pending, []
        self._pass(pending)
        if moved:
            self._wanted()

    async def _try(self, name: str, watch: bool, first: bool, moved: bool) -> str | None:
        """Reach ``name``'s server: None once the connection is there; the refusal's words otherwise."""
        nodes = self.nodes
        deadline = self.clock() + ROUTE_WAIT
        asked: RemoteLink | None = None
        """The connection last asked of an owner that did not answer: asked of it again, never a second one."""
        for attempt in itertools.count(1):
            if self._closed:
                return None
            if await nodes.serve(name):
                target = self._target if isinstance(self._target, Link) and not self._target.closed else self._local()
                try:
                    member = target.join(name, watch, self._counted)
                except TableRefused:
                    await nodes.keeper.unclaim(name)  # no owner record left for a table that is not open
                    raise
                self._switch(target)
                if moved:
                    self._say(NoticeCode.INFO, MOVED)
                self._joined(name, member, MOVED_HERE if moved else "" if first else FROM_LOBBY)
                return None
            owner = await nodes.owner(name)
            if owner is not None and owner != nodes.node:
                remote = asked if asked is not None and asked.owner == owner else RemoteLink(nodes.relay, owner, name)
                reached = await self._relay(remote, watch, moved)
                if reached:
                    return None
                asked = remote if reached is None else None
            if self.clock() >= deadline:
                break
            await asyncio.sleep(min(ROUTE_PAUSE * attempt, ROUTE_PAUSE_MOST))
        return f"the server of table {name} cannot be reached; try again in a moment"

    async def _relay(self, remote: RemoteLink, watch: bool, moved: bool) -> bool | None:
        """Relay the connection to ``remote``'s owner: True once it is there (or the router closed meanwhile), False
        when the owner does not serve the table, None when it did not answer (``Unanswered``: the next try asks it
        again for the same connection)."""
        try:
            await remote.open(self.user_name, self.identity, self.address, watch)  # counted there
        except Unanswered:
            return None
        except LookupError:
            return False
        if self._closed:
            remote.close()
            return True
        if moved:
            self._own.append(encode(Notice(NoticeCode.INFO, MOVED)))
        self._switch(remote)
        return True

    def follow(self, table: str) -> None:
        """This node lets ``table`` go (another node wrote it, or this node's lease ran out): a connection at it here
        follows it to whichever node serves it, as a relayed one does, its seat waiting for it as it was; it is
        never told to reconnect."""
        target = self._target
        if (self._closed or self._table is None or self._table[0] != table or self._routing is not None
                or not isinstance(target, Link) or target.member is None):
            return
        target.on_output = None
        target.take()  # what the table told here is past: the next owner's snapshot follows
        target.close(fault=True)
        self._target = self._local()
        name, watch = self._table
        self._route(name, watch, first=False, moved=True)

    def _moved(self) -> None:
        """The owner of the relayed table died (or stopped): reach whichever node takes it over, and send it the
        keys the one it left never acknowledged that are harmless twice (``RESENT_ON_MOVE``)."""
        if self._closed or self._table is None or self._routing is not None:
            return
        if isinstance(self._target, RemoteLink):
            self._pending = resendable(self._target.unacknowledged()) + self._pending
            while sum(map(len, self._pending)) > PENDING_BYTES:
                self._pending.pop(0)
        name, watch = self._table
        self._route(name, watch, first=False, moved=True)
