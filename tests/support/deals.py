"""The fixed deals the tests play: each one defined here once."""

from __future__ import annotations

from war_tui.core.cards import parse_cards

WAR_TEXTS = ("7C 3C 9S 4C 5C 8S", "7H 2D 9D 4D 3S 6D")
"""Battle 1 is a double war (7 v 7, 9 v 9, then 5 beats 3); player 1 wins on battle 2."""
WAR_PACKETS = (tuple(parse_cards(WAR_TEXTS[0])), tuple(parse_cards(WAR_TEXTS[1])))
"""WAR_TEXTS as cards."""
