"""War TV in a real browser: ``/tv`` waits for a live table, shows it with its spectators, and its key bar's Next."""

from __future__ import annotations

import sys

import pytest
from ssh_support.players import MANY, take_a_seat
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



async def test_the_tv_page_waits_then_shows_the_live_table_and_its_spectators(tmp_path, monkeypatch, chromium):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME, **MANY}, max_sessions_per_address=16) as (srv, door), \
            await chromium.new_context(viewport={"width": 1400, "height": 760}) as context:
        tab = await Tab(await context.new_page(), srv.logs, door).play(origin(door) + "/tv", "lou")
        await tab.until(r"No table is playing now")
        ann = await take_a_seat(srv.port, "ann", "table oak")
        try:
            await ann.glass.until(r"Table oak · ann \(you\)")
            ann.type(b"h")  # the house plays seat 2
            await ann.glass.until(r"the house plays seat 2")
            ann.type(b" ")
            await tab.until(r"Table oak · .*1 spectator · on War TV")
            await ann.glass.until(r"1 spectator")
            assert not tab.policy_violations(), tab.policy_violations()[:2]
        finally:
            ann.conn.close()
