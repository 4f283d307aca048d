"""The board's widgets style their own rows (``LineWidget.render_lines``) and the battle log keeps its styled rows
(``BattleLog.render_lines``): each row is what Textual's own path would show, cell for cell, through battles, a
resize, a theme change, a hover, the log scrolled back and selected text."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget
from war_ui_support import make_app

from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.game_footer import GameFooter
from war_tui.ui.components.line_widget import LineWidget

# See pyproject.toml's markers: Textual's own styling, which these rows must match, can differ between versions.
pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]


def differing_rows(app) -> list[str]:
    """Each board widget's rows on its own path against Textual's, as (widget, row) where they differ."""
    found = []
    for widget in [*app.screen.query(LineWidget), *app.screen.query(BattleLog)]:
        region = Region(0, 0, *widget.outer_size)
        textual_rows = [list(strip) for strip in Widget.render_lines(widget, region)]
        own_rows = [list(strip) for strip in widget.render_lines(region)]
        found += [f"{type(widget).__name__} row {y}" for y, (own, theirs) in
                  enumerate(zip(own_rows, textual_rows, strict=True)) if own != theirs]
    return found


async def test_the_board_s_rows_are_textual_s_own_through_battles_resizes_and_a_theme():
    app = make_app(names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert differing_rows(app) == []
        for _ in range(12):
            await pilot.press("space")
            await pilot.pause()
            assert differing_rows(app) == []
        for size in ((48, 14), (200, 60), (100, 30)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.press("space")
            await pilot.pause()
            assert differing_rows(app) == [], size
        app.theme = "textual-light"
        await pilot.pause()
        assert differing_rows(app) == []
        await pilot.press("space")
        await pilot.pause()
        assert differing_rows(app) == []
        footer = app.screen.query_one(GameFooter)
        await pilot.hover(GameFooter, offset=(1, 0))
        await pilot.pause()
        assert footer.hovered is not None
        assert differing_rows(app) == []
        log = app.screen.query_one(BattleLog)
        await pilot.press("up", "up")
        await pilot.pause()
        assert log.border_subtitle  # "... newer lines below"
        assert differing_rows(app) == []
        await pilot.press("end")
        await pilot.pause()
        assert not log.border_subtitle
        assert differing_rows(app) == []


async def test_the_status_line_with_text_selected_shows_as_textual_draws_it():
    from textual.geometry import Offset
    from textual.selection import Selection

    from war_tui.ui.components.status import StatusLine

    app = make_app(names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        app.screen.selections = {status: Selection(Offset(2, 0), Offset(20, 0))}  # as a drag of the mouse leaves it
        await pilot.pause()
        assert status.text_selection is not None
        assert differing_rows(app) == []
        await pilot.press("space")
        await pilot.pause()
        assert differing_rows(app) == []
