"""The battle log's scrollbar, repainting only the cells where its thumb really moved.

Textual repaints a whole scrollbar whenever its position or size changes, and
the log's change with every battle while it follows its newest line. Here the
three values that place the thumb don't repaint by themselves: each change
draws the bar again with Textual's own renderer (``ScrollBarRender.render_bar``,
so it looks exactly the same, hover and ASCII mode included), compares it row
by row with what is on screen and marks only the rows that differ. With a
thousand lines kept the thumb is one cell and moves a cell every ninety battles
or so; while the log fills, it shrinks an eighth of a cell at a time.
"""

from __future__ import annotations

from math import ceil

from rich.color import Color
from rich.segment import Segment
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from .line_widget import refresh_changed_rows
from .refresh_batch import BatchedRefresh

DEFAULT_BACK = Color.parse("#555555")
DEFAULT_BAR = Color.parse("bright_magenta")


class LogScrollBar(BatchedRefresh, ScrollBar):
    """A vertical scrollbar drawn row by row (the log has no horizontal one)."""

    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)

    _rows: list[Strip] | None = None
    _drawn_for: tuple[object, ...] | None = None
    _thumb: tuple[int, ...] | None = None

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._made: dict[object, object] = {}

    def thumb(self) -> tuple[int, ...]:
        """Where the thumb falls, in eighths of a cell, worked out as ``ScrollBarRender.render_bar`` does.

        Cheap enough for every change of position: the bar is drawn again only when this moves.
        """
        size = self.size.height
        virtual_size = ceil(self.window_virtual_size)
        window_size = ceil(self.window_size if self.window_size < self.window_virtual_size else 0)
        if not (window_size and size and virtual_size and size != virtual_size):
            return (size,)
        eighths = len(self.renderer.VERTICAL_BARS)
        thumb_size = max(1, window_size / (virtual_size / size))
        start = int((size - thumb_size) * (self.position / (virtual_size - window_size)) * eighths)
        return (size, start, start + ceil(thumb_size * eighths))

    def _drawing_key(self) -> tuple[object, ...]:
        """Besides the thumb: size, hover and grab, and the log's scrollbar colours (a theme change)."""
        parent = self.parent
        return (
            self.size, self.mouse_over, self.grabbed is not None, self.renderer,
            self.styles._cache_key, None if parent is None else parent.styles._cache_key,
        )

    def _draw(self) -> list[Strip]:
        width, height = self.size
        bar = self.render()  # Textual's renderer with the colours of the moment
        style = getattr(bar, "style", None)
        back = getattr(style, "bgcolor", None) or DEFAULT_BACK
        color = getattr(style, "color", None) or DEFAULT_BAR
        segments = self.renderer.render_bar(
            size=height, virtual_size=getattr(bar, "virtual_size", 100),
            window_size=getattr(bar, "window_size", 0), position=getattr(bar, "position", 0),
            thickness=width, vertical=True, back_color=back, bar_color=color,
        )
        base = self.visual_style.rich_style
        made = self._made
        if made.get(None) != base:  # the cells' Strips are kept while the base style is the same
            made.clear()
            made[None] = base
        rows = []
        for segment in segments.segments:
            strip = made.get(segment)
            if strip is None:
                strip = made[segment] = Strip([segment]).apply_style(base)
            rows.append(strip)
        return rows

    def follow(self) -> None:
        """Draw the bar again if its thumb moved, repainting only the rows that differ."""
        if not self.is_mounted or self._rows is None or not self.vertical:
            self.refresh()
            return
        thumb = self.thumb()
        if thumb == self._thumb:
            return
        old, new = self._rows, self._draw()
        self._rows, self._drawn_for, self._thumb = new, self._drawing_key(), thumb
        refresh_changed_rows(self, old, new, self.size.width)

    def watch_window_virtual_size(self) -> None:
        self.follow()

    def watch_window_size(self) -> None:
        self.follow()

    def watch_position(self) -> None:
        self.follow()

    def render_line(self, y: int) -> Strip:
        if not self.vertical:
            return super().render_line(y)
        key = self._drawing_key()
        if self._rows is None or key != self._drawn_for:
            self._rows, self._drawn_for, self._thumb = self._draw(), key, self.thumb()
        rows = self._rows
        return rows[y] if 0 <= y < len(rows) else Strip.blank(self.size.width, self.visual_style.rich_style)
