"""CPU of two war-tui source trees on auto-play, run at the same time, each pinned to its own core.

Run one after the other, two runs of the same code on these shared machines
differ by 10-25%, more than most changes are worth. Here both run at once, each
on one core of its own (swapped every pair, so neither tree keeps the better
core), so both see the same moment's noise, and each pair gives a ratio. Each
runs in ``ui_speed``'s pseudo-terminal (100x30, ``TERM=xterm-256color``, output
drained), the same deal in both; CPU is ``ui_speed``'s reading of every thread.

Each tree is a directory holding a ``war_tui`` package with its styles beside
it as ``war_tui/styles``; to measure a git revision:

    mkdir -p /tmp/old && git archive REV war_tui styles | tar -x -C /tmp/old \\
        && mv /tmp/old/styles /tmp/old/war_tui/styles
    mkdir -p /tmp/new && cp -r war_tui /tmp/new/ && cp -r styles /tmp/new/war_tui/styles
    .venv/bin/python benchmarks/side_by_side.py /tmp/new /tmp/old          # 8 pairs of 30 s at 4 battles/s

Needs Linux and two CPUs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ui_speed import AUTO_SEED, WAR, Terminal


def start(tree: str, core: int, speed: str) -> Terminal:
    term = Terminal([*WAR, "--auto", "--speed", speed, "--seed", str(AUTO_SEED), "--no-stats"],
                    {"PYTHONPATH": os.path.abspath(tree)})
    os.sched_setaffinity(term.pid, {core})  # before the interpreter starts its threads, which inherit it
    return term


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="source tree A (the one reported as a share of B)")
    parser.add_argument("b", help="source tree B")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window of each pair")
    parser.add_argument("--speed", default="4", help="battles per second (as --speed takes it)")
    args = parser.parse_args()
    if len(os.sched_getaffinity(0)) < 2:
        print("side_by_side: needs two CPUs", file=sys.stderr)
        return 2
    cores = sorted(os.sched_getaffinity(0))[:2]
    shares = []
    for n in range(args.pairs):
        with start(args.a, cores[n % 2], args.speed) as ta, start(args.b, cores[1 - n % 2], args.speed) as tb:
            time.sleep(3.0)  # start-up is not measured
            a0, b0 = ta.cpu_seconds(), tb.cpu_seconds()
            time.sleep(args.seconds)
            a, b = ta.cpu_seconds() - a0, tb.cpu_seconds() - b0
        shares.append(a / b)
        print(f"pair {n + 1}: A {a:.3f} s  B {b:.3f} s  A/B {a / b:.3f}", flush=True)
    print(f"A/B median {statistics.median(shares):.3f} over {args.pairs} pairs of {args.seconds:g} s at "
          f"{args.speed} battles/s (from {min(shares):.2f} to {max(shares):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
