"""The statistics screen: lifetime totals, a histogram of game lengths, and recent games to replay.

It reads the store once, in a worker thread (a million games take a second to add up), so keys answer at
once; it never writes. A served player sees only their own games. Choosing a recent game posts
``ReplayRequested``, and the app opens the replay screen on that game.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from ...core.rules import Rules
from ...presentation.cells import first_parts
from ...presentation.footer import FooterPlan
from ...presentation.words import counted, deepest_war_text, duration_text, number, plural
from ...settings.served import without_paths
from ...stats import GameRecord, StatsStore, Summary
from ...stats.records import Totals
from ...stats.text import NO_GAMES, rules_brief, source_label, when, when_short, winner
from ..bindings import GAME_KEYS_OVER_BOARD
from ..components.game_footer import GameFooter
from ..components.length_histogram import LengthHistogram
from ..components.result_shares import ResultShares
from ..text import plain

RECENT_GAMES = 50
READING = "Reading the statistics..."
READING_AFTER = 0.15
"""Seconds before "reading" shows: a quick read shows its figures without a flash of it first."""
RECENT_COLUMNS = (  # (label, right-aligned)
    ("Finished", False), ("Seed", True), ("Winner", False), ("Battles", True), ("Wars", True),
    ("Deep", True), ("How", False), ("Rules", False),
)


def figures_text(totals: Totals) -> Text:
    """Game length and war records, each with the seed that replays it."""
    text = Text()

    def line(label: str, value: str, record: GameRecord | None = None) -> None:
        if text:
            text.append("\n")
        text.append(f"{label:<12}", "bold")
        text.append(value)
        if record is not None and record.seed is not None:
            text.append(f" · seed {record.seed}", "dim")

    assert totals.longest and totals.most_wars and totals.deepest_war, "shown once games > 0"
    line("Battles", f"mean {number(totals.mean_battles)} · median {number(totals.median_battles)}")
    line("Longest", plural(totals.longest.battles, "battle"), totals.longest)
    line("Most wars", f"{plural(totals.most_wars.wars, 'war')} in a game", totals.most_wars)
    line("Deepest war", deepest_war_text(totals.deepest_war.longest_war), totals.deepest_war)
    return text


class StatsScreen(Screen[None]):
    """Lifetime statistics; enter on a recent game replays it, escape goes back."""

    CSS_PATH = str(resources.files("war_tui.styles").joinpath("stats.tcss"))
    BINDINGS = [
        # The game's keys still work here, but the footer names only this screen's own.
        *(replace(binding, show=False) for binding in GAME_KEYS_OVER_BOARD),
        Binding("escape", "close", "Back"),
        Binding("s", "close", "Back", show=False),
        Binding("enter", "replay", "Replay"),  # the table answers enter itself; this names it
    ]

    class ReplayRequested(Message):
        """Replay this game, battle by battle (handled by the app)."""

        def __init__(self, seed: int, rules: Rules, record: GameRecord) -> None:
            super().__init__()
            self.seed = seed
            self.rules = rules
            self.record = record

    def __init__(
        self,
        store: StatsStore,
        *,
        show_path: bool = True,
        player: str | None = None,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.store = store
        self.ascii = ascii
        """No box-drawing in the footer (--ascii, or a terminal that is not UTF-8)."""
        self.show_path = show_path
        """False in a served game: the player is not on this machine, its paths are none of theirs."""
        self.player = player
        """A served game's player: only their games are shown (None: every game in the file)."""
        self.summary: Summary | None = None
        """What the store said, once read (None before, or when the file cannot be read)."""
        self.read = False
        """True once the summary is read and on screen."""
        self._games: dict[str, GameRecord] = {}
        self._recent: tuple[GameRecord, ...] = ()
        self._headline_parts: list[str] = []

    def compose(self) -> ComposeResult:
        """The frame only: the figures come from ``_read_summary``, off this thread."""
        self.sub_title = str(self.store.path) if self.show_path else ""
        yield Static(self._title(self.app.size.width), id="stats-title")
        yield Static("", id="stats-reading")
        yield GameFooter(ascii=self.ascii, plan=FooterPlan())

    def on_mount(self) -> None:
        self.set_timer(READING_AFTER, self._say_reading)
        self._read_summary()

    def _say_reading(self) -> None:
        for reading in self.query("#stats-reading").results(Static):
            reading.update(plain(READING))

    @work(thread=True, exclusive=True, group="stats-summary", exit_on_error=False)
    def _read_summary(self) -> Summary | None:
        return self.store.summary(recent=RECENT_GAMES, player=self.player)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "stats-summary":
            return
        if event.state is WorkerState.SUCCESS:
            await self._show(event.worker.result)
        elif event.state is WorkerState.ERROR:  # a bug, not a file problem (those come back as None)
            await self._show(None)

    async def _show(self, summary: Summary | None) -> None:
        """The figures, in place of "reading"."""
        self.summary = summary
        self._headline_parts = self._headline(summary.totals) if summary is not None and summary.totals.games else []
        self.query_one("#stats-title", Static).update(self._title(self.app.size.width))
        await self.mount_all(self._parts(summary), before=self.query_one(GameFooter))
        await self.query_one("#stats-reading").remove()
        self._fill_recent()
        self.read = True

    def _parts(self, summary: Summary | None) -> list[Widget]:
        parts: list[Widget] = []
        if self.store.disabled_reason is not None:
            parts.append(Static(plain(f"Statistics are off: {self._shown(self.store.disabled_reason)}."), id="stats-off"))
        elif waiting := self.store.pending:
            parts.append(Static(
                plain(f"{counted(waiting, 'finished game', 'is', 'are')} waiting to be saved: another program has the file locked. Retrying."),
                id="stats-off",
            ))
        if summary is None:
            if not self.store.user_disabled:
                parts.append(Static(plain(self._unreadable_text()), id="stats-message"))
        elif summary.totals.games == 0:
            where = f" here, kept in\n{self.store.path}" if self.show_path else " here."
            parts.append(Static(
                plain(f"{NO_GAMES}\n\nEvery finished game (played, auto-played or screensaver) is counted{where}"),
                id="stats-message",
            ))
        else:
            totals = summary.totals
            shares = ResultShares(totals, id="stats-shares")
            shares.border_title = "Results"
            figures = Static(figures_text(totals), id="stats-figures")
            figures.border_title = "Records"
            parts.append(Horizontal(shares, figures, id="stats-panels"))
            histogram = LengthHistogram(summary.histogram, id="stats-histogram")
            histogram.border_title = "Game lengths"  # its subtitle (the tallest bar) follows its width
            parts.append(histogram)
            table: DataTable[Text] = DataTable(id="stats-recent", cursor_type="row", zebra_stripes=True)
            table.border_title = "Recent games · enter replays"
            parts.append(table)
            self._recent = summary.recent
        return parts

    def _fill_recent(self) -> None:
        recent = self._recent
        if not recent:
            return
        table = self.query_one("#stats-recent", DataTable)
        # Short labels to fit 80 columns; rules last, as their length varies.
        for label, right in RECENT_COLUMNS:
            table.add_column(plain(label, justify="right" if right else None))
        for record in recent:
            key = str(record.id)
            self._games[key] = record
            table.add_row(
                plain(when_short(record.finished_at)),
                plain("-" if record.seed is None else str(record.seed), justify="right"),
                plain(winner(record)),
                plain(f"{record.battles:,}", justify="right"),
                plain(f"{record.wars:,}", justify="right"),
                plain(str(record.longest_war), justify="right"),
                plain(source_label(record.source)),
                plain(rules_brief(record)),
                key=key,
            )
        table.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return bool(self._games)  # no recent games: no "Replay" in the footer
        return True

    def _headline(self, totals: Totals) -> list[str]:
        return [
            f"{plural(totals.games, 'game')} since {when(totals.first_at)[:10]}",
            plural(totals.total_battles, "battle"),
            plural(totals.total_wars, "war"),
            f"{duration_text(totals.seconds_played)} played",
        ]

    def _title(self, width: int) -> Text:
        """"Statistics" and as much of the headline as fits, in whole parts."""
        title = plain("Statistics", "bold")
        shown = first_parts(self._headline_parts, " · ", width - len("Statistics  ") - 2)  # 2: the padding
        if shown:
            title.append("  " + shown)
        return title

    def on_resize(self) -> None:
        for title in self.query("#stats-title").results(Static):  # none before compose or after close
            title.update(self._title(self.app.size.width))

    def _shown(self, text: str) -> str:
        return text if self.show_path else without_paths(text, self.store.path)

    def _unreadable_text(self) -> str:
        return (
            "The statistics file cannot be read, so there is nothing to show.\n"
            "It was left exactly as it was. Games go on; choose another file with"
            " --stats-db PATH, or none with --no-stats."
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._replay(event.row_key.value)

    def action_replay(self) -> None:
        table = self.query("#stats-recent")
        if table:
            dt = table.first(DataTable)
            if dt.row_count:
                self._replay(dt.coordinate_to_cell_key(dt.cursor_coordinate).row_key.value)

    def _replay(self, key: str | None) -> None:
        record = self._games.get(key or "")
        if record is None:
            return
        if record.seed is None:
            self.notify("That game was dealt by hand, so it has no seed to replay.", severity="warning")
            return
        if record.rules is None:
            self.notify("That game's rules are not ones this version of war-tui plays.", severity="warning")
            return
        # Posted to the app, not the screen: this screen is about to close.
        self.app.post_message(self.ReplayRequested(record.seed, record.rules, record))
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()
