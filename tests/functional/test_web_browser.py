"""The web door in a real browser: Debian's chromium, driven by Playwright, against the real game.

Each test loads the page, picks a name and plays; what a player sees is read from xterm.js's rows.
Screenshots of the page go to screenshots/ (web-*.png) when WAR_TUI_SCREENSHOTS=1, elsewhere to the test's own folder,
so a test run leaves the checkout as it was.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import pytest_asyncio
from ssh_support import TIMEOUT, InProcessServer, connect, until, wait_gone
from ssh_support.players import Player
from web_support import CHROMIUM, origin, served
from web_tab import GAME_TIMEOUT, SCREENSHOTS, Tab

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP
from war_tui.web.server import WebDoor

playwright_api = pytest.importorskip("playwright.async_api", reason="needs Playwright: pip install playwright")

pytestmark = [
    pytest.mark.browser, pytest.mark.app,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium: apt-get install -y chromium"),
    pytest.mark.asyncio(loop_scope="module"),  # one browser for the module's tests (each has contexts of its own)
]

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)  # the real game, as serve-ssh starts it
MANY = {"max_sessions_per_address": 64}



@pytest_asyncio.fixture(loop_scope="module")
async def context(chromium):
    context = await chromium.new_context(viewport={"width": 1100, "height": 760})
    try:
        yield context
    finally:
        await context.close()


async def test_a_browser_plays_solo_with_space_and_a_click_and_its_tab_closing_ends_the_game(tmp_path, monkeypatch, context):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = await Tab(await context.new_page()).play(origin(door) + "/", "ann", shot="web-join.png")
        await tab.until(r"Battle 1 · Wars|Player 1 26")
        await tab.page.keyboard.press("Space")
        await tab.until(r"^│\s+1\s.*\d+·\d+")  # battle 1 in the log
        await tab.click_pile()
        await tab.until(r"^│\s+2\s.*\d+·\d+")  # a click flipped battle 2
        SCREENSHOTS.mkdir(exist_ok=True)
        await tab.page.screenshot(path=str(SCREENSHOTS / "web-solo.png"))
        assert not tab.policy_violations(), tab.policy_violations()[:2]
        session = next(iter(door.sessions))
        pid = session.story.process.pid
        await tab.page.close()
        assert await wait_gone(pid)  # the game ended with the tab
        await until(lambda: not door.sessions)
        assert any(line.startswith("web disconnect") and "client left" in line for line in srv.logs)


async def test_the_page_opens_on_a_running_game_whose_keys_flip_the_name_box_plays_under_a_name_and_shift_tab_leaves(
    tmp_path, monkeypatch, context,
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = Tab(await context.new_page())
        await tab.page.goto(origin(door) + "/")  # nothing typed, nothing clicked
        await tab.until(r"Battle 1 · Wars|Player 1 26")
        assert await tab.focused() == "xterm-helper-textarea"
        await tab.page.keyboard.press("Space")
        await tab.until(r"^│\s+1\s.*\d+·\d+")  # battle 1 in the log
        assert await tab.page.input_value("#name") == ""
        await tab.page.click("#name")  # the name box, for someone who wants it
        await tab.page.keyboard.type("bob")
        await tab.page.keyboard.press("Enter")
        await asyncio.wait_for(until(lambda: any("name='bob'" in line for line in srv.logs)), TIMEOUT)
        await tab.until(r"Battle 1 · Wars|Player 1 26")
        assert await tab.focused() == "xterm-helper-textarea"
        await tab.page.keyboard.press("Space")
        await tab.until(r"^│\s+1\s.*\d+·\d+")
        await until(lambda: len(door.sessions) == 1)  # the guest's game ended as bob's began
        # Shift+Tab leaves the game for the page: the keyboard is never trapped.
        await tab.page.keyboard.press("Shift+Tab")
        assert await tab.page.evaluate("document.activeElement.textContent") == "Tables"
        await tab.page.keyboard.press("Shift+Tab")
        assert await tab.page.evaluate("document.activeElement.textContent") == "Solo game"
        assert not tab.policy_violations(), tab.policy_violations()[:2]


async def test_after_q_the_keyboard_is_on_play_again_and_enter_starts_a_new_game(tmp_path, monkeypatch, context):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = Tab(await context.new_page(), srv.logs, door)
        await tab.page.goto(origin(door) + "/")
        await tab.until(r"Battle 1 · Wars|Player 1 26")
        await tab.page.keyboard.press("q")
        await playwright_api.expect(tab.page.locator("#status")).to_contain_text("Play again?", timeout=GAME_TIMEOUT)
        assert await tab.focused() == "play"  # the keys go to "Play again", not to the game that ended
        await tab.page.keyboard.press("Enter")
        await playwright_api.expect(tab.page.locator("#status")).to_have_text("", timeout=GAME_TIMEOUT)
        await tab.until(r"Battle 1 · Wars|Player 1 26")
        assert await tab.focused() == "xterm-helper-textarea"  # and back on the new game's terminal
        await tab.page.keyboard.press("Space")
        await tab.until(r"^│\s+1\s.*\d+·\d+")  # which plays


class SshPlayer(Player):
    """An asyncssh client at a table, its screen read through a terminal emulator; when it never shows what a test
    waits for, the pages at its table are described too."""

    def __init__(self, conn, process, size) -> None:
        super().__init__(conn, process, size)
        self.witnesses: list[Tab] = []
        """Pages at the same table, described when this screen never shows what a test waits for."""

    async def until(self, pattern: str, timeout: float = GAME_TIMEOUT / 1000) -> re.Match:
        try:
            return await super().until(pattern, timeout)
        except AssertionError as missing:
            pages = [f"{await tab.screen()}\n{await tab.circumstances()}" for tab in self.witnesses]
            raise AssertionError("\n".join([str(missing), *pages])) from None


@asynccontextmanager
async def sam_at_oak(tmp_path, monkeypatch) -> AsyncIterator[tuple[InProcessServer, WebDoor, SshPlayer]]:
    """A server with the real game and its web door; sam seated at table oak over SSH."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME, **MANY}, max_sessions_per_address=8) as (srv, door):
        conn = await connect(srv.port, None, username="sam")
        process = await conn.create_process("table oak", term_type="xterm-256color", term_size=(110, 34), encoding=None)
        sam = SshPlayer(conn, process, (110, 34))
        srv.people.append(sam)
        await sam.until(r"Table oak · sam \(you\)")
        yield srv, door, sam


def battle_line(text: str, battle: int) -> str:
    found = re.search(rf"^│\s+({battle}\s.*?\d+·\d+)", text, re.M)
    assert found, text
    return " ".join(found.group(1).split())


async def test_a_browser_and_an_ssh_player_share_a_table_and_a_second_tab_watches(tmp_path, monkeypatch, context):
    async with sam_at_oak(tmp_path, monkeypatch) as (srv, door, sam):
        ann = await Tab(await context.new_page(), srv.logs, door).play(origin(door) + "/table/oak", "ann")
        await ann.until(r"Table oak · .*ann \(you\)")
        await sam.until(r"Table oak · sam \(you\) to flip · ann to flip")
        cy = await Tab(await context.new_page(), srv.logs, door).play(origin(door) + "/watch/oak", "cy")
        await cy.until(r"you are watching")

        sam.witnesses = [ann, cy]
        await ann.page.bring_to_front()
        await ann.page.keyboard.press("Space")
        await sam.until(r"ann flipped")
        sam.process.stdin.write(b" ")
        seen_over_ssh = battle_line((await sam.until(r"^│\s+1\s.*\d+·\d+")).string, 1)
        assert battle_line(await ann.until(r"^│\s+1\s.*\d+·\d+"), 1) == seen_over_ssh  # the same battle
        assert battle_line(await cy.until(r"^│\s+1\s.*\d+·\d+"), 1) == seen_over_ssh
        SCREENSHOTS.mkdir(exist_ok=True)
        await ann.page.screenshot(path=str(SCREENSHOTS / "web-table.png"))
        await cy.page.screenshot(path=str(SCREENSHOTS / "web-watch.png"))
        assert any("table oak seat 2 as ann" in line and "[web:" in line for line in srv.logs)


async def test_a_page_from_another_site_cannot_open_a_game(tmp_path, context):
    from aiohttp import web

    async with served(tmp_path) as (srv, door):
        # Another site (another port here) whose page tries the game's socket.
        async def elsewhere_page(request):
            return web.Response(text="<!doctype html><title>elsewhere</title>", content_type="text/html")

        elsewhere = web.Application()
        elsewhere.router.add_get("/", elsewhere_page)
        runner = web.AppRunner(elsewhere, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        other = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            page = await context.new_page()
            await page.goto(other + "/")
            code = await page.evaluate(
                """(url) => new Promise((done) => {
                    const socket = new WebSocket(url);
                    socket.onopen = () => done("open");
                    socket.onclose = (event) => done(event.code);
                })""",
                f"ws://127.0.0.1:{door.port}/ws",
            )
            assert code == 1006, srv.logs  # the handshake was refused
            assert any(f"refused: origin '{other}'" in line for line in srv.logs), srv.logs
            assert not door.sessions
        finally:
            await runner.cleanup()


async def test_the_lobby_is_reachable_by_its_address(tmp_path, monkeypatch, context):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = await Tab(await context.new_page()).play(origin(door) + "/tables", "ann")
        await tab.until(r"[Tt]ables")
        await asyncio.wait_for(until(lambda: any("lobby" in line for line in srv.logs)), TIMEOUT)
        SCREENSHOTS.mkdir(exist_ok=True)
        await tab.page.screenshot(path=str(SCREENSHOTS / "web-lobby.png"))


class LineTab:
    """One plain-text page of the web door; ``said`` is what its log region holds, one sentence an item."""

    def __init__(self, page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))

    async def play(self, url: str, name: str) -> LineTab:
        await self.page.goto(url)
        await self.page.fill("#name", name)
        await self.page.press("#name", "Enter")
        return self

    async def said(self) -> list[str]:
        return await self.page.locator("#log li").all_inner_texts()

    async def until(self, pattern: str, timeout: float = GAME_TIMEOUT) -> str:
        regex = re.compile(pattern)
        deadline = asyncio.get_running_loop().time() + timeout / 1000
        while True:
            found = [sentence for sentence in await self.said() if regex.search(sentence)]
            if found:
                return found[-1]
            assert asyncio.get_running_loop().time() < deadline, f"no {pattern!r} on the page: {await self.said()}"
            await asyncio.sleep(0.1)

    async def focused(self) -> str:
        return await self.page.evaluate("document.activeElement && document.activeElement.id")


async def test_the_plain_text_page_is_linked_first_and_plays_by_enter_in_a_live_log(tmp_path, monkeypatch, context):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": (*GAME, "--seed", "3")}) as (srv, door):
        page = await context.new_page()
        await page.goto(origin(door) + "/")
        first = await page.evaluate(
            "(() => { const e = document.querySelector('a[href], button, input, select, textarea, [tabindex]');"
            " return [e.id, e.textContent, e.getAttribute('href')]; })()"
        )
        assert first == ["plain", "Plain text for screen readers", "/line"]
        await page.click("#plain")
        await page.wait_for_url("**/line")
        tab = LineTab(page)
        assert await tab.focused() == "name"
        await page.fill("#name", "ann")
        await page.press("#name", "Enter")
        await tab.until(r"^Keys: enter flips")
        assert await tab.focused() == "say"
        await page.keyboard.press("Enter")
        said = await tab.until(r" beats ")
        assert said == "Your eight of hearts beats their five of diamonds. You have 27, they have 25."
        assert await tab.focused() == "say"  # focus stays in the box
        await page.get_by_role("button", name="Score (s)").click()
        assert await tab.until(r"^Battle 1, ") == "Battle 1, no wars so far. You have 27, they have 25."
        assert await tab.focused() == "say"
        log = page.locator("#log")
        assert await log.get_attribute("role") == "log" and await log.get_attribute("aria-live") == "polite"
        assert await page.get_by_label("Your move", exact=False).count() == 1
        assert await page.locator("script:not([src])").count() == 0 and await page.locator(".xterm").count() == 0
        SCREENSHOTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(SCREENSHOTS / "web-line.png"))
        await page.get_by_role("button", name="Quit (q)").click()
        await tab.until(r"^Goodbye\.$")
        await page.wait_for_selector("#play", state="visible")
        assert await tab.focused() == "play"
        assert not [line for line in tab.console if "Content Security Policy" in line], tab.console
        await until(lambda: not door.sessions)
        assert any(line.startswith("web connect") and "line mode" in line for line in srv.logs)


async def test_a_line_page_player_and_a_full_screen_ssh_player_share_a_table(tmp_path, monkeypatch, context):
    async with sam_at_oak(tmp_path, monkeypatch) as (srv, door, sam):
        ann = await LineTab(await context.new_page()).play(origin(door) + "/line/table/oak", "ann")
        assert await ann.until(r"^You sit at table oak") == "You sit at table oak in seat 2, as ann; sam sits across."
        await sam.until(r"Table oak · sam \(you\) to flip · ann to flip")
        await ann.page.keyboard.press("Enter")  # the focus is in the box: Enter flips
        await sam.until(r"ann flipped")
        sam.process.stdin.write(b" ")
        seen_over_ssh = battle_line((await sam.until(r"^│\s+1\s.*\d+·\d+")).string, 1)
        heard = await ann.until(r" beats | takes ")
        counts = re.search(r"[Ss]am has (\d+), you have (\d+)\.$", heard)
        assert counts, heard
        assert seen_over_ssh.endswith(f"{counts[1]}·{counts[2]}"), (seen_over_ssh, heard)  # the same battle
        SCREENSHOTS.mkdir(exist_ok=True)
        await ann.page.screenshot(path=str(SCREENSHOTS / "web-line-table.png"))
        assert any("line mode, table oak seat 2 as ann" in line and "[web:" in line for line in srv.logs), srv.logs


async def test_the_plain_text_page_keeps_only_its_last_sentences(tmp_path, context):
    async with served(tmp_path) as (srv, door):  # the stand-in game: one sentence ("KEY 79") per character typed
        tab = await LineTab(await context.new_page()).play(origin(door) + "/line", "ann")
        await tab.until(r"^READY$")
        for _ in range(2):
            await tab.page.fill("#say", "y" * 150)
            await tab.page.press("#say", "Enter")
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while (await tab.said()).count("KEY 0a") < 2:
            assert asyncio.get_running_loop().time() < deadline, await tab.said()
            await asyncio.sleep(0.1)
        said = await tab.said()
        assert len(said) == 200 and said[-1] == "KEY 0a" and "READY" not in said  # the oldest went
        assert await tab.focused() == "say"


PHONES = {"portrait": (360, 640), "landscape": (640, 360), "small": (420, 320)}
"""A phone held upright and sideways, and a small window: each has room for the board's 40x12 cells."""


@pytest_asyncio.fixture(loop_scope="module")
async def phone(chromium, request):
    """A touch screen without a keyboard, ``request.param`` (a key of PHONES) its size."""
    width, height = PHONES[request.param]
    context = await chromium.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    try:
        yield context
    finally:
        await context.close()


async def fits_the_screen(page) -> None:
    """The whole terminal, its last row too, is inside the window: nothing scrolled off."""
    box = await page.locator(".xterm-screen").bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"] + 0.5, (box, size)
    rows = await page.locator(".xterm-rows > div").count()
    assert rows >= 12, rows


@pytest.mark.parametrize("phone", list(PHONES), indirect=True)
async def test_a_phone_shows_the_whole_board_and_plays_by_taps_and_the_key_bar(tmp_path, monkeypatch, phone, request):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = Tab(await phone.new_page(), srv.logs, door)
        await tab.page.goto(origin(door) + "/")
        text = await tab.until(r"Player 1 26|enlarge")
        assert "enlarge" not in text, text  # the page made room for the board, the player cannot
        await tab.until(r"^ Battle 0 · ")  # the status line, on the terminal's first row
        await fits_the_screen(tab.page)
        box = await tab.page.locator(".xterm-screen").bounding_box()
        await tab.page.touchscreen.tap(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.8)
        await tab.until(r"^ Battle 1 · ")  # a tap on the board, away from the pile, flipped battle 1
        assert await tab.page.locator("#keys").is_visible()
        await tab.page.get_by_role("button", name="Auto-play (a)").tap()
        await tab.until(r"^ Battle [1-9][0-9]+ · ")  # battles go on with nobody tapping
        SCREENSHOTS.mkdir(exist_ok=True)
        await tab.page.screenshot(path=str(SCREENSHOTS / f"web-phone-{request.node.callspec.id}.png"))
        # Turned the other way, the whole board is fitted again, status line on top.
        size = tab.page.viewport_size
        await tab.page.set_viewport_size({"width": size["height"], "height": size["width"]})
        deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT / 1000
        while True:
            try:
                await fits_the_screen(tab.page)
                await tab.until(r"^ Battle \d+ · ", timeout=0)
                break
            except AssertionError:
                if asyncio.get_running_loop().time() >= deadline:
                    raise
                await asyncio.sleep(0.1)
        assert not tab.policy_violations(), tab.policy_violations()[:2]


@pytest.mark.parametrize("phone", ["portrait"], indirect=True)
async def test_the_plain_text_page_fits_a_phone_held_upright(tmp_path, monkeypatch, phone):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = await LineTab(await phone.new_page()).play(origin(door) + "/line", "ann")
        await tab.until(r"^Keys: enter flips")
        await tab.page.get_by_role("button", name="Flip (Enter)").tap()
        await tab.until(r" beats | takes ")
        wide = await tab.page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert wide[0] <= wide[1], wide  # no sideways scrolling
        SCREENSHOTS.mkdir(exist_ok=True)
        await tab.page.screenshot(path=str(SCREENSHOTS / "web-phone-line.png"))


@pytest.mark.parametrize(("size", "says"), [
    ((180, 320), "Turn your phone sideways"),  # upright, too narrow even at the smallest font: sideways it fits
    ((320, 200), "make the window larger, or play in plain text"),
])
async def test_where_no_font_size_fits_the_board_the_page_says_what_to_do(tmp_path, monkeypatch, chromium, size, says):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door), \
            await chromium.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True) as context:
        tab = Tab(await context.new_page(), srv.logs, door)
        await tab.page.goto(origin(door) + "/")
        notice = tab.page.locator("#fit")
        await playwright_api.expect(notice).to_be_visible(timeout=GAME_TIMEOUT)
        await playwright_api.expect(notice).to_contain_text(says)
        box, window = await notice.bounding_box(), tab.page.viewport_size
        assert box["width"] >= window["width"] - 8, box  # over the terminal's whole width: the game's notice is hidden
        assert await tab.page.locator("#keys").is_visible()


@pytest.mark.parametrize("phone", ["portrait"], indirect=True)
async def test_a_phone_at_a_table_sends_an_emote_and_opens_and_closes_the_help_from_the_key_bar(
    tmp_path, monkeypatch, phone,
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME}) as (srv, door):
        tab = await Tab(await phone.new_page(), srv.logs, door).play(origin(door) + "/table/oak", "ann")
        await tab.until(r"oak · ann \(you\)")  # "Table oak" where the line has room
        assert await tab.focused() != "name"  # the name box let go: the phone's keyboard no longer covers the board
        emotes = tab.page.get_by_role("group", name="Emotes")
        assert not await emotes.is_visible()
        await tab.page.get_by_role("button", name="Emote").tap()
        await playwright_api.expect(emotes).to_be_visible()
        SCREENSHOTS.mkdir(exist_ok=True)
        await tab.page.screenshot(path=str(SCREENSHOTS / "web-phone-table.png"))
        await tab.page.get_by_role("button", name="good game (1)").tap()
        await tab.until(r"good game")  # the emote, as key 1 sends it
        await playwright_api.expect(emotes).to_be_hidden()
        await tab.page.get_by_role("button", name="Help (?)").tap()
        await tab.until(r"How War is played")
        await tab.page.get_by_role("button", name="Back (Escape)").tap()
        deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT / 1000
        while "How War is played" in (text := await tab.screen()):  # Escape closed the help
            assert asyncio.get_running_loop().time() < deadline, text
            await asyncio.sleep(0.1)
        await tab.until(r"oak · ann \(you\)")


@pytest.mark.parametrize("phone", ["portrait"], indirect=True)
async def test_a_phone_in_the_lobby_sits_at_a_table_with_the_key_bar(tmp_path, monkeypatch, context, phone):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME, **MANY}, max_sessions_per_address=8) as (srv, door):
        sam = await Tab(await context.new_page(), srv.logs, door).play(origin(door) + "/table/oak", "sam")
        await sam.until(r"Table oak · sam \(you\)")
        ann = await Tab(await phone.new_page(), srv.logs, door).play(origin(door) + "/tables", "ann")
        await ann.until(r"\boak\b")
        await ann.page.get_by_role("button", name="Sit (Enter)").tap()
        await ann.until(r"oak · .*ann \(you\)")  # the lobby's Enter: she sits across from sam
        await sam.until(r"Table oak · sam \(you\) to flip · ann to flip")


async def test_a_tablet_shows_the_key_bar_and_its_keyboard_plays_from_the_first_key(tmp_path, monkeypatch, chromium):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # Seed 3 opens with two battles and no war: a flip during a war being laid shows the war whole instead.
    async with served(tmp_path, {"argv": (*GAME, "--seed", "3")}) as (srv, door), \
            await chromium.new_context(viewport={"width": 1024, "height": 768}, has_touch=True, is_mobile=True) as context:
        tab = Tab(await context.new_page(), srv.logs, door)
        await tab.page.goto(origin(door) + "/")
        await tab.until(r"Battle 0 · ")
        assert await tab.page.locator("#keys").is_visible()  # a touch screen, however large
        await tab.page.keyboard.press("Space")  # a keyboard attached to it
        await tab.until(r"Battle 1 · ")
        assert await tab.focused() == "xterm-helper-textarea"  # the next keys go straight to the game
        await tab.page.keyboard.press("Space")
        await tab.until(r"Battle 2 · ")
