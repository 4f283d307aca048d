"""One line of the battle log as styled pieces."""

from __future__ import annotations

from ..core.cards import Card
from .cards_art import card_label
from .glyphs import Glyphs, suit_style
from .words import cannot_finish_text, number, outcome_text, plural, war_word


def log_battle_line(
    battle: int,
    p1_card: Card,
    p2_card: Card,
    winner_name: str | None,
    taken: int,
    wars: int,
    counts: tuple[int, int],
    glyphs: Glyphs,
    tie: tuple[Card, Card] | None = None,
    loser_name: str | None = None,
) -> list[tuple[str, str]]:
    """One line of the battle log as (text, style-name) pieces; styles: '', 'red', 'diamond', 'club', 'war', 'dim'.

    ``p1_card`` / ``p2_card`` are the deciding pair (the last face-up cards); a war
    shows the ``tie`` that started it first: ``5♥ v  5♣ WAR → 4♠ v  8♥``. A deciding
    pair that ties ended the game: a player (``loser_name``; None: both) could not lay the
    war's cards, which the line says instead of an outcome: ``Q♥ v  Q♠  WAR, Bob cannot finish``.
    """
    pieces: list[tuple[str, str]] = [(log_gutter(number(battle)), "dim")]

    def pair(cards: tuple[Card, Card], width: int) -> None:
        for i, card in enumerate(cards):
            if i:
                pieces.append((" v ", "dim"))
            style = suit_style(card, glyphs)
            pieces.append((card_label(card, glyphs).rjust(width), "" if style == "black" else style))

    if wars and tie is not None:
        pair(tie, 3)  # in the column every battle's first pair uses
        pieces.append((f" {war_word(wars).upper()} {glyphs.arrow} ", "war"))
    pair((p1_card, p2_card), 0 if wars and tie is not None else 3)
    pieces.append(("  ", ""))
    if ended_short(p1_card, p2_card):
        pieces.append((f"{war_word(wars + 1).upper()}, {cannot_finish_text(loser_name)}", "war"))
    else:
        if wars and tie is None:
            pieces.append((f"{war_word(wars).upper()}! ", "war"))
        pieces.append((outcome_text(winner_name, taken, 0), "war" if wars else ""))
    pieces.append((f"  {counts[0]}{glyphs.dot}{counts[1]}", "dim"))
    return pieces


def ended_short(p1_card: Card, p2_card: Card) -> bool:
    """A battle whose deciding pair ties ended there: a player could not lay the war's cards."""
    return p1_card >> 2 == p2_card >> 2


def log_gutter(text: str) -> str:
    """The battle number's column: a cell clear of the border, numbers up to 9,999 aligned on the right."""
    return f" {text:>5}  "


def log_passed_line(count: int, glyphs: Glyphs) -> list[tuple[str, str]]:
    """The line standing for battles played at "max" speed between two drawn ones."""
    return [(f"{log_gutter(glyphs.ellipsis)}{plural(count, 'battle')} at max speed", "dim")]
