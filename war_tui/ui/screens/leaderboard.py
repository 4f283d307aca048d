"""The lobby's leaderboard: each player's table games, wins and longest game, from the server's statistics.

The lobby runs in a player's own game process, which the server points at its statistics file
(``--stats-db``); the board reads it there (``StatsStore.leaders``), in a worker thread, once per
season shown. It never writes. A player is an identity (never shown) under the name of their latest game.
The season on show (all time, a week, a month: stats/seasons.py) is the screen's state; tab changes its
span, p and n go to the season before and after, enter replays the chosen row's longest game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
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
from ...presentation.glyphs import Glyphs, choose_glyphs
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
from ...stats.replay import Replay, ReplayError
from ...stats.seasons import SPANS, Season, Span
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
        Binding("tab", "next_span", "Week/month/all", priority=True),
        Binding("p", "earlier", "Earlier"),
        Binding("n", "later", "Later"),
        Binding("enter", "replay", "Replay"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
    ]

    season: var[Season] = var(Season(Span.ALL), init=False)
    """The season on show; all time when the screen opens."""
    leaders: var[tuple[Leader, ...] | None] = var(None)
    """What the store said of the season on show, once read (None: not yet, or the file cannot be read)."""
    unreadable: var[bool] = var(False)

    def __init__(self, store: StatsStore, *, you: str | None = None, ascii: bool = False,
                 glyphs: Glyphs | None = None, now: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self.store = store
        self.you = you
        """The viewer's identity: their row says "(you)"."""
        self.glyphs = glyphs if glyphs is not None else choose_glyphs(ascii, {})
        self.ascii = self.glyphs.ascii
        self.now = now if now is not None else (lambda: datetime.now(UTC))
        """The clock seasons are taken from (UTC)."""

    def compose(self) -> ComposeResult:
        yield Static(plain(self._title(self.app.size.width)), id="leaderboard-title")
        yield Static(plain(EXPLAINED), id="leaderboard-about")
        yield DataTable(id="leaderboard-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="leaderboard-message")
        yield GameFooter(ascii=self.ascii, plan=FooterPlan())

    def on_mount(self) -> None:
        self.query_one("#leaderboard-table").display = False
        if self.store.user_disabled:
            self._say(NO_STATISTICS)
            return
        self._show_season()

    def _today(self) -> date:
        return self.now().astimezone(UTC).date()

    def _title(self, width: int) -> str:
        """The season on show, in the fullest words that fit ``width`` (less the title's padding)."""
        words = self.season.describe(self._today())
        utc = "" if self.season.start is None else " (UTC)"
        for title in (f"Leaderboard: {words}{utc}", f"Leaderboard: {words}", words[0].upper() + words[1:]):
            if len(title) <= width - 2:
                return title
        return title

    def _show_title(self) -> None:
        self.query_one("#leaderboard-title", Static).update(plain(self._title(self.size.width or self.app.size.width)))

    def watch_season(self) -> None:
        self._show_title()
        self.refresh_bindings()
        if not self.store.user_disabled:
            self._show_season()

    def _show_season(self) -> None:
        self.leaders = None
        self.unreadable = False
        self.set_timer(READING_AFTER, self._say_reading)
        self._read(self.season)

    def _say_reading(self) -> None:
        if self.leaders is None and not self.unreadable:
            self.query_one("#leaderboard-table").display = False
            self._say(READING)

    @work(thread=True, exclusive=True, group="leaderboard", exit_on_error=False)
    def _read(self, season: Season) -> tuple[Season, tuple[Leader, ...] | None]:
        return season, self.store.leaders(season=season)

    @on(Worker.StateChanged)
    def _read_done(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "leaderboard" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        result = event.worker.result if event.state is WorkerState.SUCCESS else None
        season, leaders = result if result is not None else (self.season, None)
        if season != self.season:
            return  # a season tabbed past before its read came back
        if leaders is None:  # the file cannot be read (or a bug in reading it): said, never a traceback
            self.unreadable = True
        else:
            self.leaders = leaders

    def watch_unreadable(self, unreadable: bool) -> None:
        if unreadable:
            self._say(UNREADABLE)

    def watch_leaders(self, leaders: tuple[Leader, ...] | None) -> None:
        self.refresh_bindings()  # enter replays only a row that is there
        if leaders is None:
            return
        if not leaders:
            self.query_one("#leaderboard-table").display = False
            self._say(EMPTY if self.season.start is None else f"No table games finished in {self._in_season()}.")
            return
        self._say("")
        self._fill(leaders)

    def on_resize(self, event: events.Resize) -> None:
        self._show_title()
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

    def _in_season(self) -> str:
        words = self.season.describe(self._today())
        return words.replace("this ", "", 1).split(",")[0] if words.startswith("this ") else words

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """p and n only for a week or a month (all time has no season before it); n not past this one."""
        if action == "earlier":
            return self.season.previous() is not None
        if action == "later":
            return self.season.start is not None and self.season != Season.of(self.season.span, self.now())
        if action == "replay":
            return bool(self.leaders)
        return True

    def action_next_span(self) -> None:
        span = SPANS[(SPANS.index(self.season.span) + 1) % len(SPANS)]
        self.season = Season.of(span, self.now())

    def action_earlier(self) -> None:
        before = self.season.previous()
        if before is not None:
            self.season = before

    def action_later(self) -> None:
        after = self.season.next()
        if after is not None and self.check_action("later", ()):
            self.season = after

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """enter on a row (the table answers enter itself; the binding names it in the footer)."""
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        """The chosen player's longest game of the season, on the replay screen."""
        leaders = self.leaders
        table: DataTable[Text] = self.query_one("#leaderboard-table", DataTable)
        if not leaders or not 0 <= table.cursor_row < len(leaders):
            return
        game_id = leaders[table.cursor_row].longest_id
        found = self.store.game(game_id) if game_id is not None else None
        if not found:
            self.notify("That game is not in the server's statistics any more, so it cannot be replayed.",
                        severity="warning", markup=False)
            return
        record = found[0]
        try:
            replay = Replay.of_record(record)
        except ReplayError as error:
            self.notify(str(error).capitalize() + ".", severity="warning", markup=False)
            return
        from .replay import ReplayScreen  # loaded when first asked for

        self.app.push_screen(ReplayScreen(replay, (record.p1_name, record.p2_name), self.glyphs, game_id=record.id,
                                          local=False))  # the server's statistics: no command here reaches it

    def action_close(self) -> None:
        self.dismiss()
