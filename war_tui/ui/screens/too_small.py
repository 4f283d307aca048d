"""Shown instead of the board when the terminal is smaller than the compact layout needs."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ...presentation.words import enlarge_notice
from ..text import plain

MIN_WIDTH = 40
MIN_HEIGHT = 12


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmallScreen(Screen[None]):
    """A plain message; the game keeps its state underneath and comes back on resize."""

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(plain(self._message()), id="too-small-message")

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#too-small-message", Static).update(plain(self._message()))

    def _message(self) -> str:
        width, height = self.app.size
        return "\n".join(enlarge_notice(width, height, (MIN_WIDTH, MIN_HEIGHT)))
