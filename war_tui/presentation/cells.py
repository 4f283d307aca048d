"""How many terminal cells text takes, so a wide (CJK) character counts as two everywhere."""

from __future__ import annotations

import unicodedata


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes: wide (CJK) characters take two, combining marks none."""
    if text.isascii():
        return len(text)  # the status line and the card bar ask this of every piece, every battle
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width
