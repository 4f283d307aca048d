"""A histogram of game lengths drawn in the terminal: vertical bars in eighths of a cell, with an axis.

The bins come from the store already equal in width; the widget only joins
neighbours when the terminal is too narrow to give each one a column, so the
picture is always exact, never resampled.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from ...presentation.words import plural
from ...stats.records import Bin, Histogram
from ..text import plain

_LEVELS = " ▁▂▃▄▅▆▇█"


class LengthHistogram(Widget):
    """How many games lasted how many battles; very long rare games in a last bar of their own."""

    COMPONENT_CLASSES = {
        "length-histogram--bar",
        "length-histogram--overflow",
        "length-histogram--axis",
    }

    def __init__(self, histogram: Histogram, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.histogram = histogram

    def show(self, histogram: Histogram) -> None:
        self.histogram = histogram
        self._name_tallest()
        self.refresh()

    def on_resize(self) -> None:
        self._name_tallest()

    def _name_tallest(self) -> None:
        """The subtitle gives the tallest bar as drawn (neighbours join when the widget is narrow)."""
        peak = max((b.count for b, _ in self.columns(self.size.width)), default=0)
        self.border_subtitle = plain(f"tallest bar {plural(peak, 'game')}") if peak else None

    def columns(self, width: int) -> list[tuple[Bin, bool]]:
        """The bars that fit ``width`` cells, each with True if it is the overflow bar."""
        room = max(1, width // 2 - (1 if self.histogram.overflow else 0))
        bars = [(b, False) for b in self.histogram.merged(room).bins]
        if self.histogram.overflow:
            bars.append((self.histogram.overflow, True))
        return bars

    def render(self) -> Text:
        width, height = self.size.width, self.size.height
        bars = self.columns(width)
        if not bars or width < 8 or height < 2:
            return Text("")
        step = max(2, width // len(bars))  # cells per bar: the bar, then a gap
        thick = step - 1
        rows = height - 1
        peak = max(b.count for b, _ in bars) or 1
        bar_style = self.get_component_rich_style("length-histogram--bar")
        over_style = self.get_component_rich_style("length-histogram--overflow")
        axis = self.get_component_rich_style("length-histogram--axis")

        text = Text(no_wrap=True, overflow="crop")
        heights = [
            max(1, round(b.count / peak * rows * 8)) if b.count else 0 for b, _ in bars
        ]  # in eighths; any game at all shows at least a sliver
        for row in range(rows):
            floor = (rows - 1 - row) * 8  # eighths below this row
            for (_, overflow), eighths in zip(bars, heights, strict=True):
                level = min(8, max(0, eighths - floor))
                text.append(_LEVELS[level] * thick, over_style if overflow else bar_style)
                text.append(" " * (step - thick))
            text.append("\n")
        text.append(self.axis_line(bars, step * len(bars) - 1), axis)
        return text

    def axis_line(self, bars: list[tuple[Bin, bool]], width: int) -> str:
        low = f"{bars[0][0].low:,}"
        last, overflow = bars[-1]
        high = f"{last.low:,}+" if overflow else f"{last.high:,}"
        middle = "battles per game"
        gap = width - len(low) - len(high)
        if gap >= len(middle) + 2:
            pad = gap - len(middle)
            return low + " " * (pad // 2) + middle + " " * (pad - pad // 2) + high
        return low + " " * max(1, gap) + high
