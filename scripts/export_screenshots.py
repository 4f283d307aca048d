"""Regenerate screenshots/*.svg from the same app states the snapshot tests check.

    .venv/bin/python scripts/export_screenshots.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "functional"))

from war_ui_support import SCREEN_STATES  # noqa: E402


async def export(name: str, out_dir: Path) -> Path:
    size, factory, keys = SCREEN_STATES[name]
    app = factory()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        app.save_screenshot(f"{name}.svg", path=str(out_dir))
    return out_dir / f"{name}.svg"


async def main() -> None:
    out_dir = ROOT / "screenshots"
    out_dir.mkdir(exist_ok=True)
    for name in SCREEN_STATES:
        print(await export(name, out_dir))


if __name__ == "__main__":
    asyncio.run(main())
