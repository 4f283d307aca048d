"""The tables kept in a store, so a restart of the server loses none of them.

The registry holds every update a table tells until ``release`` (``Registry(hold_updates=True)``); the keeper
takes each changed table's checkpoint after the request or poll that changed it, writes it by compare-and-set
on the revision it last wrote, and only then releases what the table told: no screen shows a state the store
could lose, a flip waiting for the other player's aside, and no game is recorded whose end the store could lose
(a table let go, or a stop, drops such records: the table's next server plays the game on and records it). What tells only who has flipped is released at once,
unwritten, and kept with the table's next change (the battle it makes, a seat, a notice) or at ``stop``: a kill -9
meanwhile takes back that flip, and its player flips again (``Journal.weighty``). One write per table is in
flight; changes meanwhile are folded into the next (the newest state wins). A closed table is deleted. A store
that does not answer is tried again, more slowly, with one log line while it fails and one when it answers: the
table's screens wait for it, up to the registry's bound.

A write refused because someone else wrote (``StaleWrite``: another server took the table, this one was
paused past its lease) means this server no longer owns the table: it lets it go, telling its screens to
reconnect, and deletes nothing. With ``owners`` (the cluster's owner records) a table is claimed before its
first write and skipped at ``restore`` while another live server owns it.

At start the keeper lists the stored tables (``list_stored``: a bounded read) before the server listens, and
restores them once it does (``restore_listed``), one at a time, at most ``--max-tables``, each read and replayed
in another thread; a table someone asks for meanwhile is restored at once (``restore_now``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Protocol

from ...presentation.words import plural
from ...tables.checkpoint import CheckpointError
from ...tables.registry import Registry, TableRefused
from ...tables.store import StaleWrite, StoredTable, TableStore

RETRY_FIRST = 0.1
RETRY_MOST = 2.0
"""Seconds between tries of a store that does not answer: doubling from the first to this."""
STORE_ERRORS = (OSError, TimeoutError, asyncio.TimeoutError, ConnectionError)
LISTED_PER_TABLE = 4
"""Tables a start lists from the store at most, per table the server holds (``--max-tables``): a store that holds
more (forged, or another server's) is read no further."""
LET_GO = "this table is served by another server now: reconnect to follow it"


class Claims(Protocol):
    """The owner records of tables (``war_tui.cluster.leases.Owners``): who applies each table's requests."""

    async def claim(self, table: str) -> int | None: ...

    async def release(self, table: str, revision: int) -> None: ...


class TableKeeper:
    """Keeps ``registry``'s tables in ``store``; ``restore`` them first, ``poke`` on every change, ``stop`` last."""

    def __init__(
        self,
        registry: Registry,
        store: TableStore,
        log: Callable[[str], None],
        owners: Claims | None = None,
        store_errors: tuple[type[BaseException], ...] = STORE_ERRORS,
    ) -> None:
        self.registry = registry
        self.store = store
        self.log = log
        self.owners = owners
        self.store_errors = store_errors
        self.revisions: dict[str, int] = {}
        """Each kept table's revision in the store: the next write names it."""
        self._claims: dict[str, int] = {}
        self._listed: dict[str, StoredTable] = {}
        """Tables the store keeps, listed at start and not restored yet (``restore_listed``)."""
        self._restored_listed: list[str] = []
        """Tables of that listing restored so far (in turn, or at once when asked for)."""
        self._restoring: dict[str, asyncio.Future[None]] = {}
        """Tables being restored, each done when its restore is (one restore of a table at a time)."""
        self._dirty: set[str] = set()
        self._writing: dict[str, asyncio.Task[None]] = {}
        self._let_go: set[str] = set()
        self._swept = False
        self._stopping = False
        self._stopped = False
        self._unwritten_since: set[str] = set()
        """Tables that handed on a flip the store does not hold yet (``_unwritten``): a stop writes them."""
        self._failing = False
        self.on_let_go: Callable[[str], None] | None = None
        """Called with a table's name as this server lets it go, before its screens are told: the cluster's relay
        sends the connections it relays there after the table (``RelayNode.move_table``)."""
        self.written = 0
        """Checkpoints the store has kept (for the figures and the tests)."""
        self.on_written: Callable[[float], None] | None = None
        """Told the seconds each kept checkpoint took, from its first try to kept (retries included)."""

    # -- start -------------------------------------------------------------------------------------------

    async def restore(self) -> list[str]:
        """Open the tables the store keeps (``list_stored``, then ``restore_listed``); their names."""
        await self.list_stored()
        return await self.restore_listed()

    async def list_stored(self) -> int:
        """Read which tables the store keeps, for ``restore_listed``: at most ``LISTED_PER_TABLE`` times as many as
        the registry holds (``--max-tables``), whatever the store holds. How many were listed."""
        most = self.registry.max_tables * LISTED_PER_TABLE
        for stored in await self.store.load_all(most):
            self.revisions[stored.name] = stored.revision
            self._listed[stored.name] = stored
        return len(self._listed)

    async def restore_listed(self) -> list[str]:
        """Open the tables ``list_stored`` listed, one at a time, each replayed off the event loop, until the
        registry holds ``--max-tables``; the names of those opened (those asked for first too). A server listens meanwhile: a connection that
        asks for a listed table has it restored at once (``restore_now``).

        Each opens as the store holds it, unwritten: its first change here is written on the revision read at
        the listing, so if a server that held it before wrote since, that write is refused and the table let go."""
        restored = self._restored_listed
        while self._listed and not self._stopping:
            if self.registry.full:
                self.log(f"tables: {plural(len(self._listed), 'more table')} in the store not restored: this server "
                         f"holds {plural(self.registry.max_tables, 'table')} at most (--max-tables)")
                self._listed.clear()
                break
            name, stored = next(iter(self._listed.items()))
            del self._listed[name]
            if await self.open_stored(stored, claimed=False):
                restored.append(name)
        self._sweep()
        await self.flush()
        if restored:
            self.log(f"tables: {plural(len(restored), 'table')} restored: {', '.join(restored)}")
        return restored

    async def restore_now(self, name: str) -> None:
        """A connection asks for ``name``, which this server claimed: if the start listed it and has not restored it
        yet, restore it now (or wait for the restore under way)."""
        stored = self._listed.pop(name, None)
        if stored is not None:
            if await self.open_stored(stored, claimed=True):
                self._restored_listed.append(name)
        else:
            await self._restored(name)

    async def open_stored(self, stored: StoredTable, *, claimed: bool) -> bool:
        """Open the table ``stored`` holds (claimed first unless ``claimed``): its checkpoint is read and its game
        replayed in another thread, so the event loop goes on meanwhile. True once this call opened it; False when
        it was open already, another server owns it, or it cannot be restored (one log line)."""
        name = stored.name
        await self._restored(name)
        if self.registry.table(name) is not None:
            return False
        done = self._restoring[name] = asyncio.get_running_loop().create_future()
        try:
            self.revisions[name] = stored.revision
            if not claimed and self.owners is not None and not await self._claim(name):
                self.log(f"tables: {name} is served by another server")
                return False
            try:
                read = await asyncio.to_thread(self.registry.read, stored.data)
                if read.name != name:
                    raise CheckpointError(f"it holds table {read.name}")
                self.registry.restore(read)
            except (CheckpointError, TableRefused) as exc:
                self.log(f"tables: {name} could not be restored ({exc}); a new table of that name replaces it")
                return False
            return True
        finally:
            del self._restoring[name]
            done.set_result(None)

    async def _restored(self, name: str) -> None:
        """Wait for a restore of ``name`` under way, if any."""
        under_way = self._restoring.get(name)
        if under_way is not None:
            await asyncio.shield(under_way)

    # -- on every change ----------------------------------------------------------------------------------

    def poke(self) -> None:
        """A table changed (called inside the table's call): look once the call is over."""
        if self._swept or self._stopped:
            return
        self._swept = True
        with contextlib.suppress(RuntimeError):  # no loop: a registry used outside a server
            asyncio.get_running_loop().call_soon(self._sweep)

    def _sweep(self, also: Iterable[str] = ()) -> None:
        self._swept = False
        if self._stopped:
            return
        for name in [*self.registry.changed(), *also]:
            if name not in self._writing and self._unwritten(name):
                continue
            self._dirty.add(name)
            if name not in self._writing:
                task = asyncio.get_running_loop().create_task(self._keep(name))
                self._writing[name] = task

    async def _keep(self, name: str) -> None:
        try:
            while name in self._dirty and not self._stopped:
                self._dirty.discard(name)
                if self._unwritten(name):
                    continue
                taken = self.registry.checkpoint(name)
                if taken is None:
                    await self._forget(name)
                    continue
                seq, data = taken
                if await self._save(name, data):
                    self.registry.release(name, seq)
        finally:
            del self._writing[name]

    def _unwritten(self, name: str) -> bool:
        """Whether what ``name`` told since its last write is handed on without one: only who has flipped changed
        (``Registry.release_unwritten``), the store holds the table, and the server is not stopping (a stop keeps
        everything)."""
        if self._stopping or name not in self.revisions or not self.registry.release_unwritten(name):
            return False
        self._unwritten_since.add(name)
        return True

    async def _save(self, name: str, data: bytes) -> bool:
        """Write one checkpoint, trying again while the store does not answer; False when the table was let go."""
        if name in self._let_go:
            return False
        delay = RETRY_FIRST
        began = asyncio.get_running_loop().time()
        while not self._stopped:
            try:
                if self.owners is not None and name not in self._claims and not await self._claim(name):
                    raise StaleWrite(name)
                self.revisions[name] = await self.store.save(name, data, self.revisions.get(name))
            except StaleWrite:
                self._step_down(name)
                return False
            except self.store_errors as exc:
                self._fail(exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MOST)
                continue
            self.written += 1
            if self.on_written is not None:
                self.on_written(asyncio.get_running_loop().time() - began)
            self._unwritten_since.discard(name)
            self._answered()
            return True
        return False

    async def claim(self, name: str) -> bool:
        """Own ``name`` before it opens here (True), or not while another live server owns it (False).

        Always True without ``owners``. A write or deletion of the table still under way is awaited first:
        what it does to the record is done before the claim."""
        if self.owners is None:
            return True
        writing = self._writing.get(name)
        if writing is not None:
            await asyncio.wait({writing})
        self._let_go.discard(name)
        return await self._claim(name)

    async def unclaim(self, name: str) -> None:
        """Give up the claim on ``name`` if it did not open here after all (its first join was refused)."""
        if self.registry.table(name) is not None or name in self._writing:
            return
        revision = self._claims.pop(name, None)
        if revision is not None and self.owners is not None:
            with contextlib.suppress(StaleWrite, *self.store_errors):  # taken meanwhile: not ours to give up
                await self.owners.release(name, revision)

    async def _claim(self, name: str) -> bool:
        assert self.owners is not None
        revision = await self.owners.claim(name)
        if revision is None:
            return False
        self._claims[name] = revision
        return True

    def let_go(self, name: str) -> None:
        """This server no longer owns ``name`` (another took it while its lease lapsed): let go as in ``_step_down``."""
        self._let_go_table(name)

    def let_go_all(self) -> list[str]:
        """This server no longer owns any table (its lease ran out): each open one is let go as in ``_step_down``;
        their names."""
        names = [table.name for table in self.registry.tables if not table.closed]
        for name in names:
            self._let_go_table(name)
        return names

    def _step_down(self, name: str) -> None:
        """Someone else writes this table now: tell its screens, keep nothing of it, delete nothing."""
        self.log(f"tables: {name} was written by another server; this one lets it go")
        self._let_go_table(name)

    def _let_go_table(self, name: str) -> None:
        if self.on_let_go is not None:
            self.on_let_go(name)
        self.registry.table_gone(name, kept=False)
        self._let_go.add(name)
        self._unwritten_since.discard(name)
        self.revisions.pop(name, None)
        self._claims.pop(name, None)
        table = self.registry.table(name)
        if table is not None:
            table.close(LET_GO)

    async def _forget(self, name: str) -> None:
        """The table closed here: delete its checkpoint and owner record (unless it was let go)."""
        revision = self.revisions.pop(name, None)
        claim = self._claims.pop(name, None)
        self._unwritten_since.discard(name)
        if name in self._let_go:
            self._let_go.discard(name)
            return
        self.registry.table_gone(name, kept=True)
        with contextlib.suppress(StaleWrite, *self.store_errors):  # gone or taken: nothing of ours to delete
            if revision is not None:
                await self.store.delete(name, revision)
            if claim is not None and self.owners is not None:
                await self.owners.release(name, claim)

    def _fail(self, exc: BaseException) -> None:
        if not self._failing:
            self._failing = True
            self.log(f"tables: the store does not answer ({type(exc).__name__}: {exc}); the tables wait for it")

    def _answered(self) -> None:
        if self._failing:
            self._failing = False
            self.log("tables: the store answers again")

    # -- stop ---------------------------------------------------------------------------------------------

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until every change seen so far is kept (True), or ``timeout`` passed (False)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._writing or self._swept:
            if self._swept:
                self._sweep()
                continue
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return False
            await asyncio.wait(set(self._writing.values()), timeout=left)
        return True

    async def stop(self, timeout: float) -> bool:
        """Keep what changed so far (within ``timeout``), then nothing more: the tables stay in the store as they
        are when the registry closes. False if some change could not be kept in time."""
        self._stopping = True
        self._sweep(self._unwritten_since)  # a flip handed on unwritten is kept too
        kept = await self.flush(timeout)
        self._stopped = True
        for task in list(self._writing.values()):
            task.cancel()
        for task in list(self._writing.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return kept
