"""What the board shows, as plain frozen values: the deal, the battle on show and the result.

One builder per view (``deal_view``, ``battle_view``, ``end_view``), for a game played here and at a
table alike; widgets draw from the views and never look inside the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..core.cards import Card
from ..core.events import BattleWon, GameOver, GameStarted
from ..core.played import PlayedGame
from ..core.rules import EndReason, Result, Rules, Side


@dataclass(frozen=True, slots=True)
class BattleStep:
    """One step of a battle on the table, as the engine told it: a face-up pair, or a war's face-down cards."""

    laid: int  # cards each player has laid once this step is on the table
    wars: int  # wars declared by then
    face_up: bool


@cache
def war_steps(wars: int, war_cards: int) -> tuple[BattleStep, ...]:
    """How a battle with ``wars`` wars was laid: every war lays ``war_cards`` face down and one face up each.

    So the steps follow from the two numbers, for a battle won and for one a game ended short in a war
    (its cards stop at the last tie).
    """
    if not wars:
        return ()
    steps = [BattleStep(1, 0, True)]
    for war in range(1, wars + 1):
        laid = 1 + (war - 1) * (war_cards + 1)
        steps.append(BattleStep(laid + war_cards, war, False))
        steps.append(BattleStep(laid + war_cards + 1, war, True))
    return tuple(steps)


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
    unshown: tuple[BattleView, ...] = ()  # at a table, catching up: those battles, each told whole in the log

    @property
    def steps(self) -> tuple[BattleStep, ...]:
        """A war's steps in the order laid: the tie, then per war its face-down and face-up cards; () for one step."""
        return war_steps(self.wars, self.war_cards)

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

    def total_wars_at(self, shown: int) -> int:
        """The game's wars so far as the table shows them once ``shown`` steps are: this battle's wars on show only."""
        return self.total_wars - self.wars + self.wars_at(shown)


@dataclass(frozen=True, slots=True)
class DealView:
    number: int  # game number in this session
    seed: int | None
    rules: Rules
    counts: tuple[int, int]
    total: int


_WINNER = {Result.P1: Side.P1, Result.P2: Side.P2}


def battle_view(event: BattleWon | GameOver, war_cards: int, total_wars: int) -> BattleView | None:
    """The battle an event ended, as the pile draws it; None for a game-over that cut no battle short.

    ``total_wars``: the wars of the game so far, this battle's included.
    """
    if isinstance(event, BattleWon):
        return BattleView(
            event.battle, event.p1_laid, event.p2_laid, war_cards, event.wars, event.winner, len(event.cards),
            (event.p1_count, event.p2_count), total_wars,
        )
    if not event.last_battle_p1:
        return None
    winner = _WINNER.get(event.result)
    taken = len(event.last_battle_p1) + len(event.last_battle_p2) if winner is not None else 0
    return BattleView(
        event.battles, event.last_battle_p1, event.last_battle_p2, war_cards, event.last_battle_wars, winner, taken,
        (event.p1_count, event.p2_count), total_wars,
    )


def deal_view(number: int, event: GameStarted) -> DealView:
    """The deal a game's ``GameStarted`` tells, as game ``number`` of the session."""
    return DealView(number, event.seed, event.rules, (len(event.p1), len(event.p2)), len(event.p1) + len(event.p2))


@dataclass(frozen=True, slots=True)
class EndView:
    result: Result
    reason: EndReason
    battles: int
    wars: int
    longest_war: int
    counts: tuple[int, int]
    leader: Side | None
    seconds: float | None  # None: not known (an older game in a table's log)


def end_view(ended: PlayedGame | GameOver, seconds: float | None) -> EndView:
    """How a game ended, from the game (played here, or a table's once its ``GameOver`` is told) or from
    its ``GameOver`` (an older game in a table's log), after ``seconds`` (None: not known)."""
    if isinstance(ended, GameOver):
        return EndView(
            ended.result, ended.reason, ended.battles, ended.wars, ended.longest_war,
            (ended.p1_count, ended.p2_count), ended.leader, seconds,
        )
    assert ended.result is not None and ended.reason is not None
    return EndView(
        ended.result, ended.reason, ended.battles, ended.wars, ended.longest_war, ended.counts, ended.leader, seconds
    )


@dataclass(frozen=True, slots=True)
class LogNote:
    """A line the table adds to the battle log: someone sat down or left, the house flipped for someone."""

    serial: int  # counts up, so a note with the same text as the last is still news
    text: str
