"""Text fitted, padded or wrapped by terminal cells, so a wide (CJK) character counts as two everywhere: in a
frame, a centred line, a column of a table. The measure itself is core.cells (the tables package cuts names
with it too)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cells import SKIN_TONES, VS16, ZWJ, cell_width, char_width, clusters, cut_cells

__all__ = [
    "SKIN_TONES", "VS16", "ZWJ", "cell_width", "char_width", "clusters", "cut_cells", "first_parts", "fit_cells",
    "fit_before", "pad_cells", "wrap_cells",
]


def fit_cells(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` if it fits ``width`` cells, else cut to leave room for ``ellipsis`` at its end."""
    if cell_width(text) <= width:
        return text
    if width <= cell_width(ellipsis):
        return cut_cells(ellipsis, width)
    return cut_cells(text, width - cell_width(ellipsis)) + ellipsis


def fit_before(text: str, tail: str, width: int, ellipsis: str = "…") -> str:
    """``text`` and ``tail`` in ``width`` cells: ``text`` is cut (ending in ``ellipsis``), never ``tail``, while a
    cell of it is left ("Bartholomew_L… (you)"); narrower, ``tail`` alone, without its spaces, cut as it must be."""
    whole = text + tail
    if cell_width(whole) <= width:
        return whole
    room = width - cell_width(tail)
    if room > cell_width(ellipsis):
        return fit_cells(text, room, ellipsis) + tail
    return fit_cells(tail.strip(), width, ellipsis)


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
