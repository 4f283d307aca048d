"""A resize with the help open leaves nothing of the old layout on the terminal (issue 21, item 14)."""

from __future__ import annotations

import pytest
from terminal_recording import drawn_from_nothing, recording_app

pytestmark = [pytest.mark.app, pytest.mark.terminal]  # see pyproject.toml's markers


@pytest.mark.parametrize(("start", "end"), [((80, 24), (40, 12)), ((100, 30), (48, 14)), ((40, 12), (80, 24))])
async def test_resizing_with_the_help_open_leaves_no_pieces_of_the_old_layout(start, end):
    app = recording_app(names=("Alice", "Bob"))
    async with app.run_test(size=start) as pilot:
        await pilot.press("space", "space", "question_mark")
        await pilot.pause()
        await pilot.resize_terminal(*end)
        await pilot.pause()
        await pilot.pause()
        assert app.written_screen.cells == drawn_from_nothing(app).cells
        assert app.written_screen.cells == app.textual_screen.cells
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert app.written_screen.cells == drawn_from_nothing(app).cells
