"""Widgets that hand the compositor their last rows again when nothing in them changed.

For every frame, Textual asks each widget under the frame's changed area for
its rows, and the area spans most of the board: the pile, the packets and the
log change with every battle. So the screen, the containers, the footer and any
widget the battle left alone were rendered again each time, row by row through
their styles, to give the rows they gave last time: about a tenth of a battle's
drawing. Here a widget with no row marked for repaint returns the very rows it
returned before, for the same part of itself.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget


class KeepsCleanRows:
    """Mixed into a widget (before its Textual base): ``render_lines`` skips the work when no row is marked
    for repaint.

    A plain mixin, not a Widget, so the widget keeps its base's CSS type (``Screen``, ``Footer``).

    Anything that changes a widget's looks marks rows for repaint (a refresh, new styles,
    a theme, a resize, a hover), or empties Textual's cache of its styled rows (so the
    count of rows in it differs): either way the rows are made again.
    """

    _kept: tuple[object, list[Strip]] | None = None

    def render_lines(self: Widget, crop: Region) -> list[Strip]:  # type: ignore[misc]
        return self._kept_or_made(crop, super().render_lines)  # type: ignore[misc, attr-defined]

    def _kept_or_made(self: Widget, crop: Region, make: Callable[[Region], list[Strip]]) -> list[Strip]:  # type: ignore[misc]
        """The rows handed over last time if nothing changed since, else ``make(crop)``."""
        cache = self._styles_cache
        key = (crop, cache._width, len(cache._cache), tuple(self.get_line_filters()))
        kept = self._kept
        if kept is not None and not cache._dirty_lines and kept[0] == key:
            return kept[1]
        lines = make(crop)
        self._kept = ((crop, cache._width, len(cache._cache), key[3]), lines)  # type: ignore[attr-defined]
        return lines


class BoardScreen(KeepsCleanRows, Screen):
    """The game's own screen: its background is behind everything and never changes in a battle."""


class BoardRow(KeepsCleanRows, Horizontal):
    """A Horizontal whose own (covered) rows are not made again every frame."""


class BoardColumn(KeepsCleanRows, Vertical):
    """A Vertical whose own (covered) rows are not made again every frame."""
