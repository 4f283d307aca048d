"""The two players' bindings at one keyboard: each player's flip key, and the game's other keys."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingType

from .bindings import GAME_BINDINGS, LOG_KEYS, SEAT_FLIP_KEYS

EMOTE_KEYS = 6
"""As many as the table's ``EMOTES`` (a solo game loads nothing of the tables, so not imported from there)."""

TABLE_BINDINGS: list[BindingType] = [
    Binding("1", "app.emote(0)", "Emote", key_display=f"1-{EMOTE_KEYS}"),
    *(Binding(str(n + 1), f"app.emote({n})", f"Emote {n + 1}", show=False) for n in range(1, EMOTE_KEYS)),
    Binding("h", "app.play_house", "House", show=False),  # the requests line offers it to a player alone
    Binding("n", "app.decline", "Decline"),  # in the footer only while the other player's request waits
    Binding("t", "app.sit", "Sit"),
]
"""A seat's emotes (one footer entry for the six), playing the house when alone, declining the other player's
request, and a spectator taking a seat."""

TWO_PLAYER_BINDINGS: list[BindingType] = [
    Binding(",".join(SEAT_FLIP_KEYS[0]), "p1_flip", "P1 flip", key_display="f"),
    Binding(",".join(SEAT_FLIP_KEYS[1]), "p2_flip", "P2 flip", key_display="j"),
    *(replace(binding, show=False) if binding.action == "app.pause_on_war" else binding
      for binding in GAME_BINDINGS if binding.action != "app.flip"),
    *(replace(binding, key="down") if binding.key == "down,j" else binding for binding in LOG_KEYS),
]
"""Each player's flip key first (the footer shows them side by side, and leaves w to the help to make room);
j is player 2's, so only Down scrolls the log down; space and enter flip for nobody."""
