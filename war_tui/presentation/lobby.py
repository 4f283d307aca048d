"""The lobby's wording: one row per table, and what the screen says about the server."""

from __future__ import annotations

from ..tables import LobbyEntry, SeatStatus
from .glyphs import Glyphs
from .words import plural, result_title

LOBBY_COLUMNS = ("Table", "Seat 1", "Seat 2", "Watching", "Game", "Battle", "Cards or result")


def seat_cell(name: str | None, status: SeatStatus) -> str:
    if status is SeatStatus.AWAY:
        return "away (kept)"  # never whom for: a seat belongs to who sat in it, not to a name
    if status is SeatStatus.OPEN or name is None:
        return "open"
    if status is SeatStatus.HOUSE:
        return "free (house plays)"
    return name


def lobby_row(entry: LobbyEntry, glyphs: Glyphs) -> tuple[str, ...]:
    names = tuple(name or f"Seat {i + 1}" for i, name in enumerate(entry.players))
    if entry.result is None:
        score = f"{entry.counts[0]}{glyphs.dot}{entry.counts[1]}"
    else:
        score = f"{result_title(entry.result, names)}, {entry.counts[0]}{glyphs.dot}{entry.counts[1]}"
    return (
        entry.table, seat_cell(entry.players[0], entry.statuses[0]), seat_cell(entry.players[1], entry.statuses[1]),
        str(entry.spectators), str(entry.game), f"{entry.battles:,}", score,
    )


def lobby_summary(tables: int, max_tables: int) -> str:
    """The line over the list: how many tables, and whether the server can open another."""
    if tables >= max_tables:
        return (f"The server is full: {plural(tables, 'table')} open, the most it holds."
                " Sit at a free seat or watch a table.")
    if not tables:
        return "No tables yet: n opens one."
    return f"{plural(tables, 'table')} open (up to {max_tables})."
