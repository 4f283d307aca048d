"""Rows that moved up (the battle log's lines) become a terminal scroll instead of being written again.

``find_scroll`` looks at the bands of consecutive rows an update writes, among the
rows the terminal is known to show whole, for a shift of a few rows that saves at
least a row's worth of writing over updating in place; ``scroll`` scrolls that
region of the terminal and of the shadow. With a hint (the app knows its log moved
n rows up) only those rows and that shift are looked at; the hint narrows the
search, it never makes a scroll that saves nothing.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import gt, ne, sub
from typing import cast

from .cells import Cell, Row, ScreenShadow, Span, Written

Scroll = tuple[int, int, int]
"""(top, bottom, n): rows top..bottom (inclusive) show what they showed n rows lower, moved up."""

MIN_ROWS = 3
"""A band of fewer rows than this is never scrolled: a plain rewrite is as cheap."""
MAX_SHIFT = 4
"""The largest shift looked for unaided: the log adds a line or two per frame."""
PIECES = 4
"""Stretches a row is cut into to see cheaply whether a shift brings it anything (see ``_brings``)."""
MERGE_GAP = 4
"""Unchanged cells between two changed runs that are cheaper to rewrite than to jump over."""
RUN_COST = 10
"""Rough bytes to start a run of changed cells (a cursor move and a colour), against about one per cell."""


def diffs(new: list[Cell], old: list[Cell]) -> list[int]:
    """The columns where two whole rows differ (a comparison in C first: most rows are equal)."""
    if new == old:
        return []
    return list(compress(range(len(new)), map(ne, new, old)))


def _diffs_cost(columns: list[int]) -> int:
    """About how many bytes it takes to write the changed ``columns`` of a row: one a cell, and
    ``RUN_COST`` for each run more than ``MERGE_GAP`` cells after the last (counted in C)."""
    if not columns:
        return 0
    jumps = sum(map(gt, map(sub, columns[1:], columns), repeat(MERGE_GAP + 1)))
    return len(columns) + RUN_COST * (1 + jumps)


def _overlay(new: Row, spans: list[Span], old: list[Cell]) -> list[Cell]:
    """The row as it is to look: what the update writes (in ``spans``), and what the terminal shows elsewhere."""
    row = old[:]
    for start, end in spans:
        row[start:end] = cast("list[Cell]", new[start:end])  # in its spans the update writes every cell
    return row


def _brings(new: list[Cell], moved: list[Cell], pieces: list[int], step: int) -> bool:
    """Whether ``moved`` holds, in place, some changing stretch of ``new`` (``pieces``: their indices).

    A log line moved up equals its new place whole, or all but the stretch a scrollbar crosses.
    """
    if new == moved:
        return True
    return any(new[piece * step : (piece + 1) * step] == moved[piece * step : (piece + 1) * step] for piece in pieces)


class _Band:
    """Consecutive rows an update writes, each as it is to look and as the terminal shows it."""

    def __init__(self, ys: list[int], written: Written, shadow: ScreenShadow) -> None:
        old = cast("list[list[Cell]]", shadow.rows)  # the band's rows are known whole (not in shadow.unknown)
        self.ys = ys
        self.rows = [_overlay(written.rows[y], written.spans[y], old[y]) for y in ys]
        self.olds = [old[y] for y in ys]
        self.diffs = [diffs(row, was) for row, was in zip(self.rows, self.olds)]
        self.in_place = [_diffs_cost(columns) for columns in self.diffs]
        self.step = -(-shadow.width // PIECES)
        self.changing = [
            (i, sorted({column // self.step for column in columns})) for i, columns in enumerate(self.diffs) if columns
        ]
        blank = shadow.width + RUN_COST  # a row come in blank, written whole
        self.blanks = [0]
        """blanks[i]: the in-place cost less a blank row's over the band's first i rows."""
        for cost in self.in_place:
            self.blanks.append(self.blanks[-1] + cost - blank)

    def best(self, n: int, to_beat: int) -> tuple[Scroll, int] | None:
        """The sub-band whose scroll by ``n`` saves the most bytes, if more than ``to_beat``, and the saving.

        Row i of a sub-band top..bottom then starts from what row i+n showed, and its last n rows come in
        blank (written whole). Only sub-bands from the first changing row the shift brings something to,
        to n rows past the last, are costed; for each bottom the best top has the least saved above it.
        """
        size = len(self.ys)
        bringing = [
            i for i, pieces in self.changing
            if i + n < size and _brings(self.rows[i], self.olds[i + n], pieces, self.step)
        ]
        if sum(self.in_place[i] for i in bringing) - 2 * RUN_COST <= to_beat:
            return None  # even written for free, the rows it brings something to would not pay
        first, last = bringing[0], min(bringing[-1] + n, size - 1)
        before = [0]  # saved by starting rows first.. from the row n below
        for i in range(first, last - n + 1):
            before.append(before[-1] + self.in_place[i] - _diffs_cost(diffs(self.rows[i], self.olds[i + n])))
        best: tuple[Scroll, int] | None = None
        least, least_index = 0, 0
        for bottom in range(first + n, last + 1):
            top = bottom - n - first
            if before[top] < least:
                least, least_index = before[top], top
            saving = before[top + 1] - least + self.blanks[bottom + 1] - self.blanks[bottom + 1 - n] - 2 * RUN_COST
            if saving > to_beat:
                best, to_beat = ((self.ys[first + least_index], self.ys[bottom], n), saving), saving
        return best


def _bands(written: Written, shadow: ScreenShadow, low: int, high: int, min_rows: int) -> list[list[int]]:
    """Runs of at least ``min_rows`` consecutive rows the update writes, known whole, within low..high."""
    bands: list[list[int]] = []
    for y in sorted(written.rows):
        if y in shadow.unknown or not low <= y <= high:
            continue
        if bands and y == bands[-1][-1] + 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    return [band for band in bands if len(band) >= min_rows]


def find_scroll(
    written: Written, shadow: ScreenShadow, hint: Scroll | None = None, min_rows: int = MIN_ROWS
) -> Scroll | None:
    """The scroll that saves the most writing for this update, if any saves a row's worth.

    When one is chosen, its rows are put in ``written`` whole (the update's cells over the
    old ones), so anything the scroll moved there is written back where it should not be.
    The columns each band row changes in place are kept in ``written.diffs``.
    """
    if len(written.rows) < min_rows:
        return None
    low, high, shifts = 0, shadow.height - 1, range(1, MAX_SHIFT + 1)
    if hint is not None:
        low, high, shifts = hint[0], hint[1], range(hint[2], hint[2] + 1)
    best: tuple[Scroll, int] | None = None
    to_beat = shadow.width  # a scroll must save at least a row's worth
    bands = [_Band(ys, written, shadow) for ys in _bands(written, shadow, low, high, min_rows)]
    for band in bands:
        written.diffs.update(zip(band.ys, band.diffs))
        if sum(band.in_place) <= to_beat:
            continue  # nothing a scroll could save
        for n in shifts:
            if n > len(band.ys) - 1:
                break
            found = band.best(n, to_beat)
            if found is not None:
                best, to_beat = found, found[1]
    if best is None:
        return None
    top, bottom, _ = best[0]
    targets = {y: row for band in bands for y, row in zip(band.ys, band.rows)}
    for y in range(top, bottom + 1):
        written.rows[y] = cast("Row", targets[y])
        written.spans[y] = [(0, shadow.width)]
        written.diffs.pop(y, None)  # the scroll changes what the terminal shows there
    return best[0]


def scroll(shadow: ScreenShadow, top: int, bottom: int, n: int) -> str:
    """Scroll rows top..bottom up by n in the terminal (and the shadow); the n rows let in are unknown.

    DECSTBM sets the scrolling region, each IND (ESC D) at its bottom margin scrolls it one
    line (VT100: xterm, VTE, tmux, screen and the Linux console all have it), and ``ESC[r``
    gives the whole screen back. The pen is the default here, so the blank lines carry no colour.
    """
    rows = shadow.rows
    rows[top : bottom + 1] = rows[top + n : bottom + 1] + [[None] * shadow.width for _ in range(n)]
    unknown = shadow.unknown
    moved = {y - n for y in unknown if top + n <= y <= bottom}
    unknown.difference_update(range(top, bottom + 1))
    unknown.update(moved, range(bottom + 1 - n, bottom + 1))
    return f"\x1b[{top + 1};{bottom + 1}r\x1b[{bottom + 1};1H" + "\x1bD" * n + "\x1b[r"
