"""Cards as text: labels ("10♥"), small framed faces and backs, and how a battle's cards are laid out."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import RANKS, Card
from .glyphs import Glyphs


def rank_label(card: Card) -> str:
    """``10`` for a ten, as printed on real cards; every other rank is one character."""
    char = RANKS[card >> 2]
    return "10" if char == "T" else char


def card_label(card: Card, glyphs: Glyphs) -> str:
    """``A♠`` / ``10♥`` (``AS`` / ``10H`` in ASCII)."""
    return rank_label(card) + glyphs.suits[card & 3]


CARD_WIDTH = 5
CARD_HEIGHT = 4
BIG_CARD_WIDTH = 9
BIG_CARD_HEIGHT = 7
"""The cards on big screens: rank and suit in both corners, the suit large in the middle."""


def card_art_size(big: bool) -> tuple[int, int]:
    """(width, height) of a card as drawn, small or big."""
    return (BIG_CARD_WIDTH, BIG_CARD_HEIGHT) if big else (CARD_WIDTH, CARD_HEIGHT)


def card_face(card: Card, glyphs: Glyphs, overlapped: bool = False) -> list[str]:
    """A small framed card: rank and suit in the top-left corner, the suit again bottom-right.

    ``overlapped``: only the card's left edge will show, so a ten is "T", never a lone "1".
    """
    tl, tr, bl, br, h, v = glyphs.frame
    label = RANKS[card >> 2] + glyphs.suits[card & 3] if overlapped else card_label(card, glyphs)
    suit = glyphs.suits[card & 3]
    return [
        tl + h * 3 + tr,
        v + label.ljust(3) + v,
        v + suit.rjust(3) + v,
        bl + h * 3 + br,
    ]


def card_back(glyphs: Glyphs) -> list[str]:
    tl, tr, bl, br, h, v = glyphs.frame
    return [tl + h * 3 + tr, v + glyphs.back[0] + v, v + glyphs.back[1] + v, bl + h * 3 + br]


def big_card_face(card: Card, glyphs: Glyphs, overlapped: bool = False) -> list[str]:
    """A big framed card: rank and suit top-left and bottom-right, the suit in the middle.

    ``overlapped``: only the card's left part will show, so a ten is "T", never a lone "1".
    """
    tl, tr, bl, br, h, v = glyphs.frame
    inner = BIG_CARD_WIDTH - 2
    suit = glyphs.suits[card & 3]
    label = card_label(card, glyphs)
    corner = RANKS[card >> 2] + suit if overlapped else label
    blank = v + " " * inner + v
    return [
        tl + h * inner + tr,
        v + corner.ljust(inner) + v,
        blank,
        v + suit.center(inner) + v,
        blank,
        v + label.rjust(inner) + v,
        bl + h * inner + br,
    ]


def big_card_back(glyphs: Glyphs) -> list[str]:
    tl, tr, bl, br, h, v = glyphs.frame
    inner = BIG_CARD_WIDTH - 2
    rows = [(glyphs.back[i % 2] * inner)[:inner] for i in range(BIG_CARD_HEIGHT - 2)]
    return [tl + h * inner + tr, *(v + row + v for row in rows), bl + h * inner + br]


def laid_layout(laid: Sequence[Card], war_cards: int) -> list[tuple[Card, bool]]:
    """One player's cards of a battle in the order laid, each with whether it lies face up.

    The first card is face up; each war then adds ``war_cards`` face down and one
    face up. This mirrors how the cards were laid, it decides nothing.
    """
    out: list[tuple[Card, bool]] = []
    i = 0
    face_up = True
    while i < len(laid):
        size = 1 if face_up else war_cards
        for card in laid[i : i + size]:
            out.append((card, face_up))
        i += size
        face_up = not face_up
    return out


def compact_row(layout: Sequence[tuple[Card, bool]], glyphs: Glyphs, level: int) -> list[tuple[str, Card | None]]:
    """One player's cards of a battle as short labels for a one-line pile, (label, card or None for a back).

    ``level`` 0 shows every card; 1 one back per war's face-down cards; 2 only the
    first and the deciding card around a "+N" of the cards between. The deciding
    card is always there.
    """
    back = glyphs.back[0][:2]
    if level == 0:
        return [(card_label(card, glyphs), card) if up else (back, None) for card, up in layout]
    if level == 1:
        out: list[tuple[str, Card | None]] = []
        for card, up in layout:
            if up:
                out.append((card_label(card, glyphs), card))
            elif not out or out[-1][1] is not None:
                out.append((back, None))
        return out
    first, last = layout[0][0], layout[-1][0]
    if len(layout) <= 2:
        return [(card_label(card, glyphs), card) for card, _ in layout]
    return [(card_label(first, glyphs), first), (f"+{len(layout) - 2}", None), (card_label(last, glyphs), last)]


def fan_step(count: int, width: int, card_width: int = CARD_WIDTH) -> int:
    """How far apart to draw ``count`` cards so they fit ``width`` columns (overlapping if need be)."""
    if count <= 1:
        return card_width + 1
    step = (width - card_width) // (count - 1)
    return max(1, min(card_width + 1, step))
