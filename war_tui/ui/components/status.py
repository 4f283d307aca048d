"""The status line: which game, how far, whether auto-play runs and how fast, and the tally.

Its battle is the pile's: while a war is laid the battle number is already the war's, as the pile's title says."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from textual.reactive import var

from ...core.rules import Result
from ...presentation.glyphs import Glyphs
from ...presentation.status import status_pieces
from ...presentation.views import BattleView, DealView, EndView
from .line_widget import LineWidget, Row


class StatusLine(LineWidget):
    COMPONENT_CLASSES = {"status--label", "status--value", "status--auto", "status--paused"}

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)
    """The battle whose outcome is told (the board's ``settled``)."""
    on_pile: var[BattleView | None] = var(None)
    """The battle on the pile: a war being laid is already its battle, as the pile's title says."""
    shown_steps: var[int | None] = var(None)
    """How much of a war on the pile is laid (None: all of it): the wars counted are the ones on show."""
    result: var[EndView | None] = var(None)
    auto: var[bool] = var(False)
    speed: var[float] = var(4.0)
    pause_on_war: var[bool] = var(False)
    tally: var[Counter[Result]] = var(Counter)
    time_left: var[int | None] = var(None)
    behind: var[bool] = var(False)
    """A table's screen knows the table is further on than it shows: the line says it is catching up."""

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names: a table's seats change them, and the widget redraws."""

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(StatusLine.names, (names[0], names[1]))
        self.glyphs = glyphs

    def watch_deal(self) -> None:
        self.redraw()

    def watch_battle(self) -> None:
        self.redraw()

    def watch_on_pile(self) -> None:
        """The pile's battle shows only while a war is laid; else the line tells the settled battle (its own
        watcher redraws), so a battle is drawn once, not once for the pile and again for the outcome."""
        if self.shown_steps is not None:
            self.redraw()

    def watch_shown_steps(self) -> None:
        self.redraw()

    def watch_result(self) -> None:
        self.redraw()

    def watch_auto(self) -> None:
        self.redraw()

    def watch_speed(self) -> None:
        self.redraw()

    def watch_pause_on_war(self) -> None:
        self.redraw()

    def watch_tally(self) -> None:
        self.redraw()

    def watch_time_left(self) -> None:
        self.redraw()

    def watch_names(self) -> None:
        self.redraw()

    def watch_behind(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        deal, battle, end, tally = self.deal, self.battle, self.result, self.tally
        if end is not None:
            battles, wars = end.battles, end.wars
        elif self.on_pile is not None and self.shown_steps is not None:  # a war being laid, its outcome untold
            battles, wars = self.on_pile.battle, self.on_pile.total_wars_at(self.shown_steps)
        elif battle is not None:
            battles, wars = battle.battle, battle.total_wars
        else:
            battles = wars = 0
        pieces = status_pieces(
            number=deal.number if deal is not None else 0, seed=deal.seed if deal is not None else None,
            battles=battles, wars=wars, auto=self.auto, speed=self.speed, pause_on_war=self.pause_on_war,
            over=end is not None, tally=(tally[Result.P1], tally[Result.P2], tally[Result.DRAW], tally[Result.STOPPED]),
            names=self.names, glyphs=self.glyphs, width=width, time_left=self.time_left, behind=self.behind,
        )
        return [[(chunk, f"status--{name}" if name else "") for chunk, name in pieces]]
