"""The one bridge from the engine to the screen: engine events in, the battle on show out.

The engine calls its listeners synchronously while it plays. The adapter follows
each battle as it unfolds (``CardsRevealed``, then ``WarDeclared`` and the next
``CardsRevealed`` for every war), and what ends it (``BattleWon``, or the
``GameOver`` of a game ended short in a war) turns the cards laid into a
``BattleView``, set as the board's ``battle``. A war's view keeps its steps as
the events told them (the tie, then each war's face-down and face-up cards), so
the board can lay it step by step without knowing the rules. At "max" speed the app sets
``holding``: each battle's view replaces the last one unshown, and one ``flush``
per frame shows only the newest, carrying the counts of the battles it replaced
(``passed``) for the sparkline and the log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from ..core.cards import Card
from ..core.engine import Game
from ..core.events import BattleWon, CardsRevealed, Event, GameOver, WarDeclared
from ..core.rules import Result, Side
from ..presentation.views import BattleStep, BattleView


class Board(Protocol):
    """Whatever shows the battle: the app, whose ``battle`` the board's widgets are bound to."""

    battle: BattleView | None


class BattleInProgress:
    """The cards of the battle being played, in the order each player laid them."""

    def __init__(self) -> None:
        self.p1: list[Card] = []
        self.p2: list[Card] = []
        self.steps: list[BattleStep] = []  # kept only once a war begins: most battles are one step

    def revealed(self, event: CardsRevealed) -> None:
        if event.depth == 0:
            self.p1.clear()
            self.p2.clear()
            self.steps.clear()
        self.p1.append(event.p1_card)
        self.p2.append(event.p2_card)
        if event.depth:
            self.steps.append(BattleStep(len(self.p1), event.depth, True))

    def war(self, event: WarDeclared) -> None:
        if not self.steps:
            self.steps.append(BattleStep(len(self.p1), 0, True))  # the tie
        self.p1.extend(event.p1_down)
        self.p2.extend(event.p2_down)
        self.steps.append(BattleStep(len(self.p1), event.depth, False))

    def view(self, event: BattleWon | GameOver, battle: int, war_cards: int, total_wars: int) -> BattleView | None:
        """The battle as the screen draws it, or None for a game-over with no unfinished battle."""
        laid1, laid2, steps = tuple(self.p1), tuple(self.p2), tuple(self.steps)
        self.p1.clear()
        self.p2.clear()
        self.steps.clear()
        if isinstance(event, BattleWon):
            return BattleView(
                event.battle, laid1, laid2, war_cards, event.wars, event.winner,
                len(event.cards), (event.p1_count, event.p2_count), total_wars, steps=steps,
            )
        if not event.last_battle_p1:
            return None
        winner = {Result.P1: Side.P1, Result.P2: Side.P2}.get(event.result)
        taken = len(laid1) + len(laid2) if winner is not None else 0
        return BattleView(
            battle, laid1, laid2, war_cards, event.last_battle_wars, winner, taken,
            (event.p1_count, event.p2_count), total_wars, steps=steps,
        )


class EngineAdapter:
    """Listens to one game at a time and sets ``board.battle`` after each battle."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._game: Game | None = None
        self._attached = False
        self._battle = BattleInProgress()
        self.holding = False
        self._held: BattleView | None = None
        self._passed: list[Card] = []  # player 1's count after each held battle that a newer one replaced

    def follow(self, game: Game) -> None:
        """Listen to ``game`` from now on (and no longer to the previous one)."""
        self.detach()
        self._game = game
        self._held = None
        self._passed.clear()
        self._battle = BattleInProgress()
        self.attach()

    def attach(self) -> None:
        if self._game is not None and not self._attached:
            self._game.subscribe(self._on_event)
            self._attached = True

    def detach(self) -> None:
        if self._game is not None and self._attached:
            self._game.unsubscribe(self._on_event)
            self._attached = False

    def flush(self) -> bool:
        """Show the battle held back while ``holding``; returns whether there was one."""
        view, self._held = self._held, None
        if view is None:
            return False
        if self._passed:
            view = replace(view, passed=tuple(self._passed))
            self._passed.clear()
        self._board.battle = view
        return True

    def _on_event(self, event: Event) -> None:
        if isinstance(event, CardsRevealed):
            self._battle.revealed(event)
            return
        if isinstance(event, WarDeclared):
            self._battle.war(event)
            return
        if not isinstance(event, (BattleWon, GameOver)):
            return
        game = self._game
        assert game is not None
        view = self._battle.view(event, game.battles, game.rules.war_cards, game.wars)
        if view is None:
            return
        if self.holding:
            if self._held is not None:
                self._passed.append(self._held.counts[0])
            self._held = view
        else:
            self._board.battle = view
