"""The lobby of a server's shared tables: every table, live; sit, watch, or open a new one.

The list keeps the cursor on the same table as rows come and go (on its neighbour when that one goes) and
says which tables are out of sight. The screen decides no rule: the server seats, makes spectators and
words every refusal. The one check here is the table name's, with the tables package's rule, so a bad
name is said before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static
from textual.widgets.data_table import CellDoesNotExist, ColumnKey

from ...presentation.footer import LOBBY_FOOTER
from ...presentation.glyphs import Glyphs
from ...presentation.leaderboard import NO_LEADERBOARD
from ...presentation.lobby import (
    ROW_HEIGHT,
    column_widths,
    lobby_columns,
    lobby_count,
    lobby_rows,
    lobby_summary,
    rows_in_sight,
    shown_tables,
)
from ...presentation.words import capital
from ...stats import StatsStore
from ...tables import Lobby, TableNameError, parse_table_name
from ...tables.names import MAX_TABLE_NAME_LENGTH, TABLE_NAME_RULE
from ..components.game_footer import GameFooter
from ..text import plain


class TableList(DataTable[Text]):
    """The list of tables: its chosen row kept in sight as its height changes, and the screen told (the rows in
    sight change with it)."""

    class Resized(Message):
        """The list's size changed."""

    def on_resize(self) -> None:
        self.move_cursor(row=self.cursor_row, animate=False)
        self.post_message(self.Resized())


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,p", "sit", "Sit", key_display="enter"),
        Binding("w", "watch", "Watch"),
        Binding("f", "free_seats", "Free seats"),
        Binding("n", "new_table", "New table"),
        Binding("s", "leaderboard", "Leaders"),
        Binding("s", "no_leaderboard", "Leaders", show=False),  # where the server keeps none: says so
        Binding("q", "app.quit", "Quit"),
    ]

    AUTO_FOCUS = ""  # none: the list takes the keys once the server's list is in it (``watch_lobby``)

    lobby: var[Lobby | None] = var(None)
    free_only: var[bool] = var(False)
    """List only the tables with a seat to take (``f``)."""

    @dataclass
    class JoinRequested(Message):
        """Sit at (or, with ``watch``, watch) the table called ``table``."""

        table: str
        watch: bool

    def __init__(self, glyphs: Glyphs, leaderboard: StatsStore | None = None, you: str | None = None) -> None:
        """``leaderboard``: the server's statistics, which ``s`` shows as its leaderboard (None: it keeps none);
        ``you``: the player's identity, whose row there says so."""
        super().__init__()
        self.glyphs = glyphs
        self.leaderboard = leaderboard
        self.you = you
        self._ready = False
        """Composed and mounted: a lobby that came before waits for ``on_mount``."""
        self._columns: tuple[str, ...] = ()
        """The columns the list shows now (they depend on the screen's width)."""
        self._asked_early: bool | None = None
        """Sit (False) or watch (True), asked before the server's first list: done once it arrives."""
        self._column_keys: tuple[ColumnKey, ...] = ()
        """The keys of the list's columns, for changing a cell in place."""
        self._drawn_width = 0
        """The screen's width the rows were made for."""
        self._widths: tuple[int, ...] = ()
        """The cells each column is wide (``column_widths``)."""
        self._listed: tuple[str, ...] = ()
        """The tables in the list, in its order: where a table that leaves it stood."""

    def compose(self) -> ComposeResult:
        yield Static(plain("War tables"), id="lobby-title")
        yield Static(plain("Waiting for the server's list of tables..."), id="lobby-summary")
        yield TableList(id="lobby-tables", cursor_type="row", zebra_stripes=True)
        yield Static("", id="lobby-count")
        with Horizontal(id="lobby-new"):
            yield Label(plain("New table name: "), id="lobby-new-label")
            yield Input(
                placeholder=f"1-{MAX_TABLE_NAME_LENGTH} of a-z 0-9 -", max_length=MAX_TABLE_NAME_LENGTH * 2,
                id="lobby-name",
            )
        yield Static("", id="lobby-message")
        dot = self.glyphs.dot
        leaders = f" {dot} s leaders" if self.leaderboard is not None else ""
        yield Static(plain(
            f"Up/Down choose {dot} enter sits {dot} w watches {dot} f free seats {dot} n opens a new table"
            f"{leaders} {dot} q leaves {dot} ? help"),
            id="lobby-keys",
        )
        yield GameFooter(ascii=self.glyphs.ascii, plan=LOBBY_FOOTER)

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#lobby-new").display = False
        self.query_one("#lobby-count").display = False
        self.query_one("#lobby-message").display = False
        self.watch(self.query_one("#lobby-tables", DataTable), "scroll_y", self._count_later, init=False)
        self.watch_lobby(self.lobby)

    def on_resize(self, event: events.Resize) -> None:
        """Narrower or wider: the columns that fit (``lobby_columns``) and the rows drawn again for the width
        (a narrow row's seats get the room the other columns leave)."""
        if self._ready and event.size.width != self._drawn_width:
            self.watch_lobby(self.lobby)

    def watch_lobby(self, lobby: Lobby | None) -> None:
        if not self._ready:
            return
        table = self.query_one("#lobby-tables", DataTable)
        width = self._drawn_width = self.size.width
        columns = lobby_columns(width)
        chosen = self.chosen_table()
        if lobby is None:
            self._update_rows(table, columns, {})
            return
        listed = shown_tables(lobby.tables, self.free_only)
        names = tuple(entry.table for entry in listed)
        self._update_rows(table, columns, dict(zip(names, lobby_rows(listed, self.glyphs, width))))
        if names:
            table.move_cursor(row=self._place_of(chosen, names), animate=False)
        self._listed = names
        self._count_later()
        self.query_one("#lobby-summary", Static).update(plain(lobby_summary(len(lobby.tables), lobby.max_tables)))
        self.set_class(lobby.full, "-full")
        if self.focused is None:
            table.focus()
        if self._asked_early is not None:
            watch, self._asked_early = self._asked_early, None
            self._join(watch)

    def _update_rows(
        self, table: DataTable[Text], columns: tuple[str, ...], rows: dict[str, tuple[str, ...]]
    ) -> None:
        """The list holds ``rows`` (by table, in their order) under ``columns``, changed in place, so the rows
        in sight stay where they are (clearing the list scrolls it to the top).

        Each column is as wide as its widest cell, set here rather than measured by the DataTable (whose
        columns never narrow, and whose rows drawn before it measures keep their old widths): when the
        widths change, the list is made afresh at the same scroll."""
        widths = column_widths(columns, rows.values())
        if (columns, widths) != (self._columns, self._widths):
            top = table.scroll_y
            table.clear(columns=True)
            self._column_keys = tuple(
                table.add_column(plain(label), width=width) for label, width in zip(columns, widths)
            )
            self._columns, self._widths = columns, widths
            table.scroll_y = top  # the list's height is still the old one until it is measured again
        for gone in [key for key in table.rows if key.value not in rows]:
            table.remove_row(gone)
        for name, row in rows.items():
            cells = tuple(map(plain, row))
            if name not in table.rows:
                table.add_row(*cells, key=name, height=ROW_HEIGHT)
                continue
            for column, cell, old in zip(self._column_keys, cells, table.get_row(name)):
                if cell != old:
                    table.update_cell(name, column, cell)
        order = {name: place for place, name in enumerate(rows)}
        if [row.key.value for row in table.ordered_rows] != list(rows):  # a new row comes last
            table.sort(self._column_keys[0], key=lambda cell: order[cell.plain])

    def watch_free_only(self) -> None:
        self.watch_lobby(self.lobby)

    def _place_of(self, chosen: str | None, names: tuple[str, ...]) -> int:
        """The row for the cursor in a list of ``names``: the chosen table's; when it is gone, the first of
        the tables that followed it that is still listed (else the last before it); else the first row."""
        if chosen in names:
            return names.index(chosen)
        if chosen not in self._listed:
            return 0
        at = self._listed.index(chosen)
        for name in (*self._listed[at + 1:], *reversed(self._listed[:at])):
            if name in names:
                return names.index(name)
        return 0

    def _count_later(self) -> None:
        """Once the list is laid out and scrolled: the line saying which tables are in sight."""
        self.call_after_refresh(self._count)

    def _count(self) -> None:
        """Runs after a refresh: by then the lobby may be leaving (a table chosen), its widgets gone."""
        if not self.is_attached or self.lobby is None:
            return
        for table in self.query("#lobby-tables").results(DataTable):
            for count in self.query("#lobby-count").results(Static):
                lines = table.scrollable_content_region.height - (table.header_height if table.show_header else 0)
                first, last = rows_in_sight(table.row_count, table.scroll_y, lines)
                text = lobby_count(len(self.lobby.tables), table.row_count, first, last, free_only=self.free_only)
                count.display = text is not None
                count.update(plain(text or ""))

    def chosen_table(self) -> str | None:
        """The table under the cursor, if there is one."""
        table = self.query_one("#lobby-tables", DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except CellDoesNotExist:  # a cursor past the rows just cleared
            return None
        return key.value

    def say(self, text: str) -> None:
        """One line for the person under the list: a refusal, or what is happening (none: the line leaves)."""
        message = self.query_one("#lobby-message", Static)
        message.update(plain(text))
        message.display = bool(text)

    # ---------------------------------------------------------------- keys

    def action_sit(self) -> None:
        self._join(watch=False)

    def action_watch(self) -> None:
        self._join(watch=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``s`` is the leaderboard where the server keeps one; elsewhere it only says there is none."""
        if action == "leaderboard":
            return self.leaderboard is not None
        if action == "no_leaderboard":
            return self.leaderboard is None
        return True

    def action_leaderboard(self) -> None:
        from .leaderboard import LeaderboardScreen  # loaded when first asked for (DataTable, sqlite reads)

        if self.leaderboard is not None:
            self.app.push_screen(LeaderboardScreen(self.leaderboard, you=self.you, glyphs=self.glyphs))

    def action_no_leaderboard(self) -> None:
        self.say(NO_LEADERBOARD)

    def action_free_seats(self) -> None:
        self.free_only = not self.free_only

    def _join(self, watch: bool) -> None:
        if self.lobby is None:  # a key typed as the lobby opens: the list is on its way
            self._asked_early = watch
            self.say("Reading the tables...")
            return
        name = self.chosen_table()
        if name is None and self.free_only and self.lobby.tables:
            self.say("No table has a free seat: f lists them all, n opens a new one.")
            return
        if name is None:
            self.say("There is no table to choose yet: n opens one.")
            return
        self.say(f"{'Watching' if watch else 'Sitting at'} {name}...")
        self.post_message(self.JoinRequested(name, watch))

    def action_new_table(self) -> None:
        if self.lobby is not None and self.lobby.full:
            self.say("The server is full: no new table until one closes. Sit at a free seat or watch.")
            return
        self.query_one("#lobby-new").display = True
        self.say(f"Type a name and press enter ({TABLE_NAME_RULE}); esc goes back to the list.")
        self.query_one("#lobby-name", Input).focus()

    def key_escape(self) -> None:
        if self.query_one("#lobby-new").display:
            self._close_new_table()

    def _close_new_table(self) -> None:
        name_input = self.query_one("#lobby-name", Input)
        name_input.value = ""
        self.query_one("#lobby-new").display = False
        self.query_one("#lobby-tables", DataTable).focus()
        self.say("")

    @on(Input.Submitted, "#lobby-name")
    def _name_given(self, event: Input.Submitted) -> None:
        try:
            name = parse_table_name(event.value.strip())
        except TableNameError as refusal:
            self.say(capital(str(refusal)))
            return
        self._close_new_table()
        self.say(f"Opening {name}...")
        self.post_message(self.JoinRequested(name, False))

    @on(TableList.Resized)
    def _list_resized(self) -> None:
        self._count_later()

    @on(DataTable.RowSelected, "#lobby-tables")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_sit()
