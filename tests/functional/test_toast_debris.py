"""A notice that times out leaves nothing of itself on the terminal: the row it lay over reads as before.

The screen checked is what the terminal got (``terminal_recording``'s recording app), not a fresh render:
Textual's own screenshot is drawn from the layout, where a toast that is gone is gone even if its cells were
never painted over on the glass.
"""

from __future__ import annotations

import pytest
from support.deals import FIVE_PLAIN
from table_support import TableServer, dealing, table_app
from terminal_recording import (
    RecordingApp,
    drawn_from_nothing,
    fresh_escape_codes,  # noqa: F401  # autouse here too: no escape codes cached by earlier apps
)
from war_ui_support import until

from war_tui.ui.components.card_bar import CardBar
from war_tui.ui.toast_trail import toasts

pytestmark = [pytest.mark.app, pytest.mark.terminal]  # see pyproject.toml's markers


def row_text(cells: list[tuple[str, str]]) -> str:
    return "".join(char for char, _ in cells).rstrip()


class NoteWatchingApp(RecordingApp):
    """Notes, frame by frame, whether the terminal showed the note over the count bar, and what toasts the
    trail found then: the note is on the glass for seconds, a busy machine may give the test no turn in them."""

    note = "bob left seat 2"
    trail_saw: list[str] | None = None

    @property
    def bar(self) -> int:
        """The count bar's row (the requests line above it grows and shrinks as people come and go)."""
        found = self.query(CardBar)
        return found.first().region.y if found else -1

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        drawn = self.written_screen
        if drawn is None or self.trail_saw is not None:
            return
        bar = self.bar
        if 0 <= bar < drawn.height and self.note in row_text(drawn.cells[bar]):
            self.trail_saw = [str(toast.render()) for toast in toasts(self.screen)]


async def test_at_40x12_a_player_leaving_before_any_flip_is_a_note_that_leaves_the_count_bar_as_it_was():
    """bob sits, then leaves before a card is turned: ann's note "bob left seat 2" lies over the count bar,
    and once its time is up the count bar reads whole again, on the terminal as in the layout."""
    with TableServer(dealing(*FIVE_PLAIN)) as server:
        fd, _link = server.connect("ann", table="oak")
        app = table_app(fd)
        app.__class__ = NoteWatchingApp  # same app; every frame it writes is kept (see test_terminal_output)
        assert isinstance(app, NoteWatchingApp)
        async with app.run_test(size=(40, 12), notifications=True) as pilot:
            await pilot.pause()
            bob, _sink = server.seat("oak", "bob")
            server.wake.set()
            await until(pilot, lambda: app.written_screen is not None and "bob" in row_text(app.written_screen.cells[0]))
            bob.leave()
            server.wake.set()
            await until(pilot, lambda: app.trail_saw is not None)  # the note lay over the count bar
            assert app.trail_saw == [app.note]  # and the trail knew of its toast
            await until(pilot, lambda: not app.screen.query("Toast"))  # its time is up: Textual took it away
            await pilot.pause()
            await pilot.pause()
            assert app.written_screen is not None
            expected = drawn_from_nothing(app)
            assert row_text(app.written_screen.cells[app.bar]) == row_text(expected.cells[app.bar])
            assert "left seat" not in row_text(app.written_screen.cells[app.bar])
            assert app.written_screen.cells == expected.cells
