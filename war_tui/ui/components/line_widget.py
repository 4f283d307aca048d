"""A Line API widget that keeps its drawn rows and repaints only the rows a battle really changed.

Textual's usual path (``render()`` returning Rich Text) formats the whole drawing and repaints every row.
Here a widget draws plain rows of (text, style name) runs, compares them with what is on screen, and
marks only the rows that differ; ``render_line`` makes a Strip of a row only then, each style looked up
once per look of the widget.
"""

from __future__ import annotations

import operator

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

Row = list[tuple[str, str]]
"""One line of a drawing: (text, component style name) runs, "" for the widget's own style."""
PADDING = "-padding"
"""The style name of cells drawn as Textual draws padding: the background alone."""


class LineWidget(Widget):
    """Subclasses implement ``draw(width, height)`` and call ``redraw()`` when what they show changes."""

    _rows: list[Row] = []
    _lines: list[Strip | None] = []
    """The drawing's rows as Strips, each made when first asked for (``None`` until then)."""
    _drawn_for: Size | None = None
    """The size the rows were drawn for; None when the next paint must draw them all again."""
    _styles_by_name: dict[str, Style] | None = None
    """The Rich style of each component style name drawn with, "" for the widget's own; None: look them up again."""

    def draw(self, width: int, height: int) -> list[Row]:
        raise NotImplementedError

    # ------------------------------------------------------------ drawing

    def notify_style_update(self) -> None:
        """New styles (a theme, a class): the next paint draws every row again."""
        super().notify_style_update()
        self._forget_drawing()

    def refresh(self, *regions: Region, **kwargs: bool) -> LineWidget:
        """A repaint of the whole widget (a resize, new component styles) draws every row again."""
        if not regions:
            self._forget_drawing()
        super().refresh(*regions, **kwargs)
        return self

    def _forget_drawing(self) -> None:
        self._drawn_for = None
        self._styles_by_name = None

    def _draw_rows(self, size: Size) -> list[Row]:
        return self.draw(size.width, size.height)[: size.height]

    def redraw(self) -> None:
        """Draw again now, and mark for repaint only the rows that came out different."""
        size = self.size
        if not self.is_mounted or size != self._drawn_for:
            self.refresh()  # the next paint draws it whole
            return
        old_rows, old_lines = self._rows, self._lines
        rows = self._draw_rows(size)
        if len(rows) != len(old_rows):
            self._rows, self._lines = rows, [None] * len(rows)
            self.refresh()
            return
        same = list(map(operator.eq, rows, old_rows))
        self._rows = rows
        self._lines = [line if unchanged else None for line, unchanged in zip(old_lines, same)]
        changed = [Region(0, y, size.width, 1) for y, unchanged in enumerate(same) if not unchanged]
        if changed:
            super().refresh(*changed)

    def _strip(self, row: Row, width: int) -> Strip:
        """One drawn row as a Strip: one segment per run of a style (fewer segments all the way to the terminal)."""
        styles = self._styles_by_name
        if styles is None:
            styles = self._styles_by_name = {"": self.visual_style.rich_style}
        base = styles[""]
        segments: list[Segment] = []
        last = None
        for text, name in row:
            if not text:
                continue
            style = styles.get(name)
            if style is None:
                if name == PADDING:
                    style = styles[name] = Style.from_color(bgcolor=base.bgcolor)
                else:
                    style = styles[name] = base + self.get_component_rich_style(name)
            if style is last:
                segments[-1] = Segment(segments[-1].text + text, style)
            else:
                segments.append(Segment(text, style))
                last = style
        return Strip(segments).adjust_cell_length(width, base)

    def render_line(self, y: int) -> Strip:
        size = self.size
        if size != self._drawn_for:
            # Resized or restyled: Textual repaints the whole widget, so redraw every row.
            self._rows = self._draw_rows(size)
            self._lines = [None] * len(self._rows)
            self._drawn_for = size
        if 0 <= y < len(self._lines):
            line = self._lines[y]
            if line is None:
                line = self._lines[y] = self._strip(self._rows[y], size.width)
            return line
        return Strip.blank(size.width, self.visual_style.rich_style)
