"""What a table's checkpoint costs: its size, and the time to take it and to restore it.

Run:  .venv/bin/python benchmarks/table_checkpoint.py [--runs 2000] [--seed 7]

Tables on a fake clock, two players with key-like identities and hashed addresses flipping by hand, checkpointed
at the start of a game, a few battles in, with a full log (the default 100 lines), at game over, and late in a long
game (the restore replays every battle). Reported per table: the checkpoint's bytes, and the median over
``--runs`` of ``checkpoint(table)`` and of ``restore(data)`` (which checks every field and replays the game).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from war_tui.core.engine import Game
from war_tui.tables import FakeClock, Table, TableOptions
from war_tui.tables.checkpoint import checkpoint, restore


def table_at(battles: int, seed: int) -> tuple[Table, FakeClock]:
    """A table of ``seed``'s game, ``battles`` battles in (or at its end), every flip 0.3 s apart."""
    clock = FakeClock()
    table = Table("oak", clock=clock, seed_source=lambda: seed)
    ann = table.join("ann", lambda _: None, identity="key:SHA256:" + "a" * 43, address="addr:" + "1" * 16)
    bob = table.join("bob", lambda _: None, identity="key:SHA256:" + "b" * 43, address="addr:" + "2" * 16)
    while table.game.battles < battles and not table.game.over:
        ann.flip()
        bob.flip()
        clock.advance(0.3)
    return table, clock


def median_us(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def long_seed(low: int) -> tuple[int, int]:
    """The first seed from ``low`` whose game lasts over 1,500 battles, and its length."""
    seed = low
    while True:
        game = Game.deal(seed)
        game.play()
        if game.battles > 1500:
            return seed, game.battles
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    length = Game.deal(args.seed)
    length.play()
    far, far_length = long_seed(args.seed)
    cases = [
        ("a new game", 0, args.seed),
        ("10 battles in", 10, args.seed),
        ("a full log (100 lines)", 150, args.seed),
        (f"game over ({length.battles} battles)", length.battles, args.seed),
        (f"a long game, battle {far_length - 1}", far_length - 1, far),
    ]
    options = TableOptions()
    print(f"{'table':<36}{'bytes':>7}{'checkpoint':>14}{'restore':>12}")
    for label, battles, seed in cases:
        table, clock = table_at(battles, seed)
        data = checkpoint(table)
        runs = args.runs if battles < 1000 else max(1, args.runs // 5)
        taken = median_us(partial(checkpoint, table), runs)
        back = median_us(partial(restore, data, clock=clock, options=options), runs)
        print(f"{label:<36}{len(data):>7}{taken:>11.0f} us{back:>9.0f} us")


if __name__ == "__main__":
    main()
