"""The table's rules for what one player asks of the other, and how often a player may emote.

Everything that changes the game for both players (auto-play, stopping at wars, dealing again,
stopping a game to deal again) is a wish each seat holds; the table acts once both seats hold it
(the house agrees to anything). A wish the other player has not answered is a pending request: it
times out after ``REQUEST_TIMEOUT`` seconds, and the table says so. Emotes are limited per seat
(``EmoteLimit``), so nobody floods the other's screen. Plain values and a clock; no timers.
"""

from __future__ import annotations

from collections import deque

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

    def allow(self, now: float) -> bool:
        """Count an emote sent now if the limit allows it; whether it did."""
        if self.wait(now) > 0:
            return False
        self._sent.append(now)
        return True
