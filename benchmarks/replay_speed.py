"""The replay: exactly the game played, opened and seeked fast enough to feel like a video.

Three parts, medians printed (docs/performance.md has the figures):

- **exact**: ``--games`` simulated games (seeds and house rules varied: war cards, gather order, a battle
  cap), each played by the engine with a listener and rebuilt by ``Replay``; every battle's cards, war
  depth and counts must be the engine's, and the JSON export must read back as the same game. Any
  difference is printed and the run fails.
- **open**: ``war-tui replay`` on a game of about 2,000 battles, in the real app (headless, 80x24), from
  building the ``Replay`` to the replay screen's first frame with battle 1 on it; beside it a bare Textual
  app (``bare_app.py``: a Header, a Static, a Footer) from its construction to its first frame, in the same
  process, and the ratio of the two.
- **open from exec**: the same in a fresh process, from the exec to the first frame: ``war-tui replay 1``
  (its command line parsed, the statistics file read, the game rebuilt, the app headless at 80x24) against
  the bare Textual app's process (``textual.app`` imported, the app to its first frame), and the ratio.
- **seek**: End, g 1500, and the next war, each from the key to the frame with that battle on it (the
  pilot's press waits for the app to settle, a fixed cost of its own); then End, Home and the next war
  again as the action alone followed by the whole screen rendered (``export_screenshot``), marked ``*``;
  then End, g 1500 and the next war as a terminal sees them, marked ``>``: the key posted to the app as a
  terminal's would be, until the frame with that battle is written out (the app drawing for a terminal
  through the recording driver of ``war-tui export --format cast``, at Textual's usual 60 updates a second).

    .venv/bin/python benchmarks/replay_speed.py
    .venv/bin/python benchmarks/replay_speed.py --games 1000 --repeats 7
    .venv/bin/python benchmarks/replay_speed.py --games 0 --repeats 7    # open and seek only
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from textual import events

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, Event, GameOver
from war_tui.core.rules import Gather, Rules
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.stats.export import json_chunks, read_game_file
from war_tui.stats.replay import Replay
from war_tui.ui.cast import RecordingApp
from war_tui.ui.components.pile import Pile
from war_tui.ui.replay_app import ReplayApp
from war_tui.ui.screens.replay import ReplayScreen

LONG_SEED = 1017  # 1,939 battles under the standard rules
Battle = tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, int]]


def engine_battles(seed: int, rules: Rules) -> list[Battle]:
    game = Game.deal(seed, rules)
    told: list[Battle] = []

    def note(event: Event) -> None:
        if isinstance(event, BattleWon):
            told.append((event.battle, event.p1_laid, event.p2_laid, event.wars, (event.p1_count, event.p2_count)))
        elif isinstance(event, GameOver) and event.last_battle_p1:
            told.append((event.battles, event.last_battle_p1, event.last_battle_p2, event.last_battle_wars,
                         (event.p1_count, event.p2_count)))

    game.subscribe(note)
    game.play()
    return told


def exact(games: int) -> tuple[int, int, float]:
    """Games checked, battles checked, seconds; exits 1 at the first difference."""
    rng = random.Random(43)
    battles = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        for number in range(games):
            seed = rng.randrange(2**63)
            rules = Rules(rng.randint(1, 3), rng.choice(list(Gather)), rng.choice((10_000, 10_000, 3_000, 500)))
            told = engine_battles(seed, rules)
            replay = Replay(seed, rules)
            rebuilt = [(b.battle, b.p1_laid, b.p2_laid, b.wars, b.counts) for b in replay.played()]
            if rebuilt != told:
                sys.exit(f"game {number} (seed {seed}, {rules}): the replay differs from the engine")
            probe = 1 + rng.randrange(len(told))
            one = replay.battle(probe)
            if (one.battle, one.p1_laid, one.p2_laid, one.wars, one.counts) != told[probe - 1]:
                sys.exit(f"game {number} (seed {seed}, {rules}): battle {probe} on its own differs")
            if number % 10 == 0:  # the export round trip, on every tenth game
                path.write_text("".join(json_chunks(replay, ("Ann", "Bob"))))
                again, _ = read_game_file(path)
                if [(b.battle, b.p1_laid, b.p2_laid, b.wars, b.counts) for b in again.played()] != told:
                    sys.exit(f"game {number} (seed {seed}, {rules}): the JSON export does not read back")
            battles += len(told)
    return games, battles, time.perf_counter() - started


async def open_and_seek() -> dict[str, tuple[float, float]]:
    """Seconds (wall, this process's CPU) from the start to the first frame, and from each seek's key to
    its frame (g 1500: from the enter after the digits)."""
    times: dict[str, tuple[float, float]] = {}
    started, cpu = time.perf_counter(), time.process_time()
    replay = Replay(LONG_SEED, Rules())
    app = ReplayApp(replay, ("Ann", "Bob"), environ={"LANG": "C.UTF-8", "TERM": "xterm-256color"})
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, app, 1)
        times["open"] = time.perf_counter() - started, time.process_time() - cpu
        for name, typed, keys, battle in (
            ("End", (), ("end",), replay.battles),
            ("g 1500", ("g", "1", "5", "0", "0"), ("enter",), 1500),
            ("next war", (), ("right_square_bracket",), replay.next_war(1500)),
        ):
            await pilot.press(*typed)
            before, cpu = time.perf_counter(), time.process_time()
            await pilot.press(*keys)
            await until_shown(pilot, app, battle)
            times[name] = time.perf_counter() - before, time.process_time() - cpu
        # The same seeks without the pilot's own waits: the action, then the whole screen rendered
        # (export_screenshot renders every cell, as a full frame does, and formats SVG on top).
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for name, action in (("End*", screen.action_last), ("Home*", screen.action_first),
                             ("next war*", screen.action_next_war)):
            before, cpu = time.perf_counter(), time.process_time()
            action()
            app.export_screenshot()
            times[name] = time.perf_counter() - before, time.process_time() - cpu
    return times


async def bare_open() -> dict[str, tuple[float, float]]:
    """Seconds (wall, CPU) from a bare Textual app's construction to its first frame, as ``open`` is timed."""
    from bare_app import BareApp

    started, cpu = time.perf_counter(), time.process_time()
    app = BareApp(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()  # the first frame is drawn
        return {"bare open": (time.perf_counter() - started, time.process_time() - cpu)}


REPLAY_PROCESS = """
import asyncio, resource, sys
sys.path.insert(0, {benchmarks!r})
from war_tui.cli import build_parser
from war_tui.commands.replays import game_from_args
args = build_parser().parse_args(["replay", "1", "--stats-db", {db!r}])
replay, names = game_from_args(args)
from war_tui.ui.replay_app import ReplayApp
from replay_speed import until_shown
async def run():
    app = ReplayApp(replay, names, environ={{"LANG": "C.UTF-8", "TERM": "xterm-256color"}}, game_id=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, app, 1)
        use = resource.getrusage(resource.RUSAGE_SELF)
        print("shown", use.ru_utime + use.ru_stime, flush=True)
asyncio.run(run())
"""
BARE_PROCESS = """
import asyncio, resource, sys
sys.path.insert(0, {benchmarks!r})
from bare_app import BareApp
async def run():
    app = BareApp(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        use = resource.getrusage(resource.RUSAGE_SELF)
        print("shown", use.ru_utime + use.ru_stime, flush=True)
asyncio.run(run())
"""


def from_exec(code: str) -> tuple[float, float]:
    """Seconds (wall, the child's CPU) from starting a Python process running ``code`` to its first frame."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    wall = time.perf_counter() - started
    child.wait(timeout=60)
    if not line.startswith("shown "):
        sys.exit(f"the child process drew no frame: {line!r}")
    return wall, float(line.split()[1])


def open_from_exec(folder: str) -> dict[str, tuple[float, float]]:
    """``war-tui replay 1`` (seed ``LONG_SEED``, recorded in a statistics file) and the bare app, each from exec."""
    db = str(Path(folder) / "stats.sqlite3")
    if not Path(db).exists():
        game = Game.deal(LONG_SEED, Rules())
        game.start()
        game.play()
        assert StatsStore.open(db).record(GameRecord.from_game(game, ("Ann", "Bob"), 60.0, Source.INTERACTIVE))
    here = str(Path(__file__).resolve().parent)
    return {"replay exec": from_exec(REPLAY_PROCESS.format(benchmarks=here, db=db)),
            "bare exec": from_exec(BARE_PROCESS.format(benchmarks=here))}


async def key_to_frame() -> dict[str, tuple[float, float]]:
    """Seconds (wall, CPU) from a key posted to the app to the frame with its battle written out."""
    times: dict[str, tuple[float, float]] = {}
    replay = Replay(LONG_SEED, Rules())
    app = RecordingApp(replay, ("Ann", "Bob"), speed=1)
    async with app.run_test(headless=False, size=(80, 24)) as pilot:
        driver = app.recorder
        assert driver is not None
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause()
        await pilot.pause()
        driver.take()
        war = replay.next_war(1500)
        for name, typed, key, battle in (
            ("End>", (), "end", replay.battles),
            ("g 1500>", ("g", "1", "5", "0", "0"), "enter", 1500),
            ("next war>", (), "right_square_bracket", war),
        ):
            await pilot.press(*typed)  # the digits after g, untimed
            await pilot.pause()
            driver.take()
            words = f"battle {battle:,} of"
            before, cpu = time.perf_counter(), time.process_time()
            app.post_message(events.Key(key, None))
            seen = ""
            deadline = time.monotonic() + 30
            while words not in seen:
                if time.monotonic() > deadline:
                    sys.exit(f"{name}: no frame with {words} in 30 s")
                await asyncio.sleep(0.0005)
                seen += driver.take()
            times[name] = time.perf_counter() - before, time.process_time() - cpu
    return times


async def until_shown(pilot, app: ReplayApp, battle: int | None) -> None:
    """Until the pile holds ``battle`` and a frame has been drawn since."""
    while True:
        pile = app.screen.query(Pile)
        if pile and pile.first().battle is not None and pile.first().battle.battle == battle:  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.001)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()  # the frame with it is drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000,
                        help="games to check against the engine (default 1000; 0: open and seek only)")
    parser.add_argument("--repeats", type=int, default=5, help="app runs for open and seek (default 5)")
    args = parser.parse_args()
    if args.games:
        games, battles, seconds = exact(args.games)
        print(f"exact: {games:,} games, {battles:,} battles, every one the engine's; export read back ({seconds:.1f} s)")
    print(f"load average at the start: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        runs = [{**asyncio.run(bare_open()), **asyncio.run(open_and_seek()), **open_from_exec(folder),
                 **asyncio.run(key_to_frame())} for _ in range(args.repeats)]
    medians: dict[str, tuple[float, float]] = {}
    for name in runs[0]:
        wall = sorted(run[name][0] * 1000 for run in runs)
        cpu = statistics.median(run[name][1] * 1000 for run in runs)
        medians[name] = statistics.median(wall), cpu
        print(f"{name:>11}: median {medians[name][0]:6.1f} ms wall, {cpu:6.1f} ms CPU"
              f"  (wall min {wall[0]:.1f}, max {wall[-1]:.1f})")
    for replay, bare in (("open", "bare open"), ("replay exec", "bare exec")):
        print(f"{replay} / {bare}: {medians[replay][0] / medians[bare][0]:.2f}x wall,"
              f" {medians[replay][1] / medians[bare][1]:.2f}x CPU")
    print(f"load average at the end: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
