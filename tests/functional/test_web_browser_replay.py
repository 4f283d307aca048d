"""A served game's replay in a real browser: ``/replay/GAME_ID#b=BATTLE`` opens at that battle with no name asked,
its keys step it, and the link it shows names the battle on show."""

from __future__ import annotations

import sys

import pytest
from replay_support import served_stats
from web_support import CHROMIUM, origin, served
from web_tab import Tab

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

playwright_api = pytest.importorskip("playwright.async_api", reason="needs Playwright: pip install playwright")

pytestmark = [
    pytest.mark.browser, pytest.mark.app,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium: apt-get install -y chromium"),
    pytest.mark.asyncio(loop_scope="module"),
]

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)



async def test_the_replay_page_opens_at_the_battle_of_its_address_and_steps_on(tmp_path, monkeypatch, chromium):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    async with served(tmp_path, {"argv": (*GAME, "--stats-db", str(stats))}) as (_srv, door), \
            await chromium.new_context(viewport={"width": 1400, "height": 760}) as context:
        tab = Tab(await context.new_page())
        await tab.page.goto(origin(door) + "/replay/1#b=5")  # no name to type: it starts at once
        await tab.until(f"battle 5 of {battles}")
        await tab.until(r"Replay of game 1: \[i\]ann v bo")
        assert await tab.page.is_hidden('#keys button[aria-label="Flip (space)"]')  # the bar holds a replay's keys
        await tab.page.keyboard.press("ArrowRight")
        await tab.until(f"battle 6 of {battles}")
        await tab.until(f"{origin(door)}/replay/1#b=6")
        assert not tab.policy_violations(), tab.policy_violations()[:2]
