"""The cells a compositor update writes, and the shadow of what the terminal shows.

A cell is a character and its SGR codes: two cells look the same when both match (a style's mouse
metadata never reaches the terminal, so comparing styles would count a moved bar as changed). The one
private name read here is Textual's update classes (``textual._compositor``); strips, styles and colour
systems go through public API.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import repeat
from typing import cast

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import COLOR_SYSTEMS, Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

Cell = tuple[str, str]
"""A character (empty for the right half of a wide character) and its SGR codes (a link's after a ``|``)."""
Row = list[Cell | None]
"""A row of the screen; ``None`` where the cell is not known (the shadow) or not written (an update)."""
Span = tuple[int, int]
"""Columns [start, end) of a row."""


class ScreenShadow:
    """What the terminal shows, cell by cell; ``None`` where it is not known."""

    def __init__(self, scroll: bool = True) -> None:
        self.scroll = scroll
        """Whether rows that moved up may be scrolled in the terminal rather than written again."""
        self.width = 0
        self.height = 0
        self.rows: list[Row] = []
        self.unknown: set[int] = set()
        """Rows that may hold a cell not known: the scroll search takes only rows known whole."""
        self.styles: dict[str, Style] = {}
        """The style of each link on screen, by its codes: a link is written again in Textual's own form."""

    def reset(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[None] * width for _ in range(height)]
        self.unknown = set(range(height))
        self.styles = {}

    def forget(self) -> None:
        """The terminal's content is unknown (say, after a resize): the next writes go out whole."""
        self.reset(self.width, self.height)


class Written:
    """The cells one update writes: per row, a full-width row (None where it writes nothing) and its spans."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: dict[int, Row] = {}
        self.spans: dict[int, list[Span]] = {}
        self.diffs: dict[int, list[int]] = {}
        """The columns a row changes, where already found (by the scroll search)."""

    def row(self, y: int) -> tuple[Row, list[Span]]:
        """Row ``y`` of the update (blank where nothing is written yet) and its spans, made on first use."""
        row = self.rows.get(y)
        if row is None:
            row = self.rows[y] = [None] * self.width
            self.spans[y] = []
        return row, self.spans[y]


def color_system(console: Console) -> ColorSystem:
    """The console's colour system, as Textual's strips render in it."""
    return COLOR_SYSTEMS.get(console.color_system or "truecolor", ColorSystem.TRUECOLOR)


def codes(style: Style | None, system: ColorSystem) -> str:
    """The SGR parameters Textual writes for ``style`` in this colour system, and its link after a ``|``.

    Not the style's own cached codes: Textual keeps Style objects in process-wide caches, and
    the codes left on one by an app in another colour system (a test's, say) would be wrong here.
    """
    if style is None:
        return ""
    ansi = Strip.render_ansi(style, system)  # an lru_cache keyed by style and colour system
    return f"{ansi}|{style.link}" if style.link else ansi


def written_cells(update: CompositorUpdate, console: Console, shadow: ScreenShadow) -> Written | None:
    """Every cell the update writes, by row and column (clipped to the shadow); ``None`` for a kind not known."""
    if isinstance(update, ChopsUpdate):
        return _chop_cells(update, console, shadow)
    if isinstance(update, LayoutUpdate):
        return _layout_cells(update, console, shadow)
    return None


def _layout_cells(update: LayoutUpdate, console: Console, shadow: ScreenShadow) -> Written:
    """A region's repaint (the whole screen at start, on a resize, for another screen): its strips side by side."""
    written = Written(shadow.width)
    system = color_system(console)
    for y, line in enumerate(update.strips, update.region.y):
        if not 0 <= y < shadow.height:
            continue
        row, spans = written.row(y)
        x = update.region.x
        for strip in line:
            _segments_into(strip, x, row, spans, shadow.styles, system)
            x += strip.cell_length
    return written


def _chop_cells(update: ChopsUpdate, console: Console, shadow: ScreenShadow) -> Written:
    """A partial update, read from its chops as ``ChopsUpdate.render_segments`` writes them: each chop the
    update touches goes out from its own x, cut at the dirty span's end when it runs past it."""
    written = Written(shadow.width)
    system = color_system(console)
    chops, chop_ends = update.chops, update.chop_ends
    for y, x1, x2 in update.spans:
        if not 0 <= y < shadow.height:
            continue
        row, spans = written.row(y)
        for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
            if strip is None or x > x2 or end <= x1:
                continue
            if min(end, x2) - x < strip.cell_length:
                strip = strip.crop(0, min(end, x2) - x)
            _segments_into(strip, x, row, spans, shadow.styles, system)
    return written


def _segments_into(
    segments: Iterable[Segment], x: int, row: Row, spans: list[Span], links: dict[str, Style], system: ColorSystem
) -> None:
    """Lay segments down in ``row`` from column ``x``, noting the span they cover and the styles of links."""
    width, start = len(row), x
    for text, style, control in segments:
        if control or not text:
            continue
        found = _segment_cells(text, style, system)
        if found is None:  # it opens with a character that joins the cell before it
            x = _wide_into(text, x, row, codes(style, system))
        else:
            row[x : x + len(found)] = found if x + len(found) <= width else found[: max(0, width - x)]
            x += len(found)
        if style is not None and style.link:
            links.setdefault(codes(style, system), style)
    if min(x, width) > start:
        spans.append((start, min(x, width)))


@lru_cache(maxsize=4096)
def _segment_cells(text: str, style: Style | None, system: ColorSystem) -> tuple[Cell, ...] | None:
    """The cells of one segment, kept: most of a frame is the same text in the same style as the last one.

    ``None`` for a text whose first character joins the cell before it (a mark after a segment's end).
    """
    cell_codes = codes(style, system)
    if text.isascii():
        return tuple(zip(text, repeat(cell_codes)))
    if get_character_cell_size(text[0]) == 0:
        return None
    row: Row = [None] * (2 * len(text))
    return tuple(cast("list[Cell]", row[: _wide_into(text, 0, row, cell_codes)]))


def _wide_into(text: str, x: int, row: Row, cell_codes: str) -> int:
    """Lay down text that may hold wide or zero-width characters; the column after it.

    A wide character's right half is an empty cell; a zero-width character joins the cell before it.
    """
    width = len(row)
    for char in text:
        size = get_character_cell_size(char)
        if size == 0:
            before = row[x - 1] if 0 < x <= width else None
            if before is not None:
                row[x - 1] = (before[0] + char, before[1])
            continue
        if x < width:
            row[x] = (char, cell_codes)
            if size == 2 and x + 1 < width:
                row[x + 1] = ("", cell_codes)
        x += size
    return x


def supported() -> bool:
    """Whether the installed Textual still has the update classes and fields read here."""
    import inspect

    chops = inspect.signature(ChopsUpdate.__init__).parameters
    layout = inspect.signature(LayoutUpdate.__init__).parameters
    return (
        {"chops", "spans", "chop_ends"} <= set(chops)
        and {"strips", "region"} <= set(layout)
        and all(callable(getattr(Strip, name, None)) for name in ("render_ansi", "render_style", "crop"))
    )
