"""When a finished game's result lets a key deal again: once the keys have paused for ``RESULT_HOLD`` seconds.

A key held through the last battle repeats every few hundredths of a second, and each repeat that comes while the
result holds holds it longer: however long the key is held, the result stays until it is let go. One rule for every
way to play (solo, at a table, on the full screen and in the line mode); times are passed in, no clock of its own.
"""

from __future__ import annotations

RESULT_HOLD = 0.5
"""Seconds without a key a result waits for before a key deals again (or asks the table to)."""


class ResultHold:
    """The result of the game just over, holding against the keys that deal again; ``seconds`` 0: it never holds."""

    def __init__(self, seconds: float = RESULT_HOLD) -> None:
        self.seconds = seconds
        self._since: float | None = None
        """When the game ended, or the last key came that the result held against (None: it holds no more)."""

    def start(self, now: float) -> None:
        """A game ended at ``now``: the keys that deal again wait for a pause."""
        self._since = now if self.seconds > 0 else None

    def release(self) -> None:
        """A new deal: no result to hold."""
        self._since = None

    def holds(self, now: float) -> bool:
        """A key that deals again, pressed at ``now``: whether the result ignores it (and so holds on from it)."""
        if self._since is None:
            return False
        if now - self._since >= self.seconds:
            self._since = None
            return False
        self._since = now
        return True

    def holding(self, now: float) -> bool:
        """Whether a key that deals again would be ignored at ``now`` (the keys have not paused since the result)."""
        return self._since is not None and now - self._since < self.seconds
