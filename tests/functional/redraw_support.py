"""Garbage over a terminal's screen (another program wrote to it, a line noise burst), and what ctrl+l must undo."""

from __future__ import annotations

from support.glass import Glass

CTRL_L = b"\x0c"
JUNK = "¤"
"""A character the game never draws."""


def garble(glass: Glass) -> None:
    """Junk over every row of ``glass`` (on what the game drew and on its blanks), the footer row erased,
    and the pen left reversed: as another program writing to the terminal would leave it (never counted as
    what the game wrote)."""
    screen = glass.screen
    junk = "".join(f"\x1b[{row};{1 + (row * 7) % max(1, screen.columns - 12)}H{JUNK * 10}"
                   for row in range(1, screen.lines + 1))
    glass.stream.feed(f"{junk}\x1b[{screen.lines};1H\x1b[2K\x1b[7m".encode())


def mended(before: list[str], after: list[str]) -> bool:
    """No junk is left, and the footer row (erased by ``garble``) shows again what it showed."""
    return not any(JUNK in row for row in after) and after[-1] == before[-1]
