"""The high-contrast theme on the real board: every text the board draws, against what it is drawn on,
at WCAG AA (4.5:1; 3:1 for frames, card backs and bars). Diamonds and hearts differ in the four-colour deck."""

from __future__ import annotations

import pytest
from war_ui_support import FOUR_SUITS, WAR_PACKETS, make_app

from war_tui.presentation.contrast import AA_GRAPHICS, AA_TEXT, contrast
from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.card_bar import CardBar
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.status import StatusLine
from war_tui.ui.components.trend import CountTrend

pytestmark = pytest.mark.app

GRAPHICS = ("frame", "back", "edge", "bar--p1", "bar--p2", "trend--line", "pile--war")
"""Component classes that draw lines and shapes, not words: held to the 3:1 of graphics."""


def rgb(color) -> tuple[int, int, int]:
    triplet = color.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


async def ratios(app) -> list[tuple[str, float, float]]:
    """(widget and class, ratio, what it must reach) for every component class of the board's widgets."""
    found = []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        for kind in (StatusLine, Packet, Pile, CardBar, CountTrend, BattleLog):
            for widget in app.screen.query(kind):
                base = widget.background_colors[1].rich_color
                for name in sorted(widget.COMPONENT_CLASSES):
                    style = widget.get_component_rich_style(name)
                    if style.color is None:
                        continue
                    bg = style.bgcolor or base
                    need = AA_GRAPHICS if any(part in name for part in GRAPHICS) else AA_TEXT
                    fg, back = (bg, style.color) if style.reverse else (style.color, bg)
                    found.append((f"{kind.__name__} .{name}", contrast(rgb(fg), rgb(back)), need))
    return found


async def test_the_high_contrast_theme_keeps_every_text_readable():
    app = make_app(packets=WAR_PACKETS, deck="four-colour", theme="high-contrast")
    found = await ratios(app)
    assert len(found) > 20
    poor = [(name, round(ratio, 2)) for name, ratio, need in found if ratio < need]
    assert not poor, poor


async def test_diamonds_and_hearts_differ_in_the_four_colour_deck():
    for deck, differ in (("two-colour", False), ("four-colour", True)):
        app = make_app(packets=FOUR_SUITS, deck=deck)
        async with app.run_test(size=(100, 30)) as pilot:
            pile = app.screen.query_one(Pile)
            log = app.screen.query_one(BattleLog)
            heart = pile.get_component_rich_style("pile--red").color
            diamond = pile.get_component_rich_style(pile._suit_style(FOUR_SUITS[0][0])).color  # 2D
            assert (heart != diamond) is differ, deck
            assert (log.get_component_rich_style("log--red").color
                    != log.get_component_rich_style("log--diamond").color)
            await pilot.pause()


def colour_before(text: str, symbol: str) -> set[str | None]:
    """The foreground colours (SGR 38;2;r;g;b, None for the terminal's own) in force where ``symbol`` was written,
    over the whole output."""
    import re

    colours: set[str | None] = set()
    current: str | None = None
    for match in re.finditer(r"\x1b\[([0-9;]*)m|(.)", text, re.S):
        if match[1] is not None:
            params = match[1]
            found = re.search(r"(?:^|;)38;2;(\d+;\d+;\d+)", params)
            if found:
                current = found[1]
            elif params in ("", "0") or re.search(r"(?:^|;)39(?:;|$)", params):
                current = None
        elif match[2] == symbol:
            colours.add(current)
    return colours


@pytest.mark.terminal
@pytest.mark.parametrize("deck", ["two-colour", "four-colour"])
def test_in_the_terminal_diamonds_and_hearts_differ_only_in_the_four_colour_deck(deck):
    import os

    from cli_helpers import war_tui_on_pty

    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor", "COLUMNS": "100", "LINES": "30"}
    env.pop("NO_COLOR", None)
    pressed = []

    def react(seen: bytes) -> bytes:
        if not pressed and b"Battle" in seen:
            pressed.append(1)
            return b" "
        if len(pressed) == 1 and b"takes 2 cards" in seen:
            pressed.append(1)
            return b"q"
        return b""

    code, text = war_tui_on_pty(
        ["--deck", deck, "--p1", "5D 2C", "--p2", "3H 4S", "--no-config", "--no-stats"], env, 30, react
    )
    assert code == 0, text
    diamonds, hearts = colour_before(text, "♦"), colour_before(text, "♥")
    assert diamonds and hearts and None not in diamonds | hearts
    if deck == "two-colour":  # the same reds on the pile and in the log (and the grey of the words between)
        assert diamonds == hearts, (diamonds, hearts)
    else:  # colours of their own on the pile and in the log; only the words "5♦ beats 3♥" share one
        assert len(diamonds - hearts) >= 2 and len(diamonds & hearts) <= 1, (diamonds, hearts)


async def test_no_color_is_honoured_by_the_four_colour_deck(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(packets=WAR_PACKETS, deck="four-colour", theme="high-contrast")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert app.no_color
        svg = app.export_screenshot()
        for colour in ("#1d4fb8", "#1b6b2f", "#c2252d"):  # diamonds, clubs, hearts: no colour at all
            assert colour not in svg
        assert "9♦" in svg and "7♣" in svg and "7♥" in svg  # each suit still has its own symbol
