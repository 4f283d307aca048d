"""The table's rules for what one player asks of the other, and how often a player may emote.

What changes the game for both (auto-play, stopping at wars, dealing again) is a wish each seat holds;
the table acts once both hold it. The house agrees to anything for a seat its player left for good; a seat kept
for its away player is theirs, and what it is asked waits for them. An unanswered wish is a request that
times out after ``REQUEST_TIMEOUT`` seconds; ``EmoteLimit`` keeps emotes from flooding a screen. Plain
values and times passed in; no timers.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol

REQUEST_TIMEOUT = 30.0
"""Seconds a request waits for the other player's answer before it lapses."""
EMOTE_GAP = 1.0
"""Seconds at least between two emotes from one seat."""
EMOTES_A_MINUTE = 10

KINDS = ("auto", "war_stop", "restart")
"""The wishes that need both players: auto-play, stopping at wars, dealing again."""


def request_words(kind: str, over: bool, speed: str = "") -> str:
    """What a request asks for, after "asks" or "'s request": "for auto-play at 4/s", "to deal again"..."""
    if kind == "auto":
        return f"for auto-play at {speed}" if speed else "for auto-play"
    if kind == "war_stop":
        return "to stop at wars"
    return "to deal again" if over else "to stop this game and deal again"


class EmoteLimit:
    """At most one emote every ``gap`` seconds and ``per_minute`` in any 60 seconds, for one seat."""

    def __init__(self, gap: float = EMOTE_GAP, per_minute: int = EMOTES_A_MINUTE) -> None:
        self.gap = gap
        self.per_minute = per_minute
        self._sent: deque[float] = deque(maxlen=per_minute)

    def wait(self, now: float) -> float:
        """Seconds before this seat may emote again (0: now)."""
        if not self._sent:
            return 0.0
        waits = [self._sent[-1] + self.gap - now]
        if len(self._sent) == self.per_minute:
            waits.append(self._sent[0] + 60.0 - now)
        return max(0.0, *waits)

    @property
    def sent(self) -> tuple[float, ...]:
        """When the emotes the limit still counts were sent, oldest first."""
        return tuple(self._sent)

    def resume(self, sent: Iterable[float]) -> None:
        """Count emotes sent at these times (a restored table's), oldest first."""
        self._sent.clear()
        self._sent.extend(sent)

    def allow(self, now: float) -> bool:
        """Count an emote sent now if the limit allows it; whether it did."""
        if self.wait(now) > 0:
            return False
        self._sent.append(now)
        return True


class Asker(Protocol):
    """A seat as its requests see it (a table's ``Seat``)."""

    @property
    def name(self) -> str | None: ...

    @property
    def seated(self) -> bool: ...

    @property
    def asked(self) -> dict[str, float]:
        """Since when each of the seat's requests has waited for the other player (``KINDS``)."""

    def wants(self, kind: str) -> bool: ...

    def house_answers(self, now: float, grace: float) -> bool:
        """Whether the house answers for this seat: its player left it for good (not kept for them)."""

    def drop(self, kind: str) -> None:
        """Give up the wish of ``kind`` and its request."""


def track(pairs: Iterable[tuple[Asker, Asker]], agreed: Callable[[str], bool], now: float, grace: float) -> None:
    """Start the clock on each request the other player has not answered; stop it on the ones answered.

    A wish of ``kind`` is a request while its seat's player sits, the table has not ``agreed`` to it, and the
    other seat neither wishes it too nor is one the house answers for (left for good, past the reconnect
    ``grace``): a seat kept for its away player waits for them, as a seated one does.
    """
    for seat, other in pairs:
        for kind in KINDS:
            pending = (seat.seated and seat.wants(kind) and not agreed(kind)
                       and not other.wants(kind) and not other.house_answers(now, grace))
            if not pending:
                seat.asked.pop(kind, None)
            elif kind not in seat.asked:
                seat.asked[kind] = now


def deadlines(seats: Iterable[Asker], timeout: float) -> list[float]:
    """When each pending request lapses."""
    return [since + timeout for seat in seats for since in seat.asked.values()]


def expire(seats: Iterable[Asker], now: float, timeout: float, over: bool) -> list[str]:
    """The requests left unanswered for ``timeout`` seconds lapse: what everyone is told, one line each."""
    lapsed: list[str] = []
    for seat in seats:
        for kind, since in tuple(seat.asked.items()):
            if now >= since + timeout:
                seat.drop(kind)
                what = request_words(kind, over)
                lapsed.append(f"{seat.name}'s request {what} timed out: no answer in {timeout:g} s")
    return lapsed


def decline(name: str, other: Asker, over: bool) -> str | None:
    """``name`` says no to every request ``other`` waits on them for: what everyone is told (None: none waits)."""
    kinds = [kind for kind in KINDS if kind in other.asked]
    if not kinds:
        return None
    for kind in kinds:
        other.drop(kind)
    what = " and ".join(request_words(kind, over) for kind in kinds)
    return f"{name} declined {other.name}'s request {what}"
