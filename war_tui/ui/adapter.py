"""The one bridge from a game's events to the battle on show: ``BattleWon`` (or a ``GameOver`` that cut a
battle short) in, ``board.battle`` out.

A battle's view holds every card laid, so the board lays a war step by step without knowing the rules. At
"max" speed (``holding``) each view replaces the last unshown one, and ``flush`` shows the newest once a
frame, with the counts of those it replaced (``passed``); at a table catching up (``lines``), with those
views too (``unshown``), each of which the log tells.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from ..core.events import BattleWon, Event, GameOver
from ..core.played import PlayedGame
from ..presentation.views import BattleView, battle_view


class Board(Protocol):
    """Whatever shows the battle: the board screen, whose ``battle`` its widgets are bound to."""

    battle: BattleView | None


class EngineAdapter:
    """Turns one game's events into ``board.battle``; the controller that follows the game hands them in."""

    def __init__(self, board: Board, *, lines: bool = False) -> None:
        self._board = board
        self.holding = False
        self.lines = lines
        """Each battle a newer one replaced while held keeps its view (``unshown``), for its line in the log: a table's
        log is the table's. Else only its count is kept ("max" plays thousands a frame)."""
        self._held: BattleView | None = None
        self._before: BattleView | None = None  # the held battle the newest one replaced
        self._passed: list[int] = []  # player 1's count after each held battle that a newer one replaced
        self._unshown: list[BattleView] = []  # with ``lines``: those battles

    def reset(self) -> None:
        """A new game: nothing held."""
        self._held = self._before = None
        self._passed.clear()
        self._unshown.clear()

    def flush(self, *, stop_at_war: bool = False) -> bool:
        """Show the battle held back while ``holding``; returns whether there was one.

        ``stop_at_war``: the board holds a war at its tie ("stop at wars"), so the battle before a war is
        shown first: the counts, log and sparkline on show while the war waits are those of the battle
        just before it, not of the last frame.
        """
        view, self._held = self._held, None
        before, self._before = self._before, None
        if view is None:
            return False
        passed, unshown = tuple(self._passed), tuple(self._unshown)
        self._passed.clear()
        self._unshown.clear()
        if stop_at_war and before is not None and view.stages > 1:
            self._board.battle = replace(before, passed=passed[:-1], unshown=unshown[:-1])
            passed, unshown = (), ()
        if passed:
            view = replace(view, passed=passed, unshown=unshown)
        self._board.battle = view
        return True

    def on_event(self, event: Event, game: PlayedGame) -> None:
        """One of ``game``'s events: a battle that ended reaches the board (or waits, while ``holding``)."""
        if not isinstance(event, (BattleWon, GameOver)):
            return
        view = battle_view(event, game.rules.war_cards, game.wars)
        if view is not None:
            self.show(view)

    def show(self, view: BattleView) -> None:
        """A battle for the board: on show at once, or held (``holding``) until ``flush`` shows the newest."""
        if self.holding:
            if self._held is not None:
                self._passed.append(self._held.counts[0])
                if self.lines:
                    self._unshown.append(self._held)
                self._before = self._held
            self._held = view
        else:
            self._board.battle = view
