"""All 52 cards as one bar, split between the players: the score at a glance."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .styled import CachedComponentStyles
from ..messages import BattleView, DealView, EndView
from ..presentation import Glyphs, bar_split, cell_width


class CardBar(CachedComponentStyles, Widget):
    COMPONENT_CLASSES = {"bar--p1", "bar--p2", "bar--label"}

    counts: reactive[tuple[int, int]] = reactive((26, 26))

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="board")
        self.names = tuple(names)
        self.glyphs = glyphs

    def show_deal(self, deal: DealView) -> None:
        self.counts = deal.counts

    def show_battle(self, view: BattleView) -> None:
        self.counts = view.counts

    def show_end(self, end: EndView) -> None:
        self.counts = end.counts

    def render(self) -> Text:
        n1, n2 = self.counts
        width = self.size.width
        left = f"{self.names[0]} {n1:>2} "
        right = f" {n2:<2} {self.names[1]}"
        if cell_width(left) + cell_width(right) + 10 > width:
            left, right = f"{n1:>2} ", f" {n2:<2}"
        cells = max(0, width - cell_width(left) - cell_width(right))
        p1_cells = bar_split(n1, n2, cells)
        label = self.component_style("bar--label")
        text = Text(no_wrap=True, overflow="crop", end="")
        text.append(left, label)
        text.append(self.glyphs.bar_p1 * p1_cells, self.component_style("bar--p1"))
        text.append(self.glyphs.bar_p2 * (cells - p1_cells), self.component_style("bar--p2"))
        text.append(right, label)
        return text
