"""The help screen: the rules in brief and every key."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import GAME_BINDINGS
from ..rules import Gather, Rules

KEYS = (
    ("space enter f", "flip: play one battle (a war belongs to its battle)"),
    ("a", "auto-play on or off"),
    ("+  -", "faster, slower: one battle every 2 s up to max"),
    ("w", "stop auto-play at every war, to watch it"),
    ("r", "restart: a new shuffle, a new seed"),
    ("s", "statistics: every game recorded; enter on a game replays it"),
    ("?  esc", "this help, open and close"),
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
    return "\n\n".join([
        "Both players turn over their top card. Whoever shows the higher rank (ace high, two low;"
        f" suits do not matter) wins both cards and adds them to the bottom of their packet,"
        f" {GATHER_TEXT[rules.gather]}.",
        f"A tie is war: each player lays {down} face down and one face up; the higher new card"
        " takes the whole pile, and another tie means another war.",
        "Whoever cannot lay a war's cards loses (if neither can, it is a draw). Holding every"
        f" card wins; a game stops after {rules.max_battles:,} battles.",
    ])


class HelpScreen(ModalScreen[None]):
    BINDINGS = [*GAME_BINDINGS, Binding("escape", "dismiss", "Close help")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column(ratio=1)
        for key, what in KEYS:
            keys.add_row(key, what)
        with VerticalScroll(id="help-dialog", can_focus=False):
            yield Static("How War is played", classes="help-heading")
            yield Static(rules_text(self.rules), id="help-rules")
            yield Static("Keys (they all work at any moment)", classes="help-heading")
            yield Static(keys, id="help-keys")
