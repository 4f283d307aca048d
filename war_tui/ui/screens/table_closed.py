"""Said when this screen's table is gone (the server closed, the connection broke) or never took this person in (a
refusal that came once the game was up, as through a cluster): titled by what they had there, the reason wrapped
whole words at any width; the board stays behind it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...presentation.words import capital
from ..text import plain


class TableClosedScreen(ModalScreen[None]):
    """Any of q, enter, space or esc leaves; nothing else can happen at a table that is gone."""

    BINDINGS = [Binding("q,enter,space,escape", "app.quit", "Leave")]

    def __init__(self, title: str, reason: str) -> None:
        super().__init__()
        self.title_words = title
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="closed-dialog"):
            yield Static(plain(self.title_words), id="closed-title")
            yield Static(plain(capital(self.reason) + "."), id="closed-reason")
            yield Static(plain("q or enter: leave"), id="closed-hint")
