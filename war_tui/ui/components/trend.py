"""A sparkline of player 1's card count over the game, on a fixed 0-to-all-cards scale."""

from __future__ import annotations

from collections.abc import Sequence

from textual.reactive import var

from ...presentation.cells import cell_width
from ...presentation.charts import CountHistory, resample, spark_rows
from ...presentation.glyphs import Glyphs
from ...presentation.views import BattleView, DealView
from .line_widget import LineWidget, Row


class CountTrend(LineWidget):
    """Keeps a bounded history (``CountHistory``), so a 10,000-battle game costs no more than a short one."""

    COMPONENT_CLASSES = {"trend--line", "trend--label"}

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names: a table's seats change them, and the widget redraws."""

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(CountTrend.names, (names[0], names[1]))
        self.glyphs = glyphs
        self.history = CountHistory()
        self.total = 52

    def watch_deal(self, deal: DealView | None) -> None:
        if deal is not None:
            self.total = deal.total
            self.history.reset(deal.counts[0])
            self.redraw()

    def watch_battle(self, view: BattleView | None) -> None:
        if view is None:
            return
        for count in view.passed:  # battles played at "max" without being drawn still make the line
            self.history.add(count)
        self.history.add(view.counts[0])
        self.redraw()

    def watch_names(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        label_text = f"{self.names[0]}'s cards "
        if cell_width(label_text) > width // 3:
            label_text = ""
        plot_width = max(0, width - cell_width(label_text))
        values = resample(self.history.samples, plot_width)
        rows = spark_rows(values, height, self.total, self.glyphs)
        blank = " " * cell_width(label_text)
        return [
            [(label_text if i == len(rows) - 1 else blank, "trend--label"), (row, "trend--line")]
            for i, row in enumerate(rows)
        ]
