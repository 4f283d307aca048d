"""The leaderboard's wording: its columns for a width, a row per identity, and what it says instead of rows.

A name comes from the statistics file, written by any war-tui that ever served: it is reduced as a table
reduces names (``tables.names.reduce_name``: no controls, bidi or zero-width characters, at most 16 cells)
and fitted to the room the numbers leave, so no name can move a column. The identity itself is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..stats.records import Leader
from ..tables.names import reduce_name
from .cells import cell_width, fit_before, pad_cells

RANK, PLAYER, GAMES, WINS, LONGEST = "#", "Player", "Games", "Wins", "Longest"
WIDE_COLUMNS = (RANK, PLAYER, GAMES, WINS, LONGEST)
NARROW_COLUMNS = WIDE_COLUMNS[1:]
"""Too narrow for the rank and a whole name: the rank goes (the order says it)."""
RIGHT = frozenset({RANK, GAMES, WINS, LONGEST})
"""Columns of numbers, aligned on the right."""
PADDING = 2
"""Cells a column takes besides its text (one each side)."""
SCROLLBAR = 2
MIN_NAME = 4
"""A name keeps at least this many cells however narrow the screen (the columns of numbers scroll then)."""
YOU = " (you)"

EMPTY = "No table games finished yet."
UNREADABLE = "The server's statistics cannot be read, so there is no leaderboard."
NO_STATISTICS = "This server keeps no statistics, so there is no leaderboard."
NO_LEADERBOARD = "This server keeps no leaderboard."
EXPLAINED = "Table games won, by player; the longest game in battles (enter replays it)."


def column_widths(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """Each column as wide as its widest cell or label."""
    return tuple(max([cell_width(label), *(cell_width(row[i]) for row in rows)]) for i, label in enumerate(columns))


def aligned(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The labels and cells padded to their column's width, numbers on the right (as a list draws them whatever
    its own justification)."""
    widths = column_widths(columns, rows)

    def line(cells: Sequence[str]) -> tuple[str, ...]:
        return tuple(pad_cells(cell, width, right=label in RIGHT) for label, cell, width in zip(columns, cells, widths))

    return line(columns), [line(row) for row in rows]


def leaderboard_cells(
    leaders: Sequence[Leader], width: int, you: str | None = None, ellipsis: str = "…"
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The column labels and the rows of ``leaders`` for a list ``width`` cells wide, each cell padded to its
    column's width; ``you``: the viewer's identity, whose row says so."""
    numbers = [(f"{n + 1}", f"{leader.games:,}", f"{leader.wins:,}", f"{leader.longest:,}")
               for n, leader in enumerate(leaders)]
    names = [reduce_name(leader.name) for leader in leaders]
    tails = [YOU if you is not None and leader.player == you else "" for leader in leaders]
    widest = max([cell_width(PLAYER), *(cell_width(name + tail) for name, tail in zip(names, tails))])
    figures = [max([cell_width(label), *(cell_width(row[i]) for row in numbers)])
               for i, label in enumerate((RANK, GAMES, WINS, LONGEST))]
    wide = widest + sum(figures) + PADDING * len(WIDE_COLUMNS) + SCROLLBAR <= width
    columns = WIDE_COLUMNS if wide else NARROW_COLUMNS
    others = sum(figures[1:]) + PADDING * len(columns) + SCROLLBAR
    room = widest if wide else max(MIN_NAME, min(widest, width - others))
    rows = [
        ((rank,) if wide else ()) + (fit_before(name, tail, room, ellipsis), games, wins, longest)
        for (rank, games, wins, longest), name, tail in zip(numbers, names, tails)
    ]
    return aligned(columns, rows)
