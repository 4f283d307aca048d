"""The seats line of a shared table: who sits where, who has flipped, whom the table waits for, who watches."""

from __future__ import annotations

from collections.abc import Sequence

from textual.reactive import var

from ...presentation.glyphs import Glyphs
from ...presentation.seats import seats_pieces
from ...tables import TableState, You
from .line_widget import LineWidget, Row


class SeatsLine(LineWidget):
    """Bound to the board's ``table_state`` and ``you``; draws nothing until the table has said who sits where."""

    COMPONENT_CLASSES = {
        "seats--table", "seats--label", "seats--name", "seats--you", "seats--flipped", "seats--waiting",
        "seats--house", "seats--auto", "seats--emote",
    }

    table_state: var[TableState | None] = var(None)
    you: var[You | None] = var(None)
    names: var[tuple[str, str] | None] = var(None)
    """Both seats at one keyboard: the players' names as this keyboard gave them; None: the table's."""
    emotes: var[tuple[str, str]] = var(("", ""))
    """Each seat's latest emote, beside its player's name while it shows."""
    on_tv: var[bool] = var(False)
    """War TV's spectator: the table's name and how many watch it stay longest (``seats_pieces``'s ``tv``)."""
    shown_steps: var[int | None] = var(None)
    """How much of a war the pile shows while it is laid (None: no war being laid): at one keyboard the line says
    that a key shows the rest, not that the table waits for both."""

    def __init__(
        self, glyphs: Glyphs, *, names: Sequence[str] | None = None, local: bool = False, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.set_reactive(SeatsLine.names, (names[0], names[1]) if names is not None else None)
        self.local = local

    def watch_table_state(self) -> None:
        self.redraw()

    def watch_you(self) -> None:
        self.redraw()

    def watch_names(self) -> None:
        self.redraw()

    def watch_emotes(self) -> None:
        self.redraw()

    def watch_on_tv(self) -> None:
        self.redraw()

    def watch_shown_steps(self) -> None:
        if self.local:
            self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        state = self.table_state
        if state is None:
            return [[("Joining the table...", "seats--label")]]
        pieces = seats_pieces(state, self.you, self.glyphs, width, names=self.names, local=self.local,
                              emotes=self.emotes, laying=self.shown_steps is not None, tv=self.on_tv)
        return [[(text, f"seats--{style}" if style else "") for text, style in pieces]]
