"""WAR_TUI_FASTPATH names the pieces a run keeps, so each can be measured on and off; a run without the
scroll piece writes the same screen, only without terminal scrolls."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from war_tui.ui.fastpath import damage, probe

WIDTH, HEIGHT = 20, 8


@pytest.mark.parametrize(
    "value, shadow, scroll, memory",
    [
        ("1", True, True, True),
        ("", True, True, True),
        ("0", False, False, False),
        ("shadow,memory", True, False, True),
        ("shadow, scroll", True, True, False),
        ("memory", False, False, True),
        ("scroll", False, False, False),  # the scroll is a part of the shadow terminal
        ("nonsense", True, True, True),
    ],
)
def test_the_environment_names_the_pieces_a_run_keeps(value, shadow, scroll, memory):
    found = probe({"WAR_TUI_FASTPATH": value})
    assert (found.shadow_terminal, found.scroll_terminal, found.forget_removed_widgets) == (shadow, scroll, memory)


def _frame(first: int) -> damage.ChopsUpdate:
    """A whole screen of numbered lines, from line ``first`` down: the next frame's lines moved up one."""
    style = Style(color="white", bgcolor="black")
    chops: list[dict[int, Strip | None]] = [
        {0: Strip([Segment(f"line {first + y}".ljust(WIDTH), style)], WIDTH)} for y in range(HEIGHT)
    ]
    return damage.ChopsUpdate(chops, [(y, 0, WIDTH) for y in range(HEIGHT)], [[WIDTH] for _ in range(HEIGHT)])


@pytest.mark.parametrize("scroll", [True, False])
def test_without_the_scroll_piece_lines_moved_up_are_written_again(scroll):
    console = Console(color_system="truecolor", force_terminal=True, width=WIDTH, height=HEIGHT)
    shadow = damage.ScreenShadow(scroll)
    shadow.reset(WIDTH, HEIGHT)
    damage.minimal_update(_frame(1), shadow, console, (WIDTH, HEIGHT))
    written = damage.minimal_update(_frame(2), shadow, console, (WIDTH, HEIGHT), (0, HEIGHT - 1, 1))
    assert ("\x1bD" in written) == scroll
    assert [[cell[0] if cell else " " for cell in row] for row in shadow.rows] == [
        list(f"line {2 + y}".ljust(WIDTH)) for y in range(HEIGHT)
    ]
