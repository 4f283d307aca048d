"""A table's own keys on the board: a seat's emotes, the house, declining, sitting; each player's flip key at one
keyboard."""

from __future__ import annotations

from textual.binding import Binding

from .bindings import SEAT_FLIP_KEYS

EMOTE_KEYS = 6
"""As many as the table's ``EMOTES`` (a solo game loads nothing of the tables, so not imported from there)."""

TABLE_BINDINGS: list[Binding] = [
    Binding("1", "emote(0)", "Emote", key_display=f"1-{EMOTE_KEYS}"),
    *(Binding(str(n + 1), f"emote({n})", f"Emote {n + 1}", show=False) for n in range(1, EMOTE_KEYS)),
    Binding("h", "play_house", "House", show=False),  # the requests line offers it to a player alone
    Binding("n", "next_table", "Next table"),  # War TV's; elsewhere n declines
    Binding("n", "decline", "Decline"),  # in the footer only while the other player's request waits
    Binding("t", "sit", "Sit"),
]
"""A seat's emotes (one footer entry for the six), playing the house when alone, War TV's next table, declining the
other player's request, and a spectator taking a seat."""

SEAT_FLIP_BINDINGS: list[Binding] = [
    Binding(",".join(SEAT_FLIP_KEYS[0]), "p1_flip", "P1 flip", key_display="f"),
    Binding(",".join(SEAT_FLIP_KEYS[1]), "p2_flip", "P2 flip", key_display="j"),
]
"""Each player's flip key at one keyboard, first among the keys (the footer shows them side by side): j is
player 2's before it scrolls the log, f player 1's before it is everyone's flip key."""
