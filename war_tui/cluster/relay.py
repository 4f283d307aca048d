"""The relay between nodes: a connection on one node (its door) at a table another node (its owner) serves.

The door asks the owner to open a link for the connection (``open``, a NATS request on ``relay.open.<owner>``)
with the connection's user name, identity and address: the owner makes a ``Link`` for it as for any of its own
connections, so its seats, caps, checks and rate limits hold. From then on the door forwards the connection's
bytes, whole lines per message, on ``relay.in.<owner>.<door>.<conn>``, and the owner what its link says on
``relay.out.<door>.<conn>``; ``E`` there says the link finished. Subjects carry node ids and connection ids this
module makes, never a client's text.

Core NATS delivers at most once (a message on its way while a node's connection moves to another server is lost),
so each direction numbers its messages and keeps them until acknowledged (``sequenced``): at least once on the
wire, each applied once and in order. The numbers are the requests' ids: a key sent again is applied once.

Every buffer is ours to bound: the owner's link has its bounded queue, the door's queue (``RemoteLink``) drops
to a gap past ``MAX_QUEUED_BYTES`` and asks the owner for a fresh snapshot, and each direction's window holds
at most ``MAX_WINDOW_MESSAGES`` and ``MAX_WINDOW_BYTES``. The door pings each open relay every third of a lease;
the owner closes a relayed link not heard from for a lease (its door died): its seat is then kept for its
identity as for any connection that left. The door learns that an owner died from the owner's node lease
(``Owners.alive``) and re-routes the connection (``on_moved``).
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
from ..tables.line_queue import LineQueue
from ..tables.link import MAX_QUEUED_BYTES
from ..tables.messages import Auto, Flip, Leaving, Notice, NoticeCode, Restart, Resync, WarStop
from ..tables.names import parse_table_name
from ..tables.protocol import ProtocolError, decode_request, encode
from .leases import NODE_ID
from .sequenced import MAX_WINDOW_MESSAGES, Inbox, Numbered, Window, decode_ack, decode_numbered, encode_numbered
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
"""Numbered, either way: a connection's lines to its owner, or the owner's lines to the connection."""
CLOSE = b"C"
"""Numbered, door to owner: the connection left (after the lines before it)."""
END = b"E"
"""Numbered, owner to door: the link finished (after the lines before it)."""
MOVE = b"M"
"""Numbered, owner to door: the owner is stopping: the door routes the connection to whichever node takes the table."""
SKIP = b"S"
"""Numbered, owner to door: what came before this number was given up (a fresh snapshot follows)."""
PING = b"P"
"""Door to owner, with the door's acknowledgement: the connection is still there."""
ACK = b"A"
"""Either way: the highest number applied in a row, when no other message carries it."""
GONE = b"X"
"""Owner to door, with a closing line: the owner does not know the connection (any more)."""
ACK_EVERY = 16
"""Messages a door takes from its owner before it acknowledges them on its own (else its next key or ping does):
the owner's window stays short without a message for every update."""
RESEND_AFTER = 0.5
"""Fraction of the lease after which an unacknowledged message is sent again (the door pings every third of it,
and every message carries the acknowledgement, so a message delivered is acknowledged by then)."""
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
    """The owner's side of one relayed connection: its link, and when its door was last heard.

    Lines from the door are applied once, in order (``Inbox``); each is acknowledged once the store kept what it
    changed (the table's sequence number right after it, against ``RelayNode.kept``), so a key acknowledged is a
    key a takeover keeps. What the link says goes out numbered and is kept until the door acknowledges it."""

    def __init__(self, relay: RelayNode, request: OpenRequest, table: str, link: Link) -> None:
        self.relay = relay
        self.request = request
        self.table = table
        self.link = link
        self.heard = relay.clock()
        self.subject = out_subject(request.door, request.conn)
        self.window = Window()
        self.inbox = Inbox()
        self.dropped = 0
        """Times the door fell so far behind that what it had not acknowledged was given up for a fresh snapshot."""
        self._applied: deque[tuple[int, int]] = deque()
        """(line number, the table's sequence number after it) applied and not yet kept by the store."""
        self._ready = 0
        """The highest number applied with everything it changed kept: what may be acknowledged."""
        self._acked = 0
        """The acknowledgement last sent to the door."""
        self._owe_ack = False
        self._scheduled = False
        self._due: asyncio.TimerHandle | None = None
        self.ending = False
        """The link finished and its end was sent: kept until the door acknowledges it (or goes quiet)."""
        self.done = False
        link.on_output = self.wanted

    def wanted(self) -> None:
        if not self._scheduled and not self.done:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send what the link has (the acknowledgement riding on it), its end once finished, or a bare
        acknowledgement when one is due and nothing else carries it."""
        self._scheduled = False
        if self.done:
            return
        data = b"" if self.ending else self.link.take()
        if data:
            self._send(LINES, data)
        if not self.ending and self.link.finished:
            self.ending = True
            self.link.on_output = None
            self._send(END, b"")
        elif not data and (self._owe_ack or self._ack_ready() > self._acked):
            self._acked = self._ack_ready()
            self.relay.send(self.subject, ACK + b"%d" % self._acked)
        self._owe_ack = False
        if self.ending and not self.window:
            self.end()

    def _send(self, kind: bytes, body: bytes) -> None:
        if kind == LINES and not self.window.fits(body):
            # The door has not acknowledged a window's worth: give it up, and a fresh snapshot follows the gap.
            self.window.clear()
            self.dropped += 1
            self._send(SKIP, b"")
            self.link.receive(encode(Resync()))
            return
        self._acked = self._ack_ready()
        number = self.window.add(kind, body, self.relay.clock())
        self.relay.send(self.subject, encode_numbered(kind, number, self._acked, body))

    def _ack_ready(self) -> int:
        kept = self.relay.kept(self.table)
        while self._applied and (kept is None or self._applied[0][1] <= kept):
            self._ready = self._applied.popleft()[0]
        return self._ready

    def resend(self, after: float | None) -> None:
        for number, kind, body in self.window.due(self.relay.clock(), after):
            self.relay.send(self.subject, encode_numbered(kind, number, self._ack_ready(), body))

    def receive(self, data: bytes) -> None:
        self.heard = self.relay.clock()
        kind = data[:1]
        if kind in (PING, ACK):
            ack = decode_ack(data)
            if ack is not None:
                self.window.ack(ack)
            if kind == PING or (self.ending and not self.window):
                self.wanted()
            return
        message = decode_numbered(data) if kind in (LINES, CLOSE) else None
        if message is None:
            return
        self.window.ack(message.ack)
        ready = self.inbox.accept(message)
        if not ready:
            self._owe_ack = self._owe_ack or self.inbox.duplicates > 0
            self.wanted()
            return
        for line in ready:
            if line.kind == CLOSE:
                self.link.close()
                self.relay.wake()
                self.end()
                return
            self.link.receive(line.body)
            self._note_applied(line.number)
        self.watch_deadline()
        self.relay.wake()
        self.wanted()

    def _note_applied(self, number: int) -> None:
        member = self.link.member
        seq = member.table.seq if member is not None else 0
        if len(self._applied) >= MAX_WINDOW_MESSAGES:
            self._applied.pop()  # the newer entry covers it: its sequence number is as late or later
        self._applied.append((number, seq))

    def move(self) -> None:
        """This node stops serving: the door is told to go to the table's next owner, after what it was sent."""
        if not self.done and not self.ending:
            self._send(MOVE, b"")
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


RESENT_ON_MOVE = (Flip, Auto, Restart, WarStop, Leaving)
"""The keys a door sends again to a table's next owner when the one it left never acknowledged them.

Each is harmless applied twice, so it is sent again whether the owner that died applied it or not: a flip
stamped before the table's last battle is stale and refused silently (``Journal.stale``), one for a battle not
yet played finds its card already turned; the rest set a wish to a value, in the order typed (one stamped for a
game that ended meanwhile is refused in a line, as when typed late). The others are
dropped: an emote would show twice, a decline could answer a newer request, and sitting, the house or leaving
are the screen's to ask again when it sees the table (the player may press them again)."""


def resendable(bodies: list[bytes]) -> list[bytes]:
    """The lines of ``bodies`` a door sends again to a table's next owner (``RESENT_ON_MOVE``), each with its newline."""
    again: list[bytes] = []
    for body in bodies:
        for line in body.split(b"\n"):
            try:
                request = decode_request(line)
            except ProtocolError:
                continue
            if isinstance(request, RESENT_ON_MOVE):
                again.append(line + b"\n")
    return again


class RemoteLink:
    """The door's side of a connection relayed to an owner: the connection's lines go there, its updates come here.

    The same interface as a ``Link`` as the door's table socket uses it. Lines go out numbered and are kept until
    the owner acknowledges them (at most a ``Window``: past it the connection's keys are dropped, and the log says
    so once). Updates are taken once, in order; the queue holds at most ``max_queued`` bytes: past it what is
    queued is dropped and the owner is asked for a fresh snapshot (the screen's sequence numbers see the gap and
    ask for one too; the owner serves one per ``RESYNC_GAP``)."""

    def __init__(self, relay: RelayNode, owner: str, table: str, *, max_queued: int = MAX_QUEUED_BYTES,
                 clock: Clock = monotonic) -> None:
        self.relay = relay
        self.owner = owner
        self.table = table
        self.conn = new_conn_id()
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
        self.dropped_keys = 0
        """Lines of the connection dropped because the owner had a window's worth unacknowledged."""
        self.window = Window()
        self.inbox = Inbox()
        self._acked = 0
        """The acknowledgement last sent to the owner."""
        self._queue = LineQueue(max_queued)
        self._subject = in_subject(owner, relay.node, self.conn)

    @property
    def max_queued(self) -> int:
        return self._queue.limit

    @max_queued.setter
    def max_queued(self, size: int) -> None:
        self._queue.limit = size

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
        if self.closed:
            return
        if not self.window.fits(data):
            self.dropped_keys += 1
            if self.dropped_keys == 1:
                self.relay.log(f"relay: node {self.owner} acknowledges nothing of table {self.table}; "
                               "the connection's keys are dropped until it does")
            return
        self._send(LINES, data)

    def _send(self, kind: bytes, body: bytes) -> None:
        number = self.window.add(kind, body, self.clock())
        self._acked = self.inbox.received
        self.relay.send(self._subject, encode_numbered(kind, number, self._acked, body))

    def _ack(self) -> None:
        self._acked = self.inbox.received
        self.relay.send(self._subject, ACK + b"%d" % self._acked)

    def ping(self) -> None:
        """Still here (the owner lets a quiet relay go), with the acknowledgement of what came."""
        self._acked = self.inbox.received
        self.relay.send(self._subject, PING + b"%d" % self._acked)

    def resend(self, after: float | None) -> None:
        for number, kind, body in self.window.due(self.clock(), after):
            self.relay.send(self._subject, encode_numbered(kind, number, self.inbox.received, body))

    def unacknowledged(self) -> list[bytes]:
        """The connection's lines the owner never acknowledged, oldest first (for the table's next owner)."""
        return self.window.bodies(LINES)

    def deliver(self, data: bytes) -> None:
        """What the owner sent."""
        if self.closed:
            return
        kind = data[:1]
        if kind in (ACK, GONE):
            self._unnumbered(kind, data)
            return
        message = decode_numbered(data) if kind in (LINES, SKIP, END, MOVE) else None
        if message is None:
            return
        self.window.ack(message.ack)
        duplicates = self.inbox.duplicates
        ready = self.inbox.accept(message, skip=kind == SKIP)
        if self.inbox.duplicates != duplicates:
            self._ack()  # the owner sent it again: it missed the acknowledgement
        self._apply(ready)

    def _unnumbered(self, kind: bytes, data: bytes) -> None:
        if kind == ACK:
            ack = decode_ack(data)
            if ack is not None:
                self.window.ack(ack)
        else:  # GONE
            self._queue.clear()
            self._queue.append(data[1:1 + MAX_OPEN])
            self._end()

    def _apply(self, ready: list[Numbered]) -> None:
        was_empty = not self._queue
        for update in ready:
            if update.kind == MOVE:
                self.detach()
                if self.on_moved is not None:
                    self.on_moved()
                return
            if update.kind == END:
                self._ack()
                self._end()
                return
            if update.body:
                self._queue_lines(update.body)
        if self.inbox.received - self._acked >= ACK_EVERY:
            self._ack()
        if was_empty and self._queue and self.on_output is not None:
            self.on_output()

    def _queue_lines(self, body: bytes) -> None:
        if not self._queue.fits(body):
            self._queue.clear()
            self.dropped += 1
            self.receive(encode(Resync()))
            return
        self._queue.append(body)

    def _end(self) -> None:
        self.closed = self.ended = True
        self.relay.doors.pop(self.conn, None)
        if self.on_output is not None:
            self.on_output()

    def push_notice(self, notice: Notice) -> None:
        """A line of the door's own (the table moved) ahead of what comes next."""
        self._queue.append(encode(notice))
        if self.on_output is not None:
            self.on_output()

    def take(self) -> bytes:
        return self._queue.take()

    @property
    def queued(self) -> int:
        return self._queue.size

    @property
    def finished(self) -> bool:
        return self.closed and not self._queue

    def next_deadline(self) -> float | None:
        return None

    def poll(self) -> None:
        pass

    def close(self, reason: str | None = None) -> None:
        """The connection left: the owner lets its link go (the seat is kept for its identity), after its keys."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        self.relay.doors.pop(self.conn, None)
        if not self.ended:
            self._send(CLOSE, b"")

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
        kept: Callable[[str], int | None] | None = None, clock: Clock = monotonic,
    ) -> None:
        self.client = client
        self.node = node
        self.lease = lease_seconds
        self._serve = serve
        self._link = link
        self._alive = alive
        self.wake = wake
        self.log = log
        self.kept = kept if kept is not None else _all_kept
        """The sequence number the store kept of a table (None: everything it told is kept)."""
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
        """The connection's reconnects seen so far: what was sent while it was away is sent again."""

    async def start(self) -> None:
        self._subs = [
            await self.client.subscribe(open_subject(self.node), cb=self._on_open),
            await self.client.subscribe(f"{PREFIX}.in.{self.node}.*.*", cb=self._on_in),
            await self.client.subscribe(f"{PREFIX}.out.{self.node}.*", cb=self._on_out),
        ]
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._send_loop()), loop.create_task(self._watch_loop()),
                       loop.create_task(self._owners_loop())]

    async def hand_over(self) -> None:
        """This node stops serving: no more relays open here, and each door is told to take its connections
        to the node that takes the table over (their seats are kept for them)."""
        if self._subs:
            with contextlib.suppress(*NATS_ERRORS):
                await self._subs[0].unsubscribe()
            self._subs = self._subs[1:]
        for relayed in list(self.relayed.values()):
            relayed.move()
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
                relayed = self.relayed[request.conn] = Relayed(self, request, table, link)
                self.wake()
                relayed.wanted()
                answer = {"ok": True}
        return answer

    async def _on_in(self, msg: Msg) -> None:
        door, conn = msg.subject.split(".")[-2:]
        relayed = self.relayed.get(conn)
        if relayed is not None and relayed.request.door == door:
            relayed.receive(msg.data)
        elif msg.data[:1] in (LINES, PING) and NODE_ID.fullmatch(door) and CONN_ID.fullmatch(conn):
            # A connection this node let go (its door was quiet for a lease, or this node restarted): the door
            # is told, so its player is not left at a table that no longer hears them.
            self.send(out_subject(door, conn), GONE + encode(Notice(NoticeCode.CLOSING, f"closing the connection: {LOST}")))

    # -- the door's side ----------------------------------------------------------------------------------

    async def _on_out(self, msg: Msg) -> None:
        remote = self.doors.get(msg.subject.rsplit(".", 1)[-1])
        if remote is not None:
            remote.deliver(msg.data)

    def resend_after_reconnect(self) -> None:
        """After this node's connection came back (to another server of the cluster, say), every message either
        way that is not acknowledged is sent again at once: what was on its way when it went may be lost. The
        doors it relays for get a fresh lease: their silence meanwhile was this node's."""
        reconnects = int(self.client.stats.get("reconnects", 0))
        if reconnects == self._reconnects:
            return
        self._reconnects = reconnects
        for remote in list(self.doors.values()):
            remote.resend(None)
        now = self.clock()
        for relayed in list(self.relayed.values()):
            relayed.heard = max(relayed.heard, now)
            relayed.resend(None)

    async def _watch_loop(self) -> None:
        """Every third of a lease: send again what was not acknowledged in time, ping every relay this door holds,
        close relayed links whose door went quiet (while this node's own connection was up)."""
        while not cancel_requested():
            await asyncio.sleep(self.lease / 3)
            self.resend_after_reconnect()
            after = self.lease * RESEND_AFTER
            for remote in list(self.doors.values()):
                remote.resend(after)
                remote.ping()
            quiet = self.clock() - self.lease
            connected = self.client.is_connected
            for relayed in list(self.relayed.values()):
                if relayed.heard < quiet and connected:
                    relayed.end()
                    self.wake()
                else:
                    relayed.resend(after)

    async def _owners_loop(self) -> None:
        """Every third of a lease, re-route the connections whose owner died. Apart from the pings: reading a lease
        may wait for JetStream (a leader's election takes seconds) while the pings must go on."""
        while not cancel_requested():
            await asyncio.sleep(self.lease / 3)
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


def _all_kept(table: str) -> int | None:
    return None
