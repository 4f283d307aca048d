"""Lifetime statistics in one SQLite file that many running copies of war-tui share safely: the store itself.

Each operation opens a short-lived connection in WAL mode, so readers never wait and writers take turns.
Statistics never stop a game: a lasting failure turns the store off with one readable reason
(``take_notice``) and the file is never overwritten; a file locked for a while keeps games in a bounded
queue (then a ``recovery`` file) and writes them later in one transaction. Served games carry each seat's
identity (``summary(player=...)``, ``leaders``) and a table game its id, stored once however often it is
delivered; ``max_rows`` caps a served file. This module holds the connections, that queue and the notices;
the rooms beside it hold the rest, one concern each: ``schema`` (whether a file is ours, its migrations),
``writing`` (a game as a row, the row cap), ``queries`` (what the screens and commands read).
How it behaves for a person: docs/commands.md, "The statistics file".
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TypeVar

import platformdirs

from . import queries, recovery, schema, writing
from .queries import HISTOGRAM_BINS, LEADERS, MAX_LEADERS, Scope, Summary
from .records import GameRecord, Histogram, Leader, Totals
from .schema import SCHEMA_VERSION, StatsUnavailable
from .seasons import ALL_TIME, Season

Read = TypeVar("Read")

APP_NAME = "war-tui"
FILE_NAME = "stats.sqlite3"
SERVED_FILE_NAME = "served-stats.sqlite3"  # games played over SSH, beside the user's own, never in them
BUSY_TIMEOUT = 3.0  # seconds a write waits for another process before its games wait in memory
PENDING_LIMIT = 1_000  # games kept in memory while the file is locked; beyond it the oldest go
RETRY_FIRST = 1.0  # seconds before the first retry of a locked file; doubles up to RETRY_MOST
RETRY_MOST = 30.0
SUMMARIES_KEPT = 8  # answers kept for asking again, one per question (player, bins, recent games)
MIN_ROWS = 1_000
MAX_ROWS = 10_000_000
"""The range of ``max_rows`` (``serve-ssh --served-stats-rows``)."""

__all__ = [
    "APP_NAME",
    "BUSY_TIMEOUT",
    "MAX_ROWS",
    "MIN_ROWS",
    "SCHEMA_VERSION",
    "StatsStore",
    "Summary",
    "default_path",
    "served_path",
]


def default_path() -> Path:
    """Where statistics live unless ``--stats-db`` says otherwise (XDG data dir on Linux)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False) / FILE_NAME


def served_path() -> Path:
    """Where ``serve-ssh`` records its players' games unless its game flags say otherwise."""
    return default_path().with_name(SERVED_FILE_NAME)


class StatsStore:
    """The statistics file. Build one with ``StatsStore.open(path)`` or ``StatsStore.off(reason)``."""

    def __init__(
        self, path: Path, *, read_only: bool = False, busy_timeout: float = BUSY_TIMEOUT, max_rows: int | None = None
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.busy_timeout = busy_timeout
        self.max_rows = max_rows
        """At most this many games stay in the file (the oldest go first, a tenth at a time); None: all stay."""
        self.trimmed = 0
        """Games this store deleted to stay under ``max_rows``."""
        self._summaries: dict[tuple[int, int, str | None], tuple[tuple[int | None, int | None], Summary]] = {}
        self._leaders: dict[tuple[int, str], tuple[tuple[int | None, int | None], tuple[Leader, ...]]] = {}
        self.disabled_reason: str | None = None
        self.user_disabled = False  # off by the user's choice (--no-stats): nothing to warn about
        self._readable = True
        self._exists = True  # False: a read-only store over a file not set up yet (no games yet)
        self._noticed = False
        self._lock = threading.Lock()  # guards the fields below and the notices
        self._flush_lock = threading.Lock()  # one writer of the queue at a time
        self._pending: deque[GameRecord] = deque()  # recorded, not yet in the file (locked)
        self.dropped = 0  # games let go because the queue was full
        self._delay_said = False
        self._delay_notice: str | None = None
        self._retry_in = RETRY_FIRST
        self._retry_timer: threading.Timer | None = None

    # ------------------------------------------------------------ building

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        read_only: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
        max_rows: int | None = None,
    ) -> StatsStore:
        """Open (and if need be create or migrate) the file; never raises, may return a store that is off.

        ``read_only`` (for ``war-tui stats``) reads without creating, migrating or writing anything.
        ``max_rows``: keep at most this many games (served statistics), trimming the oldest as games are recorded.
        """
        if max_rows is not None and not MIN_ROWS <= max_rows <= MAX_ROWS:
            raise ValueError(f"max_rows must be from {MIN_ROWS:,} to {MAX_ROWS:,}, not {max_rows}")
        where = Path(path).expanduser().absolute() if path is not None else default_path()
        store = cls(where, read_only=read_only, busy_timeout=busy_timeout, max_rows=max_rows)
        try:
            store._prepare()
        except StatsUnavailable as exc:
            store._turn_off(exc.reason, exc.readable)
        except (sqlite3.Error, OSError) as exc:
            store._turn_off(*store._explain(exc, writing=not read_only))
        if store.enabled:
            store._import_recovered()
        return store

    @classmethod
    def off(cls, reason: str, path: str | os.PathLike[str] | None = None) -> StatsStore:
        """A store that records and reads nothing, chosen by the user (``--no-stats``): no notice."""
        store = cls(Path(path) if path is not None else default_path())
        store.disabled_reason = reason
        store._readable = False
        store._noticed = True
        store.user_disabled = True
        return store

    # ------------------------------------------------------------ state

    @property
    def enabled(self) -> bool:
        """True while games are being recorded."""
        return self.disabled_reason is None and not self.read_only

    @property
    def readable(self) -> bool:
        """True while totals can be read (a read-only or locked file still shows its games)."""
        return self._readable

    @property
    def pending(self) -> int:
        """Games recorded but not yet in the file, because another program holds it locked."""
        with self._lock:
            return len(self._pending)

    def take_notice(self) -> str | None:
        """A sentence for the user, once: that statistics turned off and why, or that saving is delayed.

        Thread-safe: call it after ``open`` and after each ``record`` and show what it returns.
        """
        with self._lock:
            if self.disabled_reason is not None:
                if self._noticed:
                    return None
                self._noticed = True
                return f"Statistics are off: {self.disabled_reason}"
            notice, self._delay_notice = self._delay_notice, None
            return notice

    # ------------------------------------------------------------ writing

    def record(self, game: GameRecord) -> bool:
        """Store one finished game (and any still waiting); True if it is in the file now.

        False when statistics are off, or when the file is locked for longer than
        ``busy_timeout``: then the game waits in memory and is written later (see ``flush``).
        Never raises for a database problem. May wait up to ``busy_timeout``: call it off the UI thread.
        """
        if not self.enabled:
            return False
        with self._lock:
            self._pending.append(game)
        return self.flush()

    def record_all(self, games: Sequence[GameRecord]) -> bool:
        """Store finished games in one transaction (with any still waiting), as ``record`` stores one: a batch
        from the games stream costs one commit, not one per game."""
        if not self.enabled:
            return False
        with self._lock:
            self._pending.extend(games)
        return self.flush()

    def flush(self, timeout: float | None = None) -> bool:
        """Write every waiting game in one transaction; True when none is left waiting.

        ``timeout``: how long to wait for another program's lock, and for a flush already under way
        in this one (``busy_timeout`` and as long as it takes, unless told).
        """
        if not self._flush_lock.acquire(timeout=-1 if timeout is None else timeout):
            return False
        try:
            return self._flush_now(timeout)
        finally:
            self._flush_lock.release()

    def _flush_now(self, timeout: float | None) -> bool:
        """Write the waiting games; the caller holds ``_flush_lock``."""
        with self._lock:
            while len(self._pending) > PENDING_LIMIT:  # only this lock's holder takes from the left
                self._pending.popleft()
                self.dropped += 1
            batch = list(self._pending)
        if not batch:
            return True
        if not self.enabled:
            return False
        try:
            with self._connect(timeout=timeout) as conn:
                conn.execute("BEGIN IMMEDIATE")  # waits up to the timeout for other writers
                try:
                    trimmed = writing.insert(conn, batch, self.max_rows)
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")  # nothing of the batch stays: a retry adds no twin
        except (StatsUnavailable, sqlite3.Error, OSError, OverflowError) as exc:
            if writing.is_locked(exc):
                self._delay()
            else:
                self._turn_off(*self._explain(exc, writing=True))
            return False
        with self._lock:
            self.trimmed += trimmed
            for _ in batch:
                self._pending.popleft()
            self._delay_said = False  # saving works again: a later delay is worth saying
            self._delay_notice = None
            self._retry_in = RETRY_FIRST
        _WAITING.discard(self)
        return True

    def save_pending(self, within: float) -> bool:
        """At exit: keep trying to write the waiting games for about ``within`` seconds (at least
        once); True when none is left waiting. May block that long: not on the UI thread."""
        deadline = time.monotonic() + within
        while True:
            if not self.pending or not self.enabled:
                return not self.pending
            remaining = deadline - time.monotonic()
            if self.flush(timeout=max(0.05, min(self.busy_timeout, remaining))):
                return True
            if deadline - time.monotonic() <= 0:
                return False
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def rescue(self) -> tuple[int, Path] | None:
        """At exit, for games the file still refuses: keep them in the recovery file beside it.

        Returns how many were kept and where, or None when none was waiting. Raises OSError when
        the recovery file cannot be written either. Afterwards nothing waits in memory (the exit
        hook does not write them too, so the next run's import cannot store one twice).
        """
        with self._flush_lock:  # a flush still running finishes first: a game goes one way only
            with self._lock:
                games = list(self._pending)
            if not games:
                return None
            where = recovery.recovery_path(self.path)
            recovery.keep(where, games)
            with self._lock:
                for _ in games:
                    self._pending.popleft()
                if self._retry_timer is not None:
                    self._retry_timer.cancel()
                    self._retry_timer = None
            _WAITING.discard(self)
            return len(games), where

    def _import_recovered(self) -> None:
        """Games a run before this one kept in the recovery file go into the database, then the file
        goes. Taken under the write lock and renamed aside first, so two copies starting at once
        cannot both import it; when the file is locked now, it stays for a later run."""
        where = recovery.recovery_path(self.path)
        if not where.exists():
            return
        claimed = where.with_name(f"{where.name}.{os.getpid()}.importing")
        try:
            with self._connect() as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    os.replace(where, claimed)
                except FileNotFoundError:  # another copy imported it while we waited for the lock
                    conn.execute("ROLLBACK")
                    return
                try:
                    games, _ = recovery.read(claimed)
                    self.trimmed += writing.insert(conn, games, self.max_rows)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    recovery.keep(where, recovery.read(claimed)[0])  # back where the next run looks
                    claimed.unlink(missing_ok=True)
                    raise
                claimed.unlink(missing_ok=True)
        except (StatsUnavailable, sqlite3.Error, OSError, OverflowError):
            return  # left for a later run: recording goes on as usual

    def _delay(self) -> None:
        """The file is locked: keep the games, say so once, and try again later off the UI thread."""
        with self._lock:
            if not self._delay_said:
                self._delay_said = True
                self._delay_notice = (
                    f"Saving statistics is delayed: {self.path} is locked by another program."
                    " Finished games are kept and saved once it is free"
                )
            if self._retry_timer is not None and self._retry_timer.is_alive():
                return
            timer = threading.Timer(self._retry_in, self._retry)
            timer.daemon = True  # never keeps the program alive; the exit hook has a last go
            self._retry_timer = timer
            self._retry_in = min(self._retry_in * 2, RETRY_MOST)
        _WAITING.add(self)
        timer.start()

    def _retry(self) -> None:
        with self._lock:
            self._retry_timer = None
        self.flush()

    # ------------------------------------------------------------ reading

    def totals(self) -> Totals | None:
        """All-time totals; None when the file cannot be read (see ``disabled_reason``)."""
        return self._read(queries.read_totals, Totals.empty())

    def histogram(self, bins: int = HISTOGRAM_BINS) -> Histogram | None:
        """Game lengths (battles) in at most ``bins`` equal-width bins; None when unreadable."""
        return self._read(lambda conn: queries.read_histogram(conn, bins), Histogram(()))

    def recent(self, limit: int = 20) -> list[GameRecord] | None:
        """The latest games, newest first; None when unreadable."""
        none: list[GameRecord] = []
        return self._read(lambda conn: queries.read_recent(conn, limit), none)

    def stored_id(self, game: GameRecord) -> int | None:
        """The id ``game`` was stored under (the newest game of its moment, seed and length), once ``record``
        has stored it; None when it is not in the file or the file cannot be read."""
        def read(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT max(id) FROM games WHERE finished_at = ? AND seed IS ? AND battles = ? AND p1_count = ?",
                (game.finished_at, game.seed, game.battles, game.p1_count),
            ).fetchone()
            return row[0] if row else None

        return self._read(read, None)

    def table_game_stored(self, table: str, number: int, seed: int) -> tuple[int, str] | None:
        """The ids of game ``number`` of table ``table`` dealt from ``seed`` (``table_game_id`` names it with the
        table's nonce, which its screens are never told), once the statistics hold it: its row's, and its own
        (the same on every node of a cluster); None until then, or when the file cannot be read."""
        if not table or not all(c.isascii() and (c.isalnum() or c == "-") for c in table):
            return None  # no table name the tables give (and no GLOB pattern either)

        def read(conn: sqlite3.Connection) -> tuple[int, str] | None:
            row = conn.execute(
                "SELECT id, game_id FROM games WHERE game_id >= ? AND game_id < ? AND game_id GLOB ? AND seed = ?"
                " ORDER BY id DESC LIMIT 1",
                (f"{table}.", f"{table}/", f"{table}.*.{number}", seed),
            ).fetchone()
            return (row[0], row[1]) if row else None

        return self._read(read, None)

    def game(self, game_id: int | str) -> list[GameRecord] | None:
        """The game stored with this id (``stats --json``'s ``id``, or a table game's ``game_id``, the same on
        every node of a cluster): one record, or none; None when unreadable."""
        none: list[GameRecord] = []
        return self._read(lambda conn: queries.read_game(conn, game_id), none)

    def kept_aside(self) -> int:
        """Finished games waiting in the recovery file beside the database (the next run that records adds them)."""
        try:
            games, _bad = recovery.read(recovery.recovery_path(self.path))
        except (OSError, UnicodeDecodeError):
            return 0
        return len(games)

    def summary(self, recent: int = 20, bins: int = HISTOGRAM_BINS, *, player: str | None = None) -> Summary | None:
        """Totals, histogram and recent games from one consistent snapshot; None when unreadable.

        ``player``: only the games that player sat in, with nobody else's name in them (a served player's
        screen). Reading a large file takes a while: call it off the UI thread. The answer is kept, and
        given again while the file holds the same games (its first and last id unchanged), so asking
        twice reads the file once.
        """
        scope = Scope.of(player)
        key = (recent, bins, player)

        def read(conn: sqlite3.Connection) -> Summary:
            span = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
            with self._lock:
                kept = self._summaries.get(key)
            if kept is not None and kept[0] == span:
                return kept[1]
            summary = Summary(
                queries.read_totals(conn, scope),
                queries.read_histogram(conn, bins, scope),
                tuple(queries.read_recent(conn, recent, scope)),
            )
            if player is not None:
                summary = queries.seen_by(summary, player)
            with self._lock:
                if len(self._summaries) >= SUMMARIES_KEPT:
                    self._summaries.clear()
                self._summaries[key] = (span, summary)
            return summary

        return self._read(read, Summary(Totals.empty(), Histogram(()), ()))

    def leaders(self, limit: int = LEADERS, season: Season = ALL_TIME) -> tuple[Leader, ...] | None:
        """The identities with the most table games won in ``season`` (then the fewest played, the longest game),
        at most ``limit``; None when unreadable. A game someone played against themselves (one identity in both
        seats) is not counted. Kept, like ``summary``, while the file holds the same games."""
        limit = max(0, min(limit, MAX_LEADERS))
        key = (limit, season.key)

        def read(conn: sqlite3.Connection) -> tuple[Leader, ...]:
            span = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
            with self._lock:
                kept = self._leaders.get(key)
            if kept is not None and kept[0] == span:
                return kept[1]
            leaders = queries.read_leaders(conn, limit, season)
            with self._lock:
                if len(self._leaders) >= SUMMARIES_KEPT:
                    self._leaders.clear()
                self._leaders[key] = (span, leaders)
            return leaders

        none: tuple[Leader, ...] = ()
        return self._read(read, none)

    # ------------------------------------------------------------ internals

    def _read(self, query: Callable[[sqlite3.Connection], Read], nothing: Read) -> Read | None:
        if not self._readable:
            return None
        if not self._exists:  # read-only, and nothing recorded yet when opened: look again
            if not self.path.exists():
                return nothing
            try:
                with closing(self._connect_ro()) as conn:
                    if schema.check(conn, self.path) == 0:
                        return nothing  # an empty file, or another copy is creating it right now
            except (StatsUnavailable, sqlite3.Error, OSError) as exc:
                self._turn_off(self._explain(exc, writing=False)[0], False)
                return None
            self._exists = True
        try:
            with self._connect(read=True) as conn:
                conn.execute("BEGIN")  # one snapshot for every query of this read
                try:
                    return query(conn)
                finally:
                    conn.execute("COMMIT")
        except StatsUnavailable as exc:
            self._turn_off(exc.reason, exc.readable)
        except (sqlite3.Error, OSError) as exc:
            reason, _ = self._explain(exc, writing=False)
            self._turn_off(reason, False)
        return None

    def _turn_off(self, reason: str, readable: bool) -> None:
        with self._lock:
            if self.disabled_reason is None:
                self.disabled_reason = reason
            self._readable = self._readable and readable
            self._pending.clear()
            self._delay_notice = None
        _WAITING.discard(self)

    def _raw_connect(self, uri: str | None = None) -> sqlite3.Connection:
        target = uri if uri is not None else str(self.path)
        conn = sqlite3.connect(
            target, timeout=self.busy_timeout, isolation_level=None, uri=uri is not None,
            check_same_thread=False,
        )
        return conn

    def _connect_ro(self) -> sqlite3.Connection:
        from urllib.request import pathname2url  # only here: urllib.request is slow to import at start-up

        return self._raw_connect(f"file:{pathname2url(str(self.path.absolute()))}?{self._read_mode()}")

    def _read_mode(self) -> str:
        """``mode=ro``, and ``immutable=1`` for a file nobody here may change (read-only, or in a
        read-only folder): SQLite then reads it without its -wal/-shm files, which a read-only folder
        cannot hold and which a reader of a read-only file would leave behind. Games still in a
        -wal file beside it are only seen without ``immutable``, so then it is plain ``mode=ro``."""
        path = self.path
        fixed = not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK)
        wal = path.with_name(path.name + "-wal")
        try:
            pending_wal = wal.stat().st_size > 0
        except OSError:
            pending_wal = False
        return "mode=ro&immutable=1" if fixed and not pending_wal else "mode=ro"

    @contextmanager
    def _connect(self, read: bool = False, timeout: float | None = None) -> Iterator[sqlite3.Connection]:
        # Off or read-only, the file opens with mode=ro: SQLite itself refuses our writes.
        ro = self.read_only or self.disabled_reason is not None
        if not read and ro:
            raise StatsUnavailable(self.disabled_reason or "statistics are read-only", self._readable)
        conn = self._connect_ro() if ro else self._raw_connect()
        with closing(conn):
            if timeout is not None:
                conn.execute(f"PRAGMA busy_timeout = {max(1, round(timeout * 1000))}")
            if not ro:
                conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable across crashes, fewer fsyncs
            yield conn

    def _prepare(self) -> None:
        """Make sure the file is ours and at ``SCHEMA_VERSION``; raise StatsUnavailable if it can't be."""
        path = self.path
        if path.is_dir():
            raise StatsUnavailable(f"{path} is a folder, not a statistics file", False)
        try:
            schema.refuse_foreign(path)
        except OSError as exc:
            raise StatsUnavailable(*self._explain(exc, writing=not self.read_only)) from None
        if self.read_only:
            if not path.exists():
                self._exists = False
                return
            try:
                with closing(self._connect_ro()) as conn:
                    self._exists = schema.check(conn, self.path) > 0
            except (sqlite3.Error, OSError) as exc:
                raise StatsUnavailable(*self._explain(exc, writing=False)) from None
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            blocker = next((p for p in (path.parent, *path.parent.parents) if p.exists()), None)
            if blocker is not None and not blocker.is_dir():
                raise StatsUnavailable(
                    f"cannot keep statistics in {path}: {blocker} is a file, not a folder", False
                ) from None
            raise StatsUnavailable(
                f"cannot create the folder {path.parent} ({exc.strerror or exc})", False
            ) from None
        self._refuse_unwritable()
        try:
            with closing(self._raw_connect()) as conn:
                version = schema.check(conn, path)
                if version < schema.SCHEMA_VERSION:
                    schema.migrate(conn, path, self.busy_timeout)
        except (sqlite3.Error, OSError) as exc:
            raise StatsUnavailable(*self._explain(exc, writing=True)) from None

    def _refuse_unwritable(self) -> None:
        """Find a read-only file or folder at start, not when the first game ends.

        SQLite opens a file it may not write without complaint and fails only on the first write
        (or cannot make its -wal/-shm files beside it). Root passes these permission checks (but
        not the immutable attribute); for root, the failed write itself is what finds out.
        """
        exists = self.path.exists()
        if exists and not os.access(self.path, os.W_OK):
            raise StatsUnavailable(f"{self.path} is read-only; games are not being recorded", True)
        if not os.access(self.path.parent, os.W_OK):
            raise StatsUnavailable(
                f"the folder {self.path.parent} is read-only; games are not being recorded", exists
            )

    def _explain(self, exc: BaseException, writing: bool) -> tuple[str, bool]:
        """One sentence for a person, and whether the file can still be read."""
        path = self.path
        if isinstance(exc, StatsUnavailable):
            return exc.reason, exc.readable
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name == "SQLITE_NOTADB":
            return schema.not_ours(path, "not an SQLite database"), False
        if name.startswith("SQLITE_CORRUPT"):
            return f"{path} is damaged ({exc}); it was left untouched", False
        if name.startswith("SQLITE_READONLY") or name in ("SQLITE_PERM", "SQLITE_AUTH"):
            return f"{path} is read-only; games are not being recorded", True
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return schema.locked_reason(path, self.busy_timeout), True
        if name == "SQLITE_FULL":
            return f"the disk holding {path} is full; games are not being recorded", True
        if name.startswith("SQLITE_CANTOPEN"):
            return f"cannot open {path} (is its folder missing or not writable?)", False
        if isinstance(exc, OSError):
            return f"cannot use {path} ({exc.strerror or exc})", False
        return f"cannot use {path} ({exc})", False


# Stores with games the busy file refused; the exit hook tries each a last time.
_WAITING: weakref.WeakSet[StatsStore] = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for store in list(_WAITING):
        store.flush()

