"""How many terminal cells text takes, the one measure every layer uses: the tables package cuts a name to
16 cells with it, the screens fit frames, centred lines and columns with it, so a wide (CJK) character or
an emoji counts as two everywhere, and a piece a terminal draws over the one before (a mark, a skin tone)
as none."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ZWJ = "\u200d"  # joins the next character to this one's picture (family emoji)
VS16 = "\ufe0f"  # asks for the emoji picture: two cells for a symbol such as ♥
SKIN_TONES = range(0x1F3FB, 0x1F400)


def char_width(char: str) -> int:
    """Cells one character takes alone: wide (CJK, most emoji) two, combining marks and controls none."""
    if " " <= char < "\x7f":
        return 1
    if unicodedata.combining(char) or unicodedata.category(char) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    if ord(char) in SKIN_TONES:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[tuple[str, int], ...]:
    """``text`` as the pieces a terminal draws as one (a character with its marks, an emoji sequence), with
    the cells each takes: the measure Rich uses, so a frame drawn here meets the border Textual draws.
    Kept for the texts asked most (the cards' rows are drawn again every battle), a bounded number."""
    out: list[tuple[str, int]] = []
    joined = False
    for char in text:
        if out and (joined or char in (ZWJ, VS16) or char_width(char) == 0):
            piece, width = out[-1]
            if char == VS16 and width == 1 and not piece.isascii():
                width = 2
            out[-1] = (piece + char, width)
            joined = char == ZWJ
            continue
        out.append((char, char_width(char)))
        joined = False
    return tuple(out)


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes."""
    if text.isascii() and text.isprintable():
        return len(text)  # the status line and the card bar ask this of every piece, every battle
    return sum(width for _, width in clusters(text))


def cut_cells(text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` cells (a wide character or emoji is never split)."""
    if text.isascii() and text.isprintable():
        return text[: max(0, width)]
    used = 0
    kept = []
    for piece, cells in clusters(text):
        used += cells
        if used > width:
            break
        kept.append(piece)
    return "".join(kept)
