"""How fast the engine plays War headless, against the tightest plain loop we can write.

Run:  .venv/bin/python benchmarks/engine_speed.py [--games 3000] [--repeats 5] [--seed 1]

Four contenders play the very same games (the seeds ``war-tui simulate --seed S``
derives, the same shuffle and deal), side by side in one run, round-robin so a
busy machine slows them all alike:

  floor       a hand-written loop for the default rules only: ranks as ints in two
              deques, no events, no rule options, no bookkeeping beyond the battle count
  engine      ``Game.deal(seed).play()``, the engine's headless path
  simulate 1  what ``war-tui simulate --jobs 1`` runs (in this process: no start-up)
  simulate 2  the same with ``--jobs 2`` (two worker processes, forked per run)

Before timing, the floor and the engine must agree on every game's result and
length, so the floor cannot win by playing different (shorter) games. Reported:
medians over the repeats of wall time and of CPU time (this process plus its
workers; steadier when other work shares the machine), games/s, battles/s, and
the ratios the README quotes.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import deque
from random import Random

from war_tui.commands.simulate import game_seed, simulate
from war_tui.core.engine import Game
from war_tui.core.rules import Rules

P1, P2, DRAW, STOPPED = "p1", "p2", "draw", "stopped"


def floor_game(seed: int, cap: int = 10_000) -> tuple[str, int]:
    """One game under the default rules, as tight as plain Python gets; returns (result, battles)."""
    rand = Random(seed).random
    deck = list(range(52))
    for i in range(51, 0, -1):  # the engine's Fisher-Yates on random(), so the deal is the same
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    # Suits never matter under the default rules: play ranks only.
    p1 = deque([c >> 2 for c in deck[0::2]])
    p2 = deque([c >> 2 for c in deck[1::2]])
    pop1, pop2, put1, put2 = p1.popleft, p2.popleft, p1.extend, p2.extend
    for n in range(1, cap + 1):
        a = pop1()
        b = pop2()
        if a > b:
            put1((a, b))
            if not p2:
                return P1, n
        elif b > a:
            put2((b, a))
            if not p1:
                return P2, n
        else:
            laid1 = [a]
            laid2 = [b]
            while a == b:
                if len(p1) < 2 or len(p2) < 2:
                    short1, short2 = len(p1) < 2, len(p2) < 2
                    return (DRAW if short1 and short2 else P2 if short1 else P1), n
                laid1.append(pop1())
                laid2.append(pop2())
                a = pop1()
                b = pop2()
                laid1.append(a)
                laid2.append(b)
            if a > b:
                put1(laid1)
                put1(laid2)
                if not p2:
                    return P1, n
            else:
                put2(laid2)
                put2(laid1)
                if not p1:
                    return P2, n
    return STOPPED, cap


def run_floor(seeds: list[int]) -> int:
    battles = 0
    for seed in seeds:
        battles += floor_game(seed)[1]
    return battles


def run_engine(seeds: list[int]) -> int:
    battles = 0
    deal = Game.deal
    for seed in seeds:
        game = deal(seed)
        game.play()
        battles += game.battles
    return battles


def check_same_games(seeds: list[int]) -> None:
    for seed in seeds:
        game = Game.deal(seed)
        game.play()
        assert game.result is not None  # played to the end
        expected = (game.result.value, game.battles)
        if floor_game(seed) != expected:
            sys.exit(f"floor and engine disagree on seed {seed}: {floor_game(seed)} vs {expected}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    check_same_games(seeds)
    rules = Rules()

    contenders = {
        "floor": lambda: run_floor(seeds),
        "engine": lambda: run_engine(seeds),
        "simulate --jobs 1": lambda: simulate(args.games, args.seed, rules, 1).total_battles,
        "simulate --jobs 2": lambda: simulate(args.games, args.seed, rules, 2).total_battles,
    }
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    battles: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, play in contenders.items():  # round-robin: load changes hit everyone
            cpu_before, wall_before = _cpu(), time.perf_counter()
            battles[name] = play()
            wall[name].append(time.perf_counter() - wall_before)
            cpu[name].append(_cpu() - cpu_before)
    assert len(set(battles.values())) == 1, battles  # all played the same games

    total = battles["floor"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{args.games:,} games ({total:,} battles), {args.repeats} repeats, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {load:.1f} at the end"
    )
    med = {name: statistics.median(samples) for name, samples in wall.items()}
    med_cpu = {name: statistics.median(samples) for name, samples in cpu.items()}
    print(
        f"{'':18} {'wall s':>7} {'games/s':>8} {'battles/s':>10} {'vs floor':>8}"
        f"   {'CPU s':>6} {'vs floor':>8}"
    )
    for name in contenders:
        print(
            f"{name:18} {med[name]:7.3f} {args.games / med[name]:8,.0f} {total / med[name]:10,.0f}"
            f" {med[name] / med['floor']:7.2f}x   {med_cpu[name]:6.3f} {med_cpu[name] / med_cpu['floor']:7.2f}x"
        )
    print(
        f"engine / floor: {med['engine'] / med['floor']:.2f}x wall, "
        f"{med_cpu['engine'] / med_cpu['floor']:.2f}x CPU (goal: at most 1.5x)"
    )
    print(
        f"--jobs 2 over --jobs 1: {med['simulate --jobs 1'] / med['simulate --jobs 2']:.2f}x faster (wall; goal: "
        "close to 2x with two free cores)"
    )
    print("CPU s counts this process and its finished workers; on a busy machine it is the steadier ratio.")


def _cpu() -> float:
    """CPU seconds used by this process and the workers it has reaped."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


if __name__ == "__main__":
    main()
