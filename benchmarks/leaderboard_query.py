"""How long the lobby's leaderboard takes to read from a served statistics file (``StatsStore.leaders``).

Builds a file of synthetic served games (three in four table games between random pairs of ``--players``
identities, the rest solo games), then reads the leaderboard ``--runs`` times, its kept answer cleared
each time: once with the file as war-tui makes it (schema 3: the seat indexes hold what the board adds
up) and once with the seat indexes of schema 2 (the identity alone), which the same query must use to
visit every game. Prints the medians and the query plans.

    python benchmarks/leaderboard_query.py --games 100000 --players 1000
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source, StatsStore, queries, writing


def games(count: int, players: int, seed: int = 1) -> list[GameRecord]:
    rng = random.Random(seed)
    ids = [f"key:SHA256:{n:043d}" for n in range(players)]
    made = []
    for n in range(count):
        a, b = rng.sample(ids, 2)
        table = n % 4 != 0
        made.append(GameRecord(
            finished_at="2026-05-01T12:00:00+00:00", seed=n, war_cards=1, gather=Gather.WINNER_FIRST,
            max_battles=10_000, p1_name=a[-8:], p2_name=b[-8:] if table else "Player 2",
            result=rng.choice([Result.P1, Result.P2, Result.P1, Result.P2, Result.STOPPED]),
            reason=EndReason.ALL_CARDS, battles=rng.randrange(1, 3_000), wars=rng.randrange(30),
            longest_war=1, p1_count=52, p2_count=0, seconds=60.0, source=Source.TABLE if table else Source.AUTO,
            p1_player=a, p2_player=b if table else None, game_id=f"t{n % 97}.{n // 97:x}.{n}" if table else None,
        ))
    return made


def build(path: Path, count: int, players: int) -> StatsStore:
    store = StatsStore.open(path)
    rows = [writing.record_row(game) for game in games(count, players)]  # the store's own rows, loaded in bulk
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("BEGIN")
        conn.executemany(writing.INSERT, rows)
        conn.execute("COMMIT")
    conn.close()
    return store


def timed(store: StatsStore, runs: int) -> float:
    took = []
    for _ in range(runs):
        store._leaders.clear()  # read afresh, not the kept answer
        start = time.perf_counter()
        store.leaders()
        took.append(time.perf_counter() - start)
    return statistics.median(took)


def plan(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        found = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + queries.LEADERS_QUERY, (100,))]
    conn.close()
    return "; ".join(step for step in found if "games" in step)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "served-stats.sqlite3"
        store = build(path, args.games, args.players)
        print(f"{args.games:,} games, {args.players:,} identities")
        print(f"schema 3 (seat indexes hold the board): {timed(store, args.runs) * 1000:.1f} ms  [{plan(path)}]")
        with sqlite3.connect(path, isolation_level=None) as conn:
            for seat in ("p1", "p2"):
                conn.execute(f"DROP INDEX games_by_{seat}_player")
                conn.execute(f"CREATE INDEX games_by_{seat}_player ON games ({seat}_player)"
                             f" WHERE {seat}_player IS NOT NULL")
        conn.close()
        print(f"schema 2 seat indexes (identity only):   {timed(store, args.runs) * 1000:.1f} ms  [{plan(path)}]")


if __name__ == "__main__":
    main()
