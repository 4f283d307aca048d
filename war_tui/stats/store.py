"""Lifetime statistics in one SQLite file that many running copies of war-tui share safely.

Each operation opens a short-lived connection in WAL mode, so readers never wait and writers take turns.
Statistics never stop a game: a lasting failure turns the store off with one readable reason
(``take_notice``) and the file is never overwritten; a file locked for a while keeps games in a bounded
queue (then a ``recovery`` file) and writes them later in one transaction. Served games carry each seat's
identity (``summary(player=...)``, ``leaders``) and a table game its id, stored once however often it is
delivered; ``max_rows`` caps a served file. ``MIGRATIONS`` leads from any older ``schema_version`` to
``SCHEMA_VERSION``; ``application_id`` keeps another program's database from being written into.
How it behaves for a person: docs/commands.md, "The statistics file".
"""

from __future__ import annotations

import atexit
import os
import random
import sqlite3
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from ..core.rules import EndReason, Gather, Result
from . import recovery
from .records import Bin, GameRecord, Histogram, Leader, Source, Totals, known

Read = TypeVar("Read")

APP_NAME = "war-tui"
FILE_NAME = "stats.sqlite3"
SERVED_FILE_NAME = "served-stats.sqlite3"  # games played over SSH, beside the user's own, never in them
APPLICATION_ID = 0x57415254  # "WART", in the file header: this file is war-tui's
SCHEMA_VERSION = 3
BUSY_TIMEOUT = 3.0  # seconds a write waits for another process before its games wait in memory
OVERFLOW_MIN_GAMES = 100  # below this the "top 1%" is a single game: no overflow bin
PENDING_LIMIT = 1_000  # games kept in memory while the file is locked; beyond it the oldest go
RETRY_FIRST = 1.0  # seconds before the first retry of a locked file; doubles up to RETRY_MOST
RETRY_MOST = 30.0
SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database file
SUMMARIES_KEPT = 8  # answers kept for asking again, one per question (player, bins, recent games)
LEADERS = 100  # identities the leaderboard lists unless told
MAX_LEADERS = 1_000  # and at most
HISTOGRAM_BINS = 48  # divisible by 2, 3, 4, 6, 8, 12, 16, 24: merges evenly to narrower charts

# Statements that take a file from version N-1 to version N, keyed by N.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            finished_at TEXT NOT NULL,
            seed INTEGER,
            war_cards INTEGER NOT NULL,
            gather TEXT NOT NULL,
            max_battles INTEGER NOT NULL,
            p1_name TEXT NOT NULL,
            p2_name TEXT NOT NULL,
            result TEXT NOT NULL,
            end_reason TEXT NOT NULL,
            battles INTEGER NOT NULL,
            wars INTEGER NOT NULL,
            longest_war INTEGER NOT NULL,
            p1_count INTEGER NOT NULL,
            p2_count INTEGER NOT NULL,
            seconds REAL NOT NULL,
            source TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_finished_at ON games (finished_at)",
        "CREATE INDEX games_by_battles ON games (battles)",
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
    ),
    2: (  # each seat's player, so a player's statistics show only their games
        "ALTER TABLE games ADD COLUMN p1_player TEXT",
        "ALTER TABLE games ADD COLUMN p2_player TEXT",
        "CREATE INDEX games_by_p1_player ON games (p1_player) WHERE p1_player IS NOT NULL",
        "CREATE INDEX games_by_p2_player ON games (p2_player) WHERE p2_player IS NOT NULL",
    ),
    3: (  # a table game's id (stored once, however often delivered); leaderboard indexes
        "ALTER TABLE games ADD COLUMN game_id TEXT",
        "CREATE UNIQUE INDEX games_by_game_id ON games (game_id) WHERE game_id IS NOT NULL",
        # Each seat's index covers the leaderboard's sums: it reads the indexes alone.
        "DROP INDEX games_by_p1_player",
        "CREATE INDEX games_by_p1_player ON games (p1_player, source, result, battles, p2_player)"
        " WHERE p1_player IS NOT NULL",
        "DROP INDEX games_by_p2_player",
        "CREATE INDEX games_by_p2_player ON games (p2_player, source, result, battles, p1_player)"
        " WHERE p2_player IS NOT NULL",
    ),
}

_INSERT = (
    "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
    " end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player, game_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
"""A game whose ``game_id`` is stored already is not stored again (only the unique id can conflict)."""

_COLUMNS = (
    "id, finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result, end_reason,"
    " battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player"
)
MIN_ROWS = 1_000
MAX_ROWS = 10_000_000
"""The range of ``max_rows`` (``serve-ssh --served-stats-rows``)."""
TRIM_SHARE = 10
"""A file at its row cap loses its oldest tenth at once: one DELETE per that many games, not one per game."""


def default_path() -> Path:
    """Where statistics live unless ``--stats-db`` says otherwise (XDG data dir on Linux)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False) / FILE_NAME


def served_path() -> Path:
    """Where ``serve-ssh`` records its players' games unless its game flags say otherwise."""
    return default_path().with_name(SERVED_FILE_NAME)


class StatsUnavailable(Exception):
    """Internal: the store must turn off; ``reason`` is for people, ``readable`` says if reads still work."""

    def __init__(self, reason: str, readable: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.readable = readable


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals, histogram and recent games read in one transaction, so they agree with each other."""

    totals: Totals
    histogram: Histogram
    recent: tuple[GameRecord, ...]


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
        self._leaders: dict[int, tuple[tuple[int | None, int | None], tuple[Leader, ...]]] = {}
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
                    conn.executemany(_INSERT, [_record_row(game) for game in batch])
                    trimmed = _trim(conn, self.max_rows) if self.max_rows is not None else 0
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")  # nothing of the batch stays: a retry adds no twin
        except (StatsUnavailable, sqlite3.Error, OSError, OverflowError) as exc:
            if _is_locked(exc):
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
                    conn.executemany(_INSERT, [_record_row(game) for game in games])
                    if self.max_rows is not None:
                        self.trimmed += _trim(conn, self.max_rows)
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
        return self._read(_read_totals, Totals.empty())

    def histogram(self, bins: int = HISTOGRAM_BINS) -> Histogram | None:
        """Game lengths (battles) in at most ``bins`` equal-width bins; None when unreadable."""
        return self._read(lambda conn: _read_histogram(conn, bins), Histogram(()))

    def recent(self, limit: int = 20) -> list[GameRecord] | None:
        """The latest games, newest first; None when unreadable."""
        none: list[GameRecord] = []
        return self._read(lambda conn: _read_recent(conn, limit), none)

    def game(self, game_id: int) -> list[GameRecord] | None:
        """The game stored with this id (``stats --json``'s ``id``): one record, or none; None when unreadable."""
        none: list[GameRecord] = []
        return self._read(
            lambda conn: [_row_to_record(r) for r in conn.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))],
            none,
        )

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
        scope = _Scope.of(player)
        key = (recent, bins, player)

        def read(conn: sqlite3.Connection) -> Summary:
            span = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
            with self._lock:
                kept = self._summaries.get(key)
            if kept is not None and kept[0] == span:
                return kept[1]
            summary = Summary(
                _read_totals(conn, scope), _read_histogram(conn, bins, scope), tuple(_read_recent(conn, recent, scope))
            )
            if player is not None:
                summary = _seen_by(summary, player)
            with self._lock:
                if len(self._summaries) >= SUMMARIES_KEPT:
                    self._summaries.clear()
                self._summaries[key] = (span, summary)
            return summary

        return self._read(read, Summary(Totals.empty(), Histogram(()), ()))

    def leaders(self, limit: int = LEADERS) -> tuple[Leader, ...] | None:
        """The identities with the most table games won (then the fewest played, the longest game), at most ``limit``; None
        when unreadable. A game someone played against themselves (one identity in both seats) is not
        counted. Kept, like ``summary``, while the file holds the same games."""
        limit = max(0, min(limit, MAX_LEADERS))

        def read(conn: sqlite3.Connection) -> tuple[Leader, ...]:
            span = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
            with self._lock:
                kept = self._leaders.get(limit)
            if kept is not None and kept[0] == span:
                return kept[1]
            leaders = _read_leaders(conn, limit)
            with self._lock:
                if len(self._leaders) >= SUMMARIES_KEPT:
                    self._leaders.clear()
                self._leaders[limit] = (span, leaders)
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
                    if self._check(conn) == 0:
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
            _refuse_foreign(path)
        except OSError as exc:
            raise StatsUnavailable(*self._explain(exc, writing=not self.read_only)) from None
        if self.read_only:
            if not path.exists():
                self._exists = False
                return
            try:
                with closing(self._connect_ro()) as conn:
                    self._exists = self._check(conn) > 0
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
                version = self._check(conn)
                if version < SCHEMA_VERSION:
                    self._migrate(conn)
        except (sqlite3.Error, OSError) as exc:
            raise StatsUnavailable(*self._explain(exc, writing=True)) from None

    def _check(self, conn: sqlite3.Connection) -> int:
        """The file's schema version; StatsUnavailable if it belongs to another program or a newer war-tui."""
        if conn.in_transaction:
            return self._check_snapshot(conn)
        conn.execute("BEGIN")  # one snapshot: another process may be creating the file right now
        try:
            return self._check_snapshot(conn)
        finally:
            conn.execute("COMMIT")

    def _check_snapshot(self, conn: sqlite3.Connection) -> int:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id != APPLICATION_ID:
            if app_id == 0 and not tables:
                return 0  # a new (or empty) file: ours to set up
            raise StatsUnavailable(_not_ours(self.path, "an SQLite database of another program"), False)
        version = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0
        if version > SCHEMA_VERSION:
            raise StatsUnavailable(
                f"{self.path} was written by a newer war-tui (schema {version}; this one knows up to"
                f" {SCHEMA_VERSION}); it was left untouched",
                False,
            )
        return version

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Bring the file up to SCHEMA_VERSION in one write transaction (several processes may race here)."""
        self._ensure_wal(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = self._check(conn)  # another process may have migrated while we waited
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute("UPDATE schema_version SET version = ?", (target,))
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _ensure_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL (persistent, so once per file), taking turns with other processes.

        Switching needs a moment alone with the file and SQLite answers SQLITE_BUSY at once
        instead of calling the busy handler, so several copies creating one new file must retry.
        """
        deadline = time.monotonic() + self.busy_timeout
        pause = 0.005
        while True:
            try:
                if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() == "wal":
                    return
            except sqlite3.OperationalError as exc:
                if not (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY"):
                    raise
            if time.monotonic() + pause > deadline:
                raise StatsUnavailable(self._locked_reason(), True)
            time.sleep(pause * (0.5 + random.random()))
            pause = min(pause * 2, 0.1)

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

    def _locked_reason(self) -> str:
        return (
            f"{self.path} stayed locked by another program for more than {self.busy_timeout:g} s;"
            " games are not being recorded"
        )

    def _explain(self, exc: BaseException, writing: bool) -> tuple[str, bool]:
        """One sentence for a person, and whether the file can still be read."""
        path = self.path
        if isinstance(exc, StatsUnavailable):
            return exc.reason, exc.readable
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name == "SQLITE_NOTADB":
            return _not_ours(path, "not an SQLite database"), False
        if name.startswith("SQLITE_CORRUPT"):
            return f"{path} is damaged ({exc}); it was left untouched", False
        if name.startswith("SQLITE_READONLY") or name in ("SQLITE_PERM", "SQLITE_AUTH"):
            return f"{path} is read-only; games are not being recorded", True
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return self._locked_reason(), True
        if name == "SQLITE_FULL":
            return f"the disk holding {path} is full; games are not being recorded", True
        if name.startswith("SQLITE_CANTOPEN"):
            return f"cannot open {path} (is its folder missing or not writable?)", False
        if isinstance(exc, OSError):
            return f"cannot use {path} ({exc.strerror or exc})", False
        return f"cannot use {path} ({exc})", False


def _not_ours(path: Path, what: str) -> str:
    return f"{path} is not a statistics file ({what}); it was left untouched"


def _refuse_foreign(path: Path) -> None:
    """Refuse what SQLite would take for an empty database: a device (``/dev/null``) or a file whose
    size says 0 but which holds text (``/proc/self/status``). A truly empty file is a new database.
    A link to nothing is refused too: SQLite would create the file wherever it points."""
    if path.is_symlink() and not path.exists():
        target = Path(os.readlink(path))
        target = target if target.is_absolute() else path.parent / target
        raise StatsUnavailable(f"{path} is a link to {target}, which does not exist; it was left untouched", False)
    if not path.exists():
        return
    if not path.is_file():
        raise StatsUnavailable(_not_ours(path, "not a regular file"), False)
    with path.open("rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise StatsUnavailable(_not_ours(path, "not an SQLite database"), False)


def _is_locked(exc: BaseException) -> bool:
    """Another connection holds the file: it passes, so it must not turn statistics off."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


# Stores with games the busy file refused; the exit hook tries each a last time.
_WAITING: weakref.WeakSet[StatsStore] = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for store in list(_WAITING):
        store.flush()


def _record_row(game: GameRecord) -> tuple[object, ...]:
    return (
        game.finished_at, game.seed, game.war_cards, str(game.gather), game.max_battles,
        game.p1_name, game.p2_name, str(game.result), str(game.reason), game.battles, game.wars,
        game.longest_war, game.p1_count, game.p2_count, game.seconds, str(game.source),
        game.p1_player, game.p2_player, game.game_id,
    )


# ---------------------------------------------------------------- queries


def _row_to_record(row: tuple[Any, ...]) -> GameRecord:
    (id_, finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result, reason,
     battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player) = row
    return GameRecord(
        finished_at=finished_at, seed=seed, war_cards=war_cards, gather=known(Gather, gather),
        max_battles=max_battles, p1_name=p1_name, p2_name=p2_name, result=known(Result, result),
        reason=known(EndReason, reason), battles=battles, wars=wars, longest_war=longest_war,
        p1_count=p1_count, p2_count=p2_count, seconds=seconds, source=known(Source, source),
        p1_player=p1_player, p2_player=p2_player, id=id_,
    )


@dataclass(frozen=True, slots=True)
class _Scope:
    """Which games a read counts: all of them, or those one player sat in (``where`` joins with AND)."""

    where: str = "1"
    params: tuple[str, ...] = ()

    @classmethod
    def of(cls, player: str | None) -> _Scope:
        if player is None:
            return cls()
        return cls("(p1_player = ? OR p2_player = ?)", (player, player))


def _one(conn: sqlite3.Connection, scope: _Scope, order: str) -> GameRecord | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM games WHERE {scope.where} ORDER BY {order}, id DESC LIMIT 1", scope.params
    ).fetchone()
    return _row_to_record(row) if row else None


def _nth_battles(conn: sqlite3.Connection, scope: _Scope, offset: int, limit: int = 1) -> list[int]:
    rows = conn.execute(
        f"SELECT battles FROM games WHERE {scope.where} ORDER BY battles LIMIT ? OFFSET ?",
        (*scope.params, limit, offset),
    ).fetchall()
    return [r[0] for r in rows]


def _read_totals(conn: sqlite3.Connection, scope: _Scope = _Scope()) -> Totals:
    row = conn.execute(
        "SELECT count(*), total(battles), total(wars), total(seconds), min(finished_at),"
        f" max(finished_at) FROM games WHERE {scope.where}",
        scope.params,
    ).fetchone()
    games = row[0]
    if games == 0:
        return Totals.empty()
    results: dict[Result | str, int] = {r: 0 for r in Result}
    for result, count in conn.execute(
        f"SELECT result, count(*) FROM games WHERE {scope.where} GROUP BY result ORDER BY result", scope.params
    ):
        results[known(Result, str(result))] = count
    middle = _nth_battles(conn, scope, (games - 1) // 2, 2 - games % 2)
    return Totals(
        games=games,
        results=results,
        total_battles=int(row[1]),
        total_wars=int(row[2]),
        seconds_played=row[3],
        mean_battles=row[1] / games,
        median_battles=sum(middle) / len(middle),
        longest=_one(conn, scope, "battles DESC"),
        shortest=_one(conn, scope, "battles ASC"),
        most_wars=_one(conn, scope, "wars DESC"),
        deepest_war=_one(conn, scope, "longest_war DESC"),
        first_at=row[4],
        last_at=row[5],
    )


def _read_histogram(conn: sqlite3.Connection, bins: int, scope: _Scope = _Scope()) -> Histogram:
    games, low, high = conn.execute(
        f"SELECT count(*), min(battles), max(battles) FROM games WHERE {scope.where}", scope.params
    ).fetchone()
    if games == 0:
        return Histogram(())
    bins = max(1, bins)
    overflow = None
    top = _nth_battles(conn, scope, (games - 1) * 99 // 100)[0]  # the 99th percentile
    if games >= OVERFLOW_MIN_GAMES and high > 2 * top:
        count = conn.execute(
            f"SELECT count(*) FROM games WHERE {scope.where} AND battles > ?", (*scope.params, top)
        ).fetchone()[0]
        overflow = Bin(top + 1, high, count)
        high = top
    width = -(-(high - low + 1) // bins)
    counts = dict(
        conn.execute(
            f"SELECT (battles - ?) / ?, count(*) FROM games WHERE {scope.where} AND battles <= ? GROUP BY 1",
            (low, width, *scope.params, high),
        ).fetchall()
    )
    used = (high - low) // width + 1
    return Histogram(
        tuple(
            Bin(low + i * width, min(high, low + (i + 1) * width - 1), counts.get(i, 0))
            for i in range(used)
        ),
        overflow,
    )


def _read_recent(conn: sqlite3.Connection, limit: int, scope: _Scope = _Scope()) -> list[GameRecord]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM games WHERE {scope.where} ORDER BY finished_at DESC, id DESC LIMIT ?",
        (*scope.params, max(0, limit)),
    ).fetchall()
    return [_row_to_record(r) for r in rows]


_SEATS = """
    SELECT {me}_player AS player, count(*) AS games, total(result = '{me}') AS wins, max(battles) AS longest,
           max(id) AS last
    FROM games
    WHERE source = 'table' AND {me}_player IS NOT NULL AND {me}_player IS NOT {other}_player
    GROUP BY {me}_player"""
_LEADERS = f"""
    WITH seats AS ({_SEATS.format(me="p1", other="p2")} UNION ALL {_SEATS.format(me="p2", other="p1")})
    SELECT player, sum(games), sum(wins), max(longest), max(last) FROM seats
    GROUP BY player ORDER BY 3 DESC, 2 ASC, 4 DESC, 1 ASC LIMIT ?"""
"""Each seat's games from its own partial index, in the index's order (no sort, no visit to the table), then
the two seats of each identity together: a read of the seats, not of the games. Ties go by the games
themselves (fewer games, then the longer game, then the identity), never by the order this file got them in,
so two nodes holding the same games list them alike."""


def _read_leaders(conn: sqlite3.Connection, limit: int) -> tuple[Leader, ...]:
    rows = conn.execute(_LEADERS, (limit,)).fetchall()
    last = {row[4] for row in rows}
    names: dict[tuple[int, str], str] = {}
    for id_, p1, p1_name, p2, p2_name in conn.execute(
        f"SELECT id, p1_player, p1_name, p2_player, p2_name FROM games WHERE id IN ({','.join('?' * len(last))})",
        tuple(last),
    ):
        names[(id_, p1)] = p1_name
        names[(id_, p2)] = p2_name
    return tuple(
        Leader(player=player, name=names.get((last_id, player), ""), games=games, wins=int(wins), longest=longest)
        for player, games, wins, longest, last_id in rows
    )


def _seen_by(summary: Summary, player: str) -> Summary:
    """Every record of ``summary`` as ``player`` may see it: other people's names are not theirs to see."""
    totals = summary.totals

    def seen(record: GameRecord | None) -> GameRecord | None:
        return record.seen_by(player) if record is not None else None

    return Summary(
        replace(
            totals, longest=seen(totals.longest), shortest=seen(totals.shortest),
            most_wars=seen(totals.most_wars), deepest_war=seen(totals.deepest_war),
        ),
        summary.histogram,
        tuple(record.seen_by(player) for record in summary.recent),
    )


def _trim(conn: sqlite3.Connection, max_rows: int) -> int:
    """Inside a write transaction: past ``max_rows`` games, delete the oldest down to nine tenths of it.

    Cheap while under the cap: ids only grow (a trim takes the oldest), so max(id) - min(id) bounds the
    count from the rowid's two ends; the exact count is taken only past the cap. Returns the games deleted.
    """
    low, high = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
    if low is None or high - low + 1 <= max_rows:
        return 0
    if conn.execute("SELECT count(*) FROM games").fetchone()[0] <= max_rows:
        return 0
    keep = max(1, max_rows - max_rows // TRIM_SHARE)
    first_kept = conn.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?", (keep - 1,)).fetchone()[0]
    return conn.execute("DELETE FROM games WHERE id < ?", (first_kept,)).rowcount
