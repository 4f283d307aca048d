"""War at a shared table: the solo game's board following a table's game, its keys turned into requests.

``TableApp`` is the full-screen game with a ``TableGame`` in place of the
engine. The engine adapter follows that game as it follows a local one, so the
board neither knows nor cares that the table is elsewhere; this module only
adds what a table has and a solo game has not: the seats line, the table's
notices, a late joiner's replay of the log, the lobby, and the end of a table.
Every rule stays with the table: a key here is a request, and the table's
answer (a battle, a seat change, a refusal) is what the screen shows.

``TableApp`` sits at one seat (or none: watching) over a socket to the SSH
server; ``two_player_app.TwoPlayerApp`` puts both seats at this keyboard.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.notifications import SeverityLevel
from textual.reactive import var

from .app import STYLES, WarApp
from .components.battle_log import BattleLog
from .components.seats import SeatsLine
from .components.status import StatusLine
from ..core.events import BattleWon, Event, GameOver, GameStarted
from ..presentation.speed import faster, slower, speed_label
from .screens.help import HelpScreen
from .screens.lobby import LobbyScreen
from .screens.table_closed import TableClosedScreen
from .screens.table_game_over import TableGameOverScreen
from ..settings.play import PlaySettings
from ..stats import StatsStore
from .table_bindings import SPECTATOR_KEYS, TABLE_KEYS
from .table_connection import LocalHost, SocketHost
from ..presentation.table_views import board_steps, deal_view, end_view
from ..tables.messages import LOGGED_NOTICES
from ..tables import (
    Join,
    Lobby,
    Notice,
    NoticeCode,
    Snapshot,
    TableGame,
    TableState,
    You,
)
from ..presentation.views import BattleView, EndView, LogNote

BOARD_ACTIONS = frozenset({"flip", "auto", "faster", "slower", "pause_on_war", "restart", "scroll_log"})
PLACEHOLDER_NAMES = ("Seat 1", "Seat 2")
"""What the board calls the seats before the table has said who sits in them."""

WATCHING = "You are watching: only the two players flip, play auto or deal again"


class TableApp(WarApp):
    """The board at a table over a socket: a player's seat, or a spectator's view, or the lobby first."""

    CSS_PATH = [*WarApp.CSS_PATH, str(STYLES / "tables.tcss")]

    table_state: var[TableState | None] = var(None)
    """Who sits where and what the table waits for (the seats line draws it)."""
    you: var[You | None] = var(None)
    log_note: var[LogNote | None] = var(None)
    """The newest line the table added to the battle log."""

    local = False
    """Both seats at this keyboard (``TwoPlayerApp``)."""

    def __init__(
        self,
        settings: PlaySettings,
        host: SocketHost | LocalHost,
        *,
        environ: dict[str, str] | None = None,
        clock: Callable[[], float] | None = None,
        stats: StatsStore | None = None,
    ) -> None:
        extra = {"clock": clock} if clock is not None else {}
        super().__init__(settings, environ=environ, stats=stats, **extra)  # type: ignore[arg-type]  # extra: a clock or nothing
        self.host = host
        self.table_game: TableGame = host.game
        self.names = self._seat_names() if self.table_game.state is not None else self._initial_names()
        self.my_speed = self.speed
        self.ended: str | None = None
        """Why the table is gone, once it is."""
        self._joined = False
        self._rebuilding = False
        self._board_fresh = True
        self._notes = 0
        self._dealt_at = self._clock()
        self._took: float | None = None  # a finished game's time, as the table tells it
        self._stop_events: Callable[[], None] | None = None
        self._lobby: LobbyScreen | None = None
        self._told_watching = False

    def _initial_names(self) -> tuple[str, str]:
        return PLACEHOLDER_NAMES

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In the lobby there is no table yet: the board's keys leave the footer (and do nothing)."""
        return self._lobby is None or action not in BOARD_ACTIONS

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The solo board, with the seats line under the status line and the table's notes in the log.

        It wraps ``WarApp.compose`` rather than copying it so both boards keep one layout. The seats line
        goes in after whatever yields the ``StatusLine``: that must stay a top-level widget of
        ``WarApp.compose``, or the seats line lands inside a container (or, with no status line, is gone).
        """
        for widget in super().compose():
            if isinstance(widget, BattleLog):
                widget.data_bind(note=TableApp.log_note)
            yield widget
            if isinstance(widget, StatusLine):
                yield SeatsLine(
                    self.glyphs, names=self.names if self.local else None, local=self.local, id="seats"
                ).data_bind(TableApp.table_state, TableApp.you)

    # ---------------------------------------------------------- the table

    def new_game(self, seed=None, rules=None, *, packets=None):
        """The table deals, not this screen: the first call (at start) joins the table; a replay is refused."""
        if self._joined:
            self.notify("Replays are for solo games: at a table, the table deals", severity="warning", timeout=4)
            return None
        self._joined = True
        self.adapter.follow(self.table_game)
        self._stop_events = self.table_game.subscribe(self._on_event)
        self.table_game.watch(self._on_table)
        if self.table_game.state is not None:
            self._show_table()
        elif self.settings.table_mode == "lobby":
            self._lobby = LobbyScreen(self.glyphs)
            self.push_screen(self._lobby)
        self.host.start(asyncio.get_running_loop())
        return None

    def table_closed(self, reason: str) -> None:
        """The table is gone: say why over the board; any of the closing keys leaves."""
        if self.ended is not None or not self.is_running:
            return
        self.ended = reason
        self.push_screen(TableClosedScreen(reason))

    def on_unmount(self) -> None:
        self.host.close()

    def _on_table(self, update: Snapshot | TableState | Notice | Lobby) -> None:
        if isinstance(update, Snapshot):
            self._dealt_at = self._clock() - update.played_ms / 1000  # the game's time counts from its deal
            self._took = update.played_ms / 1000 if update.result is not None else None
            self._arrived()
        elif isinstance(update, TableState):
            self.table_state = update
            self._follow_auto()
            if not self.local and self._seat_names() != self.names:
                self._rebuild()
        elif isinstance(update, Notice):
            self._notice(update)
        elif isinstance(update, Lobby) and self._lobby is not None:
            self._lobby.lobby = update

    def _arrived(self) -> None:
        """A snapshot: this screen joined the table, or fell behind; show the table from it."""
        if self._lobby is not None:
            lobby, self._lobby = self._lobby, None
            if self.screen is lobby:
                self.pop_screen()
            self.refresh_bindings()
        you = self.table_game.you
        if you is not None and you.watching and self.settings.table_mode != "watch" and not self._told_watching:
            self._told_watching = True
            self.notify("Both seats are taken: you are watching", timeout=5)
        if self._board_fresh and self._seat_names() == self.names:
            self._show_table()
        else:
            self._rebuild()

    def _seat_names(self) -> tuple[str, str]:
        state = self.table_game.state
        if state is None:
            return self.names
        s1, s2 = state.seats
        return (s1.name or PLACEHOLDER_NAMES[0], s2.name or PLACEHOLDER_NAMES[1])

    def _rebuild(self) -> None:
        """New names for the seats, or a fresh snapshot: compose the board again and replay the log on it."""
        if self._rebuilding:
            return
        self._rebuilding = True
        self.adapter.detach()
        if self._stop_events is not None:
            self._stop_events()
        self.call_later(self._compose_board)

    async def _compose_board(self) -> None:
        """``App.recompose`` by hand on the board: that one redoes ``self.screen``, which may be the
        lobby, the result or the help over the board."""
        board = self.screen_stack[0]
        self.names = self._seat_names()
        self.result = self.battle = self.deal = None
        async with board.batch():
            await board.query_children("*").exclude(".-textual-system").remove()
            await board.mount_compose(self.compose())
        self._battle_log = board.query_one(BattleLog)
        self.refresh_bindings()  # the new footer lists the keys
        self.call_after_refresh(self._show_table)

    def _show_table(self) -> None:
        """Give the board the table's log in order, then follow the table's events as they come."""
        game = self.table_game
        self.you = game.you
        self.table_state = game.state
        self.game_number = game.game_number
        seconds = self._took if self._took is not None and game.over else self._clock() - self._dealt_at
        for kind, view in board_steps(game, seconds):
            if kind == "deal":
                self.deal = view  # type: ignore[assignment]  # the step's kind says which view it is
            elif kind == "battle":
                self.battle = view  # type: ignore[assignment]  # likewise
            elif kind == "result":
                self.result = view  # type: ignore[assignment]  # likewise
            elif kind == "note" and isinstance(view, Notice) and self._logs(view):
                self._note_line(view.text)
        self._board_fresh = False
        if self._rebuilding:
            self._rebuilding = False
            self.adapter.attach()
            self._stop_events = game.subscribe(self._on_event)
            if self._seat_names() != self.names:  # someone sat down while the board was being composed
                self._rebuild()
                return
        self._follow_auto()
        if game.over and self.result is not None:
            self._show_result(self.result)
        else:
            self._close_result()

    def _on_event(self, event: Event) -> None:
        """A battle's events, after the adapter has put the battle on show."""
        if self._rebuilding:
            return
        self._board_fresh = False
        if isinstance(event, GameStarted):
            self._close_result()
            self.game_number = self.table_game.game_number
            self._dealt_at = self._clock()
            self.result = None
            self.battle = None
            self.deal = deal_view(self.table_game.game_number, event)
        elif isinstance(event, BattleWon):
            if event.wars and self.pause_on_war and self.auto:
                self._stop_auto_at_war()
        elif isinstance(event, GameOver):
            end = end_view(event, self._clock() - self._dealt_at)
            self.result = end
            self.tally[end.result] += 1
            self.mutate_reactive(WarApp.tally)
            self._show_result(end)

    def _logs(self, notice: Notice) -> bool:
        """Whether the battle log keeps this notice (the table's log does; a screen may leave some out)."""
        return notice.code in LOGGED_NOTICES

    def _notice(self, notice: Notice) -> None:
        if notice.code in LOGGED_NOTICES:
            if not self._logs(notice):
                return
            if not self._rebuilding:  # else the replay of the table's log shows it
                self._note_line(notice.text)
            self.notify(notice.text, timeout=4, markup=False)
        elif notice.code is NoticeCode.CLOSING:
            if isinstance(self.host, LocalHost):
                self.table_closed(notice.text)
        elif self._lobby is not None and self.screen is self._lobby:
            self._lobby.say(notice.text[:1].upper() + notice.text[1:])
        else:
            severity: SeverityLevel = "warning" if notice.code is NoticeCode.REFUSED else "information"
            self.notify(notice.text[:1].upper() + notice.text[1:], severity=severity, timeout=4, markup=False)

    def _note_line(self, text: str) -> None:
        self._notes += 1
        self.log_note = LogNote(self._notes, text)

    # ----------------------------------------------------------- the result

    def _show_result(self, end: EndView) -> None:
        if any(isinstance(s, TableGameOverScreen) for s in self.screen_stack):
            return
        self._push_overlay(self._result_screen(end))

    def _result_screen(self, end: EndView) -> TableGameOverScreen:
        dot = self.glyphs.dot
        if self.table_game.watching:
            hint = ["The players deal again", "esc: look at the table", "q: stop watching"]
        else:
            hint = ["r or space: deal again once both players ask", "esc: look at the table", "q: leave"]
        return TableGameOverScreen(
            end, self.names, hint=hint, seed=self.table_game.seed, tally_line=self._tally_line(), dot=dot
        )

    def _close_result(self) -> None:
        while isinstance(self.screen, TableGameOverScreen):
            self.pop_screen()

    # ------------------------------------------------------------ auto-play

    def _follow_auto(self) -> None:
        """The status line shows the table's auto-play: its speed while it runs, else this player's."""
        state = self.table_state
        running = state is not None and state.auto_speed is not None
        self.auto = running
        self.speed = state.auto_speed if running and state is not None and state.auto_speed else self.my_speed

    def _wars_watchable(self, view: BattleView) -> bool:
        """The table's auto-play does not wait for this screen: a war is laid step by step only if it is
        all on the pile before the next battle comes, else it is shown whole."""
        if not super()._wars_watchable(view):
            return False
        return not self.auto or (view.stages - 1) * self.settings.war_step < 1 / self.speed

    def _my_seat_wants_auto(self) -> bool:
        state, you = self.table_state, self.table_game.you
        if state is None or you is None or you.seat is None:
            return False
        return state.seats[you.seat.index].auto

    def _stop_auto_at_war(self) -> None:
        self._ask_auto(False)
        self.notify("Your auto-play stopped at a war: a asks for it again, w stops stopping", timeout=3)

    def _ask_auto(self, on: bool) -> None:
        self.table_game.set_auto(on, self.my_speed)

    # ---------------------------------------------------------------- keys

    def _watching(self) -> bool:
        """Whether this screen only watches (and says so): its player keys do nothing."""
        if self.ended is not None or self._lobby is not None:
            return True
        if self.table_game.watching:
            self.notify(WATCHING, timeout=3)
            return True
        return False

    def action_flip(self) -> None:
        if self._watching():
            return
        if self.table_game.over:
            self.table_game.restart()
        else:
            self.table_game.flip()

    def action_auto(self) -> None:
        if self._watching():
            return
        self._ask_auto(not self._my_seat_wants_auto())

    def action_faster(self) -> None:
        self._set_my_speed(min(faster(self.my_speed), self.top_speed))

    def action_slower(self) -> None:
        self._set_my_speed(slower(self.my_speed))

    def _set_my_speed(self, speed: float) -> None:
        if self._watching():
            return
        self.my_speed = speed
        self._save_preferences(speed=speed)
        if self._my_seat_wants_auto():
            self._ask_auto(True)
        self._follow_auto()
        self.notify(f"Your speed: {speed_label(speed)}; auto-play runs at the slower player's", timeout=2)

    def action_pause_on_war(self) -> None:
        if self._watching():
            return
        super().action_pause_on_war()

    def action_restart(self) -> None:
        if self._watching():
            return
        self.table_game.restart()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        if any(isinstance(s, HelpScreen) for s in self.screen_stack):
            return
        self._push_overlay(HelpScreen(self.rules, self._help_keys()))

    def _help_keys(self) -> Sequence[tuple[str, str]]:
        return SPECTATOR_KEYS if self.table_game.watching else TABLE_KEYS

    # ---------------------------------------------------------------- lobby

    @on(LobbyScreen.JoinRequested)
    def _join_requested(self, message: LobbyScreen.JoinRequested) -> None:
        if self.table_game.send is not None:
            self.table_game.send(Join(message.table, message.watch))
