"""The statistics store: what it records, what it adds up to, and how it copes with bad files."""

from __future__ import annotations

import dataclasses
import os
import random
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.locks import locked
from support.present import present

from war_tui.core.engine import Game
from war_tui.core.rules import EndReason, Gather, Result, Rules
from war_tui.stats import GameRecord, Source, StatsStore, default_path, schema
from war_tui.stats import store as store_module


def row(battles: int, result: Result = Result.P1, *, wars: int = 0, longest_war: int = 0,
        seed: int | None = 1, at: str = "2024-05-01T12:00:00+00:00") -> GameRecord:
    return GameRecord(
        finished_at=at, seed=seed, war_cards=1, gather=Gather.WINNER_FIRST, max_battles=10_000,
        p1_name="Ann", p2_name="Bob", result=result,
        reason=EndReason.BOTH_SHORT if result is Result.DRAW else EndReason.ALL_CARDS,
        battles=battles, wars=wars, longest_war=longest_war,
        p1_count=52 if result is Result.P1 else 0, p2_count=0 if result is Result.P1 else 52,
        seconds=1.5, source=Source.AUTO,
    )


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file next to ``path`` with its bytes: proves a bad file was left exactly as it was."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "stats.sqlite3"


# ------------------------------------------------------------------ recording


def test_a_played_game_is_recorded_and_counted(db: Path):
    game = Game.deal(42, Rules(war_cards=2, gather=Gather.LOSER_FIRST))
    game.play()
    store = StatsStore.open(db)
    assert store.enabled and store.disabled_reason is None

    assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 12.5, Source.SCREENSAVER))

    totals = present(StatsStore.open(db).totals())  # a second copy of the program sees it too
    assert totals.games == 1
    assert totals.results[present(game.result)] == 1 and totals.share(present(game.result)) == 1.0
    assert totals.mean_battles == totals.median_battles == game.battles
    assert present(totals.most_wars).wars == game.wars
    assert present(totals.deepest_war).longest_war == game.longest_war
    [stored] = present(store.recent(5))
    assert stored.seed == 42
    assert stored.rules == Rules(war_cards=2, gather=Gather.LOSER_FIRST)
    assert (stored.p1_name, stored.p2_name) == ("Ann", "Bob")
    assert (stored.p1_count, stored.p2_count) == game.counts
    assert (stored.result, stored.reason, stored.battles) == (game.result, game.reason, game.battles)
    assert stored.seconds == 12.5 and stored.source is Source.SCREENSAVER
    assert stored.finished.tzinfo is not None and present(stored.finished.utcoffset()).total_seconds() == 0


def test_a_batch_of_games_is_stored_in_one_transaction(db: Path, monkeypatch):
    """The games stream hands a node 32 games at a time: one commit for them, not 32 (a flood of records cost a
    node a transaction, and its fsync, per game)."""
    store = StatsStore.open(db)
    opened = 0
    connect = StatsStore._connect

    def counted(self, *args, **kwargs):
        nonlocal opened
        opened += 1
        return connect(self, *args, **kwargs)

    monkeypatch.setattr(StatsStore, "_connect", counted)
    assert store.record_all([row(battles) for battles in range(1, 33)])
    assert opened == 1
    assert present(StatsStore.open(db).totals()).games == 32
    assert not StatsStore.off("--no-stats was given").record_all([row(5)])


def test_a_stopped_game_is_recorded_as_stopped(db: Path):
    game = Game.deal(7)
    game.play(limit=10)
    game.stop()
    store = StatsStore.open(db)
    assert store.record(GameRecord.from_game(game, seconds=60, source="interactive"))
    assert present(store.totals()).results[Result.STOPPED] == 1


def test_an_unfinished_game_cannot_be_recorded():
    with pytest.raises(ValueError, match="finished"):
        GameRecord.from_game(Game.deal(1))


def test_the_default_file_is_in_the_users_data_folder(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "war-tui" / "stats.sqlite3"
    store = StatsStore.open()
    assert store.enabled and store.path == default_path()
    assert store.record(row(10)) and default_path().exists()


def test_the_file_is_in_wal_mode_and_versioned(db: Path):
    StatsStore.open(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(schema.SCHEMA_VERSION,)]


# ------------------------------------------------------------------ the numbers


def test_totals_for_a_known_set_of_games(db: Path):
    store = StatsStore.open(db)
    games = [
        row(100, Result.P1, wars=3, longest_war=1, seed=11, at="2024-05-01T10:00:00+00:00"),
        row(50, Result.P2, wars=1, longest_war=1, seed=12, at="2024-05-02T10:00:00+00:00"),
        row(300, Result.P1, wars=9, longest_war=2, seed=13, at="2024-05-03T10:00:00+00:00"),
        row(200, Result.DRAW, wars=12, longest_war=1, seed=14, at="2024-05-04T10:00:00+00:00"),
        row(150, Result.P2, wars=2, longest_war=3, seed=15, at="2024-05-05T10:00:00+00:00"),
        row(250, Result.P1, wars=4, longest_war=1, seed=16, at="2024-05-06T10:00:00+00:00"),
    ]
    for game in games:
        assert store.record(game)

    totals = present(store.totals())
    assert totals.games == 6
    assert totals.results == {Result.P1: 3, Result.P2: 2, Result.DRAW: 1, Result.STOPPED: 0}
    assert totals.share(Result.P1) == 0.5
    assert totals.share(Result.P2) == pytest.approx(1 / 3)
    assert totals.share(Result.DRAW) == pytest.approx(1 / 6)
    assert totals.share(Result.STOPPED) == 0
    assert totals.mean_battles == 175
    assert totals.median_battles == 175  # the mean of 150 and 200
    assert totals.total_battles == 1050 and totals.total_wars == 31
    assert (present(totals.longest).battles, present(totals.longest).seed) == (300, 13)
    assert (present(totals.shortest).battles, present(totals.shortest).seed) == (50, 12)
    assert (present(totals.most_wars).wars, present(totals.most_wars).seed) == (12, 14)
    assert (present(totals.deepest_war).longest_war, present(totals.deepest_war).seed) == (3, 15)
    assert totals.seconds_played == 9.0
    assert (totals.first_at, totals.last_at) == ("2024-05-01T10:00:00+00:00", "2024-05-06T10:00:00+00:00")
    assert [g.seed for g in present(store.recent(3))] == [16, 15, 14]

    assert store.record(row(1000, Result.P2))  # an odd number of games: the middle one
    assert present(store.totals()).median_battles == 200


def test_no_games_yet(db: Path):
    store = StatsStore.open(db)
    totals = present(store.totals())
    assert totals.games == 0 and totals.mean_battles is None and totals.median_battles is None
    assert totals.longest is None and totals.share(Result.P1) == 0
    assert present(store.histogram()).bins == () and store.recent() == []


def test_histogram_bins_are_equal_and_count_every_game(db: Path):
    store = StatsStore.open(db)
    for battles in range(1, 11):
        store.record(row(battles))
    hist = present(store.histogram(5))
    assert [(b.low, b.high, b.count) for b in hist.bins] == [(1, 2, 2), (3, 4, 2), (5, 6, 2), (7, 8, 2), (9, 10, 2)]
    assert hist.overflow is None
    assert [(b.low, b.high, b.count) for b in hist.merged(2).bins] == [(1, 6, 6), (7, 10, 4)]


def test_histogram_puts_rare_very_long_games_apart(db: Path):
    store = StatsStore.open(db)
    for battles in range(100, 199):
        store.record(row(battles))
    store.record(row(10_000))  # one game hit the battle cap
    hist = present(store.histogram(10))
    assert len(hist.bins) == 10 and all(b.high - b.low == 9 for b in hist.bins[:-1])
    assert (hist.bins[0].low, hist.bins[-1].high) == (100, 198)
    assert [b.count for b in hist.bins] == [10] * 9 + [9]
    assert (present(hist.overflow).low, present(hist.overflow).high, present(hist.overflow).count) == (199, 10_000, 1)
    assert hist.games == 100


# ------------------------------------------------------------------ bad conditions


@pytest.mark.parametrize(
    "content",
    [random.Random(4).randbytes(8192), b"These are my notes, not a database.\n" * 50],
    ids=["random-bytes", "text-file"],
)
def test_a_corrupt_file_turns_statistics_off_and_is_left_as_it_was(db: Path, content: bytes):
    db.write_bytes(content)
    before = snapshot(db)

    store = StatsStore.open(db)
    assert not store.enabled and not store.readable
    assert store.disabled_reason == f"{db} is not a statistics file (not an SQLite database); it was left untouched"
    assert not store.record(row(10))
    assert store.totals() is None and store.recent() is None
    assert store.take_notice() == f"Statistics are off: {store.disabled_reason}"
    assert store.take_notice() is None  # said once
    assert snapshot(db) == before  # same bytes, and no -wal/-shm/-journal beside it


def test_another_programs_database_is_not_written_into(db: Path):
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ann')")
    conn.close()
    before = snapshot(db)
    store = StatsStore.open(db)
    assert "another program" in present(store.disabled_reason) and not store.record(row(1))
    assert snapshot(db) == before


def test_a_file_from_a_newer_version_is_left_alone(db: Path):
    StatsStore.open(db).record(row(10))
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    conn.close()
    before = snapshot(db)
    store = StatsStore.open(db)
    assert "newer war-tui (schema 99" in present(store.disabled_reason) and not store.readable
    assert not store.record(row(20))
    assert snapshot(db) == before


def test_an_older_file_is_migrated_keeping_its_games(db: Path, monkeypatch):
    StatsStore.open(db).record(row(10, seed=5))
    newer = schema.SCHEMA_VERSION + 1
    monkeypatch.setattr(schema, "SCHEMA_VERSION", newer)
    monkeypatch.setitem(schema.MIGRATIONS, newer, ("ALTER TABLE games ADD COLUMN note TEXT",))
    store = StatsStore.open(db)
    assert store.enabled
    assert [g.seed for g in present(store.recent())] == [5]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(newer,)]
        assert "note" in [c[1] for c in conn.execute("PRAGMA table_info(games)")]
    conn.close()


def test_a_missing_folder_is_created(tmp_path: Path):
    path = tmp_path / "not" / "yet" / "there" / "stats.sqlite3"
    store = StatsStore.open(path)
    assert store.enabled and store.record(row(3)) and path.exists()


def test_a_folder_that_cannot_be_created_turns_statistics_off(tmp_path: Path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file where a folder should be")
    store = StatsStore.open(blocker / "war" / "stats.sqlite3")
    assert store.disabled_reason == (
        f"cannot keep statistics in {blocker / 'war' / 'stats.sqlite3'}: {blocker} is a file, not a folder"
    )
    assert not store.record(row(1)) and store.totals() is None
    assert blocker.read_text() == "a file where a folder should be"


def test_a_file_where_the_files_folder_should_be_is_named(tmp_path: Path):
    blocker = tmp_path / "file.db"
    blocker.write_text("not a folder")
    store = StatsStore.open(blocker / "x.db")
    assert store.disabled_reason == f"cannot keep statistics in {blocker / 'x.db'}: {blocker} is a file, not a folder"
    assert blocker.read_text() == "not a folder"


def test_a_folder_given_as_the_file_turns_statistics_off(tmp_path: Path):
    store = StatsStore.open(tmp_path)
    assert store.disabled_reason == f"{tmp_path} is a folder, not a statistics file"


def test_a_write_sqlite_refuses_as_read_only_turns_recording_off_but_keeps_reading(db: Path, monkeypatch):
    # Root ignores permissions: a `mode=ro` connection is the unwritable file.
    store = StatsStore.open(db)
    store.record(row(10))
    read_only_uri = f"file:{db}?mode=ro"
    monkeypatch.setattr(
        store, "_raw_connect", lambda uri=None: sqlite3.connect(read_only_uri, uri=True, isolation_level=None)
    )
    before = db.read_bytes()

    assert not store.record(row(20))
    assert store.disabled_reason == f"{db} is read-only; games are not being recorded"
    assert store.readable and present(store.totals()).games == 1  # what was recorded still shows
    assert store.take_notice() == f"Statistics are off: {store.disabled_reason}" and store.take_notice() is None
    assert db.read_bytes() == before  # (a reader may leave SQLite's empty -wal/-shm beside it)


@contextmanager
def unwritable(path: Path):
    """Make ``path`` unwritable even for root: the immutable attribute, else permissions."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if os.system(f"chattr +i '{path}' 2>/dev/null") != 0:
        pytest.skip("running as root without chattr +i: cannot make a file read-only for this user")
    try:
        yield
    finally:
        os.system(f"chattr -i '{path}'")


def test_a_read_only_file_is_read_but_not_written(db: Path):
    StatsStore.open(db).record(row(10))
    before = snapshot(db)
    with unwritable(db):
        store = StatsStore.open(db)
        assert store.disabled_reason == f"{db} is read-only; games are not being recorded"
        assert not store.record(row(20))
        assert store.readable and present(store.totals()).games == 1
    assert snapshot(db)[db.name] == before[db.name]


def test_a_read_only_folder_turns_recording_off(db: Path):
    StatsStore.open(db).record(row(10))
    with unwritable(db.parent):
        store = StatsStore.open(db)
        assert store.disabled_reason == f"the folder {db.parent} is read-only; games are not being recorded"
        assert not store.record(row(20))
    assert present(StatsStore.open(db).totals()).games == 1


def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT battles, finished_at FROM games ORDER BY id").fetchall()


def test_a_database_locked_for_long_delays_saving_and_loses_nothing(db: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 60.0)  # this test retries by recording again
    StatsStore.open(db).record(row(10))
    store = StatsStore.open(db, busy_timeout=0.2)
    with locked(db):  # another program holds the file past the busy timeout
        assert not store.record(row(20, at="2024-05-01T12:01:00+00:00"))
        assert store.enabled and store.disabled_reason is None  # delayed, not off
        assert store.pending == 1
        assert store.take_notice() == (
            f"Saving statistics is delayed: {db} is locked by another program."
            " Finished games are kept and saved once it is free"
        )
        assert not store.record(row(25, at="2024-05-01T12:02:00+00:00"))
        assert store.take_notice() is None  # said once
        assert store.readable and present(store.totals()).games == 1  # WAL: reading goes on
    assert store.record(row(30, at="2024-05-01T12:03:00+00:00"))  # the waiting games go first
    assert store.pending == 0 and store.take_notice() is None
    assert _rows(db) == [
        (10, "2024-05-01T12:00:00+00:00"), (20, "2024-05-01T12:01:00+00:00"),
        (25, "2024-05-01T12:02:00+00:00"), (30, "2024-05-01T12:03:00+00:00"),
    ]  # every game once, in order: no duplicate from the failed tries


def test_games_waiting_on_a_lock_are_saved_by_the_retry_without_another_game(db: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 0.05)
    store = StatsStore.open(db, busy_timeout=0.1)
    with locked(db, "IMMEDIATE"):
        assert not store.record(row(20))
    for _ in range(200):  # the retry thread backs off 0.05, 0.1, 0.2 s ...
        if store.pending == 0:
            break
        threading.Event().wait(0.05)
    assert store.pending == 0 and _rows(db) == [(20, "2024-05-01T12:00:00+00:00")]
    assert store.enabled


def test_the_waiting_queue_is_bounded(db: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 60.0)
    monkeypatch.setattr(store_module, "PENDING_LIMIT", 3)
    store = StatsStore.open(db, busy_timeout=0.05)
    with locked(db, "IMMEDIATE"):
        for battles in range(1, 6):
            assert not store.record(row(battles))
        assert store.pending == 3 and store.dropped == 2
    assert store.flush()
    assert [battles for battles, _ in _rows(db)] == [3, 4, 5]  # the newest kept


def test_a_lasting_failure_while_games_wait_turns_statistics_off(db: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 60.0)
    store = StatsStore.open(db, busy_timeout=0.05)
    with locked(db, "IMMEDIATE"):
        assert not store.record(row(1))
    assert present(store.take_notice()).startswith("Saving statistics is delayed")
    real_connect = store._raw_connect

    def read_only(uri=None):
        conn = real_connect(uri)
        conn.execute("PRAGMA query_only = ON")  # SQLite answers SQLITE_READONLY on the INSERT
        return conn

    monkeypatch.setattr(store, "_raw_connect", read_only)
    assert not store.flush()
    assert store.disabled_reason == f"{db} is read-only; games are not being recorded"
    assert store.pending == 0 and present(store.take_notice()).startswith("Statistics are off:")


def test_a_short_lock_is_waited_out(db: Path):
    store = StatsStore.open(db)
    with locked(db, "IMMEDIATE") as holder:
        release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
        release.start()
        try:
            assert store.record(row(10))  # waited for the other writer, then wrote
        finally:
            release.join()
    assert store.enabled and present(store.totals()).games == 1


def test_a_full_disk_turns_recording_off_and_keeps_what_was_recorded(db: Path, monkeypatch):
    store = StatsStore.open(db)
    store.record(row(10))
    real_connect = store._raw_connect

    def connect_to_full_disk(uri=None):
        # max_page_count makes SQLite answer SQLITE_FULL as on a full disk.
        conn = real_connect(uri)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    monkeypatch.setattr(store, "_raw_connect", connect_to_full_disk)
    big = dataclasses.replace(row(20), p1_name="A" * 20_000)  # needs new pages: there are none
    assert not store.record(big)
    assert store.disabled_reason == f"the disk holding {db} is full; games are not being recorded"
    assert store.readable and present(store.totals()).games == 1


def test_no_stats_chosen_by_the_user_says_nothing(db: Path):
    store = StatsStore.off("turned off with --no-stats", db)
    assert not store.enabled and not store.record(row(1))
    assert store.take_notice() is None and store.totals() is None
    assert not db.exists()


def test_reading_only_never_creates_the_file(db: Path):
    store = StatsStore.open(db, read_only=True)
    assert present(store.totals()).games == 0 and store.disabled_reason is None
    assert not store.record(row(1)) and not db.exists()
    StatsStore.open(db).record(row(5))
    assert present(store.totals()).games == 1  # made by another copy since: now read


def test_a_few_games_get_no_overflow_bin(db: Path):
    store = StatsStore.open(db)
    for battles in (100, 120, 5_000):
        store.record(row(battles))
    hist = present(store.histogram(4))
    assert hist.overflow is None and hist.games == 3
    assert (hist.bins[0].low, hist.bins[-1].high) == (100, 5_000)


def test_reading_an_empty_file_is_no_games_yet(db: Path):
    db.write_bytes(b"")  # SQLite's own idea of an empty database
    store = StatsStore.open(db, read_only=True)
    assert store.disabled_reason is None and present(store.totals()).games == 0
    assert db.read_bytes() == b""


def test_worker_threads_record_while_the_ui_thread_reads(db: Path):
    store = StatsStore.open(db)
    errors: list[BaseException] = []

    def worker(first: int) -> None:
        try:
            for n in range(first, first + 25):
                assert store.record(row(n, seed=n))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i * 25,)) for i in range(8)]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        assert store.totals() is not None  # reads go on while others write
    for thread in threads:
        thread.join()
    assert errors == [] and store.enabled
    assert present(store.totals()).games == 200
