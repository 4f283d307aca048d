"""How long ``war_tui.ui.fastpath.damage`` takes per frame, replaying real frames: this tree's against another revision's.

The whole program at 4 battles/s is too noisy (a shared 2-core machine) to time
a module that costs a millisecond or two per battle, so this records real
frames once and replays them, in the same process, through

- ``textual``: Textual's own ``render_segments`` (every cell of every dirty region; no shadow),
- ``baseline``: ``war_tui/ui/fastpath/damage.py`` as it is at ``--baseline`` (a git revision),
- ``current``: ``war_tui/ui/fastpath/damage.py`` as it is in this tree,

each from an empty shadow, in alternating passes, so the machine's load hits
all alike. It reports the median ms per frame of each, current/baseline, and
the bytes each writes per frame (current and baseline should be close: the
point is the same output for less work). The frames: the game of ``--seed``
in a 100x30 headless app, one battle per space key, so the log fills and then
scrolls a line per battle, as in auto-play.

Run:  .venv/bin/python benchmarks/damage_speed.py                 (about 30 s)
      .venv/bin/python benchmarks/damage_speed.py --baseline ceabeb9 --battles 300 --repeats 9
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from war_tui.settings.play import PlaySettings
from war_tui.ui.app import WarApp
from war_tui.ui.fastpath import damage
from war_tui.ui.fastpath.damage import CompositorUpdate

SIZE = (100, 30)


Frame = tuple[CompositorUpdate, "tuple[int, int, int] | None"]
"""An update and the battle log's scroll hint that came with it (``BattleLog.take_scroll``)."""


class Recorder(WarApp):
    """Keeps every compositor update the app would write, with its scroll hint (headless: nothing is written)."""

    frames: list[Frame]

    def frame_for_terminal(self, renderable):
        if isinstance(renderable, CompositorUpdate):
            self.frames.append((renderable, self.scroll_hint()))
        return renderable


async def record(seed: int, battles: int) -> tuple[list[Frame], object, int]:
    app = Recorder(PlaySettings(seed=seed), environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)
    app.frames = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(battles):
            await pilot.press("space")
            await pilot.pause()
        played = app.controller.game.battles if app.controller.game is not None else 0
    return app.frames, app.console, played


def load_revision(revision: str) -> ModuleType:
    """The ``damage`` module of ``revision``: its fastpath package imported under another name (a lone
    ``damage.py`` in earlier revisions, which imports nothing of its own)."""
    place = Path(tempfile.mkdtemp())
    for folder in ("war_tui/ui/fastpath", "war_tui"):  # the fastpath/ package, or the top-level damage.py before it
        archive = subprocess.run(["git", "archive", revision, folder], cwd=ROOT, capture_output=True)
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", str(place)], input=archive.stdout, check=True)
            break
    else:
        raise SystemExit(f"no war_tui at {revision}")
    package = place / folder
    if not (package / "damage.py").exists():
        raise SystemExit(f"no damage.py at {revision}")
    name = f"fastpath_{revision.replace('~', '_').replace('^', '_')}"
    spec = importlib.util.spec_from_file_location(name, package / "__init__.py", submodule_search_locations=[str(package)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return importlib.import_module(f"{name}.damage")


def replay(module: ModuleType | None, frames, console) -> tuple[float, int]:
    """Seconds for all frames and bytes written; ``None`` is Textual's own full write."""
    written = 0
    if module is None:
        start = time.perf_counter()
        for frame, _ in frames:
            written += len(frame.render_segments(console))
        return time.perf_counter() - start, written
    shadow = module.ScreenShadow()
    update = module.minimal_update
    hinted = "scroll_hint" in inspect.signature(update).parameters  # older revisions search unaided
    start = time.perf_counter()
    for frame, hint in frames:
        written += len(update(frame, shadow, console, SIZE, hint) if hinted else update(frame, shadow, console, SIZE))
    return time.perf_counter() - start, written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision of the damage.py to compare with")
    parser.add_argument("--seed", type=int, default=193)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    frames, console, played = asyncio.run(record(args.seed, args.battles))
    contenders: dict[str, ModuleType | None] = {
        "textual": None,
        f"baseline ({args.baseline})": load_revision(args.baseline),
        "current": damage,
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    sizes: dict[str, int] = {}
    for module in contenders.values():
        replay(module, frames, console)  # warm caches
    for _ in range(args.repeats):
        for name, module in contenders.items():
            seconds, sizes[name] = replay(module, frames, console)
            times[name].append(seconds)

    print(f"{len(frames)} frames, {played} battles, {SIZE[0]}x{SIZE[1]}, seed {args.seed}, {args.repeats} repeats")
    print(f"{'':22s} {'ms/frame':>9s} {'ms/battle':>10s} {'bytes/battle':>13s}")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name in contenders:
        per_frame = 1000 * medians[name] / len(frames)
        per_battle = 1000 * medians[name] / max(played, 1)
        print(f"{name:22s} {per_frame:9.3f} {per_battle:10.3f} {sizes[name] / max(played, 1):13.0f}")
    baseline = medians[f"baseline ({args.baseline})"]
    print(f"current / baseline: {medians['current'] / baseline:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
