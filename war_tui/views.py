"""What the board shows, as plain values: the deal, the battle on show and the result.

The adapter builds them from the engine's events and the app holds them in its
reactive attributes; the widgets draw from them and never look inside the engine.
They are frozen, so a widget can keep one and compare it with the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .rules import EndReason, Result, Rules, Side


@dataclass(frozen=True, slots=True)
class BattleView:
    battle: int
    p1_laid: tuple[Card, ...]  # every card player 1 laid, in order
    p2_laid: tuple[Card, ...]
    war_cards: int
    wars: int  # how deep the battle's war went (0: no war)
    winner: Side | None  # None: nobody took the pile (a draw ended the game)
    taken: int  # cards that went to the winner
    counts: tuple[int, int]  # packet sizes afterwards
    total_wars: int = 0  # wars declared in the game so far, as the engine counts them
    passed: tuple[int, ...] = ()  # at "max": player 1's count after each battle played since the last one drawn

    @property
    def deciding(self) -> tuple[Card, Card]:
        return self.p1_laid[-1], self.p2_laid[-1]


@dataclass(frozen=True, slots=True)
class DealView:
    number: int  # game number in this session
    seed: int | None
    rules: Rules
    counts: tuple[int, int]
    total: int


@dataclass(frozen=True, slots=True)
class EndView:
    result: Result
    reason: EndReason
    battles: int
    wars: int
    longest_war: int
    counts: tuple[int, int]
    leader: Side | None
    seconds: float
