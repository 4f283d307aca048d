"""The door's side of a relayed connection: a link to a table another node serves, as the door's socket uses it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from nats.aio.client import Client

from ..tables import TableRefused
from ..tables.clock import Clock, monotonic
from ..tables.line_queue import LineQueue
from ..tables.link import MAX_QUEUED_BYTES
from ..tables.messages import Auto, Flip, Leaving, Notice, Restart, Resync, WarStop
from ..tables.protocol import ProtocolError, decode_request, encode
from ..untrusted import BadRecord, BadRecords, fields, plain_text, read_json
from .relay_wire import (
    ACK,
    ACK_EVERY,
    CLOSE,
    END,
    GONE,
    LINES,
    MAX_OPEN,
    MAX_TEXT,
    MOVE,
    NATS_ERRORS,
    OPEN_TIMEOUT,
    OPENER,
    PING,
    SKIP,
    OpenRequest,
    RelayKey,
    in_subject,
    new_conn_id,
    open_subject,
)
from .sequenced import Numbered, NumberedEnd, WireCounts


class DoorRelay(Protocol):
    """What a door's relayed connection uses of its node's relay (``relay.RelayNode``): the node, the wire and its
    key, the log, and the connections it holds."""

    @property
    def node(self) -> str: ...

    @property
    def client(self) -> Client: ...

    @property
    def key(self) -> RelayKey: ...

    @property
    def doors(self) -> dict[str, RemoteLink]: ...

    @property
    def wall(self) -> Clock: ...

    @property
    def counts(self) -> WireCounts: ...

    @property
    def log(self) -> Callable[[str], None]: ...

    @property
    def bad(self) -> BadRecords: ...

    def send(self, subject: str, data: bytes) -> None: ...

RESENT_ON_MOVE = (Flip, Auto, Restart, WarStop, Leaving)
"""The keys a door sends again to a table's next owner when the one it left never acknowledged them.

Each is harmless applied twice, so it is sent again whether the owner that died applied it or not: a flip
stamped before the table's last battle is stale and refused silently (``Journal.stale``), one for a battle not
yet played finds its card already turned; the rest set a wish to a value, in the order typed (one stamped for a
game that ended meanwhile is refused in a line, as when typed late). The others are
dropped: an emote would show twice, a decline could answer a newer request, and sitting, the house or leaving
are the screen's to ask again when it sees the table (the player may press them again)."""


class Unanswered(LookupError):
    """The owner did not answer an open request in time: it may take it still (it was paused, or NATS slow), so the
    door asks again for the same connection (the owner answers what it missed: ``RelayNode._again``), never for a
    second connection that would take the first one's seat from it."""


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
    queued is dropped, and so is what comes after, until the connection is read again: then the owner is asked for
    a fresh snapshot (the screen's sequence numbers see the gap and ask for one too; the owner serves one per
    ``RESYNC_GAP``). A spectator watching the door's shared rendering reads nothing (``max_queued`` 0): it asks
    for nothing until its own game reads, as a ``Link`` does, never a snapshot per update."""

    def __init__(self, relay: DoorRelay, owner: str, table: str, *, max_queued: int = MAX_QUEUED_BYTES,
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
        self.wire = NumberedEnd(relay.counts)
        self._queue = LineQueue(max_queued)
        self._behind = False
        """The queue passed its bound: updates are dropped until ``take`` asks the owner for a fresh snapshot."""
        self._subject = in_subject(owner, relay.node, self.conn)

    @property
    def max_queued(self) -> int:
        return self._queue.limit

    @max_queued.setter
    def max_queued(self, size: int) -> None:
        self._queue.limit = size
        if self._behind and size > 0 and self.on_output is not None:
            self.on_output()  # read again: the snapshot is asked for at the next take

    async def open(self, user: str, identity: str | None, address: str | None, watch: bool) -> None:
        """Ask the owner to seat (or show) the connection; ``TableRefused`` with the owner's words, ``Unanswered``
        when the owner does not answer in time (asked again, the same connection), or ``LookupError`` when the owner
        does not serve the table (any more) or does not answer as itself."""
        self.relay.doors[self.conn] = self
        request = OpenRequest(self.conn, self.relay.node, user, identity, address, self.table, watch, self.relay.wall())
        subject = open_subject(self.owner)
        key = self.relay.key
        try:
            reply = await self.relay.client.request(
                subject, key.sign(OPENER, subject, request.encode()), timeout=OPEN_TIMEOUT,
            )
            answer = fields(read_json(key.check(self.owner, reply.subject, reply.data), MAX_OPEN, 1), "an open answer")
        except NATS_ERRORS:
            self.relay.doors.pop(self.conn, None)
            raise Unanswered(self.owner) from None
        except BadRecord as exc:
            self.relay.doors.pop(self.conn, None)
            self.relay.bad(f"relay: node {self.owner}'s answer to an open request is skipped ({exc})")
            raise LookupError(self.owner) from None
        if answer.get("ok") is not True:
            self.relay.doors.pop(self.conn, None)
            refused = answer.get("refused")
            if isinstance(refused, str):  # the owner's words to the player: shown as text, never acted on
                raise TableRefused(plain_text(refused[:MAX_TEXT]))
            raise LookupError(self.owner)

    # -- the link's interface -----------------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        if self.closed:
            return
        if not self.wire.window.fits(data):
            self.dropped_keys += 1
            if self.dropped_keys == 1:
                self.relay.log(f"relay: node {self.owner} acknowledges nothing of table {self.table}; "
                               "the connection's keys are dropped until it does")
            return
        self._send(LINES, data)

    def _send(self, kind: bytes, body: bytes) -> None:
        self.relay.send(self._subject, self.wire.numbered(kind, body, self.clock(), self.wire.inbox.received))

    def _ack(self) -> None:
        self.relay.send(self._subject, self.wire.bare(ACK, self.wire.inbox.received))

    def ping(self) -> None:
        """Still here (the owner lets a quiet relay go), with the acknowledgement of what came."""
        self.relay.send(self._subject, self.wire.bare(PING, self.wire.inbox.received))

    def resend(self, after: float | None) -> None:
        for message in self.wire.again(self.clock(), after, self.wire.inbox.received):
            self.relay.send(self._subject, message)

    def unacknowledged(self) -> list[bytes]:
        """The connection's lines the owner never acknowledged, oldest first (for the table's next owner)."""
        return self.wire.window.bodies(LINES)

    def deliver(self, data: bytes) -> None:
        """What the owner sent."""
        if self.closed:
            return
        kind = data[:1]
        if kind in (ACK, GONE):
            self._unnumbered(kind, data)
            return
        duplicates = self.wire.inbox.duplicates
        ready = self.wire.take(data, skip=kind == SKIP) if kind in (LINES, SKIP, END, MOVE) else None
        if ready is None:
            return
        if self.wire.inbox.duplicates != duplicates:
            self._ack()  # the owner sent it again: it missed the acknowledgement
        self._apply(ready)

    def _unnumbered(self, kind: bytes, data: bytes) -> None:
        if kind == ACK:
            self.wire.acknowledged(data)
        elif self.on_moved is not None:  # GONE: the owner let the connection go (a fault, not the player's leaving)
            self._queue.clear()  # it reaches the table again, wherever it is served: its seat waits there as it was
            self.detach()
            self.on_moved()
        else:
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
        if self.wire.inbox.received - self.wire.acked >= ACK_EVERY:
            self._ack()
        if was_empty and self._queue and self.on_output is not None:
            self.on_output()

    def _queue_lines(self, body: bytes) -> None:
        if self._behind:
            return  # the snapshot asked for at the next take covers it
        if not self._queue.fits(body):
            self._queue.clear()
            self.dropped += 1
            self.wire.window.counts.behind += 1
            self._behind = True
            if self.on_output is not None:
                self.on_output()
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
        if self._behind and self._queue.limit > 0 and not self.closed:
            self._behind = False
            self.receive(encode(Resync()))
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
