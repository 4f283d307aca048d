"""The result of a finished game, over the board; one key deals again."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import GAME_BINDINGS
from ..views import EndView
from ..presentation.words import deepest_war_text, duration_text, leader_text, reason_text, result_title
from ..rules import Result


class GameOverScreen(ModalScreen[None]):
    """Modal so the finished board stays visible behind it; the app's keys all still work."""

    BINDINGS = [*GAME_BINDINGS, Binding("escape", "dismiss", "Look at the table")]

    def __init__(
        self,
        end: EndView,
        names: Sequence[str],
        *,
        seed: int | None,
        tally_line: str,
        next_deal_in: float | None = None,
        dot: str = "·",
    ) -> None:
        super().__init__(classes=f"result-{end.result.value}")
        self.end = end
        self.names = tuple(names)
        self.seed = seed
        self.tally_line = tally_line
        self.next_deal_in = next_deal_in
        self.dot = dot

    def compose(self) -> ComposeResult:
        end = self.end
        facts = [
            f"{_capital(reason_text(end.reason, end.result, self.names))}.",
        ]
        if end.result is Result.STOPPED:
            facts.append(leader_text(None if end.leader is None else end.leader.index, self.names) + ".")
        facts += [
            "",
            f"Battles       {end.battles:,}",
            f"Wars          {end.wars:,}",
            f"Deepest war   {deepest_war_text(end.longest_war)}",
            f"Cards         {self.names[0]} {end.counts[0]}, {self.names[1]} {end.counts[1]}",
            f"Time          {duration_text(end.seconds)}",
        ]
        if self.seed is not None:
            facts.append(f"Seed          {self.seed}")
        if self.tally_line:
            facts += ["", self.tally_line]
        if self.next_deal_in is not None:
            parts = [f"Next deal in {self.next_deal_in:g} seconds", "r deals now", "q quits"]
        else:
            parts = ["r or space: deal again", "esc: look at the table", "q: quit"]
        hint = f"  {self.dot}  ".join(parts)
        with Vertical(id="result-dialog"):
            yield Static(result_title(end.result, self.names), id="result-title")
            yield Static("\n".join(facts), id="result-facts")
            yield Static(hint, id="result-hint")


def _capital(sentence: str) -> str:
    """Capitalise the first letter only: str.capitalize() would lower-case a player's name."""
    return sentence[:1].upper() + sentence[1:]

