"""What the engine tells its listeners as it plays.

Events are immutable values so a listener can keep them, send them to another
thread or turn them into UI messages without copying. The engine only builds
them when someone is listening.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from .cards import Card
from .rules import EndReason, Result, Rules, Side


@dataclass(frozen=True, slots=True)
class GameStarted:
    seed: int | None
    rules: Rules
    p1: tuple[Card, ...]  # top card first
    p2: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """Both players turned a card face up: the battle's first pair (depth 0) or a war's deciding pair."""

    battle: int
    p1_card: Card
    p2_card: Card
    depth: int


@dataclass(frozen=True, slots=True)
class WarDeclared:
    """The face-up cards tied; each player has laid this war's face-down cards."""

    battle: int
    depth: int  # 1 for a war, 2 for a double war, ...
    p1_down: tuple[Card, ...]
    p2_down: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BattleWon:
    battle: int
    winner: Side
    cards: tuple[Card, ...]  # the middle pile, in the order it went under the winner's packet
    p1_laid: tuple[Card, ...]  # every card player 1 laid this battle, in order
    p2_laid: tuple[Card, ...]
    wars: int  # how deep this battle's war went (0: no war)
    p1_count: int  # packet sizes after the pile went to the winner
    p2_count: int


@dataclass(frozen=True, slots=True)
class GameOver:
    result: Result
    reason: EndReason
    battles: int
    wars: int
    longest_war: int
    p1_count: int
    p2_count: int
    leader: Side | None  # who holds more cards (None when even)
    last_battle_p1: tuple[Card, ...] = ()  # cards laid in the battle that ended the game short
    last_battle_p2: tuple[Card, ...] = ()
    last_battle_wars: int = 0  # wars that last battle declared before someone was short


Event = GameStarted | CardsRevealed | WarDeclared | BattleWon | GameOver
Listener = Callable[[Event], None]


class EventSource:
    """What the screen follows: a local ``Game`` or a shared table's ``RemoteGame`` (it cannot tell them apart).

    A subclass sets ``_listeners`` to a list and calls each listener with its events.
    """

    _listeners: list[Listener]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self.unsubscribe(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):  # unsubscribing twice is harmless
            self._listeners.remove(listener)
