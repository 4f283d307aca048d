"""Several copies of war-tui (SSH sessions, terminals) recording into one file at the same time."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

from support.present import present

from war_tui.core.engine import Game
from war_tui.stats import GameRecord, Source, StatsStore

PROCESSES = 10
GAMES_EACH = 100


def record_games(path: str, first_seed: int, start, results) -> None:
    """One process: play and record GAMES_EACH games as soon as every process is ready."""
    records = []
    for seed in range(first_seed, first_seed + GAMES_EACH):
        game = Game.deal(seed)
        game.play()
        records.append(GameRecord.from_game(game, seconds=0.1, source=Source.SCREENSAVER))
    start.wait()  # a barrier: all ten open the same brand-new file together, then record
    store = StatsStore.open(path)
    stored = sum(store.record(r) for r in records)
    results.put((first_seed, stored, store.disabled_reason))


def test_ten_processes_recording_a_hundred_games_each_keep_all_thousand(tmp_path: Path):
    path = tmp_path / "shared" / "stats.sqlite3"
    ctx = multiprocessing.get_context("spawn")  # real separate interpreters, like separate terminals
    start = ctx.Barrier(PROCESSES)
    results = ctx.Queue()
    workers = [
        ctx.Process(target=record_games, args=(str(path), i * GAMES_EACH, start, results))
        for i in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    reports = sorted(results.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0

    assert reports == [(i * GAMES_EACH, GAMES_EACH, None) for i in range(PROCESSES)]
    store = StatsStore.open(path)
    assert present(store.totals()).games == PROCESSES * GAMES_EACH
    with sqlite3.connect(path) as conn:
        seeds = [s for (s,) in conn.execute("SELECT seed FROM games")]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert sorted(seeds) == list(range(PROCESSES * GAMES_EACH))  # each game once, none lost
