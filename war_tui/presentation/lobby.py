"""The lobby's wording: one row per table, and what the screen says about the server."""

from __future__ import annotations

from ..tables import LobbyEntry, SeatStatus
from .glyphs import Glyphs
from ..core.rules import Result
from .words import plural

LOBBY_COLUMNS = ("Table", "Seats", "Cards", "Watching", "Game", "Battle")
"""A row has two lines, one per seat, so a long name and its cards share a line and the row fits 80 columns."""
ROW_HEIGHT = 2


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


def lobby_row(entry: LobbyEntry, glyphs: Glyphs) -> tuple[str, ...]:
    """One table as the lobby's cells; the seats and their cards take a line each."""
    seats = "\n".join(seat_cell(entry.players[i], entry.statuses[i]) for i in (0, 1))
    return (
        entry.table, seats, cards_cell(entry.counts, entry.result), str(entry.spectators), str(entry.game),
        f"{entry.battles:,}",
    )


def lobby_summary(tables: int, max_tables: int) -> str:
    """The line over the list: how many tables, and whether the server can open another."""
    if tables >= max_tables:
        return (f"The server is full: {plural(tables, 'table')} open, the most it holds."
                " Sit at a free seat or watch a table.")
    if not tables:
        return "No tables yet: n opens one."
    return f"{plural(tables, 'table')} open (up to {max_tables})."
