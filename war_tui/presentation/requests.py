"""What one player asks of the other, in words: the table's requests line, its toasts, and the emotes.

The table holds each seat's wishes (``TableState``); a wish the other seat does not share is a request.
The line names who asks what and which key answers it, whole: a request is never cut to fit a width
(the line wraps). Words only: the table decided everything.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tables import EMOTES, SeatStatus, TableState, You
from ..tables.agreement import KINDS, request_words
from .speed import speed_label

KEYS = {"auto": "a", "war_stop": "w", "restart": "r"}
"""The key that asks for each kind of request (and answers or withdraws it)."""
EMOTE_KEYS = tuple(str(n) for n in range(1, len(EMOTES) + 1))
HOUSE_WARNS = 20
"""Seconds before the house flips for an idle player from which the countdown shows: a line that came and
went with every flip would move the board under both players' eyes. For a player away whose seat the table keeps
(``AWAITED``) it shows whole: only their return or the house ends that wait."""


def _agreed(kind: str, state: TableState) -> bool:
    if kind == "auto":
        return state.auto_speed is not None or state.held
    if kind == "war_stop":
        return state.war_stop
    return False


ASKING = (SeatStatus.PLAYER, SeatStatus.AWAITED)
"""The seats whose wishes stand as requests: a player's, and one kept for a player cut off by a restart."""


def pending(state: TableState) -> list[tuple[int, str]]:
    """(seat index, kind) of every request the other seat has not answered yet: a seat kept for its away player
    answers when they are back; only one its player left for good (``HOUSE``) the house answers at once."""
    found = []
    for index, seat in enumerate(state.seats):
        other = state.seats[1 - index]
        for kind in KINDS:
            if (seat.status in ASKING and getattr(seat, kind) and not getattr(other, kind)
                    and other.status is not SeatStatus.HOUSE and not _agreed(kind, state)):
                found.append((index, kind))
    return found


def request_text(state: TableState, index: int, kind: str, you: You | None, names: Sequence[str]) -> str:
    """One request as whoever sees it reads it: the asker, the one who answers, or a spectator."""
    seat = state.seats[index]
    what = request_words(kind, state.over, speed_label(seat.speed))
    key = KEYS[kind]
    mine = you.seat.index if you is not None and you.seat is not None else None
    if mine == index:
        return f"you ask {what}: waiting for {names[1 - index]} ({key} withdraws)"
    if mine is not None:
        return f"{names[index]} asks {what}: press {key} to agree, n to decline"
    return f"{names[index]} asks {what}"


LEAVE_PROMPT = "leave the table? q or y leaves, any other key stays"
"""What a player who pressed q mid-game reads until they answer."""
LEAVE_PROMPT_SHORT = "Leave? q or y"
"""The note of it on a short screen, where the requests line above the board asks it whole."""


def declinable(state: TableState | None, you: You | None) -> bool:
    """Whether a request of the other player waits for this player's answer (``n`` declines it)."""
    if state is None or you is None or you.seat is None:
        return False
    return any(index != you.seat.index for index, _kind in pending(state))


def leaving_text(name: str) -> str:
    """The other player and spectators: a player pressed q and is asked to confirm."""
    return f"{name} is leaving the table"


def leaving(state: TableState) -> list[int]:
    """The seats whose player pressed q and is asked to confirm."""
    return [i for i, seat in enumerate(state.seats) if seat.leaving and seat.status is SeatStatus.PLAYER]


def request_lines(
    state: TableState | None, you: You | None, names: Sequence[str], *, house_in: int | None = None,
    local: bool = False,
) -> tuple[str, ...]:
    """Every line the requests line shows now, most urgent first (nothing while there is nothing to ask)."""
    if state is None:
        return ()
    mine = you.seat.index if you is not None and you.seat is not None and not local else None
    watching = not local and (you is None or you.seat is None)
    lines: list[str] = []
    if state.held:
        lays = ("either player's space lays it" if watching else "f or j lays it" if local
                else "space lays it for everyone")
        lines.append(f"stopped at a war: {lays}")
    if not local:
        lines += [LEAVE_PROMPT if index == mine else leaving_text(names[index]) for index in leaving(state)]
        lines += [request_text(state, index, kind, you, names) for index, kind in pending(state)]
    if house_in is not None and len(state.waiting_for) == 1 and not state.over:
        side = state.waiting_for[0]
        away = state.seats[side.index].status is SeatStatus.AWAITED  # nothing hurries it: counted down whole
        if away or house_in <= HOUSE_WARNS:
            who = "you" if mine == side.index else names[side.index]
            lines.append(f"the house flips for {who} in {house_in} s")
    if mine is not None and state.seats[1 - mine].status is SeatStatus.OPEN:
        lines.append("alone at the table: h plays the house now, or wait for a player")
    return tuple(lines)


def new_requests(old: TableState | None, new: TableState, you: You | None, names: Sequence[str]) -> list[str]:
    """The other player's requests that ``new`` has and ``old`` had not: each one a toast for this screen.

    A player about to leave is news for spectators too."""
    mine = you.seat.index if you is not None and you.seat is not None else None
    went = set(leaving(old)) if old is not None else set()
    toasts = [leaving_text(names[index]) for index in leaving(new) if index != mine and index not in went]
    if mine is None:
        return toasts
    before = set(pending(old)) if old is not None else set()
    return toasts + [
        request_text(new, index, kind, you, names)
        for index, kind in pending(new)
        if index != mine and (index, kind) not in before
    ]


def emote_line(name: str, emote: int) -> str:
    """An emote in the log and its toast: "ann: wow"."""
    return f"{name}: {EMOTES[emote]}"
