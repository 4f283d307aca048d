"""A player's packet: name, card count, and a stack of card backs as thick as the packet."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from textual.reactive import var

from .click_to_flip import ClickToFlip
from .line_widget import LineWidget, Row
from ..views import BattleView, DealView, EndView
from ..presentation.canvas import Canvas
from ..presentation.cards_art import BIG_CARD_HEIGHT, BIG_CARD_WIDTH, CARD_HEIGHT, big_card_back, card_art_size, card_back
from ..presentation.charts import stack_edges
from ..presentation.glyphs import Glyphs
from ..presentation.words import plural
from ..rules import Side


class Packet(ClickToFlip, LineWidget):
    """The stack is the top card's back with one visible edge per few cards behind it.

    Most battles change the count, not the look of the stack: then only the
    subtitle's row (the border's bottom) is repainted.
    """

    COMPONENT_CLASSES = {"packet--back", "packet--edge", "packet--empty", "packet--won"}

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)
    result: var[EndView | None] = var(None)

    def __init__(self, side: Side, name: str, glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"packet {side.value}")
        self.side = side
        self.player = name
        self.glyphs = glyphs
        self.count = 0
        self.total = 52
        self.won = 0  # cards taken in the battle on show (0: did not win it)
        self.border_title = name
        self._drawn_stack: tuple[object, ...] | None = None
        self._label: tuple[str, Style | None] | None = None

    def watch_deal(self, deal: DealView | None) -> None:
        if deal is not None:
            self.total = deal.total
            self._show(deal.counts[self.side.index], 0)

    def watch_battle(self, view: BattleView | None) -> None:
        if view is not None:
            self._show(view.counts[self.side.index], view.taken if view.winner is self.side else 0)

    def watch_result(self, end: EndView | None) -> None:
        if end is not None:
            self._show(end.counts[self.side.index], self.won)

    def _show(self, count: int, won: int) -> None:
        self.count, self.won = count, won
        self._subtitle()
        key = self.stack_key()
        if key != self._drawn_stack:
            self._drawn_stack = key
            self.redraw()

    def on_resize(self) -> None:
        self._subtitle()

    def restyled(self) -> None:
        # Its colour comes from the theme, its form from the width. This can run while Textual is
        # painting the widget, past its subtitle row: a label set then would be marked for repaint
        # and unmarked in the same pass, and the old one would stay on screen. So: just after.
        self.call_later(self._subtitle)

    def _subtitle(self) -> None:
        """The winner of the battle on show is marked by its subtitle alone ("+2 → 27 cards", bold, in colour).

        Only the subtitle changes, not the border nor any class: a battle restyles nothing.
        """
        text = plural(self.count, "card")
        style: Style | None = None
        if self.won:
            text = f"+{self.won} {self.glyphs.arrow} {text}"
            if len(text) > self.size.width - 3:
                text = f"+{self.won} {self.glyphs.arrow} {self.count}"
            if self.is_mounted:  # before mount there are no styles: on_resize comes back to it
                style = self.get_component_rich_style("packet--won", partial=True)
        label = (text, style)
        if label != self._label:  # a new subtitle repaints the whole packet: only when it changes
            self._label = label
            self.border_subtitle = Text(text, style=style or "")

    def stack_key(self) -> tuple[object, ...]:
        """What the drawing shows: nothing but how many edges the stack has (or that it is empty)."""
        width, height = self.content_size
        if self.count == 0:
            return (self.glyphs, 0)
        if height < CARD_HEIGHT:
            return (self.glyphs, "compact", stack_edges(self.count, self.total, max(0, width - 1)))
        big = self._big(width, height)
        card_width, card_height = card_art_size(big)
        return (self.glyphs, big, (height - card_height) // 2, stack_edges(self.count, self.total, max(0, width - card_width)))

    @staticmethod
    def _big(width: int, height: int) -> bool:
        """Big cards when the packet has room for one and a few edges behind it (a big screen)."""
        return height >= BIG_CARD_HEIGHT and width >= BIG_CARD_WIDTH + 4

    def draw(self, width: int, height: int) -> list[Row]:
        self._drawn_stack = self.stack_key()
        canvas = Canvas(width, height)
        if height <= 0 or width <= 0:
            return []
        if self.count == 0:
            canvas.text(0, 0, "no cards left"[:width], "packet--empty")
        elif height < CARD_HEIGHT:
            # Compact: the stack seen from the side, one edge per few cards.
            edges = stack_edges(self.count, self.total, max(0, width - 1)) + 1
            mark = self.glyphs.frame[5]
            canvas.text(0, 0, mark * edges, "packet--back")
        else:
            big = self._big(width, height)
            card_width, card_height = card_art_size(big)
            edges = stack_edges(self.count, self.total, max(0, width - card_width))
            back = big_card_back(self.glyphs) if big else card_back(self.glyphs)
            top = (height - card_height) // 2  # level with its player's row of cards in the pile
            for x in range(edges + 1):
                canvas.paint(x, top, back, "packet--edge" if x < edges else "packet--back")
        return canvas.runs()
