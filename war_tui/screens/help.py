"""The help screen: the rules in brief and every key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..rules import Gather, Rules

KEYS = (
    ("space, enter, f", "flip: play exactly one battle (a war belongs to its battle)"),
    ("a", "auto-play on or off"),
    ("+ / -", "faster / slower auto-play (0.5 battles a second up to max)"),
    ("w", "stop auto-play at every war, so you can watch it"),
    ("r", "restart: a new shuffle with a new seed"),
    ("?", "this help (esc closes it)"),
    ("ctrl+p", "command palette: every action, and themes"),
    ("q", "quit"),
)

GATHER_TEXT = {
    Gather.WINNER_FIRST: "the winner's cards first, then the loser's",
    Gather.LOSER_FIRST: "the loser's cards first, then the winner's",
    Gather.LAID: "in the order they were laid",
    Gather.RANDOM: "in a shuffled order",
}


def rules_text(rules: Rules) -> str:
    down = "one card" if rules.war_cards == 1 else f"{rules.war_cards} cards"
    return "\n".join([
        "Each player turns over the top card of their packet. The higher rank takes both",
        "cards (ace high, two low; suits do not matter) and puts them under their packet,",
        f"{GATHER_TEXT[rules.gather]}.",
        "",
        f"When the ranks tie it is war: each player lays {down} face down, then one face up.",
        "The higher of the new face-up cards takes the whole pile; another tie means",
        "another war on top.",
        "",
        "A player who cannot lay a war's cards loses; if neither can, it is a draw. Whoever",
        f"holds all the cards wins. A game stops after {rules.max_battles:,} battles.",
    ])


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Close help")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        width = max(len(k) for k, _ in KEYS)
        keys = "\n".join(f"{key.rjust(width)}   {what}" for key, what in KEYS)
        with VerticalScroll(id="help-dialog", can_focus=False):
            yield Static("How War is played", classes="help-heading")
            yield Static(rules_text(self.rules), id="help-rules")
            yield Static("Keys (they all work at any moment)", classes="help-heading")
            yield Static(keys, id="help-keys")
