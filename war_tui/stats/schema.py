"""What makes a file war-tui's statistics file, and how an older one is brought up to date.

Kept apart from reading and writing games because it is the one part that decides whether a file may be
touched at all: ``application_id`` keeps another program's database from being written into, a newer
``schema_version`` is left alone, and ``MIGRATIONS`` lead from any older version to ``SCHEMA_VERSION``.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from pathlib import Path

APPLICATION_ID = 0x57415254  # "WART", in the file header: this file is war-tui's
SCHEMA_VERSION = 4
SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database file

SEATS_WHEN = "WHEN NEW.source = 'table' AND NEW.p1_player IS NOT NEW.p2_player"
"""A table game counts for each identity in a seat; a game against oneself does not count."""
SEATS_UPSERT = (
    "INSERT INTO season_seats (season, player, games, wins, longest, longest_id, last_id, name)"
    " SELECT * FROM (SELECT"
    " CASE s.n WHEN 1 THEN 'all' WHEN 2 THEN 'week ' || date({g}.finished_at, '-6 days', 'weekday 1')"
    " ELSE 'month ' || strftime('%Y-%m', {g}.finished_at) END AS season,"
    " CASE seat.n WHEN 1 THEN {g}.p1_player ELSE {g}.p2_player END AS player, 1,"
    " {g}.result = CASE seat.n WHEN 1 THEN 'p1' ELSE 'p2' END, {g}.battles, {g}.id, {g}.id,"
    " CASE seat.n WHEN 1 THEN {g}.p1_name ELSE {g}.p2_name END"
    " FROM {games}(SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) AS s, (SELECT 1 AS n UNION ALL SELECT 2) AS seat"
    " WHERE {g}.source = 'table' AND {g}.p1_player IS NOT {g}.p2_player ORDER BY {g}.id)"
    " WHERE season IS NOT NULL AND player IS NOT NULL"
    " ON CONFLICT (season, player) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,"
    " longest = max(longest, excluded.longest),"
    " longest_id = CASE WHEN excluded.longest > longest THEN excluded.longest_id ELSE longest_id END,"
    " last_id = max(last_id, excluded.last_id),"
    " name = CASE WHEN excluded.last_id > last_id THEN excluded.name ELSE name END"
)
"""Adds a game (``NEW`` in the trigger; every row of ``games`` when the table is first filled) to the standings
of its three seasons (seasons.py computes the same keys; a date SQLite cannot read counts for all time only).
Standings are sums, so two files holding the same games in any order agree, and they stay when the row cap
deletes old games: a past season is kept as it ended."""

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
    4: (  # the leaderboard's seasons: each identity's standing per week, month and all time, kept up by a trigger
        """CREATE TABLE season_seats (
            season TEXT NOT NULL,
            player TEXT NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            longest INTEGER NOT NULL,
            longest_id INTEGER NOT NULL,
            last_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (season, player)
        ) WITHOUT ROWID""",
        "CREATE INDEX season_seats_by_rank ON season_seats (season, wins DESC, games, longest DESC, player)",
        f"CREATE TRIGGER games_season_seats AFTER INSERT ON games {SEATS_WHEN}"
        f" BEGIN {SEATS_UPSERT.format(g='NEW', games='')}; END",
        SEATS_UPSERT.format(g="games", games="games, "),  # the games already in the file
    ),
}


class StatsUnavailable(Exception):
    """Internal: the store must turn off; ``reason`` is for people, ``readable`` says if reads still work."""

    def __init__(self, reason: str, readable: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.readable = readable


def not_ours(path: Path, what: str) -> str:
    return f"{path} is not a statistics file ({what}); it was left untouched"


def locked_reason(path: Path, busy_timeout: float) -> str:
    return (
        f"{path} stayed locked by another program for more than {busy_timeout:g} s;"
        " games are not being recorded"
    )


def refuse_foreign(path: Path) -> None:
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
        raise StatsUnavailable(not_ours(path, "not a regular file"), False)
    with path.open("rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise StatsUnavailable(not_ours(path, "not an SQLite database"), False)


def check(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; StatsUnavailable if it belongs to another program or a newer war-tui."""
    if conn.in_transaction:
        return _check_snapshot(conn, path)
    conn.execute("BEGIN")  # one snapshot: another process may be creating the file right now
    try:
        return _check_snapshot(conn, path)
    finally:
        conn.execute("COMMIT")


def _check_snapshot(conn: sqlite3.Connection, path: Path) -> int:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id != APPLICATION_ID:
        if app_id == 0 and not tables:
            return 0  # a new (or empty) file: ours to set up
        raise StatsUnavailable(not_ours(path, "an SQLite database of another program"), False)
    version: int = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0
    if version > SCHEMA_VERSION:
        raise StatsUnavailable(
            f"{path} was written by a newer war-tui (schema {version}; this one knows up to"
            f" {SCHEMA_VERSION}); it was left untouched",
            False,
        )
    return version


def migrate(conn: sqlite3.Connection, path: Path, busy_timeout: float) -> None:
    """Bring the file up to SCHEMA_VERSION in one write transaction (several processes may race here)."""
    _ensure_wal(conn, path, busy_timeout)
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = check(conn, path)  # another process may have migrated while we waited
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target]:
                conn.execute(statement)
            conn.execute("UPDATE schema_version SET version = ?", (target,))
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _ensure_wal(conn: sqlite3.Connection, path: Path, busy_timeout: float) -> None:
    """Switch the file to WAL (persistent, so once per file), taking turns with other processes.

    Switching needs a moment alone with the file and SQLite answers SQLITE_BUSY at once
    instead of calling the busy handler, so several copies creating one new file must retry.
    """
    deadline = time.monotonic() + busy_timeout
    pause = 0.005
    while True:
        try:
            if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() == "wal":
                return
        except sqlite3.OperationalError as exc:
            if not (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY"):
                raise
        if time.monotonic() + pause > deadline:
            raise StatsUnavailable(locked_reason(path, busy_timeout), True)
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.1)
