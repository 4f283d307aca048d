"""The help screen scrolls with the keyboard (over SSH it is often the only input) and says when there is more."""

from __future__ import annotations

import pytest
from screen_text import screen_text
from war_ui_support import make_app

from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.scrolling_dialog import AT_THE_END, MORE_BELOW

pytestmark = pytest.mark.app  # see pyproject.toml's markers

LAST_LINE = "quit"  # the last key the help lists
FIRST_LINE = "How War is played"


def last_key_shown(app) -> bool:
    return any(row.rstrip(" █│|").endswith(LAST_LINE) for row in screen_text(app).splitlines())


# Every pair at every size, but j and k (down and up again) at one.
@pytest.mark.parametrize("size, down, up", [
    *((size, down, up) for size in [(80, 24), (60, 20), (40, 12)]
      for down, up in [("end", "home"), ("pagedown", "pageup"), ("down", "up")]),
    ((80, 24), "j", "k"),
])
async def test_the_keyboard_reaches_the_last_line_and_comes_back(size, down, up):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert not last_key_shown(app) and MORE_BELOW in screen_text(app)
        for _ in range(8):  # a line a press at 40x12: up to 80 presses, ten between looks (past the end is harmless)
            if last_key_shown(app):
                break
            await pilot.press(*[down] * 10)
            await pilot.pause()
        assert last_key_shown(app) and AT_THE_END in screen_text(app)
        for _ in range(8):  # likewise
            if FIRST_LINE in screen_text(app):
                break
            await pilot.press(*[up] * 10)
            await pilot.pause()
        assert FIRST_LINE in screen_text(app) and MORE_BELOW in screen_text(app)
        assert isinstance(app.screen, HelpScreen) and app.controller.game.battles == 0  # scrolling played nothing


async def test_a_help_that_fits_says_nothing_about_more():
    app = make_app()
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert last_key_shown(app) and MORE_BELOW not in screen_text(app) and AT_THE_END not in screen_text(app)
