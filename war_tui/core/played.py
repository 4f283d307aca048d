"""What the screen follows: a game being played, here (the engine's ``Game``) or at a table (``RemoteGame``).

The board's controllers and the battle views are written against this Protocol only, so either
game passes for the other without a cast: both tell their events to ``subscribe``rs, and their
state (battles, wars, counts, result) is up to date before each battle's events are told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .events import Listener
from .rules import EndReason, Result, Rules, Side


class PlayedGame(Protocol):
    """A game the board can follow: its events as they come, and the state they describe."""

    rules: Rules
    seed: int | None
    total_cards: int
    battles: int
    wars: int
    longest_war: int
    result: Result | None
    reason: EndReason | None

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    def unsubscribe(self, listener: Listener) -> None: ...

    @property
    def over(self) -> bool: ...

    @property
    def counts(self) -> tuple[int, int]: ...

    @property
    def leader(self) -> Side | None: ...
