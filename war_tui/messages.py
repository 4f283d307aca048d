"""What the engine adapter tells the board, as Textual messages carrying plain values.

A ``BattleView`` is one battle reduced to what the screen draws; the widgets
render from it and never look inside the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.message import Message

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


@dataclass
class GameDealt(Message, bubble=False):
    deal: DealView


@dataclass
class BattleShown(Message, bubble=False):
    """One battle to draw; at "max" speed only the latest of a frame's battles is sent."""

    view: BattleView
    fast: bool = False  # sent at max speed: a newer one may replace it unread

    def can_replace(self, message: Message) -> bool:
        """A newer fast battle replaces this unread one, and carries it along as a battle passed over."""
        if not (self.fast and isinstance(message, BattleShown) and message.fast):
            return False
        view = self.view
        message.view = replace(message.view, passed=view.passed + (view.counts[0],) + message.view.passed)
        return True


@dataclass
class GameEnded(Message, bubble=False):
    end: EndView
