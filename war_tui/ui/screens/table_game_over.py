"""The result of a game at a table: what deals again there differs from the solo game; the game's id, once the
statistics hold it, says how to replay it (enter stays the table's own key)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.binding import Binding

from ...presentation.views import EndView
from .game_over import GameOverScreen


class TableGameOverScreen(GameOverScreen):
    """The result over the board, with what deals again at a table instead of the solo game's keys."""

    def __init__(
        self, end: EndView, names: Sequence[str], *, hint: Sequence[str], seed: int | None, tally_line: str,
        dot: str = "·", local: bool = True, reached_at: tuple[str | None, str | None] = (None, None),
    ) -> None:
        super().__init__(end, names, seed=seed, tally_line=tally_line, dot=dot, local=local, reached_at=reached_at)
        self.hint = list(hint)

    def hint_parts(self) -> list[str]:
        return self.hint

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """enter is the table's (a flip, dealing again with the other player): the replay is reached by its id."""
        return action != "replay"

    def set_hint(self, hint: Sequence[str]) -> None:
        """What deals again changed (the other player asked, or this one did): say it now."""
        if list(hint) != self.hint:
            self.hint = list(hint)
            if self.is_mounted:
                self.on_resize()


class TwoPlayerGameOverScreen(TableGameOverScreen):
    """Each player's flip key asks to deal again, as on the board."""

    BINDINGS = [
        Binding("f,left", "app.board('p1_flip')", "P1 deals", key_display="f"),
        Binding("j,right", "app.board('p2_flip')", "P2 deals", key_display="j"),
    ]
