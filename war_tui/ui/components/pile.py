"""The middle pile: the battle's cards as small framed cards, war cards face down, the outcome.

A war can be on the table a step at a time (``shown_steps``, stepped by the app):
the pile draws the cards laid so far and says what is happening, never the outcome
before the deciding cards are on show.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.reactive import var

from ...core.rules import Side
from ...presentation.canvas import Canvas, framed
from ...presentation.cards_art import (
    BIG_CARD_HEIGHT,
    BIG_CARD_WIDTH,
    CARD_HEIGHT,
    CARD_WIDTH,
    big_card_back,
    big_card_face,
    card_art_size,
    card_back,
    card_face,
    card_label,
    compact_row,
    fan_step,
    laid_layout,
)
from ...presentation.cells import cell_width, wrap_cells
from ...presentation.glyphs import Glyphs, suit_style
from ...presentation.unfolding import war_step_wordings
from ...presentation.views import BattleStep, BattleView
from ...presentation.words import SOLO_HINTS, fitting_lines, hint_lines, outcome_text, war_word
from .click_to_flip import ClickToFlip
from .line_widget import LineWidget, Row

FULL_HEIGHT = 2 * CARD_HEIGHT + 2
"""Card rows for both players plus two lines between them for the outcome."""
BIG_HEIGHT = 2 * BIG_CARD_HEIGHT + 2
"""The same with big cards (a big screen gives the pile that much room)."""
LABEL_CELLS = 4
"""A card's left border and its rank and suit: a card covered closer than this shows a ten as "T"."""


class Pile(ClickToFlip, LineWidget):
    """Player 1's cards on top, player 2's below, so each row faces its owner's packet.

    The pile draws its own frame: a war gives it a heavy frame in the warning colour
    and a "WAR!" subtitle, and drawing that (rather than switching a CSS class, which
    has Textual restyle the widget) keeps a war's battle as cheap as any other.
    """

    COMPONENT_CLASSES = {
        "pile--face", "pile--red", "pile--diamond", "pile--club", "pile--back", "pile--outcome", "pile--war", "pile--detail",
        "pile--hint", "pile--frame", "pile--title", "pile--frame-war", "pile--title-war", "pile--subtitle-war",
    }

    battle: var[BattleView | None] = var(None)
    """The battle on show; None before the first battle of a deal."""
    shown_steps: var[int | None] = var(None)
    """How many of the battle's steps are on the table while a war is laid step by step; None: all of them."""

    names: var[tuple[str, str]] = var(("", ""))
    """The players' names: a table's seats change them, and the widget redraws."""

    hints: var[tuple[str, ...]] = var(SOLO_HINTS)
    """What the empty pile says turns the first cards, longest wording first (``hint_lines``): a spectator's
    differ from a player's."""

    flipped: var[bool] = var(False)
    """Seat 2's cards on the top row, seat 1's below: seat 1's own screen at a table, facing their packet."""

    def __init__(
        self, names: Sequence[str], glyphs: Glyphs, *, hints: Sequence[str] = SOLO_HINTS, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.set_reactive(Pile.names, (names[0], names[1]))
        self.glyphs = glyphs
        self.set_reactive(Pile.hints, tuple(hints))

    @property
    def title(self) -> str:
        """The frame's title: which battle is on show."""
        return "Middle pile" if self.battle is None else f"Battle {self.battle.battle:,}"

    @property
    def shown(self) -> int:
        """Steps of the battle on the table (its ``stages`` once the deciding cards are)."""
        view = self.battle
        if view is None:
            return 0
        return view.stages if self.shown_steps is None else min(self.shown_steps, view.stages)

    @property
    def wars(self) -> int:
        """The wars the cards on the table show (a tie on show already counts its war)."""
        return 0 if self.battle is None else self.battle.wars_at(self.shown)

    @property
    def subtitle(self) -> str:
        """The frame's subtitle: the war, when the battle had one ("DOUBLE WAR!")."""
        wars = self.wars
        return war_word(wars).upper() + "!" if wars else ""

    @property
    def at_war(self) -> bool:
        return self.wars > 0

    def watch_battle(self) -> None:
        self.redraw()

    def watch_shown_steps(self) -> None:
        self.redraw()

    # ---------------------------------------------------------------- drawing

    def watch_names(self) -> None:
        self.redraw()

    def watch_flipped(self) -> None:
        self.redraw()

    def watch_hints(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        war = self.at_war
        return framed(
            self._draw_inside(max(0, width - 2), max(0, height - 2)),
            width,
            height,
            self.glyphs.war_box if war else self.glyphs.box,
            "pile--frame-war" if war else "pile--frame",
            (self.title, "pile--title-war" if war else "pile--title"),
            (self.subtitle, "pile--subtitle-war"),
            self.glyphs.ellipsis,
        )

    def _draw_inside(self, width: int, height: int) -> list[Row]:
        canvas = Canvas(width, height)
        view = self.battle
        if view is None:
            lines = hint_lines(self.hints, width, height, self.names)
            top = max(0, (height - len(lines) + 1) // 2)
            for y, line in enumerate(lines, top):
                canvas.text(max(0, (width - cell_width(line)) // 2), y, line, "pile--hint")
        elif height >= BIG_HEIGHT and width >= 2 * BIG_CARD_WIDTH:
            self._draw_full(canvas, view, big=True)
        elif height >= FULL_HEIGHT and width >= 2 * CARD_WIDTH:
            self._draw_full(canvas, view)
        else:
            self._draw_compact(canvas, view)
        return canvas.runs()

    def _rows_of(self, view: BattleView) -> list:
        """Each player's cards laid, top row first: seat 1's, unless ``flipped`` puts this screen's own below."""
        laid = list(view.laid_at(self.shown))
        return laid[::-1] if self.flipped else laid

    def _draw_full(self, canvas: Canvas, view: BattleView, big: bool = False) -> None:
        """Each player's row of cards in the middle of their half (facing their packet), the words between."""
        g = self.glyphs
        card_width, card_height = card_art_size(big)
        face_of, back = (big_card_face, big_card_back(g)) if big else (card_face, card_back(g))
        mid = (canvas.height - 2) // 2  # the outcome's two lines start here
        rows = (mid - card_height - (mid - card_height) // 2, mid + 2 + (canvas.height - mid - 2 - card_height) // 2)
        layouts = [laid_layout(laid, view.war_cards) for laid in self._rows_of(view)]
        count = max(len(cards) for cards in layouts)
        step = fan_step(count, canvas.width - 2, card_width)
        spread = (count - 1) * step + card_width
        left = max(1, (canvas.width - spread) // 2)
        for cards, y in zip(layouts, rows):
            for i, (card, face_up) in enumerate(cards):
                x = left + i * step
                if face_up:
                    suit_style = self._suit_style(card)
                    face = face_of(card, g, overlapped=step < LABEL_CELLS and i < len(cards) - 1)
                    styles = ("pile--face", *[suit_style] * (card_height - 2), "pile--face")
                    canvas.paint(x, y, face, styles=styles)
                else:
                    canvas.paint(x, y, back, "pile--back")
        outcome, detail = self._words(view, canvas.width)
        for y, line, style in (
            (mid, outcome, "pile--war" if self.at_war else "pile--outcome"),
            (mid + 1, detail, "pile--detail"),
        ):
            canvas.centred(y, line, style, g.ellipsis)

    def _suit_style(self, card: int) -> str:
        style = suit_style(card, self.glyphs)
        return "pile--face" if style == "black" else f"pile--{style}"

    def _draw_compact(self, canvas: Canvas, view: BattleView) -> None:
        g = self.glyphs
        rows = (0, max(2, canvas.height - 1))
        layouts = [laid_layout(laid, view.war_cards) for laid in self._rows_of(view)]
        for level in range(3):  # a deep war drops face-down cards, then middle ones, never the deciding card
            lines = [compact_row(layout, g, level) for layout in layouts]
            if max(sum(len(label) + 1 for label, _ in line) - 1 for line in lines) <= canvas.width:
                break
        for line, y in zip(lines, rows):
            x = 0
            for label, card in line:
                if card is None:
                    style = "pile--back" if not label.startswith("+") else "pile--detail"
                else:
                    style = self._suit_style(card)
                canvas.text(x, y, label, style)
                x += len(label) + 1
        step = view.step_at(self.shown)
        room = max(1, rows[1] - 1)  # the lines between the two players' cards
        if step is not None:
            wordings = [" ".join(words) for words in self._step_words(view, step)]
        else:
            winner = None if view.winner is None else self.names[view.winner.index]
            wordings = [outcome_text(winner, view.taken, 0)]  # the border already says it was a war
        # The fullest wording that fits whole; else as much of the shortest as fits.
        said = fitting_lines(wordings, canvas.width, room) or wrap_cells(wordings[-1], canvas.width)[:room]
        style = "pile--war" if self.at_war else "pile--outcome"
        for i, words in enumerate(said):
            canvas.text(0, 1 + i, words, style)

    def _step_words(self, view: BattleView, step: BattleStep) -> tuple[tuple[str, str], ...]:
        """A war on the table, not decided yet: the tie, or the face-down cards just laid, fullest wording first."""
        p1, p2 = view.laid_at(self.shown)
        tie = (card_label(p1[-1], self.glyphs), card_label(p2[-1], self.glyphs))
        return war_step_wordings(self.wars, step.face_up, tie, view.war_cards)

    def _words(self, view: BattleView, width: int) -> tuple[str, str]:
        """The two lines under the cards ``width`` cells wide: a war's in the fullest wording that fits."""
        step = view.step_at(self.shown)
        if step is not None:
            wordings = self._step_words(view, step)
            return next((words for words in wordings if max(map(cell_width, words)) <= width), wordings[-1])
        winner = None if view.winner is None else self.names[view.winner.index]
        outcome = outcome_text(winner, view.taken, view.wars)
        c1, c2 = view.deciding
        g = self.glyphs
        if view.winner is None:
            detail = "Neither player has the cards to finish the war: each takes back their own"
        else:
            high, low = (c1, c2) if view.winner is Side.P1 else (c2, c1)
            if (high >> 2) == (low >> 2):
                # The game ended short in a war: the other player could not lay its cards.
                loser = self.names[view.winner.other.index]
                detail = f"{loser} cannot finish the war"
            else:
                detail = f"{card_label(high, g)} beats {card_label(low, g)}"
        return outcome, detail
