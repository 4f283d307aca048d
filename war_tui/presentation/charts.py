"""Little charts as text: stack thickness, the card bar's split, the trend's bounded history and sparkline."""

from __future__ import annotations

from collections.abc import Sequence

from .glyphs import Glyphs


def stack_edges(count: int, total: int, max_edges: int) -> int:
    """How many card edges to draw behind a packet's top card: more cards, thicker stack."""
    if count <= 1 or max_edges <= 0 or total <= 0:
        return 0
    return max(1, min(max_edges, round((count - 1) / (total - 1) * max_edges)))


def bar_split(n1: int, n2: int, width: int) -> int:
    """How many of ``width`` cells belong to player 1, never rounding a holder away to nothing."""
    total = n1 + n2
    if width <= 0 or total <= 0:
        return 0
    cells = round(n1 / total * width)
    if n1 and cells == 0:
        cells = 1
    if n2 and cells == width:
        cells = width - 1
    return max(0, min(width, cells))


class CountHistory:
    """Player 1's card count over a game, in bounded memory however long the game runs.

    Samples are kept one per ``stride`` battles; when the list fills, every other
    sample goes and the stride doubles, so a 10,000-battle game costs the same as a short one.
    """

    def __init__(self, capacity: int = 512) -> None:
        self.capacity = max(2, capacity - capacity % 2)
        self.samples: list[int] = []
        self.stride = 1
        self._seen = 0

    def add(self, value: int) -> None:
        if self._seen % self.stride == 0:
            self.samples.append(value)
            if len(self.samples) >= self.capacity:
                self.samples = self.samples[::2]
                self.stride *= 2
        self._seen += 1

    def reset(self, first: int | None = None) -> None:
        self.samples.clear()
        self.stride = 1
        self._seen = 0
        if first is not None:
            self.add(first)


def resample(samples: Sequence[int], width: int) -> list[float]:
    """Fit ``samples`` into ``width`` columns, averaging buckets (never inventing values)."""
    if width <= 0 or not samples:
        return []
    n = len(samples)
    if n <= width:
        return [float(s) for s in samples]
    out = []
    for col in range(width):
        lo = col * n // width
        hi = max(lo + 1, (col + 1) * n // width)
        chunk = samples[lo:hi]
        out.append(sum(chunk) / len(chunk))
    return out


def spark_rows(values: Sequence[float], height: int, top: float, glyphs: Glyphs) -> list[str]:
    """A bar chart ``height`` rows tall on a fixed 0..top scale (rows listed top first).

    A fixed scale matters: a sparkline that stretches to its own min and max
    would draw 25-27 as a cliff.
    """
    if height <= 0 or top <= 0:
        return []
    spark = glyphs.spark
    levels = len(spark) - 1
    columns = []
    for value in values:
        units = round(max(0.0, min(1.0, value / top)) * height * levels)
        if value > 0 and units == 0:
            units = 1
        column = _SPARK_COLUMNS.get((units, height, spark))
        if column is None:  # a column of the chart, top first; a chart has a few dozen different ones
            column = _SPARK_COLUMNS[units, height, spark] = tuple(
                spark[max(0, min(levels, units - row * levels))] for row in reversed(range(height))
            )
        columns.append(column)
    if not columns:
        return [""] * height
    return ["".join(row) for row in zip(*columns)]


_SPARK_COLUMNS: dict[tuple[int, int, str], tuple[str, ...]] = {}
