"""Every table on a server, by name: created when first named, bounded in number, listed for the lobby.

Connections ``join`` through it, the lobby reads ``lobby()`` (or ``watch_lobby``), and the host drives
every table's timers with ``next_deadline()`` / ``poll()``. A host keeping its tables in a store asks
``changed()``, takes ``checkpoint(name)`` and, once kept, ``release(name, seq)``; with ``hold_updates``
nothing reaches members before (``held.py``). At start it ``restore``s the kept tables, up to ``max_tables``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..core import plural as words
from ..core.engine import Game
from ..core.table_limits import (
    DEFAULT_MAX_LOBBY_READERS,
    DEFAULT_MAX_TABLES,
    DEFAULT_SEATS_PER_VISITOR,
    DEFAULT_TABLES_PER_VISITOR,
    MAX_MAX_TABLES,
    MAX_PER_VISITOR,
)
from ..stats.records import GameRecord
from .checkpoint import ReadCheckpoint, checkpoint, read_checkpoint, restore
from .clock import Clock, monotonic
from .held import HeldSink, HeldTables
from .journal import Sink
from .messages import Lobby, LobbyEntry, Notice, NoticeCode, TableEvent
from .names import parse_table_name
from .options import TableOptions
from .table import Member, Table, TableRefused

__all__ = ["DEFAULT_MAX_TABLES", "MAX_MAX_TABLES", "Elsewhere", "Registry", "TableRefused"]

LOBBY_INTERVAL = 1.0
"""Seconds between lobby updates at most: tables change every battle, a lobby reader needs far less."""
KEPT_TABLES_PER_ADDRESS = 1
"""Tables one address opened that may stay open with nobody at them but a seat kept for it (its player
away): past it the older ones close, kept seats and all, once nobody has been at them for the close delay
(``TableOptions.close_after``), so an address cannot hold tables without a connection, while players that a
fault cut off all at once (a node or NATS away: everyone's screen freezes, everyone reconnects) find their
tables where they were. A table with nobody at it and no seat kept closes by itself after that delay."""


class Elsewhere(Protocol):
    """What the other servers of a cluster hold for a visitor, as last read: the caps per visitor add it to
    what this registry holds, so they hold across servers."""

    def tables_opened_by(self, identity: str | None, address: str | None) -> int: ...

    def seats_held(self, identity: str | None, address: str | None) -> int: ...


class Registry:
    """The tables of one server.

    ``deal`` (a function of the table name) and ``seed_source`` are for tests and
    replays; ``on_record`` receives each finished game's one ``GameRecord`` (with ``hold_updates``, once the store
    kept the game's end: ``release``). ``on_change`` is called (synchronously,
    inside the table's call: it must not call into the registry, only note that ``changed()`` has news) whenever a
    table tells a change or closes; ``hold_updates``: see ``release``. ``on_events`` is told what the engine said of each
of every table's calls (battles, game overs), once the table has it.
    """

    def __init__(
        self,
        *,
        clock: Clock = monotonic,
        max_tables: int = DEFAULT_MAX_TABLES,
        options: TableOptions | None = None,
        on_record: Callable[[GameRecord], None] | None = None,
        deal: Callable[[str], Game] | None = None,
        seed_source: Callable[[], int] | None = None,
        tables_per_visitor: int = DEFAULT_TABLES_PER_VISITOR,
        seats_per_visitor: int = DEFAULT_SEATS_PER_VISITOR,
        max_lobby_readers: int = DEFAULT_MAX_LOBBY_READERS,
        log: Callable[[str], None] | None = None,
        hold_updates: bool = False,
        on_change: Callable[[], None] | None = None,
        on_events: Callable[[tuple[TableEvent, ...]], None] | None = None,
    ) -> None:
        for label, value, high in (
            ("max tables", max_tables, MAX_MAX_TABLES),
            ("tables per visitor", tables_per_visitor, MAX_PER_VISITOR),
            ("seats per visitor", seats_per_visitor, MAX_PER_VISITOR),
            ("max lobby readers", max_lobby_readers, MAX_PER_VISITOR),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise ValueError(f"{label} must be a whole number from 1 to {high}, not {value!r}")
        self.max_tables = max_tables
        self.tables_per_visitor = tables_per_visitor
        self.seats_per_visitor = seats_per_visitor
        self.max_lobby_readers = max_lobby_readers
        self._log = log
        self.options = options if options is not None else TableOptions()
        self._clock = clock
        self._on_record = on_record
        self._deal = deal
        self._seed_source = seed_source
        self._tables: dict[str, Table] = {}
        self._awaited: set[str] = set()
        """Tables restored from a checkpoint that no player sat at here yet: their players are on their way back
        (a restart, a takeover), so ``_close_unattended`` leaves them to their kept seats' grace."""
        self.hold_updates = hold_updates
        self._on_change = on_change
        self._on_events = on_events
        self._held = HeldTables(self._record, log)
        """With ``hold_updates``: what each table told and the games it finished, until the store keeps them."""
        self._marks: dict[str, tuple[Table, tuple[int, int, bool]]] = {}
        """Each table as ``changed()`` last saw it: its sequence number, revision and whether it closed."""
        self._lobby_sinks: list[Sink] = []
        self._lobby_sent: tuple[int, ...] | None = None
        self._lobby_due: float | None = None
        self._others: tuple[LobbyEntry, ...] = ()
        self._others_seen = 0
        self.on_refused: Callable[[str], None] | None = None
        """Told the reason (``TableRefused.reason``) of each join or lobby visit refused (the server counts them)."""
        self.elsewhere: Elsewhere | None = None
        """Tables and seats the other servers of a cluster hold per visitor; None: this server is alone."""
        self.closed = False

    # ---------------------------------------------------------------- tables

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(self._tables.values())

    def table(self, name: str) -> Table | None:
        """The open table called ``name`` (already a valid table name), if any."""
        table = self._tables.get(name)
        return table if table is not None and not table.closed else None

    def join(
        self,
        table_name: str,
        user_name: str,
        sink: Sink,
        *,
        watch: bool = False,
        identity: str | None = None,
        address: str | None = None,
        counted: bool = True,
    ) -> Member:
        """Sit (or watch) at ``table_name``, opening it if it does not exist yet (unless watching).

        A refusal is counted (``on_refused``, with its reason) before it reaches the caller."""
        try:
            return self._join(
                table_name, user_name, sink, watch=watch, identity=identity, address=address, counted=counted,
            )
        except TableRefused as refusal:
            if self.on_refused is not None:
                self.on_refused(refusal.reason)
            raise

    def _join(
        self,
        table_name: str,
        user_name: str,
        sink: Sink,
        *,
        watch: bool,
        identity: str | None,
        address: str | None,
        counted: bool,
    ) -> Member:
        """``join``'s work.

        ``identity`` is whom a seat is kept for (see ``Table.join``); ``identity`` and ``address``
        each open at most ``tables_per_visitor`` tables and hold at most ``seats_per_visitor`` seats
        (past it they watch), here and ``elsewhere`` together. Raises ``TableRefused`` for a bad table name, a full server, a table
        to watch that does not exist, a table with all the spectators it takes, too many tables
        opened from one address or identity, or a server that is closing.
        """
        if self.closed:
            raise TableRefused("the server is closing", "stopping")
        try:
            name = parse_table_name(table_name)
        except ValueError as error:
            raise TableRefused(str(error)) from None
        self._forget_closed()
        table = self._tables.get(name)
        if table is None:
            if watch:
                raise TableRefused(f"there is no table called {name} to watch")
            if len(self._tables) + len(self._others) >= self.max_tables:
                raise TableRefused(
                    f"the server is full: {words.counted(self.max_tables, 'table', 'is', 'are')} open; try again later or watch one",
                    "full",
                )
            if self.visitor_tables(identity, address) >= self.tables_per_visitor:
                raise TableRefused(
                    f"you already opened {self.tables_per_visitor} of the tables open here, the most one player"
                    " may; sit at one of them or at another table",
                    "caps",
                )
            table = self._open(name, (address, identity))
            opened = True
        else:
            opened = False
        held = self._held.updates(name)
        member_sink = held.sink(sink) if held is not None else sink
        try:
            may_sit = watch or self.visitor_seats(identity, address) < self.seats_per_visitor
            member = table.join(
                user_name, member_sink, watch=watch, identity=identity, address=address, may_sit=may_sit,
                counted=counted,
            )
        finally:
            if isinstance(member_sink, HeldSink) and held is not None:
                held.joined(member_sink)
            if opened and table.empty:  # refused at the table it opened: not kept open for nobody
                del self._tables[name]
                self._held.forget(name)
        if isinstance(member_sink, HeldSink):
            member_sink.member = member
        if member.seat is not None:
            self._awaited.discard(name)
        return member

    def visitor_tables(self, identity: str | None, address: str | None) -> int:
        """Open tables opened by ``identity`` or from ``address``, here and on the other servers."""
        here = self.tables_opened_by(identity, address)
        if self.elsewhere is None or (identity is None and address is None):
            return here
        return here + self.elsewhere.tables_opened_by(identity, address)

    def visitor_seats(self, identity: str | None, address: str | None) -> int:
        """Seats taken or kept for ``identity`` or from ``address``, here and on the other servers."""
        here = self.seats_held(identity, address)
        if self.elsewhere is None or (identity is None and address is None):
            return here
        return here + self.elsewhere.seats_held(identity, address)

    def tables_opened_by(self, identity: str | None, address: str | None) -> int:
        """Open tables opened by ``identity`` or from ``address``."""
        return sum(
            1 for t in self._tables.values()
            if not t.closed and ((address is not None and t.opened_by[0] == address)
                                 or (identity is not None and t.opened_by[1] == identity))
        )

    def seats_held(self, identity: str | None, address: str | None) -> int:
        """Seats taken or kept, at every table, for ``identity`` or for someone from ``address``."""
        if identity is None and address is None:
            return 0
        return sum(t.seats_held(identity, address) for t in self._tables.values() if not t.closed)

    def _open(self, name: str, opened_by: tuple[str | None, str | None] = (None, None)) -> Table:
        deal = self._deal
        table = Table(
            name, clock=self._clock, options=self.options, on_record=lambda record: self._game_over(name, record),
            deal=(lambda: deal(name)) if deal is not None else None, seed_source=self._seed_source,
            log=self._log, opened_by=opened_by, on_change=self._on_change,
        )
        self._add(table, 0)
        return table

    def _add(self, table: Table, kept: int) -> None:
        """``table`` is open here; with ``hold_updates``, what the store has ``kept`` of it (its sequence number)."""
        self._tables[table.name] = table
        table.on_events = self._on_events
        if self.hold_updates:
            self._held.add(table.name, kept, lambda: table.seq)

    # ----------------------------------------------------------------- store

    def changed(self) -> list[str]:
        """The names of the tables that changed (told a change, seated or unseated someone, closed or went) since the
        last call: each one's ``checkpoint`` is to be kept, or, when it gives None, the table deleted."""
        changed: list[str] = []
        marks: dict[str, tuple[Table, tuple[int, int, bool]]] = {}
        for name, table in self._tables.items():
            mark = (table.seq, table.revision, table.closed)
            before = self._marks.get(name)
            if before is None or before[0] is not table or before[1] != mark:
                changed.append(name)
            marks[name] = (table, mark)
        changed += [name for name in self._marks if name not in marks]
        self._marks = marks
        return changed

    def checkpoint(self, name: str) -> tuple[int, bytes] | None:
        """The open table ``name``'s sequence number and checkpoint (``checkpoint.py``); None when it closed or went.

        With ``hold_updates``, members who fell behind get a fresh snapshot of the state it holds, once released."""
        table = self.table(name)
        if table is None:
            return None
        self._held.offer(name, table.seq)
        return table.seq, checkpoint(table)

    def kept(self, name: str) -> int | None:
        """With ``hold_updates``, the sequence number of table ``name`` the store has kept; None: all it told."""
        return self._held.kept(name)

    def release_unwritten(self, name: str) -> bool:
        """Hand on what table ``name`` told without a write, when the store keeps every change of it that a screen
        must not see unkept (``Table.weighty_seq``: all it told since tells only who has flipped); whether it did.

        Members who fell behind get a fresh snapshot, as with ``checkpoint``. False without ``hold_updates``."""
        table = self.table(name)
        return table is not None and self._held.release_unwritten(name, table.seq, table.weighty_seq)

    def release(self, name: str, seq: int) -> None:
        """The store has kept table ``name``'s state at ``seq``: with ``hold_updates``, its members are told, in
        order, everything the table told up to it (nothing is held without it), and the games that ended by then
        are recorded."""
        self._held.release(name, seq)

    def _game_over(self, name: str, record: GameRecord) -> None:
        table = self._tables.get(name)
        self._held.game_over(name, table.seq if table is not None else None, record)

    def _record(self, record: GameRecord) -> None:
        if self._on_record is not None:
            self._on_record(record)

    def table_gone(self, name: str, kept: bool) -> None:
        """Table ``name`` is no longer this server's: its games waiting for the store are recorded if ``kept`` (the
        table closed, the store holds nothing more of it: nobody plays them on), else dropped (it was let go, or
        the server stops: the store holds the table without their ends, and its next server plays them on)."""
        self._held.gone(name, kept)

    @property
    def full(self) -> bool:
        """Whether this registry holds as many open tables as it may (``max_tables``): none more is restored."""
        return sum(1 for table in self._tables.values() if not table.closed) >= self.max_tables

    def read(self, data: bytes) -> ReadCheckpoint:
        """``data`` read as a checkpoint of this registry's tables (``read_checkpoint``), for ``restore``: the slow
        part of it, which touches nothing of the registry's (a server does it in another thread)."""
        return read_checkpoint(data, self.options)

    def restore(self, data: bytes | ReadCheckpoint) -> str:
        """Open the table a checkpoint holds (``checkpoint.restore``; bytes, or what ``read`` made of them); its name.

        Raises ``CheckpointError`` when ``data`` is not a checkpoint this version restores, and ``TableRefused`` when
        the server is closing or full, or a table of that name is open."""
        if self.closed:
            raise TableRefused("the server is closing")
        name = ""  # the table's, once read: its games to come are dealt for it
        deal = self._deal
        table = restore(
            data, clock=self._clock, options=self.options, on_record=lambda record: self._game_over(name, record),
            deal=(lambda: deal(name)) if deal is not None else None, seed_source=self._seed_source, log=self._log,
            on_change=self._on_change,
        )
        name = table.name
        self._forget_closed()
        if name in self._tables:
            raise TableRefused(f"table {name} is open already")
        if len(self._tables) >= self.max_tables:
            raise TableRefused(f"the server is full: {words.counted(self.max_tables, 'table', 'is', 'are')} open")
        self._add(table, table.seq)
        self._awaited.add(name)
        self._marks[name] = (table, (table.seq, table.revision, table.closed))  # the store holds it as it is
        return name

    def _unattended_since(self, table: Table) -> float | None:
        """When ``table`` became one its opener's address keeps with nobody at it (``_close_unattended``); None if
        it is not one. A restored table none of whose players came back yet is not: its players are not away by
        choice, and closing it would deal its name afresh."""
        address = table.opened_by[0]
        if address is None or table.closed or not table.empty or table.name in self._awaited:
            return None
        if not table.seats_held(None, address):
            return None
        return table.empty_since

    def _close_unattended(self) -> None:
        """Past ``KEPT_TABLES_PER_ADDRESS`` tables kept with nobody at them for one address, the older close (and
        the store forgets them), once nobody has been at them for the close delay: players cut off together by a
        fault come back to every table they sat at."""
        now = self._clock()
        unattended: dict[str, list[Table]] = {}
        for table in self._tables.values():  # in the order they opened
            since = self._unattended_since(table)
            if since is not None and now - since >= table.options.close_after:
                unattended.setdefault(table.opened_by[0] or "", []).append(table)
        for tables in unattended.values():
            for table in tables[:-KEPT_TABLES_PER_ADDRESS]:
                table.close("the table closed: nobody was at it, and its address keeps a seat at another")
                if self._log is not None:
                    self._log(f"table {table.name}: closed, nobody was at it and its address keeps a seat at another")

    def _forget_closed(self) -> None:
        for name in [n for n, t in self._tables.items() if t.closed]:
            del self._tables[name]
            self._awaited.discard(name)
            self._held.forget(name)

    # ----------------------------------------------------------------- lobby

    def lobby(self) -> Lobby:
        """Every open table, by name (other servers' too: ``set_others``)."""
        entries = {n: t.lobby_entry() for n, t in self._tables.items() if not t.closed}
        for entry in self._others:
            entries.setdefault(entry.table, entry)
        return Lobby(tuple(entries[n] for n in sorted(entries)[: self.max_tables]), self.max_tables)

    def set_others(self, entries: tuple[LobbyEntry, ...]) -> None:
        """The tables other servers of a cluster serve, as the lobby lists them (and ``max_tables`` counts them)."""
        if entries != self._others:
            self._others = entries[: self.max_tables]
            self._others_seen += 1

    def watch_lobby(self, sink: Sink) -> Callable[[], None]:
        """Send ``sink`` the lobby now and whenever it changes (at most once a second); returns the way out.

        Raises ``TableRefused`` when the lobby has all the readers it takes.
        """
        if len(self._lobby_sinks) >= self.max_lobby_readers:
            if self.on_refused is not None:
                self.on_refused("full")
            raise TableRefused(
                f"the lobby is full ({words.plural(self.max_lobby_readers, 'reader')});"
                " try again later"
                " or name a table (table NAME)",
                "full",
            )
        self._lobby_sinks.append(sink)
        sink(self.lobby())

        def stop() -> None:
            if sink in self._lobby_sinks:
                self._lobby_sinks.remove(sink)

        return stop

    def _lobby_key(self) -> tuple[int, ...]:
        return (len(self._tables), self._others_seen, *(t.revision for t in self._tables.values()))

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """The soonest deadline of any table or of the next lobby update; None: nothing is due."""
        deadlines = [d for d in (t.next_deadline() for t in self._tables.values()) if d is not None]
        now = self._clock()
        for table in self._tables.values():  # when a table left unattended may close (``_close_unattended``)
            since = self._unattended_since(table)
            if since is not None and since + table.options.close_after > now:
                deadlines.append(since + table.options.close_after)
        if self._lobby_sinks and self._lobby_key() != self._lobby_sent:
            deadlines.append(self._lobby_due if self._lobby_due is not None else self._clock())
        return min(deadlines) if deadlines else None

    def poll(self) -> None:
        """Do what is due at every table, forget closed tables, update lobby readers when due."""
        for table in tuple(self._tables.values()):
            table.poll()
        self._close_unattended()
        self._forget_closed()
        if not self._lobby_sinks:
            return
        now = self._clock()
        key = self._lobby_key()
        if key != self._lobby_sent and (self._lobby_due is None or now >= self._lobby_due):
            self._lobby_sent = key
            self._lobby_due = now + LOBBY_INTERVAL
            lobby = self.lobby()
            for sink in tuple(self._lobby_sinks):
                sink(lobby)

    def close(self, text: str = "the server is closing") -> None:
        """Tell everyone at every table and in the lobby ``text``; no one joins after."""
        self.closed = True
        notice = Notice(NoticeCode.CLOSING, text)
        for table in tuple(self._tables.values()):
            table.close(text)
        for sink in tuple(self._lobby_sinks):
            sink(notice)
        self._lobby_sinks.clear()
        self._held.close()
        self._tables.clear()
        self._awaited.clear()
