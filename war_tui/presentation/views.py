"""What the board shows, as plain values: the deal, the battle on show and the result.

The adapter builds them from the engine's events and the app holds them in its
reactive attributes; the widgets draw from them and never look inside the engine.
They are frozen, so a widget can keep one and compare it with the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Card
from ..core.rules import EndReason, Result, Rules, Side


@dataclass(frozen=True, slots=True)
class BattleStep:
    """One step of a battle on the table, as the engine told it: a face-up pair, or a war's face-down cards."""

    laid: int  # cards each player has laid once this step is on the table
    wars: int  # wars declared by then
    face_up: bool


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
    steps: tuple[BattleStep, ...] = ()  # a war's steps in the order laid: the tie, then per war its face-down and face-up cards; () for one step

    @property
    def deciding(self) -> tuple[Card, Card]:
        return self.p1_laid[-1], self.p2_laid[-1]

    @property
    def stages(self) -> int:
        """How many steps the battle can be shown in: 1 for a battle without a war."""
        return max(1, len(self.steps))

    def laid_at(self, shown: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Each player's cards on the table once ``shown`` steps are (all of them from the last step on)."""
        if shown >= self.stages:
            return self.p1_laid, self.p2_laid
        laid = self.steps[max(1, shown) - 1].laid
        return self.p1_laid[:laid], self.p2_laid[:laid]

    def step_at(self, shown: int) -> BattleStep | None:
        """The last step on the table once ``shown`` steps are; None when the whole battle is."""
        return None if shown >= self.stages else self.steps[max(1, shown) - 1]

    def wars_at(self, shown: int) -> int:
        """The wars the cards on the table show: a tie on show is the war the next step declares."""
        return self.wars if shown >= self.stages else self.steps[max(1, shown)].wars


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


@dataclass(frozen=True, slots=True)
class PlayView:
    """How auto-play runs, as the status line shows it."""

    auto: bool = False
    speed: float | str = 4.0
    pause_on_war: bool = False


@dataclass(frozen=True, slots=True)
class TallyView:
    """Finished games of this session by result."""

    p1: int = 0
    p2: int = 0
    draws: int = 0
    stopped: int = 0


@dataclass(frozen=True, slots=True)
class LogNote:
    """A line the table adds to the battle log: someone sat down or left, the house flipped for someone."""

    serial: int  # counts up, so a note with the same text as the last is still news
    text: str
