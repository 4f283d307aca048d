"""Games the statistics file refused until the end are kept beside it and imported by the next run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.present import present

from war_tui.core.engine import Game
from war_tui.stats import GameRecord, Source, StatsStore, recovery


def game(seed: int) -> GameRecord:
    played = Game.deal(seed)
    played.play()
    return GameRecord.from_game(played, ("Ann", "Bob"), 1.5, Source.AUTO)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "stats.sqlite3"
    StatsStore.open(path)
    return path


def locked(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    return conn


def test_a_record_survives_the_line_it_is_kept_in():
    record = game(7)
    assert recovery.from_line(recovery.to_line(record)) == record


def test_games_still_refused_at_exit_are_kept_and_the_next_run_imports_them(db: Path):
    holder = locked(db)
    store = StatsStore.open(db, busy_timeout=0.05)
    games = [game(seed) for seed in (1, 2, 3, 4)]
    for record in games:
        assert not store.record(record)
    assert store.pending == 4
    assert not store.save_pending(within=0.3)
    count, where = present(store.rescue())
    assert count == 4 and where == db.with_name("stats.sqlite3.unsaved.jsonl")
    assert store.pending == 0 and store.rescue() is None
    assert [line for line in where.read_text().splitlines()] == [recovery.to_line(g) for g in games]

    StatsStore.open(db, busy_timeout=0.05)  # still locked: the file stays for later
    assert where.exists()
    holder.rollback()
    holder.close()

    again = StatsStore.open(db)
    assert not where.exists() and not list(db.parent.glob("*.importing"))
    assert present(again.totals()).games == 4
    assert [r.seed for r in present(again.recent())] == [4, 3, 2, 1]
    StatsStore.open(db)
    assert present(again.totals()).games == 4  # imported once only


def test_saving_at_exit_succeeds_once_the_lock_goes(db: Path):
    holder = locked(db)
    store = StatsStore.open(db, busy_timeout=0.05)
    assert not store.record(game(5))
    holder.rollback()
    holder.close()
    assert store.save_pending(within=2.0)
    assert store.rescue() is None
    assert present(StatsStore.open(db).totals()).games == 1


def test_a_second_rescue_adds_to_the_kept_games(db: Path):
    holder = locked(db)
    for seed in (1, 2):
        store = StatsStore.open(db, busy_timeout=0.05)
        store.record(game(seed))
        store.rescue()
    holder.rollback()
    holder.close()
    kept, bad = recovery.read(recovery.recovery_path(db))
    assert [r.seed for r in kept] == [1, 2] and bad == 0
    assert present(StatsStore.open(db).totals()).games == 2


def test_a_table_game_kept_aside_keeps_its_id_and_is_imported_once(db: Path):
    """A table game both in the file and kept aside (a delivery that came twice) is one game after the import."""
    played = Game.deal(7)
    played.play()
    record = GameRecord.from_game(played, ("ann", "bob"), 1.5, Source.TABLE, game_id="oak.5eed.1")
    assert recovery.from_line(recovery.to_line(record)).game_id == "oak.5eed.1"
    assert StatsStore.open(db).record(record)
    recovery.keep(recovery.recovery_path(db), [record])
    store = StatsStore.open(db)  # imports what was kept
    assert not recovery.recovery_path(db).exists()
    assert present(store.totals()).games == 1
