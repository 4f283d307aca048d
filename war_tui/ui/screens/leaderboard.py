"""The lobby's leaderboard: each player's table games, wins and longest game, from the server's statistics.

The lobby runs in a player's own game process, which the server points at its statistics file
(``--stats-db``); the board reads it there (``StatsStore.leaders``), in a worker thread, once per
showing. It never writes. A player is an identity (never shown) under the name of their latest game.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from ...presentation.footer import FooterPlan
from ...presentation.leaderboard import (
    EMPTY,
    EXPLAINED,
    NO_STATISTICS,
    UNREADABLE,
    column_widths,
    leaderboard_cells,
)
from ...stats import StatsStore
from ...stats.records import Leader
from ..components.game_footer import GameFooter
from ..text import plain

READING = "Reading the leaderboard..."
READING_AFTER = 0.15
"""Seconds before "reading" shows: a quick read shows the board without a flash of it first."""


class LeaderboardScreen(Screen[None]):
    """The leaderboard over the lobby; esc (or q, or s again) goes back to it."""

    CSS_PATH = str(resources.files("war_tui.styles").joinpath("leaderboard.tcss"))
    BINDINGS = [
        Binding("escape", "close", "Back", key_display="esc"),
        Binding("q,s", "close", "Back", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
    ]

    leaders: var[tuple[Leader, ...] | None] = var(None)
    """What the store said, once read (None: not yet, or the file cannot be read)."""
    unreadable: var[bool] = var(False)

    def __init__(self, store: StatsStore, *, you: str | None = None, ascii: bool = False) -> None:
        super().__init__()
        self.store = store
        self.you = you
        """The viewer's identity: their row says "(you)"."""
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        yield Static(plain("Leaderboard"), id="leaderboard-title")
        yield Static(plain(EXPLAINED), id="leaderboard-about")
        yield DataTable(id="leaderboard-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="leaderboard-message")
        yield GameFooter(ascii=self.ascii, plan=FooterPlan())

    def on_mount(self) -> None:
        self.query_one("#leaderboard-table").display = False
        if self.store.user_disabled:
            self._say(NO_STATISTICS)
            return
        self.set_timer(READING_AFTER, self._say_reading)
        self._read()

    def _say_reading(self) -> None:
        if self.leaders is None and not self.unreadable:
            self._say(READING)

    @work(thread=True, exclusive=True, group="leaderboard", exit_on_error=False)
    def _read(self) -> tuple[Leader, ...] | None:
        return self.store.leaders()

    @on(Worker.StateChanged)
    def _read_done(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "leaderboard" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        leaders = event.worker.result if event.state is WorkerState.SUCCESS else None
        if leaders is None:  # the file cannot be read (or a bug in reading it): said, never a traceback
            self.unreadable = True
        else:
            self.leaders = leaders

    def watch_unreadable(self, unreadable: bool) -> None:
        if unreadable:
            self._say(UNREADABLE)

    def watch_leaders(self, leaders: tuple[Leader, ...] | None) -> None:
        if leaders is None:
            return
        if not leaders:
            self._say(EMPTY)
            return
        self._say("")
        self._fill(leaders)

    def on_resize(self, event: events.Resize) -> None:
        if self.leaders:
            self._fill(self.leaders)  # the columns and the room for names follow the width

    def _fill(self, leaders: Sequence[Leader]) -> None:
        table: DataTable[Text] = self.query_one("#leaderboard-table", DataTable)
        columns, rows = leaderboard_cells(leaders, self.size.width, self.you, "..." if self.ascii else "…")
        row = table.cursor_row
        table.clear(columns=True)
        for label, width in zip(columns, column_widths(columns, rows)):
            table.add_column(plain(label), width=width)
        for cells in rows:
            table.add_row(*map(plain, cells))
        table.display = True
        table.move_cursor(row=min(row, len(rows) - 1), animate=False)
        table.focus()

    def _say(self, text: str) -> None:
        message = self.query_one("#leaderboard-message", Static)
        message.update(plain(text))
        message.display = bool(text)

    def action_close(self) -> None:
        self.dismiss()
