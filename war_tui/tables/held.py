"""What a table tells its members, held until the store has kept the state it tells of.

So no screen shows a state a crash could take back: each update waits in the table's order, tagged with
its sequence number, until ``release`` says the store kept it. A joiner's snapshot waits for the state
after its joining; a closing notice goes at once. Past ``MAX_HELD`` updates are dropped, and each member
who missed some gets a fresh snapshot with the next kept state (``catch_up``). No clock, no timer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol

from .journal import Sink
from .messages import Notice, NoticeCode, Snapshot, Update

MAX_HELD = 4096
"""Updates one table holds at most (every member's together): several seconds of auto-play at full speed for a
table full of spectators, while the store does not answer."""


class HeldMember(Protocol):
    """A member as the held updates see it (a table's ``Member``)."""

    @property
    def present(self) -> bool: ...

    def snapshot(self) -> Snapshot: ...


class HeldSink:
    """The sink a table is given for one member: its updates wait in the table's ``HeldUpdates``."""

    def __init__(self, held: HeldUpdates, sink: Sink) -> None:
        self.held = held
        self.sink = sink
        self.member: HeldMember | None = None
        """Set once the table took the member: whom a fresh snapshot is made for when it fell behind."""
        self.behind = False
        """Updates for it were dropped (``MAX_HELD``): it gets a fresh snapshot instead, and nothing until then."""
        self.joining: list[Update] | None = []
        """What it is told while the table takes it, held until the table tells its joining (``joined``)."""

    def __call__(self, update: Update) -> None:
        self.held.hold(self, update)


class HeldUpdates:
    """The updates one table told and the store has not kept, from its state at ``seq`` on; ``table_seq`` reads the
    table's sequence number."""

    def __init__(self, seq: int, table_seq: Callable[[], int]) -> None:
        self.released = seq
        """The table's sequence number handed on: everything up to it (kept, or a lone flip handed on unwritten)."""
        self.kept = seq
        """The table's sequence number the store has kept (a lone flip handed on unwritten is past it until the
        next write): what the relay acknowledges a key against."""
        self.offered = seq
        """The sequence number of the last state taken to keep: no release goes past it (one for another table of the
        same name, written before this one opened, releases nothing of this one's)."""
        self._table_seq = table_seq
        self._waiting: deque[tuple[int, HeldSink, Update]] = deque()
        self._behind: list[HeldSink] = []

    def sink(self, sink: Sink) -> HeldSink:
        return HeldSink(self, sink)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def hold(self, to: HeldSink, update: Update) -> None:
        if isinstance(update, Notice) and update.code is NoticeCode.CLOSING:
            self._waiting = deque(item for item in self._waiting if item[1] is not to)
            to.sink(update)
            return
        if to.joining is not None:
            to.joining.append(update)
            return
        if to.behind:
            return  # its fresh snapshot covers it
        self._enqueue(to, update, getattr(update, "seq", 0) or self._table_seq())

    def joined(self, to: HeldSink) -> None:
        """The table took ``to``'s member (or refused it): what it was told meanwhile (its snapshot, which shows it
        at the table) waits for the table's state after its joining."""
        told, to.joining = to.joining or [], None
        seq = self._table_seq()
        for update in told:
            self._enqueue(to, update, seq)

    def _enqueue(self, to: HeldSink, update: Update, seq: int) -> None:
        if not self._waiting and seq <= self.released:
            to.sink(update)
            return
        if len(self._waiting) >= MAX_HELD:
            self._drop()
            if to.behind:
                return
        self._waiting.append((seq, to, update))

    def _drop(self) -> None:
        """Too much waits: every member with something waiting gets a fresh snapshot instead (``catch_up``)."""
        for _, to, _ in self._waiting:
            if not to.behind:
                to.behind = True
                self._behind.append(to)
        self._waiting.clear()

    def catch_up(self) -> None:
        """The host takes the table's present state to keep: members who fell behind get a snapshot of it, handed on
        with it once released."""
        behind, self._behind = self._behind, []
        for to in behind:
            to.behind = False
            member = to.member
            if member is not None and member.present:
                self.hold(to, member.snapshot())

    def release(self, seq: int) -> None:
        """The store has kept the table's state at ``seq``: hand on, in order, everything told up to it."""
        self.released = max(self.released, min(seq, self.offered))
        waiting = self._waiting
        while waiting and waiting[0][0] <= self.released:
            _, to, update = waiting.popleft()
            to.sink(update)
