"""``war-tui simulate``: play many games headless and report what they add up to.

Every game is an ordinary ``Game.deal(seed, rules).play()``, game ``i`` of seed ``S`` dealt from
``game_seed(S, i)``, so any game in the report replays with ``war-tui game --seed``. Chunks' tallies
merge in any order to the same totals: ``--jobs 4`` reports what ``--jobs 1`` does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING

from ..core.engine import Game
from ..core.rules import EndReason, Gather, Result, Rules
from ..presentation.words import deepest_war_text, number, plural
from ..settings.options import SEED, add_flags
from ..settings.values import positive_int
from .common import Commands, add_rule_flags, rules_from_args

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

# Below 2**48: short to type, and exact in JSON readers that round past 2**53.
GAME_SEED_BITS = 48
MAX_CHUNK = 250  # games per chunk: small enough that Ctrl-C and the progress bar stay prompt
CHUNKS_PER_JOB = 20  # so one slow chunk (games at the cap) leaves no job idle
IN_FLIGHT_PER_JOB = 3
WAIT_POLL = 0.1
"""Seconds between looks at a noted Ctrl-C while the workers play."""
# Days of play (10 µs a game a core); a typo like 10**20 would never end.
MAX_GAMES = 10**9
# Workers past the cores take turns, and each is a process: a typo must not start 100,000.
JOBS_PER_CORE = 4

_SHORT_REASONS = (EndReason.SHORT_IN_WAR, EndReason.BOTH_SHORT)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a simulation seeded ``seed``.

    The first 6 bytes of BLAKE2b("<seed>:<index>", person "war-tui-simulate")
    read big-endian: stable on every machine and Python, computable for any
    game on its own (workers need nothing but the chunk bounds), and unrelated
    for nearby simulation seeds, so ``--seed 1`` and ``--seed 2`` share no games.
    """
    digest = hashlib.blake2b(
        f"{seed}:{index}".encode(), digest_size=GAME_SEED_BITS // 8, person=b"war-tui-simulate"
    ).digest()
    return int.from_bytes(digest, "big")


@dataclass
class Tally:
    """What a run of games adds up to; merging tallies in any order gives the same totals."""

    games: int = 0
    results: Counter[str] = field(default_factory=Counter)
    battles: Counter[int] = field(default_factory=Counter)  # battles per game -> how many games
    total_battles: int = 0
    total_wars: int = 0
    ended_short: int = 0
    # (battles, index, seed) of the longest game; on a tie the earliest game wins.
    longest: tuple[int, int, int] | None = None
    # (depth, index, seed) of the game with the deepest chain of wars.
    deepest: tuple[int, int, int] | None = None

    def add_game(self, index: int, seed: int, game: Game) -> None:
        n = game.battles
        self.games += 1
        self.results[str(game.result)] += 1
        self.battles[n] += 1
        self.total_battles += n
        self.total_wars += game.wars
        if game.reason in _SHORT_REASONS:
            self.ended_short += 1
        if self.longest is None or n > self.longest[0]:
            self.longest = (n, index, seed)
        if self.deepest is None or game.longest_war > self.deepest[0]:
            self.deepest = (game.longest_war, index, seed)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.results.update(other.results)
        self.battles.update(other.battles)
        self.total_battles += other.total_battles
        self.total_wars += other.total_wars
        self.ended_short += other.ended_short
        self.longest = _better(self.longest, other.longest)
        self.deepest = _better(self.deepest, other.deepest)


def _better(a: tuple[int, int, int] | None, b: tuple[int, int, int] | None) -> tuple[int, int, int] | None:
    """The larger value; on a tie the earlier game."""
    if a is None or b is None:
        return a if b is None else b
    return min(a, b, key=lambda t: (-t[0], t[1]))


def play_chunk(seed: int, start: int, stop: int, war_cards: int, gather: str, max_battles: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` of the simulation; runs in a worker process."""
    rules = Rules(war_cards=war_cards, gather=Gather(gather), max_battles=max_battles)
    tally = Tally()
    for index in range(start, stop):
        s = game_seed(seed, index)
        game = Game.deal(s, rules)
        game.play()
        tally.add_game(index, s, game)
    return tally


def chunk_size(games: int, jobs: int) -> int:
    return max(1, min(MAX_CHUNK, math.ceil(games / (jobs * CHUNKS_PER_JOB))))


def chunks(games: int, jobs: int) -> Iterator[tuple[int, int]]:
    """The games cut into (start, stop) bounds, made one at a time: memory stays flat for any --games."""
    size = chunk_size(games, jobs)
    for start in range(0, games, size):
        yield start, min(games, start + size)


def chunk_count(games: int, jobs: int) -> int:
    return math.ceil(games / chunk_size(games, jobs))


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _init_worker(parent: int) -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what it means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        # Die with the parent (`kill`, `timeout`) rather than linger as orphans.
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)  # the parent died before we could ask to follow it


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Forking the workers: a Ctrl-C is only noted, then acted on once they exist.

    Each worker is born with this handler (harmless there: it notes and nothing reads the note)
    until its initializer ignores SIGINT, so no moment exists where Ctrl-C kills one.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted:
            signal.raise_signal(signal.SIGINT)  # now handled as any Ctrl-C


@contextmanager
def _interrupted_once() -> Iterator[None]:
    """The first Ctrl-C raises KeyboardInterrupt; every later one is ignored.

    A second Ctrl-C landing in the clean-up (the pool's shutdown, the progress bar's thread)
    would break it halfway and leave the exit waiting on idle workers forever. Once interrupted,
    the run only winds down, so SIGINT stays ignored until the process ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt)
    interrupted = False
    try:
        yield
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if not interrupted:
            signal.signal(signal.SIGINT, previous)


@contextmanager
def _sigint_noted() -> Iterator[list[int]]:
    """While the pool runs, a Ctrl-C is noted and acted on between waits, never raised inside them.

    A KeyboardInterrupt raised inside ``concurrent.futures``' ``wait`` or ``submit`` can leave a future's
    lock held, and the pool's manager thread then waits on it at exit: the run would never end. Once noted,
    SIGINT stays ignored, as ``_interrupted_once`` has it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    noted: list[int] = []

    def note(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        noted.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield noted
    finally:
        if not noted:
            signal.signal(signal.SIGINT, previous)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop at once: end the workers playing their chunks (a chunk of games that run to a large
    --max-battles could take minutes), then wait for the pool's manager thread, which drops the chunks
    not started once it sees them gone. Left running, that thread closes its wake-up pipe while the
    interpreter's exit writes to it, and Python 3.11 prints a traceback (EBADF) at exit."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    for child in children:
        child.join(5)
        if child.is_alive():
            child.kill()
            child.join()
    pool.shutdown(wait=True, cancel_futures=True)


# ----------------------------------------------------------------- statistics


def percentile(histogram: Counter[int], total: int, fraction: float) -> int:
    """Nearest-rank percentile: the smallest value at least ``fraction`` of the games reach at most."""
    rank = max(1, math.ceil(fraction * total))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    raise ValueError("empty histogram")


def median(histogram: Counter[int], total: int) -> float:
    """The usual median: the middle value, or the mean of the two middle values."""
    lower = _nth(histogram, (total - 1) // 2)
    upper = _nth(histogram, total // 2)
    return (lower + upper) / 2


def _nth(histogram: Counter[int], n: int) -> int:
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen > n:
            return value
    raise ValueError("empty histogram")


def report(tally: Tally, seed: int, rules: Rules, jobs: int, seconds: float) -> dict[str, object]:
    n = tally.games
    assert tally.longest is not None and tally.deepest is not None
    seconds = max(seconds, 1e-9)
    return {
        "seed": seed,
        "games": n,
        "rules": rules.to_dict(),
        "results": {r.value: tally.results[r.value] / n for r in Result},
        "result_counts": {r.value: tally.results[r.value] for r in Result},
        "battles": {
            "mean": tally.total_battles / n,
            "median": median(tally.battles, n),
            "p90": percentile(tally.battles, n, 0.90),
            "p99": percentile(tally.battles, n, 0.99),
            "max": tally.longest[0],
            "total": tally.total_battles,
        },
        "wars_per_game": tally.total_wars / n,
        "ended_short_in_war": tally.ended_short / n,
        "longest_game": {"seed": tally.longest[2], "game": tally.longest[1], "battles": tally.longest[0]},
        "deepest_war": {"seed": tally.deepest[2], "game": tally.deepest[1], "depth": tally.deepest[0]},
        "speed": {
            "jobs": jobs,
            "seconds": round(seconds, 3),
            "games_per_s": round(n / seconds, 1),
            "battles_per_s": round(tally.total_battles / seconds, 1),
        },
    }


def _pct(share: float) -> str:
    return f"{share * 100:.1f}%"


def _tenths_adding_to_1000(counts: list[int]) -> list[int]:
    """Shares in tenths of a percent that add up to exactly 100.0% (largest remainder;
    on a tie the earlier result), so "49.1% and 50.8%" never reads as 99.9%."""
    total = sum(counts)
    tenths = [c * 1000 // total for c in counts]
    by_remainder = sorted(range(len(counts)), key=lambda i: (-(counts[i] * 1000 % total), i))
    for i in by_remainder[: 1000 - sum(tenths)]:
        tenths[i] += 1
    return tenths


def text_report(data: dict, rules: Rules) -> str:
    p1, p2, draw, stopped = (
        f"{t // 10}.{t % 10}%" for t in _tenths_adding_to_1000([data["result_counts"][r.value] for r in Result])
    )
    battles = data["battles"]
    longest = data["longest_game"]
    deepest = data["deepest_war"]
    speed = data["speed"]
    flags = rules.replay_flags()
    jobs = speed["jobs"]
    lines = [
        f"{plural(data['games'], 'game')} of War, seed {data['seed']}, {rules.describe()}",
        f"  replay the whole run: war-tui simulate --games {data['games']} --seed {data['seed']}{flags}",
        "",
        f"Results:  player 1 {p1}   player 2 {p2}   draw {draw}   stopped {stopped}",
        "Battles per game:  mean {}   median {}   p90 {}   p99 {}   max {}".format(
            number(battles["mean"]), number(battles["median"]), number(battles["p90"]),
            number(battles["p99"]), number(battles["max"]),
        ),
        f"Wars per game: {data['wars_per_game']:.2f}   "
        f"ended with a player short in a war: {_pct(data['ended_short_in_war'])}",
        f"Longest game: {plural(longest['battles'], 'battle')}   war-tui game --seed {longest['seed']}{flags}",
        f"Deepest war: {deepest_war_text(deepest['depth'])}   war-tui game --seed {deepest['seed']}{flags}",
        "",
        f"Speed: {speed['seconds']:.2f} s with {plural(jobs, 'job')}:"
        f" {speed['games_per_s']:,.0f} games/s, {speed['battles_per_s']:,.0f} battles/s",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------- running


def _play_in_pool(
    submit: Callable[[int], set[Future[Tally]]], first: int, total: Tally, on_progress: Callable[[int], None] | None,
) -> None:
    """Keep the workers busy until every chunk is played into ``total``; a noted Ctrl-C raises between waits."""
    with _sigint_noted() as noted:
        with _sigint_held():
            pending = submit(first)
        if on_progress:
            on_progress(0)
        while pending:
            if noted:
                raise KeyboardInterrupt
            done, pending = wait(pending, timeout=WAIT_POLL, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                total.merge(part)
                if on_progress:
                    on_progress(part.games)
            if noted:
                raise KeyboardInterrupt
            pending |= submit(len(done))


def simulate(
    games: int,
    seed: int,
    rules: Rules,
    jobs: int,
    on_progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play the simulation's games, in this process (one job) or in worker processes."""
    args = (rules.war_cards, rules.gather.value, rules.max_battles)
    parts = chunks(games, jobs)
    count = chunk_count(games, jobs)
    total = Tally()
    if jobs == 1 or count == 1:
        if on_progress:
            on_progress(0)
        for start, stop in parts:
            total.merge(play_chunk(seed, start, stop, *args))
            if on_progress:
                on_progress(stop - start)
        return total
    workers = min(jobs, count)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(os.getpid(),))
    todo = parts

    def submit(n: int) -> set[Future[Tally]]:
        return {pool.submit(play_chunk, seed, start, stop, *args) for start, stop in islice(todo, n)}

    try:
        # A few chunks a worker: busy workers, a cheap wait(), a prompt Ctrl-C. The first
        # submit forks the workers, before any progress-bar thread.
        _play_in_pool(submit, workers * IN_FLIGHT_PER_JOB, total, on_progress)
    except BaseException:  # Ctrl-C, or a worker's failure: nothing more to wait for
        _end_workers(pool)
        raise
    pool.shutdown(wait=True)
    return total


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play many games without a screen and report the statistics",
        description="Play many games of War without a screen and report results, game lengths and speed. "
        "Game i (from 0) uses a seed derived from --seed (BLAKE2b of '<seed>:<i>'); the report names the "
        "seeds worth replaying with 'war-tui game --seed'.",
    )
    parser.add_argument("--games", type=positive_int("--games", MAX_GAMES), required=True, metavar="N",
                        help=f"how many games to play, 1 to {MAX_GAMES:,}")
    add_flags(parser, [replace(SEED, help="seed the run, {low} to {high} (default: a fresh random one, shown in the report)",
                               group="")])
    cores = default_jobs()
    parser.add_argument("--jobs", type=positive_int("--jobs", JOBS_PER_CORE * cores), metavar="J",
                        help=f"worker processes, 1 to {JOBS_PER_CORE} per core, here 1 to {JOBS_PER_CORE * cores}"
                        f" (default: all cores, here {cores}); any J gives the same numbers")
    add_rule_flags(parser)
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    games = args.games
    jobs = args.jobs if args.jobs is not None else default_jobs()
    jobs = min(jobs, chunk_count(games, jobs))  # more workers than chunks would sit idle
    done = 0
    bar = ProgressBar(games) if sys.stderr.isatty() else None

    def on_progress(n: int) -> None:
        nonlocal done
        done += n
        if bar is not None:
            bar.advance(n)

    began = time.perf_counter()
    try:
        with _interrupted_once():
            try:
                tally = simulate(games, seed, rules, jobs, on_progress)
            finally:
                if bar is not None:
                    bar.close()
    except KeyboardInterrupt:
        sys.stderr.write(f"war-tui simulate: interrupted after {done:,} of {plural(games, 'game')}, no report\n")
        return 130
    seconds = time.perf_counter() - began
    data = report(tally, seed, rules, jobs, seconds)
    if args.json:
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        sys.stdout.write(text_report(data, rules) + "\n")
    return 0


class ProgressBar:
    """A rich progress bar on stderr, started at the first update (after any workers were forked)."""

    def __init__(self, games: int) -> None:
        self.games = games
        self._bar: tuple[Progress, TaskID] | None = None  # rich's bar and its one task, once started

    def advance(self, n: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            progress = Progress(
                TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )
            progress.start()
            self._bar = (progress, progress.add_task("games", total=self.games))
        if n:
            progress, task = self._bar
            progress.advance(task, n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar[0].stop()
