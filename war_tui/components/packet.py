"""A player's packet: name, card count, and a stack of card backs as thick as the packet."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.geometry import Region
from textual.reactive import reactive
from textual.widget import Widget

from .kept_render import KeptRender
from .styled import CachedComponentStyles
from ..messages import BattleView, DealView, EndView
from ..presentation import CARD_HEIGHT, CARD_WIDTH, Canvas, Glyphs, card_back, plural, stack_edges
from ..rules import Side
from .drawing import canvas_text


class Packet(KeptRender, CachedComponentStyles, Widget):
    """The stack is the top card's back with one visible edge per few cards behind it."""

    COMPONENT_CLASSES = {"packet--back", "packet--edge", "packet--empty", "packet--won"}

    # Not repainted as a whole on change: most battles change only the subtitle (see ``_follow``).
    count: reactive[int] = reactive(0, repaint=False)
    total: reactive[int] = reactive(52, repaint=False)
    won: reactive[int] = reactive(0, repaint=False)  # cards taken in the battle on show (0: did not win it)

    def __init__(self, side: Side, name: str, glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"board packet {side.value}")
        self.side = side
        self.player = name
        self.glyphs = glyphs
        self.border_title = name
        self._shown_subtitle: tuple[str, Style | None] | None = None

    # -- fed by the app
    def show_deal(self, deal: DealView) -> None:
        self.total = deal.total
        self.count = deal.counts[self.side.index]
        self.won = 0

    def show_battle(self, view: BattleView) -> None:
        self.count = view.counts[self.side.index]
        self.won = view.taken if view.winner is self.side else 0

    def show_end(self, end: EndView) -> None:
        self.count = end.counts[self.side.index]

    # -- reactions
    def watch_won(self, won: int) -> None:
        self._follow()

    def watch_count(self, count: int) -> None:
        self._follow()

    def watch_total(self, total: int) -> None:
        self._follow()

    def _follow(self) -> None:
        """Repaint the whole packet only when its stack looks different; otherwise just the subtitle's row."""
        self._subtitle()
        if self._kept_key is None or self._kept_key[0] != self.render_key():
            self.refresh()

    def on_resize(self) -> None:
        self._subtitle()

    def _subtitle(self) -> None:
        """The winner of the battle on show is marked by its subtitle alone ("+2 → 27 cards", bold, in colour).

        Only the subtitle changes, not the border nor any class: a battle rewrites a
        dozen cells instead of both packets' borders, and restyles nothing. Set only
        when its text or style changed (``render`` calls it too, to follow a theme change).
        """
        text = plural(self.count, "card")
        style: Style | None = None
        if self.won:
            text = f"+{self.won} {self.glyphs.arrow} {text}"
            if len(text) > self.size.width - 3:
                text = f"+{self.won} {self.glyphs.arrow} {self.count}"
            try:
                style = self.component_style("packet--won", partial=True)
            except KeyError:  # styles not applied yet (before mount): render() comes back to it
                style = None
        if (text, style) == self._shown_subtitle:
            return
        self._shown_subtitle = (text, style)
        subtitle = text if style is None else Text(text, style=style)
        height = self.outer_size.height
        if not self.is_mounted or height <= 0:
            self.border_subtitle = subtitle
            return
        # What the border_subtitle setter does, but with the bottom row alone marked for repaint
        # (the setter repaints the whole widget).
        content = Content.from_rich_text(subtitle) if isinstance(subtitle, Text) else subtitle
        self._border_subtitle = self.render_str(content).expand_tabs(4).split()[0]
        offset = self.content_offset
        self.refresh(Region(-offset.x, height - 1 - offset.y, self.outer_size.width, 1))

    def render_key(self) -> tuple[object, ...]:
        """What the drawing shows: nothing but how many edges the stack has (or that it is empty)."""
        width, height = self.content_size
        if self.count == 0:
            return (self.glyphs, 0)
        if height < CARD_HEIGHT:
            return (self.glyphs, "compact", stack_edges(self.count, self.total, max(0, width - 1)))
        return (self.glyphs, "full", stack_edges(self.count, self.total, max(0, width - CARD_WIDTH)))

    def render(self) -> Text:
        self._subtitle()
        width, height = self.content_size
        canvas = Canvas(width, height)
        if height <= 0 or width <= 0:
            return Text("")
        if self.count == 0:
            canvas.text(0, 0, "no cards left"[:width], "packet--empty")
        elif height < CARD_HEIGHT:
            # Compact: the stack seen from the side, one edge per few cards.
            edges = stack_edges(self.count, self.total, max(0, width - 1)) + 1
            mark = self.glyphs.frame[5]
            canvas.text(0, 0, mark * edges, "packet--back")
        else:
            edges = stack_edges(self.count, self.total, max(0, width - CARD_WIDTH))
            back = card_back(self.glyphs)
            for x in range(edges + 1):
                canvas.paint(x, 0, back, "packet--edge" if x < edges else "packet--back")
        return canvas_text(canvas, self.component_style)
