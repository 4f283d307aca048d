"""Cards as small integers, and the two-character notation people type and read.

A card is an ``int`` from 0 to 51: ``card >> 2`` is its rank (0 for a two up
to 12 for an ace) and ``card & 3`` its suit. Integers keep the engine's hot
loop to shifts and comparisons, which is what lets a headless simulation stay
close to a hand-written loop.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
DECK_SIZE = 52

Card = int

_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
# Variation selectors (U+FE0E, U+FE0F) pasted after a suit mean nothing.
_SELECTORS = "\ufe0e\ufe0f"


class CardError(ValueError):
    """A card or packet that cannot be read; the message is fit to show a person."""


def rank(card: Card) -> int:
    return card >> 2


def suit(card: Card) -> int:
    return card & 3


def make_card(rank_index: int, suit_index: int) -> Card:
    return (rank_index << 2) | suit_index


def card_str(card: Card) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def is_red(card: Card) -> bool:
    return (card & 3) in (1, 2)


def parse_card(text: str) -> Card:
    """Read ``AS``, ``10h``, ``td``, ``Q♥`` and the like."""
    raw = text.strip()
    token = "".join(ch for ch in raw if ch not in _SELECTORS)
    if len(token) < 2:
        raise CardError(f"'{raw}' is not a card (write rank then suit, like AS or 10H)")
    rank_part, suit_part = token[:-1].upper(), token[-1]
    suit_part = _SYMBOL_TO_SUIT.get(suit_part, suit_part.upper())
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) != 1 or rank_part not in RANKS:
        raise CardError(f"'{raw}' has no rank from 2-10, J, Q, K, A")
    if suit_part not in SUITS:
        raise CardError(f"'{raw}' has no suit from C, D, H, S (or ♣ ♦ ♥ ♠)")
    return make_card(RANKS.index(rank_part), SUITS.index(suit_part))


def parse_cards(text: str) -> list[Card]:
    """Read a packet written as cards separated by spaces or commas, top card first."""
    tokens = [tok for tok in re.split(r"[\s,]+", text) if tok]
    return [parse_card(tok) for tok in tokens]


def validate_packets(*packets: Sequence[Card]) -> None:
    """Packets must be non-empty and hold no card twice, across all of them."""
    seen: set[Card] = set()
    for number, packet in enumerate(packets, start=1):
        if not packet:
            raise CardError(f"player {number}'s packet is empty")
        for card in packet:
            if not 0 <= card < DECK_SIZE:
                raise CardError(f"{card!r} is not a card")
            if card in seen:
                raise CardError(f"{card_str(card)} appears more than once")
            seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card_str(c) for c in cards)


def new_deck() -> list[Card]:
    return list(range(DECK_SIZE))


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Fisher-Yates driven only by ``rng.random()``.

    Python promises that ``random()`` gives the same sequence for the same seed
    on every version; ``Random.shuffle`` carries no such promise. Building the
    shuffle on ``random()`` is what makes a seed replay the same deal on every
    machine and every Python from 3.11 on.
    """
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def deal(deck: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """Deal one card at a time, player 1 first; packets are listed top card first."""
    return list(deck[0::2]), list(deck[1::2])
