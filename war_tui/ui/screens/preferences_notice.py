"""What was wrong in the preferences file, said once at start: every problem reachable at any size.

A toast is cut at 80x24 by a few long problems (each names the file), and at 40x12 by one; this dialog
scrolls with the keyboard as the help does, and the game's keys go on working under it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..bindings import GAME_BINDINGS
from .help import AT_THE_END, SCROLL_BINDINGS, more_words, scroll

TITLE = "Preferences: defaults used"
CLOSE = "esc closes"
LEAD = "The defaults stand in for what was wrong; the file is left as it is."


class PreferencesNotice(ModalScreen[None]):
    """The problems one under the other; the frame says whether more are below and how to close it."""

    BINDINGS = [*GAME_BINDINGS, *SCROLL_BINDINGS, Binding("escape", "dismiss", "Close")]

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
        dialog.border_subtitle = CLOSE
        self.watch(dialog, "scroll_y", self._say_if_more, init=False)
        self.watch(dialog, "virtual_size", self._say_if_more, init=False)
        self.call_after_refresh(self._say_if_more)

    def on_resize(self) -> None:
        self.call_after_refresh(self._say_if_more)

    def action_scroll(self, how: str) -> None:
        scroll(self.query_one("#prefs-dialog", VerticalScroll), how)

    def _say_if_more(self, *_: object) -> None:
        for dialog in self.query("#prefs-dialog").results(VerticalScroll):  # none once it is closed
            more = more_words(dialog)
            dialog.border_subtitle = f"{more}; {CLOSE}" if more == AT_THE_END else more or CLOSE  # ASCII, for --ascii too
