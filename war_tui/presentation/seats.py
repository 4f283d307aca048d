"""The seats line of a shared table: who sits where, who has flipped, whom the table waits for, who watches.

Words only: the table decided everything the line says (``TableState``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.rules import Side
from ..tables import SeatState, SeatStatus, TableState, You
from ..tables.seats import HOUSE_NAME
from .cells import cell_width, fit_cells
from .glyphs import Glyphs
from .speed import speed_label
from .status import initials
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
    if seat.status is SeatStatus.AWAITED:  # kept, and the table waits for its player as for one idle
        return [("away (kept), ", "house"), *_playing_words(seat, state)]
    return _playing_words(seat, state)


def _playing_words(seat: SeatState, state: TableState) -> list[Piece]:
    """What a seat its player plays is at: dealing again, auto-play, flipped or to flip."""
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


LAYING_LOCAL = "a war is laid: f or j shows the rest"
"""At one keyboard while a war is laid on the pile: the table waits for the next flips, but either key shows it whole."""


def waiting_words(state: TableState, names: Sequence[str], *, laying: bool = False) -> Piece:
    """What the table waits for, as one piece; ``laying``: a war is being laid on this keyboard's pile."""
    if state.held:
        return "stopped at a war's tie", "waiting"
    if laying:
        return LAYING_LOCAL, "waiting"
    if state.auto_speed is not None and not state.over:
        return f"auto-play {speed_label(state.auto_speed)}", "auto"
    if state.over:  # the table names whom it waits for to deal again: a player away whose seat it keeps too
        if not state.waiting_for:
            return "dealing again", "flipped"
        who = " and ".join(names[side.index] for side in state.waiting_for)
        return f"game over: waiting for {who} to press r", "waiting"
    waiting = tuple(side for side in state.waiting_for if not state.seats[side.index].house)  # the house never waits
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
    laying: bool = False,
    tv: bool = False,
) -> list[Piece]:
    """The seats line as (text, style-name) pieces, in the longest wording that fits ``width`` (``LADDER``).

    ``names``: what the board calls the seats (default: the table's names); ``local``: both seats are at this
    keyboard; ``laying``: a war is being laid; ``tv``: War TV's spectator, who is told "on War TV" and keeps the
    table's name and how many watch it longest (``TV_LADDER``). Parts said elsewhere too go first, then your seat
    becomes "you", then names are shortened, then initials; a piece is never cut.
    """
    shown = tuple(names) if names is not None else tuple(
        seat.name or f"seat {i + 1}" for i, seat in enumerate(state.seats)
    )
    mine = None if local or you is None else you.seat
    watching = you is not None and you.watching and not local
    laying = laying and local
    seated = [i for i, seat in enumerate(state.seats) if seat.status is not SeatStatus.OPEN and not _house_seat(seat)]
    pieces: list[Piece] = []
    for rung in TV_LADDER if tv else LADDER:
        called = list(initials(shown) if INITIALS in rung else shown)
        if SHORT_NAMES in rung and INITIALS not in rung:
            others = [i for i in seated if not (YOU_SHORT in rung and mine is not None and mine.index == i)]
            unnamed = _line(state, glyphs, rung, ["" if i in others else n for i, n in enumerate(called)],
                            mine, emotes, seated, watching, laying, tv)
            room = width - sum(cell_width(text) for text, _ in unnamed)
            fitted = _shortened([called[i] for i in others], room, glyphs.ellipsis)
            if fitted is None:
                continue  # no name fits even shortened: initials
            for i, name in zip(others, fitted):
                called[i] = name
        pieces = _line(state, glyphs, rung, called, mine, emotes, seated, watching, laying, tv)
        if sum(cell_width(text) for text, _ in pieces) <= width:
            return pieces
    kept: list[Piece] = []
    used = 0
    for text, style in pieces:  # narrower than any wording: end before the piece that does not fit
        used += cell_width(text)
        if used > width:
            break
        kept.append((text, style))
    while kept and kept[-1][1] in ("label", ""):
        kept.pop()  # never a dot or a space left hanging at the end
    return kept


def _line(
    state: TableState, glyphs: Glyphs, rung: frozenset[str], called: Sequence[str],
    mine: Side | None, emotes: Sequence[str], seated: Sequence[int], watching: bool, laying: bool, tv: bool = False,
) -> list[Piece]:
    """The line's pieces at one rung of the ladder, with the seats called as ``called``."""
    dot = f" {glyphs.dot} "
    parts: list[list[Piece]] = []
    if TABLE_NAME not in rung:
        parts.append(([("Table ", "label")] if TABLE_WORD not in rung else []) + [(state.table, "table")])
    for index, seat in enumerate(state.seats):
        part: list[Piece] = []
        if index in seated:
            if mine is not None and mine.index == index:
                part += [("you", "you")] if YOU_SHORT in rung else [(called[index], "you"), (" (you)", "you")]
            else:
                part.append((called[index], "name"))
            if emotes[index] and EMOTE not in rung:
                part.append((f' "{emotes[index]}"', "emote"))
            part.append((" ", ""))
        parts.append(part + seat_words(seat, index, state))
    if WAITING not in rung:
        parts.append([waiting_words(state, called, laying=laying)])
    if state.spectators and SPECTATORS not in rung:
        parts.append([(plural(state.spectators, "spectator"), "label")])
    if watching and WATCHING not in rung:
        parts.append([("on War TV" if tv else "you are watching", "you")])
    pieces: list[Piece] = []
    for part in parts:
        if pieces:
            pieces.append((dot, "label"))
        pieces += part
    return pieces


def _shortened(names: Sequence[str], room: int, ellipsis: str) -> list[str] | None:
    """``names`` cut at a character's edge (ending in ``ellipsis``) so that together they take ``room`` cells at
    most, the room shared fairly (a short name keeps all of it); None if one would keep less than two cells."""
    widths = [cell_width(name) for name in names]
    if sum(widths) <= room:
        return list(names)
    budgets = [0] * len(names)
    left, waiting = room, sorted(range(len(names)), key=lambda i: widths[i])
    while waiting:
        share = left // len(waiting)
        i = waiting.pop(0)
        budgets[i] = min(widths[i], share)
        left -= budgets[i]
    least = 2 + cell_width(ellipsis)
    if any(b < widths[i] and b < least for i, b in enumerate(budgets)):
        return None
    return [name if budgets[i] >= widths[i] else fit_cells(name, budgets[i], ellipsis) for i, name in enumerate(names)]


TABLE_WORD, SPECTATORS, WATCHING, WAITING, TABLE_NAME, EMOTE, YOU_SHORT, SHORT_NAMES, INITIALS = (
    "the word Table", "spectators", "you are watching", "what the table waits for", "table name", "emotes",
    "your name (you: 'you')", "names shortened", "initials",
)
"""The parts of the seats line that give way, least important first."""
GIVING_WAY = (TABLE_WORD, SPECTATORS, WATCHING, WAITING, TABLE_NAME, EMOTE, YOU_SHORT, SHORT_NAMES, INITIALS)
LADDER = tuple(frozenset(GIVING_WAY[:n]) for n in range(len(GIVING_WAY) + 1))
"""The seats line's wordings, longest first: each gives up one more part than the one before."""
TV_GIVING_WAY = (WATCHING, WAITING, TABLE_WORD, EMOTE, SPECTATORS, TABLE_NAME, YOU_SHORT, SHORT_NAMES, INITIALS)
"""On War TV the table's name and how many watch it are what its viewer came to see: they give way last."""
TV_LADDER = tuple(frozenset(TV_GIVING_WAY[:n]) for n in range(len(TV_GIVING_WAY) + 1))
