"""What was wrong in the preferences file, said once at start: every problem reachable at any size.

A toast is cut at 80x24 by a few long problems (each names the file), and at 40x12 by one; this dialog
scrolls with the keyboard as the help does, and the game's keys go on working under it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..bindings import GAME_KEYS_OVER_BOARD
from .scrolling_dialog import AT_THE_END, SCROLL_BINDINGS, ScrollingDialog

TITLE = "Preferences: defaults used"
CLOSE = "esc closes"
LEAD = "The defaults stand in for what was wrong; the file is left as it is."


class PreferencesNotice(ScrollingDialog):
    """The problems one under the other; the frame says whether more are below and how to close it."""

    BINDINGS = [*GAME_KEYS_OVER_BOARD, *SCROLL_BINDINGS, Binding("escape", "dismiss", "Close")]
    DIALOG = "prefs-dialog"

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__()
        self.problems = tuple(problems)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="prefs-dialog", can_focus=False):
            yield Static(LEAD, id="prefs-lead")
            for problem in self.problems:
                yield Static(problem, classes="prefs-problem", markup=False)

    def on_mount(self) -> None:
        dialog = self.query_one("#prefs-dialog", VerticalScroll)
        dialog.border_title = TITLE
        dialog.border_subtitle = CLOSE  # then ScrollingDialog's on_mount (Textual calls each class's in turn)

    def subtitle(self, more: str) -> str:
        return f"{more}; {CLOSE}" if more == AT_THE_END else more or CLOSE  # ASCII, for --ascii too
