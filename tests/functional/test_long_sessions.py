"""A screensaver runs for days: screens come and go every game, and nothing may pile up."""

from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey
from war_ui_support import make_app

from war_tui.components.battle_log import MAX_LINES


async def test_opening_and_closing_screens_leaves_no_dead_footer_keys_behind():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        footer = app.query_one(Footer)
        for _ in range(15):
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
        watched = [node for entries in getattr(footer, "__watchers", {}).values() for node, _ in entries]
        live = list(footer.query(FooterKey))
        assert live
        assert len(watched) <= len(live)


async def test_the_battle_log_keeps_a_bounded_number_of_lines():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.query_one("#log")
        for _ in range(MAX_LINES + 50):
            app.action_flip()
        await pilot.pause()
        assert len(log.lines) == MAX_LINES
