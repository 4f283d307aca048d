"""The server's shared tables: one ``Registry``, its timers on the event loop, its records off it.

Every table connection gets a ``Link`` into the one registry (``link``). The
registry's deadlines (idle seats, auto-play, empty tables, the lobby) are kept
by ``run_timers``, woken whenever a connection's request may have brought one
closer. Each finished table game is recorded once in the server's statistics
store by a single writer thread, so a slow or locked file never stalls the
tables; the store is opened the first time a game needs it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from ...core.events import BattleWon, GameOver
from ...core.plural import plural
from ...core.rules import EndReason, Rules
from ...core.table_limits import (
    DEFAULT_MAX_LOBBY_READERS,
    DEFAULT_MAX_SPECTATORS,
    DEFAULT_SEATS_PER_VISITOR,
    DEFAULT_TABLES_PER_VISITOR,
)
from ...stats import StatsStore
from ...stats.records import GameRecord
from ...tables import Link, Registry, TableOptions, run_timers
from ...tables.link import DoorLink
from ...tables.messages import TableEvent
from ...tables.options import MAX_AUTO_SPEED
from ...tables.store import TableStore
from ..counts import ServerCounts
from .keeper import Claims, TableKeeper
from .socket import TableSocket

MAX_RECORDS_WAITING = 256
"""Finished games waiting for the writer thread at most; past it (a file stuck for minutes) they are let go."""


class SharedTables:
    """The tables every door of this server shares: it owns the registry for the server's life (``start`` on the
    loop, ``close`` to tell everyone, ``stop``), gives each connection its link, and records finished games."""

    def __init__(
        self,
        *,
        max_tables: int,
        seat_timeout: float,
        rules: Rules | None = None,
        stats: Callable[[], StatsStore] | None = None,
        log: Callable[[str], None] = print,
        max_speed: float = MAX_AUTO_SPEED,
        max_spectators: int = DEFAULT_MAX_SPECTATORS,
        max_lobby: int = DEFAULT_MAX_LOBBY_READERS,
        tables_per_address: int = DEFAULT_TABLES_PER_VISITOR,
        seats_per_address: int = DEFAULT_SEATS_PER_VISITOR,
        kept: bool = False,
        hide_address: Callable[[str], str] | None = None,
        counts: ServerCounts | None = None,
    ) -> None:
        """``counts``: where the server counts battles, game ends, refusals and checkpoint writes (``--metrics``)."""
        self.counts = counts if counts is not None else ServerCounts()
        options = TableOptions(
            rules=rules if rules is not None else Rules(), seat_timeout=seat_timeout,
            max_speed=min(max_speed, MAX_AUTO_SPEED), max_spectators=max_spectators,
        )
        self.registry = Registry(
            max_tables=max_tables, options=options, on_record=self._record, log=log,
            tables_per_visitor=tables_per_address, seats_per_visitor=seats_per_address,
            max_lobby_readers=max_lobby, hold_updates=kept, on_change=self._changed if kept else None,
            on_events=self._counted,
        )
        self.registry.on_refused = self.counts.refused
        self.screens: set[TableSocket] = set()
        """The game processes' table sockets (players, spectators, renderers, the lobby): each a screen."""
        self.keeper: TableKeeper | None = None
        """Keeps the tables in a store (``keep_in``); until then a kept registry's updates wait."""
        self.router: Callable[[str, str | None, str | None], DoorLink] | None = None
        """Makes each connection's way to the tables of every node (``cluster.nodes``); None: this server's only."""
        self.publish: Callable[[GameRecord], bool] | None = None
        """Sends a finished game to every node's statistics (``cluster.game_stream``); False or None: it is
        recorded here only."""
        self.log = log
        self.hide_address = hide_address
        """What a connection's address becomes at the tables (a keyed hash): they only compare addresses, and what
        they hold is written to NATS (their checkpoints, the relay)."""
        self._stats = stats
        self._store: StatsStore | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._waiting = 0
        self._dropped = 0
        self.recorded = 0
        """Games handed to the statistics store (stored, or waiting in it for a locked file)."""
        self._handing_again = False
        """Records of restored tables are being handed again (``record_restored``): their ends were logged."""
        self._wake = asyncio.Event()
        self._timers: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._timers = self._loop.create_task(run_timers(self.registry, self._wake))

    async def keep_in(self, store: TableStore, owners: Claims | None = None) -> int:
        """Keep the tables in ``store`` from now on, listing the tables it holds for ``restore_kept`` (a bounded
        read); how many were listed."""
        self.keeper = TableKeeper(self.registry, store, self.log, owners)
        self.keeper.on_written = self.counts.store_write.observe
        return await self.keeper.list_stored()

    async def restore_kept(self) -> list[str]:
        """Open the tables ``keep_in`` listed (``TableKeeper.restore_listed``: while the server listens), and hand
        again the records of their games over (``record_restored``); their names."""
        assert self.keeper is not None
        restored = await self.keeper.restore_listed()
        self.record_restored(restored)
        return restored

    def _counted(self, events: tuple[TableEvent, ...]) -> None:
        """What a table's engine said, counted: each battle played, each game over (but one stopped before its
        first battle, which is no game)."""
        counts = self.counts
        for event in events:
            if isinstance(event, BattleWon):
                counts.battle()
            elif isinstance(event, GameOver) and (event.battles or event.reason is not EndReason.AGREED):
                counts.game_over(event.reason.value)

    def _changed(self) -> None:
        if self.keeper is not None:
            self.keeper.poke()

    async def stop_keeping(self, timeout: float) -> None:
        """Keep what changed so far, within ``timeout``, and nothing after: the tables stay in the store as
        they are, for the server's next start, whatever closing the registry then does to them."""
        if self.keeper is not None and not await self.keeper.stop(timeout):
            self.log("tables: the store did not keep the last changes in time; they are lost")

    def link(self, user_name: str, identity: str | None = None, address: str | None = None) -> DoorLink:
        """A new connection's way to the tables (its name is reduced by the table it joins): through the
        ``router`` when this server is a node of a cluster, else a ``Link`` into the registry.

        ``identity`` is whom a seat it takes is kept for; ``address`` (with the identity) is what the
        caps on tables opened and seats held count by, hashed (``hide_address``) from here on.
        """
        if address is not None and self.hide_address is not None:
            address = self.hide_address(address)
        if self.router is not None:
            return self.router(user_name, identity, address)
        return self.local_link(user_name, identity, address)

    def local_link(self, user_name: str, identity: str | None = None, address: str | None = None) -> Link:
        """A ``Link`` into this server's registry."""
        return Link(self.registry, user_name, identity=identity, address=address)

    def wake(self) -> None:
        """Something a connection did may have moved a deadline: let the timers look again."""
        self._wake.set()

    def close(self, text: str) -> None:
        """Tell every seat, spectator and lobby reader ``text``; no one joins after."""
        if not self.registry.closed:
            self.registry.close(text)
        self.wake()

    async def stop(self) -> None:
        """Stop the timers and let the writer thread finish the games it holds."""
        if self._timers is not None:
            self._timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timers
        if self._writer is not None:
            await asyncio.to_thread(self._writer.shutdown, True)

    # -- statistics ---------------------------------------------------------------------------------------

    def _record(self, record: GameRecord) -> None:
        """Called by a table, on the loop, once per finished game: hand it to the writer thread."""
        if not self._handing_again:
            self.log(
                f"table game over: {record.p1_name} {record.p1_count} - {record.p2_name} {record.p2_count} "
                f"after {plural(record.battles, 'battle')} ({record.result})"
            )
        if self.publish is None or not self.publish(record):
            self.record_here(record)

    def record_restored(self, names: list[str]) -> None:
        """Hand again the records of the games over at tables just restored (``Table.record_finished_game``):
        their server may have died between keeping a game's end and its record leaving. Called once finished
        games reach every node (``publish``), so each is stored everywhere, once by its id.

        Not logged again: the server that finished a game logged its end as it happened, before the store
        could keep it, so a game the store holds as over was said once already, whoever records it now."""
        self._handing_again = True
        try:
            for name in names:
                table = self.registry.table(name)
                if table is not None:
                    table.record_finished_game()
        finally:
            self._handing_again = False

    def record_here(self, record: GameRecord) -> None:
        """Hand ``record`` to the writer thread, for this server's statistics only."""
        if self._stats is None:
            return
        if self._waiting >= MAX_RECORDS_WAITING:
            self._dropped += 1
            if self._dropped == 1:
                self.log(f"statistics: more than {MAX_RECORDS_WAITING} table games waiting; letting the newest go")
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-records")
        self._waiting += 1
        self._writer.submit(self._write, record)

    async def store(self, records: Sequence[GameRecord]) -> None:
        """Store ``records`` (games of any node, from the games stream) through the writer thread; returns once
        the store has them (in the file, or waiting in it for a locked file), or at once when statistics are off."""
        if self._stats is None or not records:
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-records")
        self._waiting += len(records)
        try:
            notice = await asyncio.wrap_future(self._writer.submit(self._store_all, records))
        finally:
            self._waiting -= len(records)
        self.recorded += len(records)
        if notice:
            self.log(f"statistics: {notice}")

    def _write(self, record: GameRecord) -> None:
        """In the writer thread: store one game, and pass on what the store has to say."""
        self._from_thread(self._written, self._store_all((record,)))

    def _store_all(self, records: Sequence[GameRecord]) -> str | None:
        """In the writer thread: store ``records``; what the store has to say."""
        try:
            if self._store is None:
                assert self._stats is not None
                self._store = self._stats()
            self._store.record_all(records)
            return self._store.take_notice()
        except Exception as exc:  # noqa: BLE001 - statistics never stop the tables
            return f"statistics: a table game could not be recorded: {type(exc).__name__}"

    def _written(self, notice: str | None) -> None:
        self._waiting -= 1
        self.recorded += 1
        if notice:
            self.log(f"statistics: {notice}")

    def _from_thread(self, call: Callable[[str | None], None], notice: str | None) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the server is gone
            loop.call_soon_threadsafe(call, notice)
