"""The owner's side of a relayed connection: the link it made for another node's connection, and its numbers."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Protocol

from ..tables import Link
from ..tables.clock import Clock, seconds_until
from ..tables.messages import Resync
from ..tables.protocol import encode
from .relay_wire import (
    ACK,
    CLOSE,
    END,
    LINES,
    MOVE,
    PING,
    SKIP,
    OpenRequest,
    out_subject,
)
from .sequenced import MAX_WINDOW_MESSAGES, NumberedEnd, WireCounts


class OwnerRelay(Protocol):
    """What a relayed connection uses of its node's relay (``relay.RelayNode``): its clock, the wire, what the
    store kept, and the connections it holds."""

    @property
    def relayed(self) -> dict[str, Relayed]: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def kept(self) -> Callable[[str], int | None]: ...

    @property
    def counts(self) -> WireCounts: ...

    @property
    def wake(self) -> Callable[[], None]: ...

    def send(self, subject: str, data: bytes) -> None: ...


class Relayed:
    """The owner's side of one relayed connection: its link, and when its door was last heard.

    Lines from the door are applied once, in order (``Inbox``); each is acknowledged once the store kept what it
    changed (the table's sequence number right after it, against ``RelayNode.kept``), so a key acknowledged is a
    key a takeover keeps. What the link says goes out numbered and is kept until the door acknowledges it."""

    def __init__(self, relay: OwnerRelay, request: OpenRequest, table: str, link: Link) -> None:
        self.relay = relay
        self.request = request
        self.table = table
        self.link = link
        self.heard = relay.clock()
        self.subject = out_subject(request.door, request.conn)
        self.wire = NumberedEnd(relay.counts)
        self.dropped = 0
        """Times the door fell so far behind that what it had not acknowledged was given up for a fresh snapshot."""
        self._applied: deque[tuple[int, int]] = deque()
        """(line number, the table's sequence number after it) applied and not yet kept by the store."""
        self._ready = 0
        """The highest number applied with everything it changed kept: what may be acknowledged."""
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
        elif not data and (self._owe_ack or self._ack_ready() > self.wire.acked):
            self.relay.send(self.subject, self.wire.bare(ACK, self._ack_ready()))
        self._owe_ack = False
        if self.ending and not self.wire.window:
            self.end()

    def _send(self, kind: bytes, body: bytes) -> None:
        window = self.wire.window
        if kind == LINES and not window.fits(body):
            # The door has not acknowledged a window's worth: give it up, and a fresh snapshot follows the gap.
            window.clear()
            self.dropped += 1
            window.counts.unacknowledged += 1
            self._send(SKIP, b"")
            self.link.receive(encode(Resync()))
            return
        self.relay.send(self.subject, self.wire.numbered(kind, body, self.relay.clock(), self._ack_ready()))

    def _ack_ready(self) -> int:
        kept = self.relay.kept(self.table)
        while self._applied and (kept is None or self._applied[0][1] <= kept):
            self._ready = self._applied.popleft()[0]
        return self._ready

    def resend(self, after: float | None) -> None:
        for message in self.wire.again(self.relay.clock(), after, self._ack_ready()):
            self.relay.send(self.subject, message)

    def receive(self, data: bytes) -> None:
        self.heard = self.relay.clock()
        kind = data[:1]
        if kind in (PING, ACK):
            self.wire.acknowledged(data)
            if kind == PING or (self.ending and not self.wire.window):
                self.wanted()
            return
        ready = self.wire.take(data) if kind in (LINES, CLOSE) else None
        if ready is None:
            return
        if not ready:
            self._owe_ack = self._owe_ack or self.wire.inbox.duplicates > 0
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
        """This node stops serving: the door is told to go to the table's next owner, after what it was sent; the
        seat waits for its player there as it was."""
        if not self.done and not self.ending:
            self._send(MOVE, b"")
        self.end(fault=True)

    def watch_deadline(self) -> None:
        delay = seconds_until(self.link.next_deadline(), self.link.clock)
        if delay is not None and self._due is None and not self.done:
            self._due = asyncio.get_running_loop().call_later(delay, self._poll)

    def _poll(self) -> None:
        self._due = None
        self.link.poll()
        self.watch_deadline()

    def end(self, fault: bool = False) -> None:
        """The relayed connection is over here: by its player's leaving, or with ``fault`` (its door fell silent,
        this node stops serving the table), which is not their leaving: their seat waits for them as it was."""
        if self.done:
            return
        self.done = True
        if self._due is not None:
            self._due.cancel()
        self.link.on_output = None
        self.link.close(fault=fault)
        self.relay.relayed.pop(self.request.conn, None)
