"""All 52 cards as one bar, split between the players: the score at a glance."""

from __future__ import annotations

from collections.abc import Sequence

from textual.reactive import var

from ...presentation.cells import cell_width
from ...presentation.charts import bar_split
from ...presentation.glyphs import Glyphs
from ...presentation.views import BattleView, DealView, EndView
from .line_widget import LineWidget, Row


class CardBar(LineWidget):
    COMPONENT_CLASSES = {"bar--p1", "bar--p2", "bar--label"}

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)
    result: var[EndView | None] = var(None)

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names: a table's seats change them, and the widget redraws."""

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(CardBar.names, (names[0], names[1]))
        self.glyphs = glyphs
        self.counts = (26, 26)

    def watch_deal(self, deal: DealView | None) -> None:
        if deal is not None:
            self._show(deal.counts)

    def watch_battle(self, view: BattleView | None) -> None:
        if view is not None:
            self._show(view.counts)

    def watch_result(self, end: EndView | None) -> None:
        if end is not None:
            self._show(end.counts)

    def _show(self, counts: tuple[int, int]) -> None:
        if counts != self.counts:
            self.counts = counts
            self.redraw()

    def watch_names(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        n1, n2 = self.counts
        left = f"{self.names[0]} {n1:>2} "
        right = f" {n2:<2} {self.names[1]}"
        if cell_width(left) + cell_width(right) + 10 > width:
            left, right = f"{n1:>2} ", f" {n2:<2}"
        cells = max(0, width - cell_width(left) - cell_width(right))
        p1_cells = bar_split(n1, n2, cells)
        return [[
            (left, "bar--label"),
            (self.glyphs.bar_p1 * p1_cells, "bar--p1"),
            (self.glyphs.bar_p2 * (cells - p1_cells), "bar--p2"),
            (right, "bar--label"),
        ]]
