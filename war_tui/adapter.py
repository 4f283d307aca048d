"""The one bridge from the engine to the screen: engine events in, Textual messages out.

The engine calls listeners synchronously while it plays; the adapter keeps only
what ends a battle (``BattleWon``, or the ``GameOver`` of a game ended short in
a war), turns it into a ``BattleView`` and posts it. At "max" speed the app
sets ``holding``: each battle's view replaces the last one unposted, and one
``flush`` per frame sends only the newest, so the screen never queues stale frames;
it carries the counts of the battles it replaced (``passed``) for the sparkline and the log.
"""

from __future__ import annotations

from dataclasses import replace

from textual.message_pump import MessagePump

from .engine import Game
from .events import BattleWon, Event, GameOver
from .messages import BattleShown, BattleView
from .rules import Result, Side


def view_of(event: BattleWon | GameOver, battle: int, war_cards: int, total_wars: int = 0) -> BattleView | None:
    """A battle as the screen draws it, or None for a game-over with no unfinished battle."""
    if isinstance(event, BattleWon):
        return BattleView(
            event.battle, event.p1_laid, event.p2_laid, war_cards, event.wars, event.winner,
            len(event.cards), (event.p1_count, event.p2_count), total_wars,
        )
    if not event.last_battle_p1:
        return None
    laid1, laid2 = event.last_battle_p1, event.last_battle_p2
    winner = {Result.P1: Side.P1, Result.P2: Side.P2}.get(event.result)
    wars = event.last_battle_wars
    taken = len(laid1) + len(laid2) if winner is not None else 0
    return BattleView(
        battle, laid1, laid2, war_cards, wars, winner, taken, (event.p1_count, event.p2_count), total_wars
    )


class EngineAdapter:
    """Listens to one game at a time and posts ``BattleShown`` to ``target``."""

    def __init__(self, target: MessagePump) -> None:
        self._target = target
        self._game: Game | None = None
        self._attached = False
        self.holding = False
        self._held: BattleView | None = None
        self._passed: list[int] = []  # player 1's count after each held battle that a newer one replaced

    def follow(self, game: Game) -> None:
        """Listen to ``game`` from now on (and no longer to the previous one)."""
        self.detach()
        self._game = game
        self._held = None
        self._passed.clear()
        self.attach()

    def attach(self) -> None:
        if self._game is not None and not self._attached:
            self._game.subscribe(self._on_event)
            self._attached = True

    def detach(self) -> None:
        if self._game is not None and self._attached:
            self._game.unsubscribe(self._on_event)
            self._attached = False

    def flush(self, fast: bool = True) -> bool:
        """Post the battle held back while ``holding``; returns whether there was one."""
        view, self._held = self._held, None
        if view is None:
            return False
        if self._passed:
            view = replace(view, passed=tuple(self._passed))
            self._passed.clear()
        self._target.post_message(BattleShown(view, fast=fast))
        return True

    def _on_event(self, event: Event) -> None:
        if not isinstance(event, (BattleWon, GameOver)):
            return
        game = self._game
        assert game is not None
        view = view_of(event, game.battles, game.rules.war_cards, game.wars)
        if view is None:
            return
        if self.holding:
            if self._held is not None:
                self._passed.append(self._held.counts[0])
            self._held = view
        else:
            self._target.post_message(BattleShown(view))
