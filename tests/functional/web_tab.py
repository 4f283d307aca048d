"""A page of the web door in a real browser, read row by row from xterm.js, and where its screenshots go."""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
from pathlib import Path

GAME_TIMEOUT = 40_000  # ms: the real game starts in a few seconds, more on a busy machine
KEEP_SCREENSHOTS = os.environ.get("WAR_TUI_SCREENSHOTS") == "1"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots" if KEEP_SCREENSHOTS else Path(tempfile.mkdtemp())


class Tab:
    """One page of the web door; ``screen`` is what its terminal shows, row by row."""

    def __init__(self, page, logs: list[str] | None = None, door=None) -> None:
        self.page = page
        self.logs = logs
        """The server's log lines, shown when the page never shows what a test waits for."""
        self.door = door
        """The web door, whose sessions are described then too."""
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))

    async def play(self, url: str, name: str, shot: str | None = None) -> Tab:
        await self.page.goto(url)
        await self.page.fill("#name", name)
        if shot is not None:  # the page as it first shows
            SCREENSHOTS.mkdir(exist_ok=True)
            await self.page.screenshot(path=str(SCREENSHOTS / shot))
        await self.page.press("#name", "Enter")
        return self

    async def focused(self) -> str:
        """The class (or else the id) of the element the keys go to."""
        return await self.page.evaluate(
            "document.activeElement && (document.activeElement.className || document.activeElement.id)"
        )

    async def screen(self) -> str:
        return await self.page.inner_text(".xterm-rows")

    async def until(self, pattern: str, timeout: float = GAME_TIMEOUT) -> str:
        regex = re.compile(pattern, re.M)
        deadline = asyncio.get_running_loop().time() + timeout / 1000
        while not regex.search(text := await self.screen()):
            if asyncio.get_running_loop().time() >= deadline:
                raise AssertionError(f"no {pattern!r} on the page:\n{text}\n{await self.circumstances()}")
            await asyncio.sleep(0.1)
        return text

    async def circumstances(self) -> str:
        """What else the page and the server said: the line under the name box, visibility and focus, the console, the web sessions, the server's log."""
        status = await self.page.inner_text("#status")
        page = await self.page.evaluate("[document.visibilityState, document.hasFocus(), document.activeElement?.className]")
        sessions = [
            (session.visitor.label, session.where, session.exit_status, session.backlog_peak)
            for session in (self.door.sessions if self.door is not None else ())
        ]
        logs = "\n".join((self.logs or [])[-30:])
        return (
            f"page status: {status!r}; visibility, focus, focused: {page}\nconsole: {self.console[-10:]}\n"
            f"web sessions (who, where, status, most bytes held): {sessions}\nserver log:\n{logs}"
        )

    async def click_pile(self) -> None:
        """Click the battle's pile: a few rows down, in the middle of the battle box."""
        box = await self.page.locator(".xterm-screen").bounding_box()
        await self.page.mouse.click(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.12)

    def policy_violations(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line]
