"""How long the lobby's leaderboard takes to read from a served statistics file (``StatsStore.leaders``).

Builds a file of synthetic served games (three in four table games between random pairs of ``--players``
identities, the rest solo games, finished over the year before 2026-12-09), then reads each season's
board ``--runs`` times, its kept answer cleared each time: this week, this month, all time, a past week
and a past month. First with the file as war-tui makes it (schema 4: the standings its trigger keeps per
season), then with the standings dropped, as an older file read as it is (schema 3's seat indexes, a season
by the games' dates), then with schema 2's seat indexes (the identity alone). Also times the trigger's cost
while the games are written, and the migration that fills the standings from a schema-3 file.

    python benchmarks/leaderboard_query.py --games 100000 --players 1000
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source, StatsStore, schema, writing
from war_tui.stats.seasons import Season, Span

NOW = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)
SEASONS = {
    "this week": Season.of(Span.WEEK, NOW),
    "this month": Season.of(Span.MONTH, NOW),
    "all time": Season(Span.ALL),
    "a past week": Season(Span.WEEK, date(2026, 6, 1)),
    "a past month": Season(Span.MONTH, date(2026, 6, 1)),
}


def games(count: int, players: int, seed: int = 1) -> list[GameRecord]:
    rng = random.Random(seed)
    ids = [f"key:SHA256:{n:043d}" for n in range(players)]
    made = []
    for n in range(count):
        a, b = rng.sample(ids, 2)
        table = n % 4 != 0
        made.append(GameRecord(
            finished_at=(NOW - timedelta(seconds=(count - n) * 365 * 86_400 // count)).isoformat(), seed=n, war_cards=1, gather=Gather.WINNER_FIRST,
            max_battles=10_000, p1_name=a[-8:], p2_name=b[-8:] if table else "Player 2",
            result=rng.choice([Result.P1, Result.P2, Result.P1, Result.P2, Result.STOPPED]),
            reason=EndReason.ALL_CARDS, battles=rng.randrange(1, 3_000), wars=rng.randrange(30),
            longest_war=1, p1_count=52, p2_count=0, seconds=60.0, source=Source.TABLE if table else Source.AUTO,
            p1_player=a, p2_player=b if table else None, game_id=f"t{n % 97}.{n // 97:x}.{n}" if table else None,
        ))
    return made


def build(path: Path, count: int, players: int) -> tuple[StatsStore, float]:
    """The file, and the seconds its games took to write (in one transaction, the trigger firing for each)."""
    store = StatsStore.open(path)
    rows = [writing.record_row(game) for game in games(count, players)]  # the store's own rows, loaded in bulk
    with sqlite3.connect(path, isolation_level=None) as conn:
        started = time.perf_counter()
        conn.execute("BEGIN")
        conn.executemany(writing.INSERT, rows)
        conn.execute("COMMIT")
        took = time.perf_counter() - started
    conn.close()
    return store, took


def timed(store: StatsStore, season: Season, runs: int) -> float:
    took = []
    for _ in range(runs):
        store._leaders.clear()  # read afresh, not the kept answer
        start = time.perf_counter()
        store.leaders(season=season)
        took.append(time.perf_counter() - start)
    return statistics.median(took)


def report(label: str, store: StatsStore, runs: int) -> None:
    figures = ", ".join(f"{name} {timed(store, season, runs) * 1000:.1f} ms" for name, season in SEASONS.items())
    print(f"{label}: {figures}")


def migration(folder: Path, count: int, players: int) -> float:
    """Seconds to take a schema-3 file of ``count`` games to schema 4 (its standings filled from its games)."""
    path = folder / "schema-3.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as conn:
        for version in (1, 2, 3):
            for statement in schema.MIGRATIONS[version]:
                conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = 3")
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        conn.execute("BEGIN")
        conn.executemany(writing.INSERT, [writing.record_row(game) for game in games(count, players)])
        conn.execute("COMMIT")
    conn.close()
    started = time.perf_counter()
    assert StatsStore.open(path).enabled
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "served-stats.sqlite3"
        store, took = build(path, args.games, args.players)
        print(f"{args.games:,} games, {args.players:,} identities, over the year to {NOW:%Y-%m-%d}")
        print(f"writing them, the trigger keeping each season's standings: {took:.2f} s"
              f" ({took / args.games * 1e6:.0f} us a game)")
        report("schema 4 (each season's standings)", store, args.runs)
        with sqlite3.connect(path, isolation_level=None) as conn:
            conn.execute("DROP TABLE season_seats")
        conn.close()
        report("schema 3 read as it is (seat indexes, seasons by date)", store, args.runs)
        with sqlite3.connect(path, isolation_level=None) as conn:
            for seat in ("p1", "p2"):
                conn.execute(f"DROP INDEX games_by_{seat}_player")
                conn.execute(f"CREATE INDEX games_by_{seat}_player ON games ({seat}_player)"
                             f" WHERE {seat}_player IS NOT NULL")
        conn.close()
        report("schema 2 seat indexes (identity only)", store, args.runs)
        print(f"migration of a schema-3 file to schema 4: {migration(Path(folder), args.games, args.players):.2f} s")


if __name__ == "__main__":
    main()
