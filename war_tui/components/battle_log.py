"""The battle log: one line per battle, newest last, bounded so a days-long screensaver stays flat."""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widgets import RichLog

from ..messages import BattleView, DealView, EndView
from ..presentation.glyphs import Glyphs
from ..presentation.log_lines import log_battle_line, log_passed_line
from ..presentation.words import plural, reason_text, result_title
from .drawing import pieces_text
from .log_scrollbar import LogScrollBar
from .refresh_batch import BatchedRefresh
from .styled import CachedComponentStyles

MAX_LINES = 1000
ROWS_KEPT = 128
"""Finished rows kept by the log (more than a tall terminal shows); a row not kept is painted again."""

Pieces = Sequence[tuple[str, str]]
"""A line as (text, style name) runs: names from ``log--*``, "" for the log's own style."""


class BattleLog(CachedComponentStyles, BatchedRefresh, RichLog, can_focus=False):
    """Keys belong to the game, so the log never takes focus; it scrolls itself.

    Lines go in as Strips built straight from their pieces (RichLog's ``write``
    measures and renders each through a Rich console, a good part of a battle's
    CPU), and a line on screen keeps its finished row until it scrolls away.
    """

    COMPONENT_CLASSES = {"log--dim", "log--red", "log--war", "log--deal", "log--end"}

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """Each line written grows the log's virtual height. On a Widget that asks for a layout of the
    whole screen (every widget arranged again) per battle; here only when the scrollbar comes or
    goes, and otherwise the scrollbar and scroll limits are brought up to date in place."""

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(max_lines=MAX_LINES, min_width=20, wrap=False, markup=False, id=id, classes="board")
        self.names = tuple(names)
        self.glyphs = glyphs
        self.border_title = "Battle log"
        # Rows on show and a scroll's worth more; RichLog's own cache of 1,024 cut lines is left unused.
        self._painted: LRUCache[tuple[int, ...], Strip] = LRUCache(ROWS_KEPT)
        self._base_style: Style | None = None
        self._top_line_shown = 0

    def on_mount(self) -> None:
        # Anchored, the log stays at its end when a resize changes its height; a mouse wheel
        # scrolling up releases it (the next battle brings it back), reaching the end again re-anchors.
        self.anchor()

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """Textual's own, made as Textual makes it, but one that repaints only when its thumb moves."""
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = bar = LogScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    # ------------------------------------------------------------ lines in

    def _strip(self, pieces: Pieces) -> Strip:
        segments = [
            Segment(text, self.component_style(f"log--{name}") if name else None) for text, name in pieces if text
        ]
        strip = Strip(segments)
        return strip.extend_cell_length(self.min_width) if strip.cell_length < self.min_width else strip

    def _append(self, pieces: Pieces) -> None:
        """Add a line and follow it at once: one repaint per battle, not one for the line and one for the scroll."""
        if not self._size_known:
            self.write(pieces_text(pieces, lambda name: self.component_style(f"log--{name}")), scroll_end=True)
            return
        strip = self._strip(pieces)
        lines = self.lines
        lines.append(strip)
        if len(lines) > self.max_lines:  # type: ignore[operator]
            del lines[0]
            self._start_line += 1
            self.refresh(self.size.region)  # every line on show moved, even when the scroll position can't
        self._widest_line_width = max(self._widest_line_width, strip.cell_length)
        scrollbars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self.set_reactive(BattleLog.virtual_size, Size(self._widest_line_width, len(lines)))
        self._refresh_scrollbars()
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != scrollbars:
            self.refresh(layout=True)  # a scrollbar appears or goes: it takes a column
        else:
            self._follow_size()
        if not self.scroll_y < self.max_scroll_y:
            self.refresh(self.size.region)  # the line lands in view (the border keeps its rows)
        self._follow_end()
        bar = self._vertical_scrollbar
        if isinstance(bar, LogScrollBar) and self.show_vertical_scrollbar:
            bar.follow()  # drawn already if the scroll moved its thumb; otherwise now

    def _follow_end(self) -> None:
        """Show the newest line: ``scroll_end(immediate=True)`` without the callback it queues for a
        finished animation (a new closure per battle, whose parameters Textual inspects each time)."""
        if self._anchored and self._anchor_released:
            self._anchor_released = False  # the next battle brings a log scrolled back by hand to its end
        end = self.max_scroll_y
        if self.scroll_y != end:
            self.scroll_target_y = self.scroll_y = end

    def _follow_size(self) -> None:
        """The scrollbar's and the scroll limits' part of Textual's ``_scroll_update``, with no forced repaint."""
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            bar = self.vertical_scrollbar
            # Set quietly: the thumb is placed once, when the scroll that follows moves it too (``_append``).
            bar.set_reactive(LogScrollBar.window_virtual_size, self.virtual_size.height)
            bar.set_reactive(LogScrollBar.window_size, self.container_size.height - self.scrollbar_size_horizontal)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    # ------------------------------------------------------------ lines out

    def take_scroll(self) -> tuple[int, int, int] | None:
        """The screen rows whose lines moved up together since the last call, and by how many: (top, bottom, n).

        The app asks once per frame: the terminal can scroll those rows instead of being
        sent them again, and knowing where and how far saves searching the whole frame.
        """
        top_line = self._start_line + self.scroll_offset.y
        moved, self._top_line_shown = top_line - self._top_line_shown, top_line
        if moved <= 0 or not self.is_mounted or not self.display or self.screen is not self.app.screen:
            return None
        region = self.content_region
        if moved >= region.height:
            return None
        return region.y, region.bottom - 1, moved

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._painted.clear()
        self._base_style = None

    def render_lines(self, crop: Region) -> list[Strip]:
        """The log's rows as the screen shows them, each line's row painted once while it is on show.

        Following its newest line, the log scrolls with every battle, and Textual paints
        every row again (border, padding, styles and filters on each) though each line
        only moved up. A line looks the same wherever it sits, so its finished row is kept,
        by the line and the scroll across, and only a line new to the view is painted.
        The border's rows are kept too, until one is marked for repaint.
        """
        if self.text_selection is not None:
            return super().render_lines(crop)
        width, height = self.outer_size
        gutter = self.styles.gutter
        scroll_x, scroll_y = self.scroll_offset
        first, last = gutter.top, height - gutter.bottom
        painted = self._painted
        strips: list[Strip] = []
        dirty = self._styles_cache._dirty_lines
        for y in crop.line_range:
            if first <= y < last:
                index = scroll_y + y - first
                key: tuple[int, ...] = (
                    index + self._start_line, index < len(self.lines), scroll_x, width, height, self._widest_line_width
                )
            else:  # a border row: the same until it is marked for repaint (a new title, say)
                key = (-1, y, width, height)
                if y in dirty:
                    painted.discard(key)
            strip = painted.get(key)
            if strip is None:
                row = Region(0, y, width, 1)
                self._styles_cache.set_dirty(row)
                strip = painted[key] = super().render_lines(row)[0]
            strips.append(strip if crop.width == width else strip.crop(crop.x, crop.right))
        return strips

    def _base(self) -> Style:
        """The log's own style, worked out through every ancestor: once per restyle, not per line."""
        if self._base_style is None:
            self._base_style = self.rich_style
        return self._base_style

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        return self._render_line(scroll_y + y, scroll_x, self.scrollable_content_region.width).apply_style(self._base())

    def _render_line(self, y: int, scroll_x: int, width: int) -> Strip:
        """A line cut to the view; one longer than the view ends in an ellipsis, as RichLog's did.

        Lines are kept whole (a wider terminal shows them whole again), and cut here.
        """
        lines = self.lines
        base = self._base()
        if y >= len(lines):
            return Strip.blank(width, base)
        line = lines[y]
        if scroll_x == 0 and line.cell_length > width > 0:
            mark = self.glyphs.ellipsis
            cut = line.crop(0, max(0, width - len(mark)))
            style = cut._segments[-1].style if cut._segments else None
            return Strip.join([cut, Strip([Segment(mark[:width], style)])]).crop_extend(0, width, base)
        return line.crop_extend(scroll_x, scroll_x + width, base)

    # ------------------------------------------------------------ the game

    def show_deal(self, deal: DealView) -> None:
        seed = f"seed {deal.seed}" if deal.seed is not None else "hand-made deal"
        self._append([(f"Game {deal.number} {self.glyphs.dot} {seed} {self.glyphs.dot} {deal.rules.describe()}", "deal")])

    def show_battle(self, view: BattleView) -> None:
        if view.passed:
            self._append(log_passed_line(len(view.passed), self.glyphs))
        winner = None if view.winner is None else self.names[view.winner.index]
        c1, c2 = view.deciding
        tie = (view.p1_laid[0], view.p2_laid[0]) if view.wars else None
        loser = None if view.winner is None else self.names[view.winner.other.index]
        self._append(log_battle_line(view.battle, c1, c2, winner, view.taken, view.wars, view.counts, self.glyphs, tie, loser))

    def show_end(self, end: EndView) -> None:
        title = result_title(end.result, self.names)
        line = (
            f"{title}: {reason_text(end.reason, end.result, self.names)}, after {plural(end.battles, 'battle')}"
            f" and {plural(end.wars, 'war')}"
        )
        self._append([(line, "end")])
