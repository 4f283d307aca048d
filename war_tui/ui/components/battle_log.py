"""The battle log: one line per battle, newest last, bounded so a days-long screensaver stays flat.

A Line API widget (``ScrollView`` with ``render_line``), as Textual's own ``Log``:
a line is kept as (text, style name) pieces and becomes a Strip the first time it
is shown at a width; finished Strips are kept in an LRU cache by line and width,
so a log scrolling a line per battle makes one new Strip per battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.reactive import Reactive, var
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from ...presentation.glyphs import Glyphs
from ...presentation.log_lines import log_battle_line, log_gutter, log_passed_line
from ...presentation.views import BattleView, DealView, EndView, LogNote
from ...presentation.words import plural, reason_text, result_title
from ..text import plain

MAX_LINES = 1000
LINES_KEPT = 256
"""Finished lines kept (by line and width): more than a tall terminal shows, and a page or two to scroll back."""
ROWS_KEPT = 128
"""Styled rows kept (a line with the log's border and padding, by line and width): more than a tall terminal shows."""

Pieces = Sequence[tuple[str, str]]
"""A line as (text, style name) runs: names from ``log--*``, "" for the log's own style."""

LogEntry = DealView | BattleView | EndView | LogNote | int
"""What one line of the log tells: a deal, a battle, a result, a table's note, or how many battles went unshown."""

SCROLL_KEYS = {
    "up": "scroll_up", "down": "scroll_down", "page_up": "scroll_page_up",
    "page_down": "scroll_page_down", "home": "scroll_home", "end": "scroll_end",
}
"""How the app's log keys (``action_scroll_log``) move the log: Textual's own scroll methods."""


class BattleLog(ScrollView, can_focus=False):
    """Keys belong to the game, so the log never takes focus: the app's keys scroll it.

    It follows the newest line while it shows the end; scrolled back (keys, wheel or
    scrollbar) it stays on what the player reads, and its subtitle says how many newer
    lines are below, until it is scrolled to the end again (End).
    """

    COMPONENT_CLASSES = {"log--dim", "log--red", "log--diamond", "log--club", "log--war", "log--deal", "log--end", "log--note"}

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
    """Each line written grows the log's virtual height: on a Widget that asks for a layout of the whole
    screen (every widget arranged and painted again) per battle. The log's scrollbar is always shown
    (``overflow-y: scroll``), so a new line changes nothing in the layout: ``_append`` brings the
    scrollbar's size up to date and repaints what moved."""

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)
    result: var[EndView | None] = var(None)
    note: var[LogNote | None] = var(None)
    """A shared table's notice for the log (someone sat down or left); None elsewhere."""

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names: a table's seats change them, and every line naming a player is written again."""

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(BattleLog.names, (names[0], names[1]))
        self.glyphs = glyphs
        self.border_title = "Battle log"
        self._entries: list[LogEntry] = []
        """What each line tells, kept beside it so new names can write it again."""
        self._lines: list[Pieces] = []
        self._first = 0
        """The number of ``_lines[0]`` counted from the log's first line: lines dropped off the top shift it."""
        self._widest = 0
        self._finished: LRUCache[tuple[int, int], Strip] = LRUCache(LINES_KEPT)
        self._styled: LRUCache[tuple[object, ...], Strip] = LRUCache(ROWS_KEPT)
        self._styles: dict[str, Style] | None = None
        self._top_line_shown = 0
        self._newer_shown = 0
        self._thumb_shown: tuple[object, ...] | None = None

    @property
    def lines(self) -> list[str]:
        """The log's lines as plain text, oldest first."""
        return ["".join(text for text, _ in pieces) for pieces in self._lines]

    def on_mount(self) -> None:
        # Textual's anchor: the log keeps to its end through resizes, until scrolled back.
        self.anchor()

    # ------------------------------------------------------------ the game

    def watch_deal(self, deal: DealView | None) -> None:
        if deal is not None:
            self._append(deal)

    def watch_battle(self, view: BattleView | None) -> None:
        if view is None:
            return
        if view.unshown:  # a table's screen catching up: every battle it did not draw keeps its line
            self._append(*view.unshown, replace(view, passed=(), unshown=()))
        elif view.passed:
            # The line needs no unshown battle's counts (thousands a frame at "max"): dropped.
            self._append(len(view.passed), replace(view, passed=()))
        else:
            self._append(view)

    def watch_result(self, end: EndView | None) -> None:
        if end is not None:
            self._append(end)

    def watch_note(self, note: LogNote | None) -> None:
        if note is not None:
            self._append(note)

    def watch_names(self) -> None:
        """New names: every line is written again from what it tells (a thousand at most)."""
        self._lines = [self._pieces(entry) for entry in self._entries]
        self._widest = max((sum(cell_len(text) for text, _ in pieces) for pieces in self._lines), default=0)
        self._finished.clear()
        self._styled.clear()
        self.refresh()

    def clear(self) -> None:
        """Start again empty (a table's screen that fell behind replays the table's log)."""
        self._entries.clear()
        self._lines.clear()
        self._first = self._widest = 0
        self._finished.clear()
        self._styled.clear()
        self.virtual_size = Size(0, 0)
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()
        self._follow_scrollbar()
        self._say_newer()

    def _pieces(self, entry: LogEntry) -> Pieces:
        """One line, from what it tells."""
        dot, names = self.glyphs.dot, self.names
        if isinstance(entry, int):
            return log_passed_line(entry, self.glyphs)
        if isinstance(entry, DealView):
            seed = f"seed {entry.seed}" if entry.seed is not None else "hand-made deal"
            return [(f"Game {entry.number} {dot} {seed} {dot} {entry.rules.describe()}", "deal")]
        if isinstance(entry, BattleView):
            winner = None if entry.winner is None else names[entry.winner.index]
            c1, c2 = entry.deciding
            tie = (entry.p1_laid[0], entry.p2_laid[0]) if entry.wars else None
            loser = None if entry.winner is None else names[entry.winner.other.index]
            return log_battle_line(
                entry.battle, c1, c2, winner, entry.taken, entry.wars, entry.counts, self.glyphs, tie, loser
            )
        if isinstance(entry, EndView):
            title = result_title(entry.result, names)
            line = (
                f"{title}: {reason_text(entry.reason, entry.result, names)}, after {plural(entry.battles, 'battle')}"
                f" and {plural(entry.wars, 'war')}"
            )
            return [(line, "end")]
        return [(log_gutter(""), "dim"), (entry.text, "note")]

    # ------------------------------------------------------------ lines in

    def _append(self, *entries: LogEntry) -> None:
        """Add lines; follow them if the log showed its end, else keep the lines on show where they are."""
        following = self.is_vertical_scroll_end
        kept = self._lines
        for entry in entries:
            pieces = self._pieces(entry)
            kept.append(pieces)
            self._widest = max(self._widest, sum(cell_len(text) for text, _ in pieces))
        self._entries.extend(entries)
        dropped = len(kept) - MAX_LINES
        if dropped > 0:
            del kept[:dropped]
            del self._entries[:dropped]
            self._first += dropped
        self.virtual_size = Size(self._widest, len(kept))
        if following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        elif dropped > 0:
            self.scroll_to(y=max(0, self.scroll_y - dropped), animate=False, immediate=True)
        self.refresh(self.size.region)  # every line on show may have moved, though the scroll position did not
        self._follow_scrollbar()
        self._say_newer()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """``ScrollView``'s watcher, but the scrollbar is repainted only when its thumb moves."""
        if round(old_value) != round(new_value):
            self.refresh(self.size.region)
        self._follow_scrollbar()
        self._say_newer()

    def _follow_scrollbar(self) -> None:
        """Bring the scrollbar's size and position up to date, and repaint it only if its thumb moved.

        The log scrolls with every battle and grows by a line, and Textual repaints the
        whole scrollbar for either; with a thousand lines the thumb moves a cell every
        ninety battles or so. The thumb is worked out with the bar's own renderer
        (``render_bar``), so the comparison follows whatever Textual draws.
        """
        if not self.show_vertical_scrollbar:
            return
        bar = self.vertical_scrollbar
        bar.set_reactive(ScrollBar.window_virtual_size, self.virtual_size.height)
        bar.set_reactive(ScrollBar.position, bar.validate_position(self.scroll_y))
        height = bar.size.height
        thumb = (height, bar.window_size, tuple(bar.renderer.render_bar(
            size=height, virtual_size=bar.window_virtual_size, window_size=bar.window_size,
            position=bar.position, thickness=max(1, bar.size.width), vertical=True,
        ).segments))
        if thumb != self._thumb_shown:
            self._thumb_shown = thumb
            bar.refresh()

    def _say_newer(self) -> None:
        """Scrolled back, the border's subtitle says how many newer lines are below."""
        newer = max(0, round(self.max_scroll_y - self.scroll_y))
        if newer != self._newer_shown:
            self._newer_shown = newer
            dot = self.glyphs.dot
            self.border_subtitle = plain(f"{plural(newer, 'newer line')} below {dot} End") if newer else None

    def scroll_by_key(self, how: str) -> None:
        """One of ``SCROLL_KEYS``: the log moves at once (no animation: it is redrawn every battle anyway)."""
        getattr(self, SCROLL_KEYS[how])(animate=False)

    # ------------------------------------------------------------ lines out

    def take_scroll(self) -> tuple[int, int, int] | None:
        """The screen rows whose lines moved up together since the last call, and by how many: (top, bottom, n).

        Asked once per frame by the fast path (``war_tui.ui.fastpath``): the terminal can
        scroll those rows instead of being sent them again.
        """
        top_line = self._first + self.scroll_offset.y
        moved, self._top_line_shown = top_line - self._top_line_shown, top_line
        if moved <= 0 or not self.is_mounted or not self.display or self.screen is not self.app.screen:
            return None
        region = self.content_region
        if moved >= region.height:
            return None
        return region.y, region.bottom - 1, moved

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget_styles()

    def refresh(self, *regions: Region, **kwargs: bool) -> BattleLog:
        """A plain repaint of the whole widget (new component styles, say) paints every line again."""
        if not regions and not kwargs.get("layout"):
            self._forget_styles()
        super().refresh(*regions, **kwargs)
        return self

    def _forget_styles(self) -> None:
        self._styles = None
        for cache in (getattr(self, "_finished", None), getattr(self, "_styled", None)):  # None while Textual sets up
            if cache is not None:
                cache.clear()

    def _style(self, name: str) -> Style:
        """The log's own style ("") or a component style, looked up once per look of the log."""
        styles = self._styles
        if styles is None:
            styles = self._styles = {"": self.rich_style}
        style = styles.get(name)
        if style is None:
            style = styles[name] = self.get_component_rich_style(f"log--{name}")
        return style

    def render_lines(self, crop: Region) -> list[Strip]:
        """The log's rows as the screen shows them: a line's styled row is kept while it is on show.

        Following its newest line the log moves every line up a row each battle, and
        Textual styles each row again (border, padding, filters), though a line looks
        the same wherever it sits. Here the styled row is kept by line and width, and
        only a line new to the view is styled by Textual. The border's rows are kept
        by their place, the width and the border's title and subtitle.
        """
        if self.text_selection is not None:
            return super().render_lines(crop)
        width, height = self.outer_size
        gutter = self.styles.gutter
        first, last = gutter.top, height - gutter.bottom
        scroll_y = self.scroll_offset.y
        styled = self._styled
        rows: list[Strip] = []
        for y in crop.line_range:
            if not first <= y < last:  # the border's row, with its title or its subtitle
                key: tuple[object, ...] = (y - height, width, self.border_title, self.border_subtitle)
            else:
                index = scroll_y + y - first
                key = (self._first + index if 0 <= index < len(self._lines) else -1, width)
            row = styled.get(key)
            if row is None:
                row = styled[key] = super().render_lines(Region(0, y, width, 1))[0]
            rows.append(row if crop.width == width else row.crop(crop.x, crop.right))
        return rows

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self._lines):
            return Strip.blank(width, self._style(""))
        key = (self._first + index, width)
        strip = self._finished.get(key)
        if strip is None:
            strip = self._finished[key] = self._finish(self._lines[index], width)
        return strip

    def _finish(self, pieces: Pieces, width: int) -> Strip:
        """A line cut to the view: one longer than the view ends in an ellipsis.

        Lines are kept whole (a wider terminal shows them whole again), and cut here.
        """
        base = self._style("")
        line = Strip([Segment(text, self._style(name) if name else None) for text, name in pieces if text])
        if line.cell_length > width > 0:
            mark = self.glyphs.ellipsis
            cut = line.crop(0, max(0, width - len(mark)))
            segments = list(cut)
            style = segments[-1].style if segments else None
            line = Strip.join([cut, Strip([Segment(mark[:width], style)])])
        return line.crop_extend(0, width, base).apply_style(base)
