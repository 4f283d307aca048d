"""The seats line of a shared table: who sits where, who has flipped, whom the table waits for, who watches.

Words only: the table decided everything the line says (``TableState``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tables import SeatState, SeatStatus, TableState, You
from ..tables.table import HOUSE_NAME
from .cells import cell_width
from .glyphs import Glyphs
from .speed import speed_label
from .words import plural

Piece = tuple[str, str]


def seat_words(seat: SeatState, index: int, state: TableState) -> list[Piece]:
    """One seat after its name: "flipped", "to flip", "the house plays"... as (text, style) pieces."""
    if seat.status is SeatStatus.OPEN:
        return [(f"seat {index + 1} open", "house")]
    if _house_seat(seat):
        return [(f"the house plays seat {index + 1}", "house")]
    if seat.house:
        away = "away" if seat.status is SeatStatus.AWAY else "left"
        return [(f"{away}, the house plays", "house")]
    if state.over:
        return [("deals again", "flipped")] if seat.restart else [("to press r", "waiting")]
    if state.auto_speed is not None or state.held:
        return [(f"auto {speed_label(seat.speed)}", "auto")]
    if seat.flipped:
        return [("flipped", "flipped")]
    return [("to flip", "waiting")]  # what a player asks of the other is on the requests line, whole


def _house_seat(seat: SeatState) -> bool:
    """A seat a player chose to give the house (nobody ever sat there)."""
    return seat.status is SeatStatus.HOUSE and seat.name == HOUSE_NAME


def waiting_words(state: TableState, names: Sequence[str]) -> Piece:
    """What the table waits for, as one piece."""
    if state.held:
        return "stopped at a war's tie", "waiting"
    if state.auto_speed is not None:
        return f"auto-play {speed_label(state.auto_speed)}", "auto"
    waiting = tuple(side for side in state.waiting_for if not state.seats[side.index].house)  # the house never waits
    if state.over:
        if not waiting:
            return "dealing again", "flipped"
        who = " and ".join(names[side.index] for side in waiting)
        return f"game over: waiting for {who} to press r", "waiting"
    if not waiting:
        return "both flipped", "flipped"
    if any(state.seats[side.index].status is SeatStatus.OPEN for side in waiting):
        return "waiting for a second player to sit", "waiting"
    if len(waiting) == 2:
        return "waiting for both to flip", "waiting"
    return f"waiting for {names[waiting[0].index]} to flip", "waiting"


def seats_pieces(
    state: TableState,
    you: You | None,
    glyphs: Glyphs,
    width: int,
    *,
    names: Sequence[str] | None = None,
    local: bool = False,
    emotes: Sequence[str] = ("", ""),
) -> list[Piece]:
    """The seats line as (text, style-name) pieces; styles: 'table', 'label', 'name', 'you', 'flipped',
    'waiting', 'house', 'auto', 'emote'. ``emotes``: each seat's emote on show beside its name.

    ``names``: what the board calls the two seats (``--two-players`` keeps the names given);
    by default the names the table gives them. ``local``: both seats are at this keyboard.
    The longest wording that fits ``width``: then without "Table", then without the spectators, then
    without "you are watching" (the help says it too), then cut.
    """
    shown = tuple(names) if names is not None else tuple(
        seat.name or f"seat {i + 1}" for i, seat in enumerate(state.seats)
    )
    dot = f" {glyphs.dot} "
    mine = None if local or you is None else you.seat
    seats: list[Piece] = []
    for index, seat in enumerate(state.seats):
        seats.append((dot, "label"))
        if seat.status is not SeatStatus.OPEN and not _house_seat(seat):
            style = "you" if mine is not None and mine.index == index else "name"
            seats.append((shown[index], style))
            if style == "you":
                seats.append((" (you)", "you"))
            if emotes[index]:
                seats.append((f' "{emotes[index]}"', "emote"))
            seats.append((" ", ""))
        seats += seat_words(seat, index, state)
    waiting = [(dot, "label"), waiting_words(state, shown)]
    spectators: list[Piece] = []
    if state.spectators:
        spectators = [(dot, "label"), (plural(state.spectators, "spectator"), "label")]
    watching: list[Piece] = []
    if you is not None and you.watching and not local:
        watching = [(dot, "label"), ("you are watching", "you")]
    named: list[Piece] = [("Table ", "label"), (state.table, "table")]
    for table, extra in (
        (named, [*spectators, *watching]),
        (named[1:], [*spectators, *watching]),
        (named[1:], watching),
        (named[1:], []),
    ):
        pieces = [*table, *seats, *waiting, *extra]
        if sum(cell_width(text) for text, _ in pieces) <= width:
            return pieces
    return pieces
    return pieces

