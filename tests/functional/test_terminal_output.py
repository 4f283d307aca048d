"""Only changed cells go to the terminal, and the terminal still shows exactly what Textual drew.

Each frame the app hands to its driver is written twice into a small terminal
emulator: once as Textual would write it (every cell of every dirty region),
once as the app really writes it (through ``war_tui.damage``). The two screens
must match cell for cell, in character and colour, after every key.
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

from war_tui.app import WarApp
from war_tui.damage import CompositorUpdate, MinimalUpdate

from war_ui_support import WAR_PACKETS, make_app

_SEQUENCE = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])|([^\x1b]+)")


class Emulator:
    """Enough of a terminal for Textual's output: cursor moves, SGR colours, text."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[(" ", "")] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr = ""

    def feed(self, data: str) -> None:
        for params, command, text in _SEQUENCE.findall(data):
            if command == "H":
                row, col = (params.split(";") + ["1", "1"])[:2] if params else ("1", "1")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif command == "m":
                self.sgr = "" if params in ("", "0") else params
            elif text:
                for char in text:
                    if char in "\r\n":
                        continue
                    size = get_character_cell_size(char)
                    if 0 <= self.y < self.height and 0 <= self.x < self.width:
                        self.cells[self.y][self.x] = (char, self.sgr)
                        if size == 2 and self.x + 1 < self.width:
                            self.cells[self.y][self.x + 1] = ("", self.sgr)
                    self.x += size


class RecordingApp(WarApp):
    """Feeds every frame, both ways, into two emulators (headless, so the driver itself writes nothing)."""

    textual_screen: Emulator | None = None
    written_screen: Emulator | None = None
    textual_bytes = written_bytes = frames = 0

    def _display(self, screen, renderable) -> None:  # noqa: ANN001
        if isinstance(renderable, CompositorUpdate):
            size = (self.size.width, self.size.height)
            if self.textual_screen is None or (self.textual_screen.width, self.textual_screen.height) != size:
                self.textual_screen, self.written_screen = Emulator(*size), Emulator(*size)
            assert self.written_screen is not None
            full = renderable.render_segments(self.console)
            minimal = MinimalUpdate(renderable, self._shadow, size).render_segments(self.console)
            self.textual_screen.feed(full)
            self.written_screen.feed(minimal)
            self.textual_bytes += len(full.encode())
            self.written_bytes += len(minimal.encode())
            self.frames += 1
        super()._display(screen, renderable)


def recording_app(**changes) -> RecordingApp:
    app = make_app(**changes)
    app.__class__ = RecordingApp  # same state, same settings; only the frames are recorded
    return app  # type: ignore[return-value]


async def play(app: RecordingApp, keys: list[str], size: tuple[int, int]) -> None:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            assert app.written_screen is not None and app.textual_screen is not None
            assert app.written_screen.cells == app.textual_screen.cells


async def test_flipping_battles_writes_fewer_bytes_and_the_same_screen():
    app = recording_app(names=("Alice", "Bob"))
    await play(app, ["space"] * 20, (100, 30))
    assert app.frames > 20
    assert app.written_bytes < app.textual_bytes / 3


async def test_a_war_the_result_help_and_a_new_deal_look_the_same_as_textual_draws_them():
    app = recording_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    await play(app, ["space", "space", "escape", "question_mark", "question_mark", "r", "space", "a", "a"], (80, 24))


async def test_resizing_to_too_small_and_back_repaints_whole():
    app = recording_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        for size in [(30, 8), (100, 30), (60, 20)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.press("space")
            await pilot.pause()
            assert app.written_screen is not None and app.textual_screen is not None
            assert (app.written_screen.width, app.written_screen.height) == size
            assert app.written_screen.cells == app.textual_screen.cells
