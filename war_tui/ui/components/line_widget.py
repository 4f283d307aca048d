"""A Line API widget that keeps its drawn rows and repaints only the rows a battle really changed.

Textual's usual path (``render()`` returning Rich Text) formats the whole drawing and repaints every row.
Here a widget draws plain rows of (text, style name) runs, compares them with what is on screen, and
marks only the rows that differ; ``render_line`` makes a Strip of a row only then, each style looked up
once per look of the widget.

A board widget changes with every battle, and each frame Textual styles every widget it repaints
(padding, background, line filters) through a path whose set-up costs more than the one row a battle
changes. ``render_lines`` keeps each styled row until its drawing changes, and styles a new one itself
where the widget's look is padding and a background alone, as Textual would; any other look
(a border, an outline, a tint, opacity, a hatch, selected text) goes through Textual's own path.
"""

from __future__ import annotations

import operator

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget

Row = list[tuple[str, str]]
"""One line of a drawing: (text, component style name) runs, "" for the widget's own style."""
PADDING = "-padding"
"""The style name of cells drawn as Textual draws padding: the background alone."""

Look = tuple[tuple[Color, Color], float, tuple[LineFilter, ...], Size, Size]
"""What a styled row depends on besides its drawing: the backgrounds under and of the widget, its opacity,
the app's line filters, its outer size and its content's size."""


class LineWidget(Widget):
    """Subclasses implement ``draw(width, height)`` and call ``redraw()`` when what they show changes."""

    _rows: list[Row] = []
    _lines: list[Strip | None] = []
    """The drawing's rows as Strips, each made when first asked for (``None`` until then)."""
    _drawn_for: Size | None = None
    """The size the rows were drawn for; None when the next paint must draw them all again."""
    _styles_by_name: dict[str, Style] | None = None
    """The Rich style of each component style name drawn with, "" for the widget's own; None: look them up again."""
    _styled: list[Strip | None] = []
    """Each row of the widget as the screen shows it (padding, background, filters); None until styled again."""
    _styled_look: Look | None = None
    """The look ``_styled`` was made for; None: style every row again."""
    _plain: Spacing | None = None
    """The widget's padding when its look is padding and a background alone; None: Textual styles its rows."""
    _inner: Style = Style()
    """The style of the widget's padding and of the cells its content leaves blank (Textual's "inner" style)."""

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
        self._styled_look = None

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
            top = self._plain.top if self._plain is not None else 0
            for region in changed:
                if 0 <= region.y + top < len(self._styled):
                    self._styled[region.y + top] = None
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

    def render_lines(self, crop: Region) -> list[Strip]:
        """The widget's rows as the screen shows them: a styled row is kept until its drawing changes."""
        look: Look = (self.background_colors, self.opacity, tuple(self.get_line_filters()), self.outer_size, self.size)
        if look != self._styled_look:
            self._styled_look = look
            self._plain = self._plain_padding(look[1])
            self._styled = [None] * look[3].height
            base_background, background = look[0]
            self._inner = VisualStyle(background=base_background + background).rich_style
        padding = self._plain
        if padding is None or self.text_selection is not None:
            return super().render_lines(crop)
        styled = self._styled
        rows: list[Strip] = []
        for y in crop.line_range:
            row = styled[y] if 0 <= y < len(styled) else None
            if row is None:
                row = self._styled_row(y, padding, look)
                if 0 <= y < len(styled):
                    styled = self._styled  # a drawing made for a new size starts a new list
                    styled[y] = row
            rows.append(row)
        if crop.column_span != (0, look[3].width):
            rows = [row.crop(crop.x, crop.right) for row in rows]
        return rows

    def _plain_padding(self, opacity: float) -> Spacing | None:
        """The padding, if padding and a background are all the widget's look has (Textual's own path else)."""
        styles = self.styles
        plain = (
            opacity == 1.0
            and not any(edge for edge, _ in styles.border)
            and not any(edge for edge, _ in styles.outline)
            and not styles.tint.a
            and styles.text_opacity == 1.0
            and not (styles.has_rule("hatch") and styles.hatch != "none")
            and styles.gutter == styles.padding
        )
        return styles.padding if plain else None

    def _styled_row(self, y: int, padding: Spacing, look: Look) -> Strip:
        """Row ``y`` of the widget as Textual styles it: the content row between its padding, on the background."""
        (_base_background, background), _opacity, filters, outer, size = look
        inner = self._inner
        pad_top, pad_right, _pad_bottom, pad_left = padding
        content_y = y - pad_top
        if 0 <= content_y < size.height:
            line = self.render_line(content_y).adjust_cell_length(size.width, inner)
            segments = [*([Segment(" " * pad_left, inner)] if pad_left else []), *line,
                        *([Segment(" " * pad_right, inner)] if pad_right else [])]
        else:
            segments = [Segment(" " * outer.width, inner)]
        row = Strip(segments, outer.width)
        for line_filter in filters:
            row = row.apply_filter(line_filter, background)
        return row

    def render_line(self, y: int) -> Strip:
        size = self.size
        if size != self._drawn_for:
            # Resized or restyled: Textual repaints the whole widget, so redraw every row.
            self._rows = self._draw_rows(size)
            self._lines = [None] * len(self._rows)
            self._drawn_for = size
            self._styled = [None] * len(self._styled)
        if 0 <= y < len(self._lines):
            line = self._lines[y]
            if line is None:
                line = self._lines[y] = self._strip(self._rows[y], size.width)
            return line
        return Strip.blank(size.width, self.visual_style.rich_style)
