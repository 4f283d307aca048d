"""What a person notices on the board in the corners QA found: resizes, max speed, narrow layouts, ASCII.

Driven through Textual's pilot; waiting is by polling for what a person would see.
"""

from __future__ import annotations

import pytest
from war_ui_support import QUICK_WIN, cut_footer_keys, drawn, footer_keys, make_app, until

from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.game_footer import GameFooter

pytestmark = pytest.mark.app  # see pyproject.toml's markers



async def test_the_battle_log_keeps_showing_the_newest_battle_across_resizes():
    app = make_app(seed=281175334627632)
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(BattleLog)
        for _ in range(40):
            await pilot.press("space")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y > 0
        for size in ((50, 14), (80, 24), (60, 20), (100, 30)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert log.max_scroll_y > 0
            assert log.scroll_y == log.max_scroll_y, f"the newest battle is hidden at {size}"


async def test_a_log_scrolled_up_with_the_mouse_stays_on_what_is_read_across_resizes_and_battles():
    from textual import events

    app = make_app(seed=281175334627632)
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(BattleLog)
        for _ in range(40):
            await pilot.press("space")
        await pilot.pause()
        for _ in range(5):
            log.post_message(events.MouseScrollUp(log, 1, 1, 0, -1, 0, False, False, False))
        await pilot.pause()
        reading = log.scroll_y
        assert 0 <= reading < log.max_scroll_y
        top_line = log.lines[int(reading)]
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert log.scroll_y == reading  # what the person was reading stays in view
        await pilot.press("space")
        await pilot.pause()
        assert log.lines[int(log.scroll_y)] == top_line  # a new battle does not pull the log away
        assert "newer lines below" in subtitle_of(log)
        await pilot.press("end")
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y  # back at the end, it follows again
        assert subtitle_of(log) == ""


def subtitle_of(widget) -> str:
    from rich.text import Text

    return Text.from_markup(widget.border_subtitle or "").plain


@pytest.mark.parametrize("size", [(100, 30), (48, 14)])
async def test_the_keyboard_scrolls_the_battle_log_and_it_says_there_is_more(size):
    """Over SSH the keyboard is often the only input: up/down, j/k, PageUp/PageDown, Home/End move the
    log; scrolled back, its subtitle counts the newer lines below; End follows the newest line again."""
    app = make_app(seed=281175334627632)
    async with app.run_test(size=size) as pilot:
        log = app.query_one(BattleLog)
        for _ in range(60):
            await pilot.press("space")
        await pilot.pause()
        end = log.max_scroll_y
        assert end > 0 and log.scroll_y == end
        for key, expected in (
            ("up", end - 1), ("k", end - 2), ("down", end - 1), ("j", end), ("home", 0),
            ("pagedown", min(end, log.scrollable_content_region.height)), ("end", end),
            ("pageup", max(0, end - log.scrollable_content_region.height)),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert log.scroll_y == expected, key
        newer = end - log.scroll_y
        if size == (100, 30):  # the compact log has no border: its scrollbar says it
            assert subtitle_of(log).startswith(f"{newer} newer lines below")
        assert log.show_vertical_scrollbar
        await pilot.press("space")
        await pilot.pause()
        assert log.scroll_y == end - newer  # still reading the same place
        await pilot.press("end")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y and subtitle_of(log) == ""


async def test_the_log_keys_leave_the_help_screen_alone():
    from war_tui.ui.screens.help import HelpScreen

    app = make_app(seed=281175334627632)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(40):
            await pilot.press("space")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        log = app.query_one(BattleLog)
        at = log.scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert log.scroll_y == at


async def test_a_whole_game_at_max_speed_still_fills_the_log_the_sparkline_and_says_its_time():
    from war_tui.presentation.speed import MAX
    from war_tui.ui.components.trend import CountTrend
    from war_tui.ui.screens.game_over import GameOverScreen

    app = make_app(seed=5, auto=True, speed=MAX)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        game = app.controller.game
        lines = app.query_one(BattleLog).lines
        passed = [line for line in lines if "at max speed" in line]
        assert passed and passed[0].lstrip().startswith("…")
        skipped = sum(int(line.split()[1].replace(",", "")) for line in passed)
        drawn = [line for line in lines if line.split()[0].isdigit()]
        assert skipped + len(drawn) == game.battles  # every battle is in the log, drawn or counted
        trend = app.query_one(CountTrend)
        assert len(trend.history.samples) == game.battles + 1  # the deal and every battle after it
        assert "Time          under a second" in str(app.screen.query_one("#result-facts").render())


async def test_the_sparkline_stays_bounded_however_many_battles_a_frame_passes_over():
    from dataclasses import replace

    from war_tui.ui.components.trend import CountTrend

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        trend = app.query_one(CountTrend)
        view = app.query_one("#pile").battle
        trend.battle = replace(view, passed=tuple(26 + i % 20 for i in range(10_000)))
        assert len(trend.history.samples) <= 512
        await pilot.pause()
        assert drawn(trend).strip()


def status_of(app) -> str:
    from war_tui.ui.components.status import StatusLine

    return drawn(app.query_one(StatusLine))


async def test_the_status_line_shows_a_tally_from_the_start_and_fits_with_stop_at_wars():
    for width in (80, 100):
        app = make_app(pause_on_war=True, speed=0.5, seed=3466761160)
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            text = status_of(app)
            assert "…" not in text, text
            assert "war stop" in text and "auto off" in text and "Battle 0" in text
            assert text.endswith("0-0 Player 2") or text.endswith("Player 2: 0"), text


async def test_a_at_game_over_deals_again_and_plays_it_by_itself():
    from war_tui.ui.screens.game_over import GameOverScreen

    app = make_app(packets=QUICK_WIN, auto=True, speed=2.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        assert app.controller._auto_timer is None
        assert "auto 2/s from the next deal" in status_of(app)  # nothing runs now; the next deal will play itself
        await pilot.press("a")
        await pilot.pause()
        assert app.controller.game_number == 2 and app.board.auto and app.controller._auto_timer is not None
        assert not isinstance(app.screen, GameOverScreen)
        assert "auto 2/s" in status_of(app) and "next deal" not in status_of(app)


@pytest.mark.parametrize("ascii_mode", [False, True])
@pytest.mark.parametrize("width", [100, 80, 79, 73, 44])  # everything; stats gone; restart gone; only the needed
async def test_the_footer_shows_whole_keys_only_at_every_width(width, ascii_mode):
    app = make_app(ascii=ascii_mode)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys, palette = footer_keys(app)
        shown = {key.description for key in keys}
        assert {"Flip", "Auto", "Quit", "Help"} <= shown
        if width >= 80:
            assert {"Restart", "Stats", "War stop"} <= shown
        assert not cut_footer_keys(app), f"cut at {width} columns"
        if width > 44:  # the palette's key, flush right: nothing shows through after it
            assert palette is not None, f"no palette key at {width} columns"
            assert app.query_one(GameFooter).render_line(0).text.endswith(f"{palette.display} {palette.description}")
        else:  # only the keys a game needs
            assert palette is None


@pytest.mark.parametrize("environ", [{"LANG": "C.UTF-8", "NO_COLOR": "1"}, {"LANG": "C"}], ids=["no-colour", "ascii"])
async def test_a_blank_always_parts_the_last_key_from_the_palette_key(environ):
    """Without colour only a blank tells "q Quit" from "^p palette" (or its separator): never "Quit▏^p"."""
    app = make_app(environ=environ)
    async with app.run_test(size=(40, 24)) as pilot:
        footer = app.query_one(GameFooter)
        for width in range(40, 121):
            await pilot.resize_terminal(width, 24)
            await until(pilot, lambda width=width: footer.size.width == width)  # laid out at the new width
            keys, palette = footer_keys(app)
            line = footer.render_line(0).text
            if width == 80:  # the whole row still fits the most common terminal
                assert {"Restart", "Stats", "War stop"} <= {key.description for key in keys}
            if palette is None:  # too narrow for it: from 80 columns on it always shows, and is checked below
                assert width < 80, f"no palette key at {width} columns"
                continue
            before = line[: -len(f"{palette.display} {palette.description}")].rstrip("▏")
            assert before.endswith(" ") and before.strip(), (width, line)


def non_ascii_on_screen(app) -> set[str]:
    return {char for char in app.export_screenshot() if ord(char) > 127}


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
@pytest.mark.parametrize(
    "settings, environ", [({"ascii": True}, None), ({}, {"LANG": "C"})], ids=["--ascii", "LANG=C"]
)
async def test_ascii_mode_sends_nothing_but_ascii_in_notifications_and_the_palette(settings, environ):
    app = make_app(environ=environ, **settings)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("w")  # a notification
        await until(pilot, lambda: "stop&#160;at&#160;every&#160;war" in app.export_screenshot())
        assert non_ascii_on_screen(app) == set()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.id == "--command-palette")
        await pilot.pause(0.3)
        assert non_ascii_on_screen(app) == set()
        await pilot.press("f", "l", "i")
        await pilot.pause(0.3)
        assert non_ascii_on_screen(app) == set()


def deep_war_view(wars: int = 5, war_cards: int = 3):
    """A made-up battle: ties on Q, A, 7, 10, J, each war with ``war_cards`` down; A♥ beats 3♣ at the end."""
    from war_tui.core.cards import RANKS, parse_card
    from war_tui.core.rules import Side
    from war_tui.presentation.views import BattleView

    ties = "QA7TJ98"[:wars]
    deciding = (parse_card("AH"), parse_card("3C"))
    free = [c for c in range(52) if c not in deciding]

    def take(rank: str) -> int:
        card = next(c for c in free if RANKS[c >> 2] == rank)
        free.remove(card)
        return card

    def filler() -> int:
        card = next(c for c in free if RANKS[c >> 2] not in ties)
        free.remove(card)
        return card

    p1, p2 = [], []
    for rank in ties:
        p1.append(take(rank))
        p2.append(take(rank))
        for _ in range(war_cards):
            p1.append(filler())
            p2.append(filler())
    p1.append(deciding[0])
    p2.append(deciding[1])
    return BattleView(7, tuple(p1), tuple(p2), war_cards, wars, Side.P1, len(p1) + len(p2), (40, 12), wars)


@pytest.mark.parametrize("size", [(50, 14), (40, 12), (60, 20)])
async def test_a_deep_war_in_the_compact_pile_always_shows_both_deciding_cards(size):
    from war_tui.presentation.cards_art import card_label
    from war_tui.presentation.glyphs import UNICODE
    from war_tui.ui.components.pile import Pile

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        pile = app.query_one(Pile)
        view = deep_war_view()
        pile.battle = view
        await pilot.pause()
        rows = [line for line in drawn(pile).splitlines() if line.strip()]
        p1_row, p2_row = rows[0], rows[-1]
        assert p1_row.rstrip().endswith(card_label(view.p1_laid[-1], UNICODE)), p1_row
        assert p2_row.rstrip().endswith(card_label(view.p2_laid[-1], UNICODE)), p2_row
        assert p1_row.startswith("Q♣")  # the tie that started it stays too


async def test_overlapped_tied_tens_in_the_full_pile_read_t_never_1():
    from war_tui.ui.components.pile import Pile

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pile = app.query_one(Pile)
        pile.battle = deep_war_view(wars=5, war_cards=3)
        await pilot.pause()
        shown = drawn(pile)
        assert "│T" in shown and "│1│" not in shown and "│1" not in shown.replace("│10", "")
        assert "A♥" in shown and "3♣" in shown


async def test_wide_names_keep_the_card_bar_on_its_row():
    from war_tui.presentation.cells import cell_width
    from war_tui.ui.components.card_bar import CardBar

    app = make_app(names=("山田太郎山田太郎", "Bob"))  # 8 characters, 16 columns: the widest allowed
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.query_one(CardBar)
        shown = drawn(bar)
        assert "█" in shown and "░" in shown and shown.rstrip().endswith("26 Bob")
        assert cell_width(shown) <= bar.size.width


async def test_the_log_scrollbar_thumb_follows_the_newest_line_and_a_scroll_back():
    app = make_app(seed=193)
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.query_one(BattleLog)
        for _ in range(60):
            await pilot.press("space")
        await pilot.pause()
        bar = log.vertical_scrollbar
        assert log.show_vertical_scrollbar
        assert bar.window_virtual_size == log.virtual_size.height
        assert bar.position == log.scroll_y == log.max_scroll_y > 0
        log.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert bar.position == 0


async def test_a_click_on_a_footer_key_presses_it_and_the_key_under_the_pointer_is_lit():
    from war_tui.ui.screens.help import HelpScreen

    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        await until(pilot, lambda: "a Auto" in app.query_one(GameFooter).render_line(0).text)
        footer = app.query_one(GameFooter)
        line = footer.render_line(0).text
        auto_at = line.index("a Auto")
        await pilot.hover(GameFooter, offset=(auto_at + 2, 0))
        await pilot.pause()
        segments = list(footer.render_line(0))
        plain = segments[-1].style.bgcolor  # the palette key's description
        lit = {segment.text.strip() for segment in segments if segment.style.bgcolor != plain} - {""}
        assert lit == {"a", "Auto"}
        assert footer.tooltip == "Auto"
        await pilot.click(GameFooter, offset=(auto_at + 2, 0))
        await until(pilot, lambda: app.board.auto)
        await pilot.click(GameFooter, offset=(line.index("? Help"), 0))
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
