"""A character grid for drawing cards, and frames with border labels laid out as Textual lays them out."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from .cells import cell_width, clusters, fit_cells


class Canvas:
    """A grid of characters with a style name per cell, for drawing cards before they become Text.

    Later paints cover earlier ones, which is how a fanned hand or a stack of
    backs is drawn: bottom card first.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self._chars = [[" "] * self.width for _ in range(self.height)]
        self._styles = [[""] * self.width for _ in range(self.height)]

    def paint(self, x: int, y: int, lines: Sequence[str], style: str = "", styles: Sequence[str] | None = None) -> None:
        """Paint ``lines`` with its top-left corner at (x, y), clipped to the canvas.

        ``styles``, when given, holds one style name per line (overriding ``style``).
        A wide character takes two cells (the second holds ""), so a row's text is as
        wide on screen as the canvas, whatever the names in it.
        """
        for dy, line in enumerate(lines):
            row = y + dy
            if not 0 <= row < self.height:
                continue
            name = styles[dy] if styles is not None else style
            if not (line.isascii() and line.isprintable()):
                self._paint_cells(x, row, line, name)
                continue
            start, end = max(0, x), min(self.width, x + len(line))
            if end <= start:
                continue
            self._mend_edges(row, start, end)
            self._chars[row][start:end] = line[start - x : end - x]
            self._styles[row][start:end] = [name] * (end - start)

    def _paint_cells(self, x: int, row: int, line: str, style: str) -> None:
        chars, styles = self._chars[row], self._styles[row]
        col = x
        for piece, cells in clusters(line):
            if cells == 0:
                continue
            if col >= 0 and col + cells <= self.width:
                self._mend_edges(row, col, col + cells)
                chars[col : col + cells] = [piece] + [""] * (cells - 1)
                styles[col : col + cells] = [style] * cells
            elif 0 <= col < self.width:  # half of a wide character would show: a space instead
                self._mend_edges(row, col, col + 1)
                chars[col], styles[col] = " ", style
            col += cells

    def _mend_edges(self, row: int, start: int, end: int) -> None:
        """Before cells start..end are covered: blank what is left of a wide character cut at either edge."""
        chars = self._chars[row]
        if start > 0 and chars[start] == "":
            chars[start - 1] = " "
        if end < self.width and chars[end] == "":
            chars[end] = " "

    def text(self, x: int, y: int, text: str, style: str = "") -> None:
        self.paint(x, y, [text], style)

    def centred(self, y: int, text: str, style: str = "", ellipsis: str = "…") -> None:
        """``text`` centred on row ``y``, cut by cells (ending in ``ellipsis``) where it is too wide."""
        text = fit_cells(text, self.width, ellipsis)
        self.paint(max(0, (self.width - cell_width(text)) // 2), y, [text], style)

    def runs(self) -> list[list[tuple[str, str]]]:
        """Each row as (text, style-name) runs: few runs means few escape codes on the wire."""
        out = []
        for chars, styles in zip(self._chars, self._styles):
            row: list[tuple[str, str]] = []
            start = 0
            for name, cells in groupby(styles):
                end = start + len(list(cells))
                row.append(("".join(chars[start:end]), name))
                start = end
            out.append(row)
        return out

    def lines(self) -> list[str]:
        return ["".join(chars) for chars in self._chars]


Runs = list[tuple[str, str]]
"""A row as (text, style name) runs."""


def border_label_row(width: int, box: str, top: bool, label: str, ellipsis: str, frame_style: str, label_style: str) -> Runs:
    """A frame's top (title, on the left) or bottom (subtitle, on the right) edge, laid out as Textual lays
    out border labels: one edge cell between the corner and the label, a space each side of the label,
    and the label cut short (ending in ``ellipsis``) where it does not fit."""
    if width <= 0:
        return []
    left, right = (box[0], box[1]) if top else (box[2], box[3])
    edge = box[4]
    if width == 1:
        return [(left, frame_style)]
    room = width - 6  # the corners, one space each side of the label, and the edge beside it
    if not label or room <= 0:
        return [(left + edge * (width - 2) + right, frame_style)]
    label = fit_cells(label, room, ellipsis)
    padded = f" {label} "
    rest = width - 2 - cell_width(padded)  # at least 2: the label was cut to fit
    if top:
        return [(left + edge, frame_style), (padded, label_style), (edge * (rest - 1) + right, frame_style)]
    return [(left + edge * (rest - 1), frame_style), (padded, label_style), (edge + right, frame_style)]


def framed(
    inner: Sequence[Runs],
    width: int,
    height: int,
    box: str,
    frame_style: str,
    title: tuple[str, str],
    subtitle: tuple[str, str],
    ellipsis: str,
) -> list[Runs]:
    """``inner`` (rows of ``width - 2`` cells) inside a frame drawn with ``box``; title and subtitle are
    (text, style name). A widget that draws its own frame changes its look by drawing, not by CSS
    classes: Textual restyles a widget whose classes change (the stylesheet applied again, every
    component style rebuilt), which cost the pile more than the rest of a war's battle."""
    if width <= 0 or height <= 0:
        return []
    rows = [border_label_row(width, box, True, title[0], ellipsis, frame_style, title[1])]
    side = box[5]
    blank = [(" " * max(0, width - 2), "")]
    for y in range(height - 2):
        row = inner[y] if y < len(inner) else blank
        rows.append([(side, frame_style), *row, (side, frame_style)] if width > 1 else [(side, frame_style)])
    if height > 1:
        rows.append(border_label_row(width, box, False, subtitle[0], ellipsis, frame_style, subtitle[1]))
    return rows
