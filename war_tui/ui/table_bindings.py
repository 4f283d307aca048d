"""The two players' bindings at one keyboard: each player's flip key, and the game's other keys."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingType

from .bindings import GAME_BINDINGS, LOG_KEYS

TWO_PLAYER_BINDINGS: list[BindingType] = [
    Binding("f,left", "p1_flip", "P1 flip", key_display="f"),
    Binding("j,right", "p2_flip", "P2 flip", key_display="j"),
    *(replace(binding, show=False) if binding.action == "app.pause_on_war" else binding
      for binding in GAME_BINDINGS if binding.action != "app.flip"),
    *(replace(binding, key="down") if binding.key == "down,j" else binding for binding in LOG_KEYS),
]
"""Each player's flip key first (the footer shows them side by side, and leaves w to the help to make room);
j is player 2's, so only Down scrolls the log down; space and enter flip for nobody."""
