"""A player's packet: name, card count, and a stack of card backs as thick as the packet."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .styled import CachedComponentStyles
from ..messages import BattleView, DealView, EndView
from ..presentation import CARD_HEIGHT, CARD_WIDTH, Canvas, Glyphs, card_back, plural, stack_edges
from ..rules import Side
from .drawing import canvas_text


class Packet(CachedComponentStyles, Widget):
    """The stack is the top card's back with one visible edge per few cards behind it."""

    COMPONENT_CLASSES = {"packet--back", "packet--edge", "packet--empty", "packet--won"}

    count: reactive[int] = reactive(0)
    total: reactive[int] = reactive(52)
    won: reactive[int] = reactive(0)  # cards taken in the battle on show (0: did not win it)

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
        self._subtitle()

    def watch_count(self, count: int) -> None:
        self._subtitle()

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
        self.border_subtitle = text if style is None else Text(text, style=style)

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
