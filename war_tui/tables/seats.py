"""A table's two seats: who sits, who is away and keeps a seat, who may take one, and what each seat asks.

A seat is played by a connected player, kept for an away player's identity for the reconnect grace (the
house plays it meanwhile), or played by the house; a restored seat is ``lost``, kept for its player who
still plays it. ``Seats`` answers every question about the pair and makes every change of seating,
returning what it tells as a ``Seating`` for the table to word. Nothing here broadcasts, plays or reads
a clock.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..core.rules import Side
from .agreement import EmoteLimit
from .messages import SeatState, SeatStatus
from .options import DEFAULT_AUTO_SPEED, TableOptions

HOUSE_NAME = "house"
"""The name a record gives a seat nobody ever sat in, and the seat's name when a player chose to play the house."""
PERSONAL_IDENTITIES = ("key:", "web:")
"""Identities that belong to one person (the key they logged in with, a browser's cookie, as the doors name them):
the newest connection of one takes its seat. An address (``addr:``) is shared by everyone behind it."""


class Occupant(Protocol):
    """Who sits in a seat, as the seats see them (a table's ``Member``)."""

    @property
    def name(self) -> str: ...

    @property
    def identity(self) -> str | None: ...

    @property
    def address(self) -> str | None: ...


M = TypeVar("M", bound=Occupant)


@dataclass(frozen=True, slots=True)
class Seating:
    """What a change of seat tells: ``notice`` for everyone at the table, ``log`` for the server's log,
    naming the ``identity`` behind the seat (and the one it was kept for, ``before``)."""

    notice: str
    log: str
    identity: str | None
    before: str | None = None


class Seat(Generic[M]):
    """One seat's mutable state; the outside sees it as a ``SeatState``."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.member: M | None = None
        self.name: str | None = None
        self.identity: str | None = None
        """Whom the seat is kept for while its player is away (None: nobody, the house plays it)."""
        self.address: str | None = None
        """Where the player who sits (or sat) here came from, for the cap on seats one address holds."""
        self.left_at: float | None = None
        self.sat_at = 0.0
        """When its player first sat here (coming back to the seat kept for them is no new sitting)."""
        self.moves_at_sit = 0
        """The table's flips and battles then: a player who leaves before anything moved keeps nothing."""
        self.name_before: str | None = None
        """The seat's name before its player first sat here: what a short stay gives back."""
        self.flipped = False
        self.flipped_at = 0.0
        self.auto = False
        self.speed = DEFAULT_AUTO_SPEED
        self.restart = False
        self.war_stop = False
        self.leaving = False
        """Pressed q mid-game: their screen asks them to confirm, and everyone is told they are leaving."""
        self.asked: dict[str, float] = {}
        """Since when each of this seat's requests has waited for the other player (``KINDS``)."""
        self.emotes = EmoteLimit()
        self.lost = False
        """Its player was connected when the table was checkpointed, and the connection went with the process: they
        play on (flip and wishes stand) until they sit again, a newcomer takes the seat or its time is up."""

    @property
    def number(self) -> int:
        """The seat's number as people read it: 1 or 2."""
        return self.side.index + 1

    @property
    def seated(self) -> bool:
        """A player plays this seat: connected, or ``lost`` with the process that held the table."""
        return self.member is not None or self.lost

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, kind))

    def flip(self, now: float) -> None:
        """The seat's card is turned for the coming battle (by its player, or the house for them)."""
        self.flipped = True
        self.flipped_at = now

    def drop(self, kind: str) -> None:
        """Give up the wish of ``kind`` (``KINDS``) and its request."""
        self.asked.pop(kind, None)
        setattr(self, kind, False)

    def drop_wishes(self) -> None:
        self.auto = self.restart = self.war_stop = self.leaving = False
        self.asked.clear()

    def status(self, now: float, grace: float) -> SeatStatus:
        if self.member is not None:
            return SeatStatus.PLAYER
        if self.name is None:
            return SeatStatus.OPEN
        if self.identity is not None and self.left_at is not None and now - self.left_at < grace:
            return SeatStatus.AWAY
        return SeatStatus.HOUSE

    def kept_until(self, grace: float) -> float | None:
        """When the seat stops being kept for its away player; None when it is not kept."""
        if self.member is None and self.identity is not None and self.left_at is not None:
            return self.left_at + grace
        return None

    def vacant(self) -> bool:
        """Its flips are the house's: someone sat here and left (kept for them or not)."""
        return self.member is None and self.name is not None and not self.lost

    def house_answers(self, now: float, grace: float) -> bool:
        """The house answers what the other player asks for this seat: someone sat here and left it for good (not
        kept for them). A seat kept for its away player is theirs: what it is asked waits for them."""
        return self.status(now, grace) is SeatStatus.HOUSE

    def state(self, now: float, grace: float) -> SeatState:
        """The seat as everyone at the table sees it: a ``lost`` seat kept for its player is ``AWAITED``, not one
        the house plays."""
        status = self.status(now, grace)
        if status is SeatStatus.AWAY and self.lost:
            status = SeatStatus.AWAITED
        return SeatState(status, self.name, self.flipped, self.auto, self.speed, self.restart, self.war_stop,
                         self.leaving)


class Seats(Generic[M]):
    """Seat 1 and seat 2 of a table, under the options' seat timeout, reconnect grace and short stay."""

    def __init__(self, options: TableOptions) -> None:
        self.options = options
        self.pair: tuple[Seat[M], Seat[M]] = (Seat(Side.P1), Seat(Side.P2))

    def __iter__(self) -> Iterator[Seat[M]]:
        return iter(self.pair)

    def __getitem__(self, index: int) -> Seat[M]:
        return self.pair[index]

    def other(self, seat: Seat[M]) -> Seat[M]:
        return self.pair[1 - seat.side.index]

    def pairs(self) -> tuple[tuple[Seat[M], Seat[M]], tuple[Seat[M], Seat[M]]]:
        """Each seat with the other: (seat 1, seat 2), then (seat 2, seat 1)."""
        first, second = self.pair
        return (first, second), (second, first)

    # ------------------------------------------------------------ questions

    def status(self, seat: Seat[M], now: float) -> SeatStatus:
        return seat.status(now, self.options.reconnect_grace)

    def states(self, now: float) -> tuple[SeatState, SeatState]:
        grace = self.options.reconnect_grace
        first, second = self.pair
        return first.state(now, grace), second.state(now, grace)

    def lobby(self, now: float) -> tuple[tuple[str | None, str | None], tuple[SeatStatus, SeatStatus]]:
        """The seats' names and statuses as the lobby shows them: whom an away seat is kept for is nobody's business
        outside the table."""
        statuses = (self.status(self.pair[0], now), self.status(self.pair[1], now))
        names = tuple(None if status is SeatStatus.AWAY else seat.name for seat, status in zip(self.pair, statuses))
        return (names[0], names[1]), statuses

    def names(self) -> tuple[str, str]:
        """The names a record gives the seats: who sits there or sat there last."""
        first, second = self.pair
        return (first.name or HOUSE_NAME, second.name or HOUSE_NAME)

    def identities(self) -> tuple[str | None, str | None]:
        first, second = self.pair
        return first.identity, second.identity

    def awaited(self, now: float, besides: Seat[M] | None = None) -> set[str]:
        """The names of away players the table keeps a seat for (other than ``besides``)."""
        return {s.name for s in self.pair
                if self.status(s, now) is SeatStatus.AWAY and s is not besides and s.name is not None}

    def free(self, identity: str | None, may_sit: bool, now: float) -> tuple[Seat[M] | None, Seat[M] | None]:
        """The seat someone arriving takes, and the away player's seat it is if they take one (or None, None).

        Their own kept seat first; then an open seat or one the house plays, seat 1 first; then a seat
        whose player has been away for the seat timeout.
        """
        if identity is not None:
            seat = next((s for s in self.pair if self.status(s, now) is SeatStatus.AWAY
                         and s.identity == identity), None)
            if seat is not None:
                return seat, None
        if not may_sit:
            return None, None
        seat = next((s for s in self.pair if self.status(s, now) in (SeatStatus.OPEN, SeatStatus.HOUSE)), None)
        if seat is not None:
            return seat, None
        seat = next((s for s in self.pair if self.status(s, now) is SeatStatus.AWAY
                     and s.left_at is not None and now - s.left_at >= self.options.seat_timeout), None)
        return seat, seat

    def kept_notice(self, now: float) -> str | None:
        """For someone who would sit and watches: whose seat is kept, and when t takes it (None: no seat is kept)."""
        for seat in self.pair:
            if self.status(seat, now) is SeatStatus.AWAY and seat.left_at is not None:
                wait = max(1, math.ceil(seat.left_at + self.options.seat_timeout - now))
                return f"seat {seat.number} is kept for {seat.name}, who is away: t takes it in {wait} s"
        return None

    def held(self, identity: str | None, address: str | None, now: float) -> int:
        """Seats taken or kept here for ``identity`` or for someone from ``address``."""
        return sum(
            1 for s in self.pair
            if self.status(s, now) in (SeatStatus.PLAYER, SeatStatus.AWAY)
            and ((identity is not None and s.identity == identity) or (address is not None and s.address == address))
        )

    def holders(self, now: float) -> tuple[tuple[str | None, str | None], ...]:
        """(identity, address) of each seat taken or kept: what ``held`` counts."""
        return tuple(
            (s.identity, s.address) for s in self.pair if self.status(s, now) in (SeatStatus.PLAYER, SeatStatus.AWAY)
        )

    def idle(self) -> tuple[Seat[M], float] | None:
        """The seated player the table waits for while the other has flipped, and when the house flips for them
        (the table asks only while it plays by hand)."""
        for seat, other in self.pairs():
            if seat.seated and not seat.flipped and other.flipped:
                return seat, max(other.flipped_at, seat.sat_at) + self.options.seat_timeout
        return None

    def kept_until(self) -> list[float]:
        """When each seat kept for an away player stops being kept."""
        grace = self.options.reconnect_grace
        return [k for k in (s.kept_until(grace) for s in self.pair) if k is not None]

    def turning_house(self, now: float) -> list[float]:
        """When each away player's seat turns to the house's (the lobby and the seats show it)."""
        grace = self.options.reconnect_grace
        return [s.left_at + grace for s in self.pair
                if s.member is None and s.left_at is not None and now - s.left_at < grace]

    def seated(self) -> list[Seat[M]]:
        return [s for s in self.pair if s.seated]

    def answering(self, now: float) -> list[Seat[M]]:
        """The seats whose players answer requests: a player's, and one kept for its away player (the house answers
        only for a seat left for good)."""
        return [s for s in self.pair if s.name is not None and not s.house_answers(now, self.options.reconnect_grace)]

    def house_answers(self, seat: Seat[M], now: float) -> bool:
        return seat.house_answers(now, self.options.reconnect_grace)

    def wants_auto(self, now: float) -> bool:
        """Auto-play runs when every player who answers for a seat wants it (the house agrees for a seat left for
        good) and someone is seated."""
        if any(s.name is None for s in self.pair) or not any(s.seated for s in self.pair):
            return False
        return all(s.auto for s in self.answering(now))

    def auto_speed(self) -> float:
        """The slower speed the seated players who want auto-play asked for."""
        speeds = [s.speed for s in self.pair if s.seated and s.auto]
        return min(speeds) if speeds else DEFAULT_AUTO_SPEED

    def war_stop_agreed(self, now: float) -> bool:
        """Every player who answers for a seat asks to stop at wars (the house agrees for a seat left for good), and
        someone is seated."""
        return bool(self.seated()) and all(s.war_stop for s in self.answering(now))

    def restart_agreed(self, now: float) -> bool:
        """Someone asks to deal again and every other seat does too, or was left for good (the house's): a seat kept
        for its away player waits for them."""
        return any(s.restart for s in self.pair) and all(s.restart or self.house_answers(s, now) for s in self.pair)

    # -------------------------------------------------------------- changes

    def new_game(self) -> None:
        for seat in self.pair:
            seat.flipped = False
            seat.restart = False

    def forget_flips(self) -> None:
        """Auto-play starts: flips made by hand are for no battle."""
        for seat in self.pair:
            seat.flipped = False

    def house_flips(self, now: float) -> None:
        """The house flips a seat it plays once the other player has flipped."""
        for seat, other in self.pairs():
            if seat.vacant() and other.flipped and not seat.flipped:
                seat.flip(now)

    def both_flipped(self) -> bool:
        """Both seats flipped: their flips are spent on the battle this answers for."""
        first, second = self.pair
        if first.flipped and second.flipped:
            first.flipped = second.flipped = False
            return True
        return False

    def take_back(self, identity: str | None) -> tuple[Seat[M], M] | None:
        """The seat a present connection of ``identity`` sits in, emptied for that person's newer connection, and
        the older connection; only for a person's own identity (``PERSONAL_IDENTITIES``): an address is shared by
        everyone behind it. The seat's name, flip and requests stay for the newer one (``hand_over``)."""
        if identity is None or not identity.startswith(PERSONAL_IDENTITIES):
            return None
        for seat in self.pair:
            old = seat.member
            if old is not None and seat.identity == identity:
                seat.member = None
                return seat, old
        return None

    def sit(self, member: M, seat: Seat[M], taken_from: Seat[M] | None, now: float, moves: int) -> Seating:
        """``member`` sits in ``seat``: their own kept seat, a free one, or ``taken_from`` an away player (``free``
        says which); ``moves``: the table's flips and battles so far."""
        name, identity, number = member.name, member.identity, seat.number
        returning = taken_from is None and self.status(seat, now) is SeatStatus.AWAY
        if returning and seat.lost:
            return self._resume(member, seat)
        if returning:
            seating = Seating(f"{name} is back at seat {number}", f"{name} is back at seat {number}", identity)
        elif taken_from is not None:
            away = now - (taken_from.left_at or now)
            seating = Seating(
                f"{name} takes seat {number}, {taken_from.name}'s until now (away {away:.0f} s)",
                f"{name} takes seat {number} kept for {taken_from.name} (away {away:.0f} s)",
                identity, taken_from.identity,
            )
        else:
            seating = Seating(f"{name} sits at seat {number}", f"{name} sits at seat {number}", identity)
        if not returning:  # a seat is its person's from their first sitting: a return starts no short stay
            seat.name_before = seat.name
            seat.sat_at = now
            seat.moves_at_sit = moves
        seat.member = member
        seat.name = name
        seat.identity = identity
        seat.address = member.address
        seat.left_at = None
        seat.flipped = False  # a flip is its player's: a newcomer never inherits one
        seat.drop_wishes()
        seat.lost = False
        return seating

    def _resume(self, member: M, seat: Seat[M]) -> Seating:
        """``member`` sits again in the seat kept for them when their connection went with the process that held the
        table (``Seat.lost``): their flip, wishes and requests go on as they were."""
        text = f"{member.name} is back at seat {seat.number}"
        seat.member = member
        seat.name = member.name
        seat.address = member.address
        seat.left_at = None
        seat.lost = False
        seat.leaving = False
        return Seating(text, text, member.identity)

    def lapse(self, now: float) -> None:
        """A ``lost`` seat whose player did not come back within the reconnect grace is the house's: their flip and
        wishes go, as a player's who left."""
        for seat in self.pair:
            if seat.lost and seat.left_at is not None and now - seat.left_at >= self.options.reconnect_grace:
                seat.lost = False
                seat.flipped = False
                seat.drop_wishes()

    def hand_over(self, member: M, seat: Seat[M]) -> Seating:
        """``member`` takes over ``seat`` from its own older connection: the game, its flip and its requests go on."""
        notice = f"{member.name} plays on at seat {seat.number} from another connection"
        seat.member = member
        seat.name = member.name
        seat.address = member.address
        seat.leaving = False
        return Seating(notice, notice, member.identity)

    def vacate(self, member: M, seat: Seat[M], now: float, moves: int) -> Seating:
        """``member`` leaves ``seat``: it is kept for their identity for the reconnect grace, unless they leave
        within the short stay of first sitting there before anything moved (a connection that only knocked; one
        back at the seat kept for them keeps it again, however soon it drops)."""
        number = seat.number
        seat.member = None
        seat.left_at = now
        seat.flipped = False  # the house flips for the seat when the other player does, not on their behalf
        seat.drop_wishes()
        stayed = now - seat.sat_at
        if stayed < self.options.short_stay and moves == seat.moves_at_sit:
            seat.name, seat.identity = seat.name_before, None
            if seat.name is None:
                seat.address = seat.left_at = None
            text = f"{member.name} left seat {number}"
            return Seating(text, f"{text} after {stayed:.0f} s, before any flip: the seat is not kept", member.identity)
        if seat.identity is None:
            text = f"{member.name} left seat {number}: the house plays it"
            return Seating(text, text, None)
        grace = self.options.reconnect_grace
        return Seating(f"{member.name} left seat {number}: the house plays it until they return",
                       f"{member.name} left seat {number}, kept for {grace:g} s", member.identity)

    def lose(self, member: M, seat: Seat[M], now: float) -> Seating:
        """``member``'s connection went with a fault (the node that relayed it fell silent, the table moved to
        another node): not their leaving. The seat is ``lost``, kept for them as if the process that held the
        table had stopped, their flip and requests standing and no short stay; without an identity there is
        nobody to keep it for, and the house plays it."""
        number = seat.number
        seat.member = None
        seat.left_at = now
        if seat.identity is None:
            seat.flipped = False
            seat.drop_wishes()
            text = f"{member.name} left seat {number}: the house plays it"
            return Seating(text, text, None)
        seat.lost = True
        return Seating(f"{member.name} is away: the seat waits for them as it was",
                       f"{member.name}'s connection to seat {number} went with a fault; the seat is kept for them "
                       "as it was", member.identity)

    def play_house(self, seat: Seat[M]) -> None:
        """The house sits in ``seat`` at its player's asking (a newcomer still takes it from the house)."""
        seat.name, seat.identity = HOUSE_NAME, None
