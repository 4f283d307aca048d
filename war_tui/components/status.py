"""The status line: which game, how far, whether auto-play runs and how fast, and the tally."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..messages import BattleView, DealView, EndView
from ..presentation import Glyphs, status_pieces
from ..rules import Result
from .drawing import pieces_text
from .styled import CachedComponentStyles


class StatusLine(CachedComponentStyles, Widget):
    COMPONENT_CLASSES = {"status--label", "status--value", "status--auto", "status--paused"}

    number: reactive[int] = reactive(0)
    seed: reactive[int | None] = reactive(None)
    battles: reactive[int] = reactive(0)
    wars: reactive[int] = reactive(0)
    auto: reactive[bool] = reactive(False)
    speed: reactive[float] = reactive(4.0)
    pause_on_war: reactive[bool] = reactive(False)
    over: reactive[bool] = reactive(False)  # the game on the table is finished
    tally: reactive[tuple[int, int, int, int]] = reactive((0, 0, 0, 0))  # p1, p2, draws, stopped

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="board")
        self.names = tuple(names)
        self.glyphs = glyphs

    def show_deal(self, deal: DealView) -> None:
        self.number = deal.number
        self.seed = deal.seed
        self.battles = 0
        self.wars = 0
        self.over = False

    def show_battle(self, view: BattleView) -> None:
        self.battles = view.battle
        self.wars = view.total_wars

    def show_end(self, end: EndView) -> None:
        self.battles = end.battles
        self.wars = end.wars
        self.over = True

    def set_play(self, auto: bool, speed: float, pause_on_war: bool) -> None:
        self.auto, self.speed, self.pause_on_war = auto, speed, pause_on_war

    def set_tally(self, tally: Counter[Result]) -> None:
        self.tally = (tally[Result.P1], tally[Result.P2], tally[Result.DRAW], tally[Result.STOPPED])

    def render(self) -> Text:
        pieces = status_pieces(
            number=self.number, seed=self.seed, battles=self.battles, wars=self.wars, auto=self.auto,
            speed=self.speed, pause_on_war=self.pause_on_war, over=self.over, tally=self.tally,
            names=self.names, glyphs=self.glyphs, width=self.content_size.width,
        )
        return pieces_text(pieces, lambda name: self.component_style(f"status--{name}"))
