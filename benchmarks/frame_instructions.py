"""Instructions a frame of war-tui costs against a bare Textual app's, counted by valgrind, whatever the machine's load.

CPU seconds on a shared machine move 10-25% from run to run; the instructions a program runs move by a few
percent (the event loop's idle waits), the bare app's by up to 10%: compare trees in one set. Each
program runs headless at 100x30 under ``valgrind --tool=callgrind`` twice: once to its first frame and once
on for ``--frames`` more, each frame rendered to the bytes a terminal would get (war-tui through its fast
path's shadow terminal when that is on). The difference over the frames is a frame's cost:
war-tui plays one battle a frame (flipped, wars shown whole, deal seed 193), the bare app
(``bare_app.py``) updates its Static once a frame. The report gives both and their ratio, the figure
``ui_speed.py``'s auto-play CPU ratio measures with a clock.

Run:  .venv/bin/python benchmarks/frame_instructions.py                 (about 5 minutes)
      .venv/bin/python benchmarks/frame_instructions.py --war-src /tmp/old   (another tree's war_tui)
Needs valgrind.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZE = (100, 30)
SEED = 193


def _rendering(cls: type[Any]) -> type[Any]:
    """``cls`` writing each frame's update as a terminal would get it, though headless."""

    class Rendering(cls):
        def _display(self, screen: object, renderable: Any) -> None:
            if renderable is None:
                return
            frame = self.frame_for_terminal(renderable) if hasattr(self, "frame_for_terminal") else renderable
            if hasattr(frame, "render_segments"):
                frame.render_segments(self.console)

    return Rendering


async def _frames(which: str, frames: int) -> None:
    """The program measured: its first frame, then ``frames`` more."""
    if which == "war":
        from war_tui.settings.play import PlaySettings
        from war_tui.ui.app import WarApp

        app = _rendering(WarApp)(PlaySettings(seed=SEED, war_step=0, names=("Alice", "Bob")))
        step = app.board.action_flip
    else:
        sys.path.insert(0, str(HERE))
        from bare_app import BareApp

        app = _rendering(BareApp)(0)
        step = app.action_tick
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        for _ in range(frames):
            step()
            await pilot.pause()


def instructions(which: str, frames: int, env: dict[str, str]) -> int:
    """Instructions valgrind counts for one run of ``_frames``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
             "--run", which, str(frames)],
            env={**os.environ, "PYTHONHASHSEED": "0", **env}, cwd=HERE, check=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError("valgrind wrote no instruction count")
        return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--war-src", help="measure the war_tui package in this directory")
    parser.add_argument("--fastpath", default="1", help="WAR_TUI_FASTPATH for war-tui's runs (0: public API alone)")
    parser.add_argument("--run", nargs=2, metavar=("WHICH", "FRAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        asyncio.run(_frames(args.run[0], int(args.run[1])))
        return 0
    war_env = {"WAR_TUI_FASTPATH": args.fastpath, **({"PYTHONPATH": args.war_src} if args.war_src else {})}
    runs = {(which, n): war_env if which == "war" else {} for which in ("bare", "war") for n in (0, args.frames)}
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(zip(runs, pool.map(lambda key: instructions(key[0], key[1], runs[key]), runs)))
    per_frame = {which: (counts[which, args.frames] - counts[which, 0]) / args.frames for which in ("bare", "war")}
    print(f"instructions a frame over {args.frames} frames at {SIZE[0]}x{SIZE[1]} (WAR_TUI_FASTPATH={args.fastpath}"
          f"{', ' + args.war_src if args.war_src else ''}):")
    print(f"  bare app  {per_frame['bare'] / 1e6:8.2f} M")
    print(f"  war-tui   {per_frame['war'] / 1e6:8.2f} M   ratio {per_frame['war'] / per_frame['bare']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
