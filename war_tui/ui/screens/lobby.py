"""The lobby of a server's shared tables: every table, live; sit, watch, or open a new one.

The app sets ``lobby`` whenever the server sends one; the list keeps the row
under the cursor on the same table as rows come and go. The screen decides no
rule: the server seats whoever asks at a free seat and makes them a spectator
when both are taken, and words every refusal. The one check made here is the
table name's, with the tables package's own rule, so a refused name is said
before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static
from textual.widgets.data_table import CellDoesNotExist

from ...presentation.footer import FooterPlan
from ...presentation.glyphs import Glyphs
from ...presentation.lobby import ROW_HEIGHT, lobby_columns, lobby_rows, lobby_summary
from ...presentation.words import capital
from ...tables import Lobby, TableNameError, parse_table_name
from ...tables.names import MAX_TABLE_NAME_LENGTH, TABLE_NAME_RULE
from ..components.game_footer import GameFooter
from ..text import plain


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,p", "sit", "Sit", key_display="enter"),
        Binding("w", "watch", "Watch"),
        Binding("n", "new_table", "New table"),
        Binding("q", "app.quit", "Quit"),
    ]

    AUTO_FOCUS = ""  # none: the list takes the keys once the server's list is in it (``watch_lobby``)

    lobby: var[Lobby | None] = var(None)

    @dataclass
    class JoinRequested(Message):
        """Sit at (or, with ``watch``, watch) the table called ``table``."""

        table: str
        watch: bool

    def __init__(self, glyphs: Glyphs) -> None:
        super().__init__()
        self.glyphs = glyphs
        self._ready = False
        """Composed and mounted: a lobby that came before waits for ``on_mount``."""
        self._columns: tuple[str, ...] = ()
        """The columns the list shows now (they depend on the screen's width)."""
        self._asked_early: bool | None = None
        """Sit (False) or watch (True), asked before the server's first list: done once it arrives."""

    def compose(self) -> ComposeResult:
        yield Static(plain("War tables"), id="lobby-title")
        yield Static(plain("Waiting for the server's list of tables..."), id="lobby-summary")
        yield DataTable(id="lobby-tables", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="lobby-new"):
            yield Label(plain("New table name: "), id="lobby-new-label")
            yield Input(
                placeholder=f"1-{MAX_TABLE_NAME_LENGTH} of a-z 0-9 -", max_length=MAX_TABLE_NAME_LENGTH * 2,
                id="lobby-name",
            )
        yield Static("", id="lobby-message")
        yield Static(plain(
            f"Up/Down choose {self.glyphs.dot} enter sits {self.glyphs.dot} w watches"
            f" {self.glyphs.dot} n opens a new table {self.glyphs.dot} q leaves {self.glyphs.dot} ? help"),
            id="lobby-keys",
        )
        yield GameFooter(ascii=self.glyphs.ascii, plan=FooterPlan())

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#lobby-new").display = False
        self.watch_lobby(self.lobby)

    def on_resize(self, event: events.Resize) -> None:
        """Narrower or wider: the columns that fit (``lobby_columns``), the rows drawn again for them."""
        if self._ready and lobby_columns(event.size.width) != self._columns:
            self.watch_lobby(self.lobby)

    def watch_lobby(self, lobby: Lobby | None) -> None:
        if not self._ready:
            return
        table = self.query_one("#lobby-tables", DataTable)
        width = self.size.width
        columns = lobby_columns(width)
        chosen = self.chosen_table()
        if columns != self._columns:
            table.clear(columns=True)
            table.add_columns(*map(plain, columns))
            self._columns = columns
        if lobby is None:
            return
        table.clear()
        for entry, row in zip(lobby.tables, lobby_rows(lobby.tables, self.glyphs, width)):
            table.add_row(*map(plain, row), key=entry.table, height=ROW_HEIGHT)
        names = [entry.table for entry in lobby.tables]
        if chosen in names:
            table.move_cursor(row=names.index(chosen), animate=False)
        self.query_one("#lobby-summary", Static).update(plain(lobby_summary(len(lobby.tables), lobby.max_tables)))
        self.set_class(lobby.full, "-full")
        if self.focused is None:
            table.focus()
        if self._asked_early is not None:
            watch, self._asked_early = self._asked_early, None
            self._join(watch)

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
        """One line for the person under the list: a refusal, or what is happening."""
        self.query_one("#lobby-message", Static).update(plain(text))

    # ---------------------------------------------------------------- keys

    def action_sit(self) -> None:
        self._join(watch=False)

    def action_watch(self) -> None:
        self._join(watch=True)

    def _join(self, watch: bool) -> None:
        if self.lobby is None:  # a key typed as the lobby opens: the list is on its way
            self._asked_early = watch
            self.say("Reading the tables...")
            return
        name = self.chosen_table()
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

    @on(DataTable.RowSelected, "#lobby-tables")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_sit()
