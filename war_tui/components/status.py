"""The status line: which game, how far, whether auto-play runs and how fast, and the tally."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..messages import BattleView, DealView, EndView
from ..presentation.glyphs import Glyphs
from ..presentation.status import status_pieces
from ..rules import Result
from .line_widget import LineWidget, Row


class StatusLine(LineWidget):
    COMPONENT_CLASSES = {"status--label", "status--value", "status--auto", "status--paused"}
    KEEP_FINISHED = False  # the battle number changes its row every battle: never seen again

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="board")
        self.names = tuple(names)
        self.glyphs = glyphs
        self.number = 0
        self.seed: int | None = None
        self.battles = 0
        self.wars = 0
        self.auto = False
        self.speed = 4.0
        self.pause_on_war = False
        self.over = False  # the game on the table is finished
        self.tally = (0, 0, 0, 0)  # p1, p2, draws, stopped

    def show_deal(self, deal: DealView) -> None:
        self.number, self.seed = deal.number, deal.seed
        self.battles = self.wars = 0
        self.over = False
        self.redraw()

    def show_battle(self, view: BattleView) -> None:
        self.battles, self.wars = view.battle, view.total_wars
        self.redraw()

    def show_end(self, end: EndView) -> None:
        self.battles, self.wars = end.battles, end.wars
        self.over = True
        self.redraw()

    def set_play(self, auto: bool, speed: float, pause_on_war: bool) -> None:
        self.auto, self.speed, self.pause_on_war = auto, speed, pause_on_war
        self.redraw()

    def set_tally(self, tally: Counter[Result]) -> None:
        self.tally = (tally[Result.P1], tally[Result.P2], tally[Result.DRAW], tally[Result.STOPPED])
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        pieces = status_pieces(
            number=self.number, seed=self.seed, battles=self.battles, wars=self.wars, auto=self.auto,
            speed=self.speed, pause_on_war=self.pause_on_war, over=self.over, tally=self.tally,
            names=self.names, glyphs=self.glyphs, width=width,
        )
        return [[(chunk, f"status--{name}" if name else "") for chunk, name in pieces]]
