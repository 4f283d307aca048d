"""The battle log's scrollbar, repainted only when its thumb really moves.

Textual repaints a scrollbar whenever its position changes, and the log's
position changes with every battle while it follows its newest line; with a
thousand lines kept, the thumb is one cell tall and moves one cell in about
ninety battles. So the three values that place the thumb don't repaint by
themselves: each change works out which eighths of a cell the thumb covers
(as Textual's ``ScrollBarRender.render_bar`` does) and repaints only if that
differs from what is drawn.
"""

from __future__ import annotations

from math import ceil

from textual.reactive import Reactive
from textual.scrollbar import ScrollBar


class LogScrollBar(ScrollBar):
    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)

    _drawn_thumb: tuple[int, ...] | None = None

    def thumb(self) -> tuple[int, ...]:
        """Where the thumb is drawn: (track length, first eighth, last eighth), or the track alone."""
        size = self.size.height if self.vertical else self.size.width
        virtual_size = ceil(self.window_virtual_size)
        window_size = ceil(self.window_size if self.window_size < self.window_virtual_size else 0)
        if not (window_size and size and virtual_size and size != virtual_size):
            return (size,)
        eighths = len(self.renderer.VERTICAL_BARS if self.vertical else self.renderer.HORIZONTAL_BARS)
        thumb_size = max(1, window_size / (virtual_size / size))
        position = (size - thumb_size) * (self.position / (virtual_size - window_size))
        start = int(position * eighths)
        return (size, start, start + ceil(thumb_size * eighths))

    def _follow(self) -> None:
        thumb = self.thumb()
        if thumb != self._drawn_thumb:
            self._drawn_thumb = thumb
            self.refresh()

    def watch_window_virtual_size(self) -> None:
        self._follow()

    def watch_window_size(self) -> None:
        self._follow()

    def watch_position(self) -> None:
        self._follow()

    def on_resize(self) -> None:
        self._drawn_thumb = None  # Textual repaints it whole anyway
