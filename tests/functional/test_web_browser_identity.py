"""Who a browser is, in Chromium: another site can neither rebind a name to the door nor replace an identity.

Chromium resolves the made-up names ``evil.test`` (a rebinding site) and ``linker.test`` (a site that links
to the game) to 127.0.0.1, as DNS would after a rebinding.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from ssh_support import TIMEOUT, start_server, until
from ssh_support.players import GAME, MANY
from web_support import CHROMIUM, CHROMIUM_ARGS, open_door, origin, served
from web_tab import Tab

playwright_api = pytest.importorskip("playwright.async_api", reason="needs Playwright: pip install playwright")

pytestmark = [
    pytest.mark.browser, pytest.mark.app,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium: apt-get install -y chromium"),
]

NAMES = "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP linker.test 127.0.0.1"


@pytest.fixture
async def context():
    async with playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, NAMES], headless=True)
        try:
            context = await browser.new_context(viewport={"width": 1100, "height": 760})
            yield context
            await context.close()
        finally:
            await browser.close()


async def test_a_name_rebound_to_the_door_gets_no_page_and_no_game(tmp_path, context):
    async with served(tmp_path) as (srv, door):
        page = await context.new_page()
        response = await page.goto(f"http://evil.test:{door.port}/table/rebind")
        assert response.status == 421
        assert "xterm" not in await page.content()
        # No page, no game, no seat (rebinding sites: test_web_hosts.py).
        assert not door.sessions and not any("web connect" in line for line in srv.logs)
        assert door.server.tables.registry.table("rebind") is None


def connects(logs: list[str]) -> list[tuple[str, str]]:
    """Each browser game's (seat name, identity), from the log's ``web connect`` lines."""
    return [(found[1], found[2]) for line in logs if (found := re.search(r"^web connect .* as (\S+) \[(\S+)\]", line))]


async def test_a_link_from_another_site_keeps_who_you_are_and_waits_for_play(tmp_path, monkeypatch, context):
    from aiohttp import web

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    srv = await start_server(tmp_path, None, argv=GAME, **MANY)
    door = await open_door(srv.server, max_sessions_per_address=8)

    async def linking_page(request):
        link = f"http://127.0.0.1:{door.port}/table/oak"
        return web.Response(text=f'<!doctype html><title>elsewhere</title><a id="go" href="{link}">play war</a>',
                            content_type="text/html")

    elsewhere = web.Application()
    elsewhere.router.add_get("/", linking_page)
    runner = web.AppRunner(elsewhere, shutdown_timeout=0.5)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        alice = await Tab(await context.new_page(), srv.logs, door).play(origin(door) + "/table/oak", "alice")
        await alice.until(r"Table oak · .*alice \(you\)")
        await until(lambda: connects(srv.logs))
        [(seat_name, identity)] = connects(srv.logs)
        assert seat_name == "alice"
        await alice.page.keyboard.press("Space")  # the table moved: her seat is kept when she goes
        await alice.until(r"alice \(you\) flipped")
        await alice.page.close()
        await until(lambda: not door.sessions)

        # Another site links to the table: the page knows her, and waits for her.
        tab = Tab(await context.new_page(), srv.logs, door)
        await tab.page.goto(f"http://linker.test:{runner.addresses[0][1]}/")
        await tab.page.click("#go")
        await tab.page.wait_for_url(origin(door) + "/table/oak")
        status = ""
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while "nothing has started" not in (status := await tab.page.inner_text("#status")):
            assert asyncio.get_running_loop().time() < deadline, f"{status!r}\n{await tab.circumstances()}"
            await asyncio.sleep(0.1)
        assert "Press Play to start" in await tab.screen()
        assert await tab.page.input_value("#name") == "alice"
        assert not door.sessions and len(connects(srv.logs)) == 1  # no game, no seat by itself

        await tab.page.click("#play")
        await tab.until(r"Table oak · .*alice \(you\)")
        await until(lambda: len(connects(srv.logs)) == 2)
        assert connects(srv.logs)[1] == ("alice", identity)  # the same person in the same seat: no alice-2

        # A second tab of hers is the same person (its seat is the table's rule).
        second = Tab(await context.new_page(), srv.logs, door)
        await second.page.goto(origin(door) + "/table/oak")
        await until(lambda: len(connects(srv.logs)) == 3)
        assert connects(srv.logs)[2][1] == identity
    finally:
        await runner.cleanup()
        await door.stop()
        await srv.server.stop()

