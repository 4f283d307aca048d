"""A widget that keeps its drawn lines and repaints only the rows a battle really changed.

Textual's usual path (``render()`` returning Rich Text) turns the whole drawing
into Content, wraps and formats it, and repaints every row of the widget,
whatever changed: at 4 battles a second that was most of the game's CPU. Here
a widget draws plain rows of (text, style name) runs, compared row by row with
what is on screen, and only the rows that differ are marked for repaint.
Textual then asks ``render_line`` for those rows alone, and only then does a
row become a Strip (one Rich style per run, looked up once per style change).

Border titles change with every battle too (a packet's "+2 → 27 cards"):
``set_border_label`` repaints the border's row alone, where Textual's setters
repaint the whole widget. And a row Textual has styled once (border, padding,
colours) is kept by what it shows, for the next time the widget shows it:
Textual then never asks for its Strip.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from .kept_rows import KeepsCleanRows
from .refresh_batch import BatchedRefresh
from .styled import CachedComponentStyles

FINISHED_KEPT = 128
"""Finished rows kept per widget and look, by what they show. Each is a Strip of a couple of KB, and at
"max" speed every set fills: 256 rows and 4 looks added 1.5 MB to the memory growth the speed benchmark
checks (goal < 10 MB), these sizes about 1 MB. (The pile, which found half its rows here, now frames
itself and skips Textual's styling pass altogether; the packets find about 90% here.)"""
LOOKS_KEPT = 2
"""Looks (sets of classes and theme) whose styled rows are kept at once: a layout's and the one before (a resize
across the compact breakpoint and back, a theme tried and put back)."""
FINISHED_MARK = -1
"""A key put among Textual's styled rows (never a row number): when it is gone, Textual cleared them."""

Row = Sequence[tuple[str, str]]
"""One line of a drawing: (text, component style name) runs, "" for the widget's own style."""


def refresh_changed_rows(widget: Widget, old: Sequence[object], new: Sequence[object], width: int) -> None:
    """Mark for repaint the rows of ``widget`` where ``new`` differs from ``old`` (all of it if they differ in length):
    rows as drawn, or as Strips."""
    if len(old) != len(new):
        widget.refresh()
        return
    changed = [Region(0, y, width, 1) for y, same in enumerate(map(operator.eq, new, old)) if not same]
    if changed:
        widget.refresh(*changed)


class LineWidget(CachedComponentStyles, KeepsCleanRows, BatchedRefresh, Widget):
    """Subclasses implement ``draw(width, height)`` and call ``redraw()`` when what they show changes."""

    _lines: list[Strip | None] | None = None
    """The drawing's rows as Strips, each made when first asked for (``None`` until then)."""
    _styles_by_name: dict[str, Style]
    """The Rich style of each component style name drawn with, "" for the widget's own."""
    KEEP_FINISHED = True
    """Keep styled rows by what they show; off for a widget whose rows hardly ever come back."""
    _finished_sets: dict[tuple[object, ...], LRUCache[tuple[object, ...], Strip]]
    """Styled rows by what they show, one set per look (made per widget on first use)."""
    _looks_before: tuple[object, ...] | None = None
    _bare: bool | None = None
    """Whether Textual's styling pass would leave the drawn rows as they are (``_is_bare``); None: not known yet."""
    _rows: list[Row] = []
    _drawn_for: object = None
    """The size the lines were drawn for; None once styles changed."""

    def draw(self, width: int, height: int) -> list[Row]:
        raise NotImplementedError

    def restyled(self) -> None:
        """Called when the widget is drawn whole again for a new size or new styles (a theme change)."""

    # ------------------------------------------------------------ drawing

    def notify_style_update(self) -> None:
        """New styles (a theme, a class): the next paint draws every row again."""
        super().notify_style_update()
        self._drawn_for = None
        self._bare = None

    def _build(self, reuse: bool = False) -> list[Strip | None]:
        """Draw, and keep the drawing's rows; with ``reuse``, a row drawn the same as last time keeps its Strip.

        A changed row becomes a Strip only when Textual asks for it (``render_line``): most
        of them it never asks for, finding the finished row kept by what it shows.
        """
        width, height = self.content_size
        rows = self.draw(width, height)[:height]
        if reuse and self._lines is not None:
            old_rows, old_lines = self._rows, self._lines
            lines = [
                old_lines[y] if y < len(old_rows) and y < len(old_lines) and old_rows[y] == row else None
                for y, row in enumerate(rows)
            ]
        else:
            self._styles_by_name = {"": self.visual_style.rich_style}
            lines = [None] * len(rows)
        self._rows = rows
        if len(lines) < height:
            blank = Strip.blank(width, self.visual_style.rich_style)
            lines.extend(blank for _ in range(height - len(lines)))
        return lines

    def _strip(self, row: Row, width: int) -> Strip:
        """One drawn row as a Strip: one segment per run of a style (fewer segments all the way to the terminal)."""
        styles = self._styles_by_name
        base = styles[""]
        segments: list[Segment] = []
        last = None
        for text, name in row:
            if not text:
                continue
            style = styles.get(name)
            if style is None:
                style = styles[name] = base + self.component_style(name)
            if style is last:
                segments[-1] = Segment(segments[-1].text + text, style)
            else:
                segments.append(Segment(text, style))
                last = style
        return Strip(segments).adjust_cell_length(width, base)

    def redraw(self) -> None:
        """Draw again now, and mark for repaint only the rows that came out different."""
        if not self.is_mounted or not self._component_styles:
            self.refresh()
            return
        key = self._size
        old_rows = self._rows if self._lines is not None else None
        same_looks = key == self._drawn_for
        self._lines = self._build(reuse=same_looks)
        self._drawn_for = key
        if not same_looks:
            self.restyled()
        if old_rows is None or not same_looks:
            self.refresh()  # a new size or new styles change every row, drawn the same or not
        else:
            refresh_changed_rows(self, old_rows, self._rows, self.content_size.width)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Rows styled before (border, padding, background, as Textual finishes them) are used again.

        A battle changes a few rows, but mostly into rows seen before: a suit under a
        card, "Player 1 takes 2 cards", a packet's "26 cards". Textual styles each
        changed row afresh (border, padding, colours, a dozen new Strips); here a
        finished row is kept by what it shows, and handed to Textual's cache of
        styled rows before Textual looks there. Rows are kept per look (``_looks``), so
        a look that comes back finds its set; when Textual drops its own styled rows and
        the look did not change, the cause is unknown and this look's rows are dropped too.

        A widget Textual's styling pass would leave as drawn (``_is_bare``) skips all that.
        """
        if self._lines is not None and self._drawn_for == self._size and self._is_bare():
            return self._kept_or_made(crop, self._bare_rows)
        cache = self._styles_cache
        dirty = cache._dirty_lines
        if not self.KEEP_FINISHED or not dirty or self._lines is None or self._drawn_for != self._size:
            return super().render_lines(crop)
        styled = cache._cache
        looks = self._looks()
        sets = self.__dict__.setdefault("_finished_sets", {})
        if FINISHED_MARK not in styled:
            # Textual emptied its styled rows. If the looks changed (a layout's breakpoint, a
            # theme), the rows kept for each look stay good; otherwise the cause is unknown
            # and what was kept for this look is no longer sure.
            if looks == self._looks_before:
                sets.pop(looks, None)
            styled[FINISHED_MARK] = None  # type: ignore[assignment]  # gone when Textual clears its rows
        self._looks_before = looks
        finished = sets.get(looks)
        if finished is None:
            if len(sets) >= LOOKS_KEPT:
                sets.clear()
            finished = sets[looks] = LRUCache(FINISHED_KEPT)
        wanted = []
        for y in sorted(dirty.intersection(crop.line_range)):
            key = self._finished_key(y)
            row = finished.get(key)
            if row is None:
                wanted.append((y, key))
            else:
                styled[y] = row
                dirty.discard(y)
                self._kept = None  # the rows handed back last time are not these
        lines = super().render_lines(crop)
        for y, key in wanted:
            row = styled.get(y)
            if row is not None:
                finished[key] = row
        return lines

    def _is_bare(self) -> bool:
        """No border, padding, outline, tint, hatch or opacity: Textual would finish each row as drawn.

        Then the rows go to the compositor as they are (through the app's line filters,
        as Textual's own path would send them), without Textual's styling pass: the
        pile, which draws its own frame, the card bar and the sparkline.
        """
        bare = self._bare
        if bare is None:
            styles = self.styles
            bare = self._bare = (
                not any(styles.gutter)
                and not any(edge for edge, _ in styles.outline)
                and styles.tint.a == 0
                and styles.text_opacity == 1
                and self.opacity == 1
                and (not styles.has_rule("hatch") or styles.hatch == "none")
            )
        return bare

    def _bare_rows(self, crop: Region) -> list[Strip]:
        """The drawn rows for ``crop``, through the line filters, as Textual's styling pass would give them for a bare widget."""
        lines = [self.render_line(y) for y in crop.line_range]
        filters = self.get_line_filters()
        if filters:
            background = self.background_colors[1]
            for line_filter in filters:
                lines = [line.apply_filter(line_filter, background) for line in lines]
        self._styles_cache._dirty_lines.difference_update(crop.line_range)
        if crop.column_span != (0, self._size.width):
            x1, x2 = crop.column_span
            lines = [line.crop(x1, x2) for line in lines]
        return lines

    def _looks(self) -> tuple[object, ...]:
        """Besides a row's drawing, what decides how Textual styles it: the classes here and on the
        screen (a layout's breakpoint), the theme."""
        app = self.app
        return (frozenset(self.classes), frozenset(self.screen.classes), app.theme, app.ansi_color)

    def _finished_key(self, y: int) -> tuple[object, ...]:
        """What a finished row shows: its drawing (or its border's label), its place and the widget's size."""
        height = self._size.height
        gutter = self.styles.gutter
        index = y - gutter.top
        if 0 <= index and y < height - gutter.bottom:
            rows = self._rows
            return (self._size, y, tuple(rows[index]) if index < len(rows) else None)
        shown = self.__dict__.get("_labels_shown", {})
        label = shown.get("_border_title") if y == 0 else shown.get("_border_subtitle") if y == height - 1 else None
        return (self._size, y, "edge", label)

    def render_line(self, y: int) -> Strip:
        key = self._size
        if self._lines is None or key != self._drawn_for:
            # Resized or restyled: Textual repaints the whole widget, so every row is drawn again.
            self._lines, self._drawn_for = self._build(), key
            self.restyled()
        lines = self._lines
        if 0 <= y < len(lines):
            line = lines[y]
            if line is None:
                line = lines[y] = self._strip(self._rows[y], self.content_size.width)
            return line
        return Strip.blank(self.content_size.width, self.visual_style.rich_style)

    # ------------------------------------------------------------ borders

    def set_border_label(
        self, *, title: str | None = None, subtitle: str | None = None, subtitle_style: Style | None = None
    ) -> None:
        """Change the border's title (top row) or subtitle (bottom row), repainting that row alone.

        Labels here are plain text (no markup to parse each battle), the subtitle
        optionally in one style; an unchanged label costs a comparison.
        """
        for label, style, attribute, y in (
            (title, None, "_border_title", 0),
            (subtitle, subtitle_style, "_border_subtitle", -1),
        ):
            if label is None:
                continue
            shown = self.__dict__.setdefault("_labels_shown", {})
            if shown.get(attribute) == (label, style):
                continue
            shown[attribute] = (label, style)
            # What Textual's title setters store, without their repaint of the whole widget.
            value = Content(label) if style is None else Content.from_rich_text(Text(label, style=style))
            setattr(self, attribute, value)
            height = self.outer_size.height
            if self.is_mounted and height > 0:
                offset = self.content_offset
                self.refresh(Region(-offset.x, (height - 1 if y < 0 else y) - offset.y, self.outer_size.width, 1))
            else:
                self.refresh()
