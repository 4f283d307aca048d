"""How many terminal cells text takes, and text cut or wrapped by cells, so a wide (CJK) character counts
as two everywhere: in a frame, a centred line, a column of a table."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


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


def clusters(text: str) -> list[tuple[str, int]]:
    """``text`` as the pieces a terminal draws as one (a character with its marks, an emoji sequence), with
    the cells each takes: the measure Rich uses, so a frame drawn here meets the border Textual draws."""
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
    return out


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


def fit_cells(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` if it fits ``width`` cells, else cut to leave room for ``ellipsis`` at its end."""
    if cell_width(text) <= width:
        return text
    if width <= cell_width(ellipsis):
        return cut_cells(ellipsis, width)
    return cut_cells(text, width - cell_width(ellipsis)) + ellipsis


def pad_cells(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` cells, on the left when ``right``-aligned."""
    room = " " * max(0, width - cell_width(text))
    return room + text if right else text + room


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words (a word wider than a line is cut)."""
    width = max(1, width)
    lines: list[str] = []
    line = ""
    for word in text.split():
        while cell_width(word) > width:
            if line:
                lines.append(line)
                line = ""
            head = cut_cells(word, width) or word[0]
            lines.append(head)
            word = word[len(head):]
        if not word:
            continue
        joined = f"{line} {word}" if line else word
        if cell_width(joined) <= width:
            line = joined
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def first_parts(parts: Sequence[str], sep: str, width: int) -> str:
    """As many of ``parts`` as fit ``width`` cells whole, from the first, joined by ``sep``."""
    shown = ""
    for part in parts:
        joined = f"{shown}{sep}{part}" if shown else part
        if cell_width(joined) > width:
            break
        shown = joined
    return shown
