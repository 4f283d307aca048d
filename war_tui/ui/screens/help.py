"""The help screen: the rules in brief and every key."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.plural import plural
from ...core.rules import Gather, Rules
from ..bindings import GAME_KEYS_OVER_BOARD
from ..text import plain
from .scrolling_dialog import SCROLL_BINDINGS, ScrollingDialog

KEYS = (
    ("space enter f", "flip: play one battle (a war belongs to its battle)"),
    ("a", "auto-play on or off"),
    ("+  -", "faster, slower: one battle every 2 s up to max"),
    ("w", "stop auto-play at every war, to watch it"),
    ("r", "restart: a new shuffle, a new seed"),
    ("s", "statistics: every game recorded; enter on a game replays it"),
    ("?  esc", "this help, open and close"),
    ("up down j k", "scroll the battle log (and this help)"),
    ("PgUp PgDn Home End", "a page, the first line, the newest line"),
    ("ctrl+p", "command palette: every action, and themes"),
    ("ctrl+l", "draw the whole screen again (a garbled terminal)"),
    ("q  ctrl+c", "quit"),
)

REPLAY_KEYS = (
    ("right l", "the next battle (a war laid step by step)"),
    ("left h", "the battle before"),
    ("]  [", "the next war, the war before"),
    ("Home End", "the first battle, the last"),
    ("g N enter", "go to battle N (esc forgets the digits)"),
    ("space", "play or pause"),
    ("+  -", "faster, slower: 1, 2, 4 or 8 battles a second"),
    ("?  esc", "this help, open and close"),
    ("q", "leave the replay"),
)
"""The replay's keys (``screens.replay``), as its help lists them."""

GATHER_TEXT = {
    Gather.WINNER_FIRST: "the winner's cards first, then the loser's",
    Gather.LOSER_FIRST: "the loser's cards first, then the winner's",
    Gather.LAID: "in the order they were laid",
    Gather.RANDOM: "in a shuffled order",
}


def rules_text(rules: Rules) -> str:
    down = "one card" if rules.war_cards == 1 else plural(rules.war_cards, "card")
    return "\n\n".join([
        "Both players turn over their top card. Whoever shows the higher rank (ace high, two low;"
        f" suits do not matter) wins both cards and adds them to the bottom of their packet,"
        f" {GATHER_TEXT[rules.gather]}.",
        f"A tie is war: each player lays {down} face down and one face up; the higher new card"
        " takes the whole pile, and another tie means another war.",
        "Whoever cannot lay a war's cards loses (if neither can, it is a draw). Holding every"
        f" card wins; a game stops after {plural(rules.max_battles, 'battle')}.",
    ])


class HelpScreen(ScrollingDialog):
    """Scrolls with the keyboard (over SSH it is often the only input), and says when there is more."""

    BINDINGS = [*GAME_KEYS_OVER_BOARD, *SCROLL_BINDINGS, Binding("escape", "dismiss", "Close help")]
    DIALOG = "help-dialog"

    def __init__(self, rules: Rules, keys: Sequence[tuple[str, str]] = KEYS) -> None:
        super().__init__()
        self.rules = rules
        self.keys = tuple(keys)

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column(ratio=1)
        for key, what in self.keys:
            keys.add_row(plain(key), plain(what))
        with VerticalScroll(id="help-dialog", can_focus=False):
            yield Static(plain("How War is played"), classes="help-heading")
            yield Static(plain(rules_text(self.rules)), id="help-rules")
            yield Static(plain("Keys (they all work at any moment)"), classes="help-heading")
            yield Static(keys, id="help-keys")


class ReplayHelpScreen(HelpScreen, inherit_bindings=False):
    """The help over a replay: its keys, and none of the game's (no key here flips a board beneath)."""

    BINDINGS = [*SCROLL_BINDINGS, Binding("escape,question_mark,q", "dismiss", "Close help")]

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules, REPLAY_KEYS)
