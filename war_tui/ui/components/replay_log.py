"""The replay's log: the battles up to the one on show, newest at the bottom, as the game's log tells them.

It holds only the few battles it has room for, given whole each time the replay moves, so a seek backwards
shows the log as it stood at that battle (a log that only appends could not)."""

from __future__ import annotations

from textual.reactive import var

from ...presentation.glyphs import Glyphs
from ...presentation.log_lines import log_battle_line
from ...presentation.views import BattleView
from .line_widget import LineWidget, Row

LOG_ROWS = 20
"""The most battles the log shows: more rows than any terminal gives it."""


class ReplayLog(LineWidget, can_focus=False):
    COMPONENT_CLASSES = {"log--dim", "log--red", "log--diamond", "log--club", "log--war"}

    recent: var[tuple[BattleView, ...]] = var(())
    """The battles up to the one on show, oldest first."""

    def __init__(self, names: tuple[str, str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names = names
        self.glyphs = glyphs

    def watch_recent(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        rows: list[Row] = []
        names = self.names
        for view in self.recent[-height:] if height > 0 else ():
            winner = None if view.winner is None else names[view.winner.index]
            loser = None if view.winner is None else names[view.winner.other.index]
            c1, c2 = view.deciding
            tie = (view.p1_laid[0], view.p2_laid[0]) if view.wars else None
            pieces = log_battle_line(view.battle, c1, c2, winner, view.taken, view.wars, view.counts, self.glyphs, tie, loser)
            rows.append([(text, f"log--{style}" if style else "") for text, style in pieces])
        return rows
