"""Said when this screen is no longer at its shared table (the server closed, the connection broke, the player sat
down again from another connection): the board stays behind it."""

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

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="closed-dialog"):
            yield Static(plain("You are no longer at the table"), id="closed-title")
            yield Static(plain(capital(self.reason) + "."), id="closed-reason")
            yield Static(plain("q or enter: leave"), id="closed-hint")
