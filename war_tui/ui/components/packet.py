"""A player's packet: name, card count, and a stack of card backs as thick as the packet."""

from __future__ import annotations

from textual.reactive import var

from ...core.rules import Side
from ...presentation.canvas import Canvas, framed
from ...presentation.cards_art import (
    BIG_CARD_HEIGHT,
    BIG_CARD_WIDTH,
    CARD_HEIGHT,
    big_card_back,
    card_art_size,
    card_back,
)
from ...presentation.cells import cell_width, fit_before
from ...presentation.charts import stack_edges
from ...presentation.glyphs import Glyphs
from ...presentation.views import BattleView, DealView, EndView
from ...presentation.words import plural
from .click_to_flip import ClickToFlip
from .line_widget import PADDING, LineWidget, Row


class Packet(ClickToFlip, LineWidget):
    """The stack is the top card's back with one visible edge per few cards behind it.

    The packet draws its own frame (the player's name on top, the count below), as
    Textual draws a round border with labels: most battles change the count, not
    the stack, and then only the frame's bottom row is repainted (a border label
    set through Textual repaints the whole widget).
    """

    COMPONENT_CLASSES = {
        "packet--frame", "packet--title", "packet--count", "packet--back", "packet--edge", "packet--empty", "packet--won",
        "packet--frame-yours", "packet--title-yours",
    }

    deal: var[DealView | None] = var(None)
    battle: var[BattleView | None] = var(None)
    result: var[EndView | None] = var(None)

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names (the frame's title is this side's): a table's seats change them."""

    yours: var[bool] = var(False, init=False)
    """This screen's player's own packet at a table: its title says so, in a colour of its own."""

    def __init__(self, side: Side, names: tuple[str, str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"packet {side.value}")
        self.side = side
        self.set_reactive(Packet.names, names)
        self.glyphs = glyphs
        self.count = 0
        self.total = 52
        self.won = 0  # what winning the battle on show added to the packet (0: did not win it)
        self._stack: tuple[tuple[object, ...], list[Row]] = ((), [])
        """The stack's rows and what they were drawn from: most battles change the count, not the stack."""

    def watch_yours(self) -> None:
        self.redraw()

    def watch_deal(self, deal: DealView | None) -> None:
        if deal is not None:
            self.total = deal.total
            self._show(deal.counts[self.side.index], 0)
            return
        self.count = self.won = 0
        self.redraw()  # no deal yet: neither a count nor "no cards left" (nothing is known)

    def watch_battle(self, view: BattleView | None) -> None:
        if view is not None:
            laid = len(view.p1_laid if self.side is Side.P1 else view.p2_laid)
            self._show(view.counts[self.side.index], view.taken - laid if view.winner is self.side else 0)

    def watch_result(self, end: EndView | None) -> None:
        if end is not None:
            self._show(end.counts[self.side.index], self.won)

    def watch_names(self, old: tuple[str, str], new: tuple[str, str]) -> None:
        if old[self.side.index] != new[self.side.index]:
            self.redraw()

    @property
    def player(self) -> str:
        return self.names[self.side.index]

    def _show(self, count: int, won: int) -> None:
        if (count, won) != (self.count, self.won):
            self.count, self.won = count, won
            self.redraw()

    @property
    def dealt(self) -> bool:
        """Whether there is a deal to show the count of (a table not heard from yet has none)."""
        return self.deal is not None

    @property
    def title(self) -> str:
        """The frame's top label: the player's name, and on their own screen "(you)", which a long name never cuts."""
        if not self.yours:
            return self.player
        room = self.size.width - 6  # the frame's room for a label (corners, edge, a space each side)
        return fit_before(self.player, " (you)", room, self.glyphs.ellipsis)

    @property
    def subtitle(self) -> str:
        """The frame's bottom label: the count; the winner of the battle on show gets the change, "26 → 27 (+1)",
        in the fullest form the frame has room for."""
        if not self.dealt:
            return ""
        if not self.won:
            return plural(self.count, "card")
        arrow, before, gain = self.glyphs.arrow, self.count - self.won, f"(+{self.won})"
        forms = (f"{before} {arrow} {self.count} {gain}", f"{self.count} {gain}")
        room = self.size.width - 6  # the frame's room for a label (corners, edge, a space each side)
        return next((form for form in forms if cell_width(form) <= room), str(self.count))

    def draw(self, width: int, height: int) -> list[Row]:
        rows = self._stack_rows(max(0, width - 3), max(0, height - 2)) if width > 2 else []
        drawn = framed(
            rows, width, height, self.glyphs.box, "packet--frame-yours" if self.yours else "packet--frame",
            (self.title, "packet--title-yours" if self.yours else "packet--title"),
            (self.subtitle, "packet--won" if self.won else "packet--count"),
            self.glyphs.ellipsis,
        )
        if self.won and height > 1:
            # As Textual's: the spaces around a styled label keep the subtitle's colour.
            drawn[-1] = [
                piece for text, name in drawn[-1]
                for piece in ([(" ", "packet--count"), (text[1:-1], name), (" ", "packet--count")]
                              if name == "packet--won" else [(text, name)])
            ]
        return drawn

    def _stack_rows(self, width: int, height: int) -> list[Row]:
        """The rows inside the frame (a column of padding, then the stack), drawn again only when the stack changes."""
        shape = (width, height, self._stack_shape(width, height))
        if shape != self._stack[0]:
            canvas = Canvas(width, height)
            self._draw_stack(canvas, shape[2])
            self._stack = (shape, [[(" ", PADDING), *row] for row in canvas.runs()])
        return self._stack[1]

    def _stack_shape(self, width: int, height: int) -> tuple[str, int]:
        """What the stack looks like at this size: nothing, "no cards left", or so many edges (compact or cards)."""
        if height <= 0 or width <= 0 or not self.dealt:
            return ("none", 0)
        if self.count == 0:
            return ("empty", 0)
        if height < CARD_HEIGHT:
            # Compact: the stack seen from the side, one edge per few cards.
            return ("compact", stack_edges(self.count, self.total, max(0, width - 1)) + 1)
        card_width, _ = card_art_size(self._big(width, height))
        return ("cards", stack_edges(self.count, self.total, max(0, width - card_width)))

    def _draw_stack(self, canvas: Canvas, shape: tuple[str, int]) -> None:
        width, height = canvas.width, canvas.height
        kind, edges = shape
        if kind == "empty":
            canvas.text(0, 0, "no cards left"[:width], "packet--empty")
        elif kind == "compact":
            canvas.text(0, 0, self.glyphs.frame[5] * edges, "packet--back")
        elif kind == "cards":
            big = self._big(width, height)
            _, card_height = card_art_size(big)
            back = big_card_back(self.glyphs) if big else card_back(self.glyphs)
            top = (height - card_height) // 2  # level with its player's row of cards in the pile
            for x in range(edges + 1):
                canvas.paint(x, top, back, "packet--edge" if x < edges else "packet--back")

    @staticmethod
    def _big(width: int, height: int) -> bool:
        """Big cards when the packet has room for one and a few edges behind it (a big screen)."""
        return height >= BIG_CARD_HEIGHT and width >= BIG_CARD_WIDTH + 4
