"""What the shared stylesheets (``war_tui/ui/fastpath/stylesheets.py``) save a game forked from serve-ssh's parent.

One parent warms up as ``python -m war_tui.preload --warm`` does (``war_tui.preload.warm``:
imports, a headless frame, the parsed stylesheets shared), then forks children in pairs,
one with the shared parse and one without (the seeding undone in that child), alternating
which goes first; each child runs the app headless at 100x30 to its first frame and reports
its CPU time (user + system) from its own start. Medians and the ratio of each pair.

Run:  .venv/bin/python benchmarks/stylesheet_seed.py --pairs 9
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def first_frame(seeded: bool) -> float:
    """In a forked child: CPU seconds from here to the app's first frame."""
    from textual.css.stylesheet import Stylesheet

    from war_tui.settings.play import PlaySettings
    from war_tui.ui.app import WarApp
    from war_tui.ui.fastpath import stylesheets

    if not seeded:
        stylesheets._shared.clear()  # every new stylesheet parses its own
    assert getattr(Stylesheet.__init__, "_war_tui_seeded", False)
    start = time.process_time()

    async def run() -> None:
        app = WarApp(PlaySettings(seed=1), stats=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()

    asyncio.run(run())
    return time.process_time() - start


def child(seeded: bool) -> float:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.write(write, struct.pack("d", first_frame(seeded)))
        os._exit(0)
    os.close(write)
    data = os.read(read, 8)
    os.close(read)
    os.waitpid(pid, 0)
    return struct.unpack("d", data)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=9)
    args = parser.parse_args()
    from war_tui.preload import warm

    warm()
    seeded: list[float] = []
    plain: list[float] = []
    for pair in range(args.pairs):
        for kind in ((True, False) if pair % 2 else (False, True)):
            (seeded if kind else plain).append(child(kind))
    ratios = [s / p for s, p in zip(seeded, plain)]
    print(f"CPU to the first frame of a forked game, {args.pairs} pairs, load average {os.getloadavg()[0]:.1f}")
    print(f"  shared stylesheets  {1000 * statistics.median(seeded):6.0f} ms  ({', '.join(f'{1000 * v:.0f}' for v in seeded)})")
    print(f"  parsed afresh       {1000 * statistics.median(plain):6.0f} ms  ({', '.join(f'{1000 * v:.0f}' for v in plain)})")
    print(f"  pair ratios {', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
