"""The `s` press over a large statistics file: how long the screen is frozen, and when the figures show.

Served tables on auto-play record a game every half second, so a statistics file
reaches a million rows in a week. This presses `s` in the real app (headless,
110x36) over statistics files of several sizes and measures, from the key:

- **stall**: the longest the app's event loop went without running (a task on
  the loop wakes every 5 ms; a gap is time no key, timer or frame ran);
- **screen**: until the statistics screen is the active screen;
- **figures**: until its figures are on it (the recent games, or "no games");
- **CPU**: the process's CPU time (every thread) from the key to the figures,
  which the machine's load hardly moves.

Each file is read by an app of its own, ``--repeats`` times, medians printed.
Files are built once in ``--dir`` (default /tmp/war-tui-stats-bench) with
synthetic table games of 200 players: without identities for the whole file's
view (a local player's file), with them for a served player's view (``player``
scenarios, which need a tree that records identities; an older tree measures
the others). To compare two trees, run it with each on ``PYTHONPATH`` (see
docs/performance.md):

    .venv/bin/python benchmarks/stats_screen.py
    PYTHONPATH=/tmp/old .venv/bin/python benchmarks/stats_screen.py --dir /tmp/old-bench
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import resource
import sqlite3
import statistics
import sys
import time
from pathlib import Path

from textual import events

from war_tui.settings.play import PlaySettings
from war_tui.stats import StatsStore
from war_tui.ui.app import WarApp
from war_tui.ui.screens.stats import StatsScreen

PLAYERS = 200
TICK = 0.005  # seconds between the ticks that find the stall
LOOK_EVERY = 4  # ticks between looks for the figures (a look walks the screen: costly at 200 a second)
SIZES = {"empty": 0, "100k": 100_000, "1.3M": 1_300_000}


def build(path: Path, rows: int, served: bool) -> None:
    """A statistics file of ``rows`` table games between PLAYERS players, made with this tree's schema;
    ``served``: each seat's identity recorded too (what serve-ssh writes)."""
    if path.exists():
        return
    partial = path.with_name(path.name + ".part")
    partial.unlink(missing_ok=True)
    StatsStore.open(partial)  # this tree's schema
    with sqlite3.connect(partial, isolation_level=None) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        players = served and "p1_player" in columns
        extra_columns = ", p1_player, p2_player" if players else ""
        extra_values = ", 'key:' || (i % 200), 'key:' || ((i * 7 + 1) % 200)" if players else ""
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
            f" end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source{extra_columns})"
            " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
            " SELECT strftime('%Y-%m-%dT%H:%M:%S+00:00', 1700000000 + i / 2, 'unixepoch'), i, 1,"
            " 'winner-first', 10000, 'p' || (i % 200), 'p' || ((i * 7 + 1) % 200),"
            " CASE WHEN i % 2 THEN 'p1' ELSE 'p2' END, 'all-cards', 50 + abs(random() % 900),"
            " abs(random() % 40), abs(random() % 4), CASE WHEN i % 2 THEN 52 ELSE 0 END,"
            f" CASE WHEN i % 2 THEN 0 ELSE 52 END, 5.0, 'table'{extra_values} FROM n",
            (rows,),
        )
        conn.execute("COMMIT")
    conn.close()
    partial.rename(path)


def shown(app: WarApp) -> bool:
    screen = app.screen
    return isinstance(screen, StatsScreen) and bool(screen.query("#stats-recent, #stats-message")) and not (
        screen.query("#stats-reading")
    )


def cpu() -> float:
    """CPU seconds of this process, every thread: unlike the wall clock, hardly moved by the machine's load."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def press_s(store: StatsStore, player: str | None) -> tuple[float, float, float, float]:
    """One app, one `s`: (stall, screen, figures, CPU until the figures) in seconds."""
    settings = PlaySettings(seed=1, war_step=0.0, served=player is not None, player=player) if player else (
        PlaySettings(seed=1, war_step=0.0)
    )
    app = WarApp(settings, environ={"LANG": "C.UTF-8"}, stats=store)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause(0.3)
        longest = 0.0
        start, cpu_start = time.perf_counter(), cpu()
        app.post_message(app_key("s"))
        screen_at = figures_at = None
        last = start
        ticks = 0
        while figures_at is None and time.perf_counter() - start < 120:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            gap, last = now - last, now
            longest = max(longest, gap)
            ticks += 1
            if screen_at is None and isinstance(app.screen, StatsScreen):
                screen_at = now
            if (ticks % LOOK_EVERY == 0 or gap > 4 * TICK) and shown(app):
                figures_at = now
                cpu_used = cpu() - cpu_start
        assert screen_at is not None and figures_at is not None, "the statistics never showed"
        return longest, screen_at - start, figures_at - start, cpu_used


def trim_cost(folder: Path) -> None:
    """A record into a file at its cap of 100,000 (the one that deletes the oldest tenth) beside ordinary ones."""
    import shutil

    from war_tui.core.engine import Game
    from war_tui.stats import GameRecord

    source = folder / "stats-100000-served.sqlite3"
    build(source, 100_000, served=True)
    copy = folder / "trim.sqlite3"
    shutil.copyfile(source, copy)
    game = Game.deal(1)
    game.play()
    record = GameRecord.from_game(game, ("ann", "bob"), players=("key:1", "key:2"))
    store = StatsStore.open(copy, max_rows=100_000)
    times = []
    for _ in range(21):
        start = time.perf_counter()
        store.record(record)
        times.append(time.perf_counter() - start)
    print(f"trim: the record that trims {times[0] * 1000:.0f} ms ({store.trimmed:,} games deleted),"
          f" the 20 after it {statistics.median(times[1:]) * 1000:.1f} ms each (median)")
    copy.unlink()


def app_key(key: str) -> events.Key:
    return events.Key(key, key)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/war-tui-stats-bench"))
    parser.add_argument("--only", action="append", help="a scenario by name (empty, 100k, 1.3M, 1.3M player...)")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    served = "player" in inspect.signature(StatsStore.summary).parameters
    scenarios: list[tuple[str, int, str | None]] = [(name, rows, None) for name, rows in SIZES.items()]
    if served:
        scenarios += [(f"{name} player", rows, "key:7") for name, rows in SIZES.items() if rows]
    source = sys.modules["war_tui"].__file__
    print(f"war_tui from {Path(source).parent if source else '?'}; load {os.getloadavg()[0]:.2f}")
    print(f"{'file':<14}{'rows':>10}  {'stall ms':>9}{'screen ms':>10}{'figures ms':>11}{'CPU ms':>8}")
    for name, rows, player in scenarios:
        if args.only and name not in args.only:
            continue
        path = args.dir / f"stats-{rows}-{'served' if player else 'local'}.sqlite3"
        build(path, rows, served=player is not None)
        runs = []
        for _ in range(args.repeats):
            store = StatsStore.open(path)  # a new process's store: nothing read yet
            runs.append(asyncio.run(press_s(store, player)))
        stall, screen, figures, used = (statistics.median(r[i] for r in runs) * 1000 for i in range(4))
        print(f"{name:<14}{rows:>10,}  {stall:>9.0f}{screen:>10.0f}{figures:>11.0f}{used:>8.0f}", flush=True)
    if served and (not args.only or "trim" in args.only):
        trim_cost(args.dir)
    print(f"load after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
