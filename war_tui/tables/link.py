"""The server's end of one connection: requests in, updates out, every buffer bounded.

The host feeds it the socket's bytes (``receive``) and writes what ``take()`` returns. The table hands it
updates synchronously and it only queues them: past ``max_queued`` bytes the queue gives way to a fresh
snapshot, as it does to any snapshot the table sends (which covers what was queued before it);
``max_bad_lines`` malformed lines close it, requests past ``request_rate`` a second are dropped. A ``Resync``
is never dropped, but served at most once a ``RESYNC_GAP``; the link starts no timer (the host calls
``poll()`` at ``next_deadline()``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .clock import Clock, monotonic
from .line_queue import LineQueue
from .messages import Join, Leave, Lobby, NextTable, Notice, NoticeCode, Request, Resync, Snapshot, Update, WatchLobby
from .protocol import MessageReader, ProtocolError, encode, encode_shared, encode_snapshot, request_reader
from .rate import TokenBucket
from .registry import Registry, TableRefused
from .table import Member

MAX_QUEUED_BYTES = 256 * 1024
MAX_BAD_LINES = 8
REQUEST_RATE = 50.0
"""Requests a second a link may make on average (a held-down key repeats about 30 times a second)."""
REQUEST_BURST = 100.0
RESYNC_GAP = 1.0
"""Seconds at least between two fresh snapshots served to a connection that asks for them (each may be 64 KiB)."""


NOT_ON_TV = "only War TV moves on to the next table (ssh HOST tv)"
"""The refusal of a ``NextTable`` at a table reached by name or from the lobby."""
FROM_LOBBY = "from the lobby"
"""How a connection came to a table it chose in the lobby (``Link.on_join``)."""


class TableLink(Protocol):
    """A connection's end at the tables as its table socket pumps it, whoever holds the table: a ``Link`` into this
    server's registry, a link relayed to the node that serves the table (``war_tui.cluster.remote_link``), or a
    router choosing between them (``war_tui.cluster.router``)."""

    on_output: Callable[[], None] | None
    clock: Clock
    max_queued: int

    @property
    def closed(self) -> bool: ...

    @property
    def close_reason(self) -> str | None: ...

    @property
    def member(self) -> Member | None: ...

    @property
    def queued(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    def receive(self, data: bytes) -> None: ...

    def take(self) -> bytes: ...

    def next_deadline(self) -> float | None: ...

    def poll(self) -> None: ...

    def close(self, reason: str | None = None) -> None: ...


class DoorLink(TableLink, Protocol):
    """What a door holds: a ``TableLink`` that chooses its table, or the lobby (a ``Link``, or a router)."""

    on_join: Callable[[str, Member, str], None] | None

    def join(self, table_name: str, watch: bool = False, counted: bool = True) -> Member | None: ...

    def watch_lobby(self) -> None: ...


class Link:
    """One connection's link to the registry: at most one table at a time, or the lobby."""

    def __init__(
        self,
        registry: Registry,
        user_name: str,
        *,
        identity: str | None = None,
        address: str | None = None,
        clock: Clock = monotonic,
        on_output: Callable[[], None] | None = None,
        max_queued: int = MAX_QUEUED_BYTES,
        max_bad_lines: int = MAX_BAD_LINES,
        request_rate: float = REQUEST_RATE,
        request_burst: float = REQUEST_BURST,
    ) -> None:
        self.registry = registry
        self.user_name = user_name
        self.identity = identity
        """Whom a seat this connection takes is kept for (see ``Table.join``)."""
        self.address = address
        self.on_output = on_output
        self.max_bad_lines = max_bad_lines
        self.member: Member | None = None
        self.closed = False
        self.close_reason: str | None = None
        self.bad_lines = 0
        self.dropped_requests = 0
        self.resyncs = 0
        """How many times the link fell behind and was sent a fresh snapshot."""
        self.deferred_resyncs = 0
        """Asks for a fresh snapshot that came within ``RESYNC_GAP`` of the last one served (served later)."""
        self.clock = clock
        """The link's time, on which ``next_deadline()`` is told."""
        self._requests = TokenBucket(request_rate, request_burst, clock())
        self._reader: MessageReader[Request] = request_reader()
        self._queue = LineQueue(max_queued)
        self._resync = False
        self._resync_served: float | None = None
        """When the last snapshot the connection asked for was served."""
        self._resync_due: float | None = None
        """When the deferred snapshot the connection asked for is due (None: none is waiting)."""
        self._stop_lobby: Callable[[], None] | None = None
        self.on_join: Callable[[str, Member, str], None] | None = None
        """Called with the table, the member and how the connection came (``FROM_LOBBY``) when it joins a table."""
        """Told each table the connection itself asks to sit at or watch (from the lobby), for the host's log."""

    # ------------------------------------------------------------ the host's side

    def join(self, table_name: str, watch: bool = False, counted: bool = True) -> Member:
        """Sit at (or watch) a table for this connection; raises ``TableRefused`` with a message for the person.

        ``counted`` False: a spectator that draws for others (see ``Table.join``).
        """
        if self.closed:
            raise TableRefused("the connection is closed")
        if self.member is not None:
            raise TableRefused("you are already at a table")
        self.member = self.registry.join(
            table_name, self.user_name, self._deliver, watch=watch, identity=self.identity, address=self.address,
            counted=counted,
        )
        self._leave_lobby()
        return self.member

    def watch_lobby(self) -> None:
        """Receive the lobby now and as it changes (until this connection joins a table).

        Raises ``TableRefused`` when the lobby has all the readers it takes.
        """
        if self._stop_lobby is None and self.member is None and not self.closed:
            self._stop_lobby = self.registry.watch_lobby(self._deliver)

    def receive(self, data: bytes) -> None:
        """Bytes from the connection: every complete line is checked, then carried out or refused."""
        if self.closed:
            return
        for item in self._reader.feed(data):
            if self.closed:
                return
            if isinstance(item, ProtocolError):
                self.bad_lines += 1
                if self.bad_lines >= self.max_bad_lines:
                    self.close("too many malformed messages")
                    return
                self._send_notice(Notice(NoticeCode.REFUSED, f"refused {item}"))
                continue
            if not isinstance(item, Resync) and not self._allow():  # a resync has a bound of its own
                self.dropped_requests += 1
                continue
            self._carry_out(item)

    def next_deadline(self) -> float | None:
        """When a deferred snapshot is due (on the link's ``clock``): the host calls ``poll()`` then."""
        return self._resync_due

    def poll(self) -> None:
        """Serve the snapshot deferred by ``RESYNC_GAP`` once it is due."""
        due = self._resync_due
        if due is not None and self.clock() >= due:
            self._serve_snapshot()

    def take(self) -> bytes:
        """Everything queued for the connection (a fresh snapshot first if it fell behind); b"" when nothing."""
        if self._resync:
            self._resync = False
            self._resync_due = None  # the snapshot served now is as fresh as the deferred one would be
            self._queue.clear()
            line = self._fresh()
            if line:
                self._queue.appendleft(line)
        return self._queue.take()

    @property
    def queued(self) -> int:
        """Bytes waiting for ``take()``."""
        return self._queue.size

    @property
    def max_queued(self) -> int:
        """Bytes the queue holds before it gives way to a fresh snapshot."""
        return self._queue.limit

    @max_queued.setter
    def max_queued(self, size: int) -> None:
        self._queue.limit = size

    @property
    def finished(self) -> bool:
        """Closed and everything sent: the host may hang up."""
        return self.closed and not self._queue and not self._resync

    def close(self, reason: str | None = None, fault: bool = False) -> None:
        """The connection is over (or must be): leave the table and the lobby; safe to call twice.

        With a ``reason``, the connection is told it as a closing notice first. With ``fault`` it went with a
        fault between servers, not by its player's leaving: the seat waits for them as it was (``Table.leave``).
        """
        if self.closed:
            return
        self._resync_due = None
        if reason is not None:
            self._resync = False
            self._queue.clear()
            self._send_notice(Notice(NoticeCode.CLOSING, f"closing the connection: {reason}"), force=True)
        self.closed = True
        self.close_reason = reason
        self._leave_lobby()
        if self.member is not None:
            member, self.member = self.member, None
            member.leave(fault)

    # ------------------------------------------------------------ inside

    def _allow(self) -> bool:
        return self._requests.allow(self.clock())

    def _carry_out(self, request: Request) -> None:
        member = self.member
        if isinstance(request, Join):
            try:
                joined = self.join(request.table, request.watch)
            except TableRefused as refusal:
                self._send_notice(Notice(NoticeCode.REFUSED, str(refusal)))
                return
            if self.on_join is not None:
                self.on_join(request.table, joined, FROM_LOBBY)
            return
        if isinstance(request, WatchLobby):
            if member is not None:
                self._send_notice(Notice(NoticeCode.REFUSED, "leave the table to see the lobby"))
            else:
                try:
                    self.watch_lobby()
                except TableRefused as refusal:
                    self._send_notice(Notice(NoticeCode.REFUSED, str(refusal)))
            return
        if isinstance(request, NextTable):  # War TV's own (its link takes it before the table does)
            self._send_notice(Notice(NoticeCode.REFUSED, NOT_ON_TV))
            return
        if member is None:
            self._send_notice(Notice(NoticeCode.REFUSED, "you are not at a table"))
            return
        if isinstance(request, Resync):
            self._fresh_snapshot()
            return
        if isinstance(request, Leave):
            self.member = None
        member.request(request)

    def _fresh_snapshot(self) -> None:
        """The connection asked for a fresh snapshot: served now, or once ``RESYNC_GAP`` has passed since the last."""
        if self._resync_served is not None and self.clock() < self._resync_served + RESYNC_GAP:
            if self._resync_due is None:
                self.deferred_resyncs += 1
            self._resync_due = self._resync_served + RESYNC_GAP
            return
        self._serve_snapshot()

    def _serve_snapshot(self) -> None:
        """What is queued gives way to a fresh snapshot, encoded on the next ``take()``."""
        self._resync_served = self.clock()
        self._resync_due = None
        if self.closed:
            return
        was_idle = not self._queue and not self._resync
        self._queue.clear()
        self._resync = True
        if was_idle and self.on_output is not None:
            self.on_output()

    def _fresh(self) -> bytes:
        """The line that brings a connection that fell behind up to date.

        Where the registry holds updates until its store kept them, the table sends the snapshot through the member's
        sink, so it waits as they do (b"" here: it comes through ``_deliver``, at once or once released)."""
        member = self.member
        if member is not None and member.present:
            if self.registry.hold_updates:
                member.table.resync(member)
                return b""
            return encode_snapshot(member.snapshot())
        if self._stop_lobby is not None:
            return encode(self.registry.lobby())
        return b""

    def _deliver(self, update: Update) -> None:
        """The sink a table or the lobby calls: queue the update's line, or fall back to a resync."""
        if isinstance(update, Notice) and update.code is NoticeCode.CLOSING:
            if not self.closed:
                self._resync = False  # what is queued no longer matters: the closing notice does
                self._queue.clear()
                self._send_notice(update, force=True)
                self.close()
            return
        if self.closed or self._resync:
            return  # the snapshot sent on the next take() covers it
        if isinstance(update, Snapshot):
            self._queue.clear()  # it covers everything queued before it: the screen shows the table at once
            line = encode_snapshot(update)
        elif isinstance(update, Lobby):
            line = encode(update)
        else:
            line = encode_shared(update)
        self._push(line)

    def _send_notice(self, notice: Notice, force: bool = False) -> None:
        if (self.closed or self._resync) and not force:
            return
        self._push(encode(notice), force)

    def _push(self, line: bytes, force: bool = False) -> None:
        was_empty = not self._queue and not self._resync
        if not self._queue.fits(line) and not force:
            self._queue.clear()
            self._resync = True
            self.resyncs += 1
        else:
            if force and not self._queue.fits(line):
                self._queue.clear()
            self._queue.append(line)
        if was_empty and self.on_output is not None:
            self.on_output()

    def _leave_lobby(self) -> None:
        if self._stop_lobby is not None:
            stop, self._stop_lobby = self._stop_lobby, None
            stop()
