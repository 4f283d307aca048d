"""War TV with no table to show: why, over the board, until it tunes in to one (the server looks for it)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from ..text import plain

TITLE = "War TV"
KEYS_LINE = "q leaves · ? help"


def waiting_words(why: str) -> str:
    """The screen's words: what War TV waits for, as the server said it (``serving.tv``), capitalised."""
    return why[:1].upper() + why[1:] + "."


class TvWaitingScreen(Screen[None]):
    """Not modal: the app's keys (q, ?, s) and the board's (n looks again) work here as on the board."""

    why: var[str] = var("")
    """What War TV waits for (the server's words)."""

    def __init__(self, why: str) -> None:
        super().__init__()
        self.set_reactive(TvWaitingScreen.why, why)

    def compose(self) -> ComposeResult:
        with Vertical(id="tv-dialog"):
            yield Static(plain(TITLE), id="tv-title")
            yield Static(plain(waiting_words(self.why)), id="tv-waiting")
            yield Static(plain(KEYS_LINE), id="tv-keys")

    def watch_why(self, why: str) -> None:
        if self.is_mounted:
            self.query_one("#tv-waiting", Static).update(plain(waiting_words(why)))
