"""How the games ended: one line per result with its count, share and a bar to compare at a glance."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from ...core.rules import Result
from ...stats.records import Totals
from ...stats.text import RESULT_LABELS, percent

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(fraction: float, width: int) -> str:
    """A horizontal bar ``fraction`` (0..1) of ``width`` cells long, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


class ResultShares(Widget):
    """Counts and shares per result; the bars are scaled to the whole, so they add up to one bar."""

    COMPONENT_CLASSES = {
        "result-shares--p1",
        "result-shares--p2",
        "result-shares--draw",
        "result-shares--stopped",
        "result-shares--figures",
    }

    def __init__(self, totals: Totals, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.totals = totals

    def show(self, totals: Totals) -> None:
        self.totals = totals
        self.refresh()

    def render(self) -> Text:
        totals = self.totals
        count_width = max(len(f"{totals.results[r]:,}") for r in Result)
        label_width = max(len(label) for label in RESULT_LABELS.values())
        figures_width = label_width + 1 + count_width + 1 + 6  # "Label count  share%"
        bar_width = max(0, self.size.width - figures_width - 2)  # two cells between share and bar
        figures = self.get_component_rich_style("result-shares--figures")
        text = Text(no_wrap=True, overflow="crop")
        for index, result in enumerate(Result):
            if index:
                text.append("\n")
            share = totals.share(result)
            text.append(f"{RESULT_LABELS[result].capitalize():<{label_width}} ")
            text.append(f"{totals.results[result]:>{count_width},} {percent(share):>6}", figures)
            if bar_width:
                text.append("  ")
                text.append(bar(share, bar_width), self.get_component_rich_style(f"result-shares--{result.value}"))
        return text
