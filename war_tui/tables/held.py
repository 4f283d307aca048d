"""What a table tells its members and the games it finishes, held until the store has kept the state they tell of.

So no screen shows a state a crash could take back: each update waits in the table's order, tagged with
its sequence number, until ``release`` says the store kept it. A joiner's snapshot waits for the state
after its joining; a closing notice goes at once. Past ``MAX_HELD`` updates are dropped, and each member
who missed some gets a fresh snapshot with the next kept state (``catch_up``). A finished game is recorded
once the store kept its end, never for an end the store lost. No clock, no timer.

``HeldTables`` is the one place a registry's tables wait for the store (``Registry(hold_updates=True)``); the
keeper (``war_tui.serving.tables.keeper``) writes and says what was kept, and the relay acknowledges a key
against what was kept (``kept``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol

from ..core import plural as words
from ..stats.records import GameRecord
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


class HeldTables:
    """Every table's held updates (``HeldUpdates``), and its finished games whose end the store has not kept yet, by
    the table's sequence number at the end: a game is recorded when its end is kept, never for an end the store
    lost (a stop, a takeover): the table's next server plays that game on under its id and records its real end.

    Tables are added only with ``hold_updates``; without, nothing is held and every game is recorded at once."""

    def __init__(self, record: Callable[[GameRecord], None], log: Callable[[str], None] | None) -> None:
        self._updates: dict[str, HeldUpdates] = {}
        self._records: dict[str, list[tuple[int, GameRecord]]] = {}
        self._record = record
        self._log = log

    def add(self, name: str, kept: int, table_seq: Callable[[], int]) -> None:
        """Table ``name`` is open, the store having kept it at ``kept``: its updates are held from now on."""
        self._updates[name] = HeldUpdates(kept, table_seq)

    def updates(self, name: str) -> HeldUpdates | None:
        return self._updates.get(name)

    def forget(self, name: str) -> None:
        """Table ``name`` is closed or gone: nothing of it is held any more (its games waiting stay for ``gone``)."""
        self._updates.pop(name, None)

    def offer(self, name: str, seq: int) -> None:
        """The table's state at ``seq`` is taken to keep: members who fell behind get a fresh snapshot of it, once
        released."""
        held = self._updates.get(name)
        if held is not None:
            held.catch_up()
            held.offered = seq

    def kept(self, name: str) -> int | None:
        """The sequence number of table ``name`` the store has kept; None: all it told (nothing held)."""
        held = self._updates.get(name)
        return held.kept if held is not None else None

    def release_unwritten(self, name: str, seq: int, weighty_seq: int) -> bool:
        """Hand on what the table told up to ``seq`` without a write, when nothing since ``weighty_seq`` needs the
        store (see ``Registry.release_unwritten``); whether it did."""
        held = self._updates.get(name)
        if held is None or weighty_seq > held.released:
            return False
        held.catch_up()
        held.offered = seq
        held.release(seq)
        return True

    def release(self, name: str, seq: int) -> None:
        """The store has kept table ``name``'s state at ``seq``: its members are told, in order, everything the table
        told up to it, and the games that ended by then are recorded."""
        held = self._updates.get(name)
        if held is not None:
            held.release(seq)
            held.kept = max(held.kept, min(seq, held.offered))
            self._record_kept(name, held.kept)

    def game_over(self, name: str, seq: int | None, record: GameRecord) -> None:
        """Table ``name`` (at ``seq``; None: no longer open) finished a game: recorded at once unless its end waits
        for the store."""
        held = self._updates.get(name)
        if held is None or seq is None or seq <= held.kept:  # nothing held, or the store has the end already
            self._record(record)
            return
        self._records.setdefault(name, []).append((seq, record))

    def _record_kept(self, name: str, kept: int) -> None:
        waiting = self._records.get(name, [])
        while waiting and waiting[0][0] <= kept:
            self._record(waiting.pop(0)[1])
        if not waiting:
            self._records.pop(name, None)

    def gone(self, name: str, kept: bool) -> None:
        """See ``Registry.table_gone``."""
        waiting = self._records.pop(name, [])
        if kept:
            for _, record in waiting:
                self._record(record)
        elif waiting and self._log is not None:
            self._log(f"tables: {name}: {words.plural(len(waiting), 'game')} ended here after the store's last write "
                      "of the table; its next server plays on from there and records the real end")

    def close(self) -> None:
        """The server closes: the games waiting are dropped (``gone``, not kept), nothing is held any more."""
        for name in list(self._records):
            self.gone(name, kept=False)
        self._updates.clear()
