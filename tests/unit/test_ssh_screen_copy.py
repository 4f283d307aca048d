"""The server's copy of a renderer's screen paints the same screen on another terminal."""

from __future__ import annotations

import pyte
import pytest
from support.glass import Glass

from war_tui.ssh.screen_copy import ScreenCopy

DRAWN = (
    "\x1b[?1049h\x1b[?1000h\x1b[2J\x1b[1;1H\x1b[1;38;5;214;48;5;17mBattle 7\x1b[0m · "
    "\x1b[38;2;10;20;30mrgb\x1b[0m \x1b[31mred\x1b[0m \x1b[7mrev\x1b[0m"
    "\x1b[3;5H山田 ♠ A\x1b[24;70Hcorner\x1b[2;1H"
).encode()


def shown(data: bytes, size=(80, 24)) -> pyte.Screen:
    glass = Glass(size)
    glass.feed(data)
    return glass.screen


@pytest.mark.parametrize("truecolor", [False, True])
def test_a_repaint_shows_the_same_cells_with_the_same_colours(truecolor):
    copy = ScreenCopy(80, 24, truecolor=truecolor)
    assert not copy.drawn
    copy.feed(DRAWN[:20])
    copy.feed(DRAWN[20:])
    assert copy.drawn
    original, again = shown(DRAWN), shown(copy.repaint())
    assert again.display == original.display
    for y in range(24):
        for x in range(80):
            a, b = original.buffer[y][x], again.buffer[y][x]
            assert (a.data, a.fg, a.bg, a.bold, a.reverse) == (b.data, b.fg, b.bg, b.bold, b.reverse), (x, y)


def test_a_repaint_turns_on_no_mouse_reports_and_is_kept_until_the_next_feed():
    copy = ScreenCopy(80, 24, truecolor=False)
    copy.feed(DRAWN)
    repaint = copy.repaint()
    assert b"\x1b[?1000h" not in repaint and repaint.startswith(b"\x1b[?1049h")
    assert copy.repaint() is repaint
    copy.feed(b"\x1b[5;1Hmore")
    assert copy.repaint() is not repaint and "more" in shown(copy.repaint()).display[4]
