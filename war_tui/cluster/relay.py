"""The relay between nodes: a connection on one node (its door) at a table another node (its owner) serves.

The door asks the owner to open a link for the connection (``open``, a NATS request on ``relay.open.<owner>``)
with the connection's user name, identity and address: the owner makes a ``Link`` for it as for any of its own
connections, so its seats, caps, checks and rate limits hold. From then on the door forwards the connection's
bytes, whole lines per message, on ``relay.in.<owner>.<door>.<conn>``, and the owner what its link says on
``relay.out.<door>.<conn>``; ``E`` there says the link finished. Subjects carry node ids and connection ids this
module makes, never a client's text.

Every buffer is ours to bound: the owner's link has its bounded queue, the door's queue (``RemoteLink``) drops
to a gap past ``MAX_QUEUED_BYTES`` and asks the owner for a fresh snapshot. The door pings each open relay
every third of a lease; the owner closes a relayed link not heard from for a lease (its door died): its seat
is then kept for its identity as for any connection that left. The door learns that an owner died from the
owner's node lease (``Owners.alive``) and re-routes the connection (``on_moved``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError

from ..tables import Link, TableRefused
from ..tables.clock import Clock, monotonic, seconds_until
from ..tables.link import MAX_QUEUED_BYTES
from ..tables.messages import Notice, NoticeCode, Resync
from ..tables.names import parse_table_name
from ..tables.protocol import encode
from .leases import NODE_ID
from .tasks import cancel_requested, end_tasks

PREFIX = "war-tui.relay"
CONN_ID = re.compile(r"[0-9a-f]{20}")
MAX_OPEN = 4 * 1024
"""Bytes an open request may have (names and identities are short)."""
MAX_TEXT = 400
"""Characters of a user name, identity or address an open request may carry."""
OPEN_TIMEOUT = 3.0
"""Seconds an owner has to answer an open request."""
LINES = b"L"
PING = b"P"
CLOSE = b"C"
END = b"E"
MOVE = b"M"
"""The owner is stopping: the door routes the connection to whichever node takes the table."""
LOST = "the table's server lost this connection; reconnect to sit again"
DRAIN_TIMEOUT = 1.0
"""Seconds a stopping node gives what it has to send."""

NATS_ERRORS = (NatsError, OSError, TimeoutError, asyncio.TimeoutError)


def open_subject(node: str) -> str:
    return f"{PREFIX}.open.{node}"


def in_subject(owner: str, door: str, conn: str) -> str:
    return f"{PREFIX}.in.{owner}.{door}.{conn}"


def out_subject(door: str, conn: str) -> str:
    return f"{PREFIX}.out.{door}.{conn}"


def new_conn_id() -> str:
    return secrets.token_hex(10)


@dataclass(frozen=True)
class OpenRequest:
    """What a door tells an owner of a connection it relays."""

    conn: str
    door: str
    user: str
    identity: str | None
    address: str | None
    table: str
    watch: bool
    counted: bool = True

    def encode(self) -> bytes:
        return json.dumps(self.__dict__).encode()

    @classmethod
    def decode(cls, data: bytes) -> OpenRequest:
        """Raises ``ValueError`` for anything but a request this module makes."""
        if len(data) > MAX_OPEN:
            raise ValueError("too long")
        raw = json.loads(data)
        if not isinstance(raw, dict):
            raise ValueError("not an object")
        conn, door, table = raw.get("conn"), raw.get("door"), raw.get("table")
        if not (isinstance(conn, str) and CONN_ID.fullmatch(conn) and isinstance(door, str) and NODE_ID.fullmatch(door)):
            raise ValueError("bad ids")
        texts = [raw.get(key) for key in ("user", "identity", "address")]
        if not isinstance(texts[0], str) or not isinstance(table, str) or len(table) > MAX_TEXT:
            raise ValueError("bad names")
        if any(t is not None and (not isinstance(t, str) or len(t) > MAX_TEXT) for t in texts):
            raise ValueError("bad names")
        return cls(conn, door, texts[0][:MAX_TEXT], texts[1], texts[2], table, raw.get("watch") is True,
                   raw.get("counted") is not False)


class Relayed:
    """The owner's side of one relayed connection: its link, and when its door was last heard."""

    def __init__(self, relay: RelayNode, request: OpenRequest, link: Link) -> None:
        self.relay = relay
        self.request = request
        self.link = link
        self.heard = relay.clock()
        self.subject = out_subject(request.door, request.conn)
        self._scheduled = False
        self._due: asyncio.TimerHandle | None = None
        self.done = False
        link.on_output = self.wanted

    def wanted(self) -> None:
        if not self._scheduled and not self.done:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self._scheduled = False
        if self.done:
            return
        data = self.link.take()
        if data:
            self.relay.send(self.subject, LINES + data)
        if self.link.finished:
            self.relay.send(self.subject, END)
            self.end()

    def receive(self, data: bytes) -> None:
        self.heard = self.relay.clock()
        kind, body = data[:1], data[1:]
        if kind == LINES:
            self.link.receive(body)
            self.watch_deadline()
            self.relay.wake()
        elif kind == CLOSE:
            self.link.close()
            self.relay.wake()
            self.end()

    def watch_deadline(self) -> None:
        delay = seconds_until(self.link.next_deadline(), self.link.clock)
        if delay is not None and self._due is None and not self.done:
            self._due = asyncio.get_running_loop().call_later(delay, self._poll)

    def _poll(self) -> None:
        self._due = None
        self.link.poll()
        self.watch_deadline()

    def end(self) -> None:
        if self.done:
            return
        self.done = True
        if self._due is not None:
            self._due.cancel()
        self.link.on_output = None
        self.link.close()
        self.relay.relayed.pop(self.request.conn, None)


class RemoteLink:
    """The door's side of a connection relayed to an owner: the connection's lines go there, its updates come here.

    The same interface as a ``Link`` as the door's table socket uses it. Its queue holds at most ``max_queued``
    bytes: past it what is queued is dropped and the owner is asked for a fresh snapshot (the screen's sequence
    numbers see the gap and ask for one too; the owner serves one per ``RESYNC_GAP``)."""

    def __init__(self, relay: RelayNode, owner: str, table: str, *, max_queued: int = MAX_QUEUED_BYTES,
                 clock: Clock = monotonic) -> None:
        self.relay = relay
        self.owner = owner
        self.table = table
        self.conn = new_conn_id()
        self.max_queued = max_queued
        self.clock = clock
        self.on_output: Callable[[], None] | None = None
        self.on_moved: Callable[[], None] | None = None
        """Called once the owner's lease ran out with this connection still relayed to it."""
        self.closed = False
        self.ended = False
        self.close_reason: str | None = None
        self.member = None
        self.dropped = 0
        """Times the queue fell behind and was dropped."""
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._subject = in_subject(owner, relay.node, self.conn)

    async def open(self, user: str, identity: str | None, address: str | None, watch: bool, counted: bool = True) -> None:
        """Ask the owner to seat (or show) the connection; ``TableRefused`` with the owner's words, or
        ``LookupError`` when the owner does not serve the table (any more) or does not answer."""
        self.relay.doors[self.conn] = self
        request = OpenRequest(self.conn, self.relay.node, user, identity, address, self.table, watch, counted)
        try:
            reply = await self.relay.client.request(open_subject(self.owner), request.encode(), timeout=OPEN_TIMEOUT)
            answer = json.loads(reply.data[:MAX_OPEN])
        except (*NATS_ERRORS, ValueError):
            self.relay.doors.pop(self.conn, None)
            raise LookupError(self.owner) from None
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            self.relay.doors.pop(self.conn, None)
            refused = answer.get("refused") if isinstance(answer, dict) else None
            if isinstance(refused, str):
                raise TableRefused(refused[:MAX_TEXT])
            raise LookupError(self.owner)

    # -- the link's interface -----------------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        if not self.closed:
            self.relay.send(self._subject, LINES + data)

    def deliver(self, data: bytes) -> None:
        """What the owner sent."""
        if self.closed:
            return
        kind, body = data[:1], data[1:]
        if kind == END:
            self.closed = self.ended = True
            self.relay.doors.pop(self.conn, None)
        elif kind == MOVE:
            self.detach()
            if self.on_moved is not None:
                self.on_moved()
            return
        elif kind == LINES and body:
            was_empty = not self._queue
            if self._queued + len(body) > self.max_queued:
                self._queue.clear()
                self._queued = 0
                self.dropped += 1
                self.relay.send(self._subject, LINES + encode(Resync()))
                return
            self._queue.append(body)
            self._queued += len(body)
            if not was_empty:
                return
        if self.on_output is not None:
            self.on_output()

    def push_notice(self, notice: Notice) -> None:
        """A line of the door's own (the table moved) ahead of what comes next."""
        line = encode(notice)
        self._queue.append(line)
        self._queued += len(line)
        if self.on_output is not None:
            self.on_output()

    def take(self) -> bytes:
        data = b"".join(self._queue)
        self._queue.clear()
        self._queued = 0
        return data

    @property
    def queued(self) -> int:
        return self._queued

    @property
    def finished(self) -> bool:
        return self.closed and not self._queue

    def next_deadline(self) -> float | None:
        return None

    def poll(self) -> None:
        pass

    def close(self, reason: str | None = None) -> None:
        """The connection left: the owner lets its link go (the seat is kept for its identity)."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        self.relay.doors.pop(self.conn, None)
        if not self.ended:
            self.relay.send(self._subject, CLOSE)

    def detach(self) -> None:
        """Stop relaying without a word to the owner (it died; the connection goes elsewhere)."""
        self.closed = True
        self.relay.doors.pop(self.conn, None)


class RelayNode:
    """This node's relay: serving other doors' connections at its tables, and relaying its own to other owners.

    ``serve(table)`` says (after claiming it if need be) whether this node serves the table; ``link`` makes a
    link as for a connection of this node; ``alive(node)`` reads a node's lease."""

    def __init__(
        self, client: Client, node: str, lease_seconds: float, *,
        serve: Callable[[str], Awaitable[bool]], link: Callable[[str, str | None, str | None], Link],
        alive: Callable[[str], Awaitable[bool]], wake: Callable[[], None], log: Callable[[str], None],
        clock: Clock = monotonic,
    ) -> None:
        self.client = client
        self.node = node
        self.lease = lease_seconds
        self._serve = serve
        self._link = link
        self._alive = alive
        self.wake = wake
        self.log = log
        self.clock = clock
        self.relayed: dict[str, Relayed] = {}
        """Connections of other doors at this node's tables, by connection id."""
        self.doors: dict[str, RemoteLink] = {}
        """This node's connections relayed to other owners, by connection id."""
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._sending = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._subs: list[Any] = []
        self._reconnects = 0
        """The connection's reconnects seen so far: what was relayed while it was away may be lost."""

    async def start(self) -> None:
        self._subs = [
            await self.client.subscribe(open_subject(self.node), cb=self._on_open),
            await self.client.subscribe(f"{PREFIX}.in.{self.node}.*.*", cb=self._on_in),
            await self.client.subscribe(f"{PREFIX}.out.{self.node}.*", cb=self._on_out),
        ]
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._send_loop()), loop.create_task(self._watch_loop())]

    async def hand_over(self) -> None:
        """This node stops serving: no more relays open here, and each door is told to take its connections
        to the node that takes the table over (their seats are kept for them)."""
        if self._subs:
            with contextlib.suppress(*NATS_ERRORS):
                await self._subs[0].unsubscribe()
            self._subs = self._subs[1:]
        for relayed in list(self.relayed.values()):
            self.send(relayed.subject, MOVE)
            relayed.end()
        await self._drain()

    async def _drain(self) -> None:
        deadline = asyncio.get_running_loop().time() + DRAIN_TIMEOUT
        while (self._outbox or self._sending.is_set()) and asyncio.get_running_loop().time() < deadline and self._tasks:
            await asyncio.sleep(0.01)
        with contextlib.suppress(*NATS_ERRORS):
            await asyncio.wait_for(self.client.flush(), DRAIN_TIMEOUT)

    async def stop(self) -> None:
        await self._drain()
        await end_tasks(self._tasks)
        self._tasks = []
        for sub in self._subs:
            with contextlib.suppress(*NATS_ERRORS):
                await sub.unsubscribe()
        self._subs = []
        for relayed in list(self.relayed.values()):
            relayed.end()

    # -- sending, in order ------------------------------------------------------------------------------

    def send(self, subject: str, data: bytes) -> None:
        self._outbox.append((subject, data))
        self._sending.set()

    async def _send_loop(self) -> None:
        while not cancel_requested():
            await self._sending.wait()
            self._sending.clear()
            while self._outbox:
                subject, data = self._outbox.popleft()
                with contextlib.suppress(*NATS_ERRORS):  # NATS away: the pings' silence says so to both ends
                    await self.client.publish(subject, data)

    # -- the owner's side ---------------------------------------------------------------------------------

    async def _on_open(self, msg: Msg) -> None:
        try:
            request = OpenRequest.decode(msg.data)
        except ValueError:
            return
        answer: dict[str, Any]
        try:
            table = parse_table_name(request.table)
        except ValueError as error:
            answer = {"refused": str(error)}
        else:
            answer = await self._open(request, table)
        with contextlib.suppress(*NATS_ERRORS):
            await msg.respond(json.dumps(answer).encode())

    async def _open(self, request: OpenRequest, table: str) -> dict[str, Any]:
        answer: dict[str, Any]
        if request.conn in self.relayed or not await self._serve(table):
            answer = {"moved": True}
        else:
            link = self._link(request.user, request.identity, request.address)
            try:
                link.join(table, watch=request.watch, counted=request.counted)
            except TableRefused as refusal:
                link.close()
                answer = {"refused": str(refusal)}
            else:
                relayed = self.relayed[request.conn] = Relayed(self, request, link)
                self.wake()
                relayed.wanted()
                answer = {"ok": True}
        return answer

    async def _on_in(self, msg: Msg) -> None:
        door, conn = msg.subject.split(".")[-2:]
        relayed = self.relayed.get(conn)
        if relayed is not None and relayed.request.door == door:
            relayed.receive(msg.data)
        elif msg.data[:1] != CLOSE and NODE_ID.fullmatch(door) and CONN_ID.fullmatch(conn):
            # A connection this node let go (its door was quiet for a lease, or this node restarted): the door
            # is told, so its player is not left at a table that no longer hears them.
            self.send(out_subject(door, conn), LINES + encode(Notice(NoticeCode.CLOSING, f"closing the connection: {LOST}")))
            self.send(out_subject(door, conn), END)

    # -- the door's side ----------------------------------------------------------------------------------

    async def _on_out(self, msg: Msg) -> None:
        remote = self.doors.get(msg.subject.rsplit(".", 1)[-1])
        if remote is not None:
            remote.deliver(msg.data)

    def _resync_after_reconnect(self) -> None:
        """Relayed lines are core NATS messages, at most once: after this node's connection came back (to
        another server of the cluster, say) every relayed screen gets a fresh snapshot, asked by the door for
        its own connections and served by the owner for the doors' ones, so none stays behind a lost update."""
        reconnects = int(self.client.stats.get("reconnects", 0))
        if reconnects == self._reconnects:
            return
        self._reconnects = reconnects
        resync = encode(Resync())
        for remote in list(self.doors.values()):
            self.send(in_subject(remote.owner, self.node, remote.conn), LINES + resync)
        for relayed in list(self.relayed.values()):
            relayed.link.receive(resync)
            relayed.watch_deadline()

    async def _watch_loop(self) -> None:
        """Ping every relay this door holds, close relayed links whose door went quiet, re-route those whose
        owner died: every third of a lease."""
        while not cancel_requested():
            await asyncio.sleep(self.lease / 3)
            self._resync_after_reconnect()
            for remote in list(self.doors.values()):
                self.send(in_subject(remote.owner, self.node, remote.conn), PING)
            quiet = self.clock() - self.lease
            for relayed in list(self.relayed.values()):
                if relayed.heard < quiet:
                    relayed.end()
                    self.wake()
            for owner in {remote.owner for remote in self.doors.values()}:
                try:
                    alive = await self._alive(owner)
                except NATS_ERRORS:
                    continue
                if not alive:
                    for remote in [r for r in self.doors.values() if r.owner == owner]:
                        remote.detach()
                        if remote.on_moved is not None:
                            remote.on_moved()
