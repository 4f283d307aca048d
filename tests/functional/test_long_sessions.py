"""A screensaver runs for days: screens come and go every game, and nothing may pile up."""

from __future__ import annotations

import gc

import pytest
from textual._styles_cache import StylesCache
from textual.widget import Widget
from war_ui_support import footer_text, make_app, until

from war_tui.core.rules import Gather, Rules
from war_tui.presentation.speed import MAX
from war_tui.presentation.views import BattleView
from war_tui.ui.components.battle_log import MAX_LINES
from war_tui.ui.fastpath import probe

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # see pyproject.toml's markers


async def test_screens_coming_and_going_leave_the_board_as_it_was():
    """Every result and every deal changes screens, for days: the board keeps its widgets (none piles up,
    none is mounted again) and its footer still reads the keys."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "q Quit" in footer_text(app))
        widgets = list(app.board.walk_children())
        for _ in range(5):
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
        await until(pilot, lambda: app.screen is app.board)
        assert list(app.board.walk_children()) == widgets
        assert "space Flip" in footer_text(app) and "q Quit" in footer_text(app)


async def test_a_headless_app_never_freezes_the_collector():
    """Tests run many apps in one process: frozen objects of finished apps would never be freed."""
    gc.unfreeze()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
    assert gc.get_freeze_count() == 0


async def test_the_battle_log_keeps_a_bounded_number_of_lines():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.query_one("#log")
        for _ in range(MAX_LINES + 50):
            app.board.action_flip()
        await pilot.pause()
        assert len(log.lines) == MAX_LINES


async def test_at_max_speed_the_log_keeps_no_counts_of_the_battles_it_did_not_draw():
    """At "max" each drawn battle carries player 1's count after every battle played since the last
    one drawn (for the sparkline): thousands a frame. The log keeps what each of its lines tells, and
    a line needs none of those counts, so the views it keeps carry none: only the battle on show does."""
    app = make_app(seed=293, speed=MAX, auto=True, rules=Rules(gather=Gather.LAID, max_battles=100_000_000))
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.query_one("#log")
        await until(pilot, lambda: len(log.lines) > 40, seconds=60)
        await pilot.press("a")
        await pilot.pause()
        gc.collect()
        carrying = [view for view in gc.get_objects() if isinstance(view, BattleView) and view.passed]
        assert len(carrying) <= 2  # the board's battle on show, and the adapter's newest; not one per line


@pytest.mark.terminal  # the fast path's memory piece: off with WAR_TUI_FASTPATH=0
async def test_the_screensaver_keeps_no_render_caches_of_removed_widgets():
    """Each game shows a result dialog and a new set of footer keys, then removes them. Textual's
    memo of ``StylesCache.get_inner_outer`` would keep up to 1,024 of their render caches alive
    (RSS rose about 0.4 MB a game); the app lets go of them at each deal, so at most the last
    game's few stay."""
    if not probe().forget_removed_widgets:
        pytest.skip("fast path off: Textual's memo keeps them, up to its bound of 1,024")
    app = make_app(screensaver=True, speed=MAX, screensaver_pause=0.01, rules=Rules(max_battles=40))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.controller.game_number >= 12, seconds=300)  # a busy machine plays slowly
        gc.collect()
        objects = gc.get_objects()
        live = {id(widget._styles_cache) for widget in objects if isinstance(widget, Widget)}
        orphans = [cache for cache in objects if isinstance(cache, StylesCache) and id(cache) not in live]
        del objects
        assert len(orphans) <= 40  # one game's removed widgets at most; without the fix, 20-odd per game
