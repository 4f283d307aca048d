"""The fixed deals the tests play: each one defined here once."""

from __future__ import annotations

from war_tui.core.cards import parse_cards

WAR_TEXTS = ("7C 3C 9S 4C 5C 8S", "7H 2D 9D 4D 3S 6D")
"""Battle 1 is a double war (7 v 7, 9 v 9, then 5 beats 3); player 1 wins on battle 2."""
WAR_PACKETS = (tuple(parse_cards(WAR_TEXTS[0])), tuple(parse_cards(WAR_TEXTS[1])))
"""WAR_TEXTS as cards."""
PLAIN = ("AC KC", "2D 3D")
"""Player 1 wins a plain battle, then a war: a short game either way."""
QUICK_WIN_TEXTS = ("AS", "2C")
"""One battle and player 1 holds every card."""
QUICK_WIN = (tuple(parse_cards(QUICK_WIN_TEXTS[0])), tuple(parse_cards(QUICK_WIN_TEXTS[1])))
"""QUICK_WIN_TEXTS as cards."""
FIVE_PLAIN = ("AC KC QC JC 10C", "2D 3D 4D 5D 6D")
"""Five plain battles, each won by player 1: a game long enough to leave or talk during."""
EIGHT_PLAIN = ("AC KC QC JC TC 9C 8C 7C", "2D 3D 4D 5D 6D 7D 8D 9D")
"""Eight plain battles, each won by player 1."""
