"""The lobby's wording: one row per table, what the screen says about the server, and which tables it shows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.rules import Result
from ..tables import LobbyEntry, SeatStatus
from .cells import cell_width, fit_cells
from .glyphs import Glyphs
from .words import plural

LOBBY_COLUMNS = ("Table", "Seats", "Cards", "Watching", "Game", "Battle")
"""A row has two lines, one per seat, so a long name and its cards share a line and the row fits 80 columns."""
NARROW_COLUMNS = LOBBY_COLUMNS[:3]
"""Below ``WIDE_ENOUGH`` cells the lobby keeps who sits and their cards (the table on entering says the rest)."""
WIDE_ENOUGH = 72
"""Cells the six columns take with a 15-character table name and 16-cell names."""
PADDING = 2 * 3 + 2
"""Cells of a narrow row besides its cells' text: each column's padding, and the scrollbar."""
ROW_HEIGHT = 2


FREE_SEATS = frozenset({SeatStatus.OPEN, SeatStatus.HOUSE})
"""Seats anyone arriving from the lobby sits at: never yet taken, or played by the house for nobody."""


def has_free_seat(entry: LobbyEntry) -> bool:
    return any(status in FREE_SEATS for status in entry.statuses)


def shown_tables(entries: Sequence[LobbyEntry], free_only: bool) -> tuple[LobbyEntry, ...]:
    """The tables the list holds: every one, or (``free_only``) those with a seat to take."""
    return tuple(entry for entry in entries if not free_only or has_free_seat(entry))


def seat_cell(name: str | None, status: SeatStatus) -> str:
    if status is SeatStatus.AWAY:
        return "away (kept)"  # never whom for: a seat belongs to who sat in it, not to a name
    if status is SeatStatus.OPEN or name is None:
        return "open"
    if status is SeatStatus.HOUSE:
        return "free (house plays)"
    return name


def cards_cell(counts: tuple[int, int], result: Result | None) -> str:
    """Each seat's cards on its own line; at game over the winner's line says so (the seat's line names them)."""
    marks = {Result.P1: ("wins", ""), Result.P2: ("", "wins"), Result.DRAW: ("draw", "draw"),
             Result.STOPPED: ("stopped", "stopped")}.get(result, ("", "")) if result is not None else ("", "")
    return "\n".join(f"{count}, {mark}" if mark else f"{count}" for count, mark in zip(counts, marks))


def lobby_columns(width: int) -> tuple[str, ...]:
    """The columns that fit ``width`` cells: all six, or the narrow three."""
    return LOBBY_COLUMNS if width >= WIDE_ENOUGH else NARROW_COLUMNS


def lobby_rows(entries: Sequence[LobbyEntry], glyphs: Glyphs, width: int = WIDE_ENOUGH) -> list[tuple[str, ...]]:
    """Each table as the lobby's cells for a list ``width`` cells wide; the seats and their cards take a line each.

    Narrow, a row keeps the table, its seats and their cards, and a name too long for the room the table and
    cards columns leave is shortened at a character's edge (never cut inside one)."""
    rows = [
        (entry.table, [seat_cell(entry.players[i], entry.statuses[i]) for i in (0, 1)],
         cards_cell(entry.counts, entry.result), str(entry.spectators), str(entry.game), f"{entry.battles:,}")
        for entry in entries
    ]
    room: int | None = None
    if width < WIDE_ENOUGH:
        tables = max([cell_width(LOBBY_COLUMNS[0]), *(cell_width(row[0]) for row in rows)])
        cards = max([cell_width(LOBBY_COLUMNS[2]), *(cell_width(line) for row in rows for line in row[2].split("\n"))])
        room = max(3 + cell_width(glyphs.ellipsis), width - tables - cards - PADDING)
    columns = len(lobby_columns(width))
    return [
        (table, "\n".join(seat if room is None else fit_cells(seat, room, glyphs.ellipsis) for seat in seats),
         *rest)[:columns]
        for table, seats, *rest in rows
    ]


def column_widths(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> tuple[int, ...]:
    """Cells each column takes: its widest line, its heading's included."""
    widths = [cell_width(column) for column in columns]
    for row in rows:
        for i, cell in enumerate(row[: len(widths)]):
            widths[i] = max(widths[i], *(cell_width(line) for line in cell.split("\n")))
    return tuple(widths)


def lobby_summary(tables: int, max_tables: int) -> str:
    """The line over the list: how many tables, and whether the server can open another."""
    if tables >= max_tables:
        return (f"The server is full: {plural(tables, 'table')} open, the most it holds."
                " Sit at a free seat or watch a table.")
    if not tables:
        return "No tables yet: n opens one."
    return f"{plural(tables, 'table')} open (up to {max_tables})."


def rows_in_sight(rows: int, top: float, lines: int) -> tuple[int, int]:
    """The rows (first, last, counted from 1; (0, 0): none) a list of ``rows`` rows shows whole, ``lines`` lines
    of rows in sight from line ``top`` of them (every row ``ROW_HEIGHT`` lines)."""
    first = min(rows, -(-int(top) // ROW_HEIGHT))  # the first row that starts in sight
    last = min(rows, max(0, int(top) + lines) // ROW_HEIGHT)  # the rows that end in sight
    return (first + 1, last) if last > first else (0, 0)


def lobby_count(tables: int, listed: int, first: int, last: int, *, free_only: bool) -> str | None:
    """The line under the list: the server's ``tables``, the ``listed`` ones and which rows are in sight
    (``first``-``last``, counted from 1); None when every table is listed and in sight."""
    in_sight = last - first + 1 if last >= first > 0 else 0
    rows = f"{first}-{last}" if last > first else f"{first}"
    scrolled = "" if in_sight >= listed else f", {in_sight} shown ({rows})" if in_sight else ", none in sight"
    if not free_only:
        return f"{plural(tables, 'table')}{scrolled}." if scrolled else None
    if not listed:
        return "No table has a free seat; f lists them all, n opens one."
    free = "has a free seat" if listed == 1 else "have a free seat"
    return f"{listed} of {plural(tables, 'table')} {free}{scrolled}; f lists them all."
