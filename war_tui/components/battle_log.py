"""The battle log: one line per battle, newest last, bounded so a days-long screensaver stays flat."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.widgets import RichLog

from textual.geometry import Size
from textual.reactive import Reactive

from ..messages import BattleView, DealView, EndView
from ..presentation import Glyphs, log_battle_line, plural, reason_text, result_title
from .drawing import pieces_text
from .styled import CachedComponentStyles

MAX_LINES = 1000


class BattleLog(CachedComponentStyles, RichLog, can_focus=False):
    """Keys belong to the game, so the log never takes focus; it scrolls itself."""

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

    def on_mount(self) -> None:
        # Anchored, the log stays at its end when a resize changes its height; a mouse wheel
        # scrolling up releases it (the next battle brings it back), reaching the end again re-anchors.
        self.anchor()

    def _style(self, name: str) -> Style:
        return self.component_style(f"log--{name}")

    def _append(self, line: Text) -> None:
        """Write a line and follow it at once: one repaint per battle, not one for the line and one for the scroll."""
        scrollbars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self.write(line, scroll_end=False)
        self._refresh_scrollbars()
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != scrollbars:
            self.refresh(layout=True)  # a scrollbar appears or goes: it takes a column
        elif self._size_known:
            self._scroll_update(self.virtual_size)
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def show_deal(self, deal: DealView) -> None:
        seed = f"seed {deal.seed}" if deal.seed is not None else "hand-made deal"
        line = f"Game {deal.number} {self.glyphs.dot} {seed} {self.glyphs.dot} {deal.rules.describe()}"
        self._append(Text(line, style=self._style("deal"), no_wrap=True))

    def show_battle(self, view: BattleView) -> None:
        if view.passed:
            line = f"{self.glyphs.ellipsis:>5}  {plural(len(view.passed), 'battle')} at max speed"
            self.write(Text(line, style=self._style("dim"), no_wrap=True), scroll_end=False)
        winner = None if view.winner is None else self.names[view.winner.index]
        c1, c2 = view.deciding
        tie = (view.p1_laid[0], view.p2_laid[0]) if view.wars else None
        pieces = log_battle_line(view.battle, c1, c2, winner, view.taken, view.wars, view.counts, self.glyphs, tie)
        self._append(pieces_text(pieces, self._style))

    def show_end(self, end: EndView) -> None:
        title = result_title(end.result, self.names)
        line = (
            f"{title}: {reason_text(end.reason, end.result, self.names)}, after {plural(end.battles, 'battle')}"
            f" and {plural(end.wars, 'war')}"
        )
        self._append(Text(line, style=self._style("end"), no_wrap=True))
