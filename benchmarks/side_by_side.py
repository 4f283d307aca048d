"""CPU of two war-tui source trees on auto-play, run at the same time, each pinned to its own core.

Run one after the other, two runs of the same code on these shared machines
differ by 10-25%, more than most changes are worth. Here both run at once, each
on one core of its own (swapped every pair, so neither tree keeps the better
core), so both see the same moment's noise, and each pair gives a ratio. CPU is
every thread's time from ``/proc/<pid>/task/*/schedstat`` over the window, in a
100x30 pseudo-terminal with ``TERM=xterm-256color``, the same deal in both.

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
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time

COLS, ROWS = 100, 30
SEED = 193  # a long game: 1,846 battles


def cpu_seconds(pid: int) -> float:
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except OSError:
            pass
    return total / 1e9


def start(tree: str, core: int, speed: str) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:
        os.sched_setaffinity(0, {core})
        os.environ.update(TERM="xterm-256color", PYTHONPATH=os.path.abspath(tree))
        os.chdir("/")
        argv = [sys.executable, "-m", "war_tui", "--auto", "--speed", speed, "--seed", str(SEED), "--no-stats"]
        os.execv(sys.executable, argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    return pid, fd


def drain(fds: list[int], seconds: float) -> None:
    """Read (and drop) what the programs write, as a terminal would, for ``seconds``."""
    until = time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0:
        ready, _, _ = select.select(fds, [], [], min(left, 0.05))
        for fd in ready:
            try:
                os.read(fd, 65536)
            except OSError:
                pass


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
        (pa, fa), (pb, fb) = start(args.a, cores[n % 2], args.speed), start(args.b, cores[1 - n % 2], args.speed)
        try:
            drain([fa, fb], 3.0)  # start-up is not measured
            a0, b0 = cpu_seconds(pa), cpu_seconds(pb)
            drain([fa, fb], args.seconds)
            a, b = cpu_seconds(pa) - a0, cpu_seconds(pb) - b0
        finally:
            for pid, fd in ((pa, fa), (pb, fb)):
                os.write(fd, b"q")
            drain([fa, fb], 1.0)
            for pid, fd in ((pa, fa), (pb, fb)):
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
                os.waitpid(pid, 0)
                os.close(fd)
        shares.append(a / b)
        print(f"pair {n + 1}: A {a:.3f} s  B {b:.3f} s  A/B {a / b:.3f}", flush=True)
    print(f"A/B median {statistics.median(shares):.3f} over {args.pairs} pairs of {args.seconds:g} s at "
          f"{args.speed} battles/s (from {min(shares):.2f} to {max(shares):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
