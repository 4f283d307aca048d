"""Every table on a server, by name: created when first named, bounded in number, listed for the lobby.

The registry is the one object a server keeps: connections ``join`` through
it, the lobby reads ``lobby()`` (or receives it through ``watch_lobby``), and
the host drives all tables' timers with ``next_deadline()`` / ``poll()``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.engine import Game
from ..stats.records import GameRecord
from .clock import Clock, monotonic
from .messages import Lobby, Notice, NoticeCode
from .names import parse_table_name
from .table import Member, Sink, Table, TableOptions

DEFAULT_MAX_TABLES = 16
MAX_MAX_TABLES = 100
"""Tables a server may hold at most: the whole lobby must fit in one protocol line."""
LOBBY_INTERVAL = 1.0
"""Seconds between lobby updates at most: tables change every battle, a lobby reader needs far less."""
MAX_LOBBY_WATCHERS = 256


class TableRefused(ValueError):
    """A table cannot be joined; the message is fit to show the person who asked."""


class Registry:
    """The tables of one server.

    ``deal`` (a function of the table name) and ``seed_source`` are for tests and
    replays; ``on_record`` receives each finished game's one ``GameRecord``.
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
    ) -> None:
        if isinstance(max_tables, bool) or not isinstance(max_tables, int) or not 1 <= max_tables <= MAX_MAX_TABLES:
            raise ValueError(f"max tables must be a whole number from 1 to {MAX_MAX_TABLES}, not {max_tables!r}")
        self.max_tables = max_tables
        self.options = options if options is not None else TableOptions()
        self._clock = clock
        self._on_record = on_record
        self._deal = deal
        self._seed_source = seed_source
        self._tables: dict[str, Table] = {}
        self._lobby_sinks: list[Sink] = []
        self._lobby_sent: tuple[int, ...] | None = None
        self._lobby_due: float | None = None
        self.closed = False

    # ---------------------------------------------------------------- tables

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(self._tables.values())

    def table(self, name: str) -> Table | None:
        """The open table called ``name`` (already a valid table name), if any."""
        table = self._tables.get(name)
        return table if table is not None and not table.closed else None

    def join(self, table_name: str, user_name: str, sink: Sink, *, watch: bool = False) -> Member:
        """Sit (or watch) at ``table_name``, opening it if it does not exist yet (unless watching).

        Raises ``TableRefused`` for a bad table name, a full server, a table to
        watch that does not exist, or a server that is closing.
        """
        if self.closed:
            raise TableRefused("the server is closing")
        try:
            name = parse_table_name(table_name)
        except ValueError as error:
            raise TableRefused(str(error)) from None
        self._forget_closed()
        table = self._tables.get(name)
        if table is None:
            if watch:
                raise TableRefused(f"there is no table called {name} to watch")
            if len(self._tables) >= self.max_tables:
                raise TableRefused(
                    f"the server is full: {self.max_tables} tables are open; try again later or watch one"
                )
            table = self._open(name)
        member = table.join(user_name, sink, watch=watch)
        return member

    def _open(self, name: str) -> Table:
        deal = self._deal
        table = Table(
            name, clock=self._clock, options=self.options, on_record=self._on_record,
            deal=(lambda: deal(name)) if deal is not None else None, seed_source=self._seed_source,
        )
        self._tables[name] = table
        return table

    def _forget_closed(self) -> None:
        for name in [n for n, t in self._tables.items() if t.closed]:
            del self._tables[name]

    # ----------------------------------------------------------------- lobby

    def lobby(self) -> Lobby:
        """Every open table, by name."""
        entries = tuple(self._tables[n].lobby_entry() for n in sorted(self._tables) if not self._tables[n].closed)
        return Lobby(entries, self.max_tables)

    def watch_lobby(self, sink: Sink) -> Callable[[], None]:
        """Send ``sink`` the lobby now and whenever it changes (at most once a second); returns the way out."""
        if len(self._lobby_sinks) >= MAX_LOBBY_WATCHERS:
            sink(Notice(NoticeCode.REFUSED, "too many people are in the lobby; try again later"))
            return lambda: None
        self._lobby_sinks.append(sink)
        sink(self.lobby())

        def stop() -> None:
            if sink in self._lobby_sinks:
                self._lobby_sinks.remove(sink)

        return stop

    def _lobby_key(self) -> tuple[int, ...]:
        return (len(self._tables), *(t.revision for t in self._tables.values()))

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """The soonest deadline of any table or of the next lobby update; None: nothing is due."""
        deadlines = [d for d in (t.next_deadline() for t in self._tables.values()) if d is not None]
        if self._lobby_sinks and self._lobby_key() != self._lobby_sent:
            deadlines.append(self._lobby_due if self._lobby_due is not None else self._clock())
        return min(deadlines) if deadlines else None

    def poll(self) -> None:
        """Do what is due at every table, forget closed tables, update lobby readers when due."""
        for table in tuple(self._tables.values()):
            table.poll()
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
        self._tables.clear()
