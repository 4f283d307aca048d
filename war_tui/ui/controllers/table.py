"""A seat at a shared table (or a spectator's chair): every rule stays with the table, a key here is a request.

The controller follows the table's ``RemoteGame`` as the solo one follows the
engine (one subscriber: the engine adapter puts each battle on the board, then
the deal and the result are told), and adds what a table has and a solo game has
not: the seats line, the table's notices in the log, a late joiner's replay of
the table's log, the lobby, and the end of a table. The table's answer to a
request (a battle, a seat change, a refusal) is what the board shows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from ...core.events import BattleWon, Event, GameOver, GameStarted
from ...presentation.speed import faster, slower, speed_label
from ...presentation.table_views import board_steps
from ...presentation.words import capital
from ...presentation.views import BattleView, DealView, EndView, LogNote, deal_view, end_view
from ...settings.play import PlaySettings
from ...settings.served import TableMode
from ...tables import Join, Leave, Lobby, Notice, NoticeCode, RemoteGame, Snapshot, TableState, WatchLobby
from ...tables.messages import LOGGED_NOTICES
from ..adapter import EngineAdapter
from ...presentation.table_keys import SPECTATOR_KEYS, TABLE_KEYS
from .base import BoardState, Controller, Kind, ResultShown, Severity, Shell

BOARD_ACTIONS = frozenset({"flip", "auto", "faster", "slower", "pause_on_war", "restart", "scroll_log"})
"""The board's keys: in the lobby there is no table yet, so they leave the footer (and do nothing)."""
PLACEHOLDER_NAMES = ("Seat 1", "Seat 2")
"""What the board calls the seats before the table has said who sits in them."""

WATCHING = "You are watching: only the two players flip, play auto or deal again"


class TableHost(Protocol):
    """How this process reaches its table (``war_tui.ui.table_connection``): a socket, or a table of its own."""

    game: RemoteGame

    def start(self, loop: asyncio.AbstractEventLoop) -> None: ...

    def close(self) -> None: ...


class TableController(Controller):
    """The board following a table's game over a socket: a player's seat, or a spectator's view, or the lobby first."""

    game: RemoteGame
    game_waits = False
    kind: Kind = "table"
    local = False
    """Both seats at this keyboard (``TwoPlayerController``)."""

    def __init__(
        self,
        board: BoardState,
        shell: Shell,
        settings: PlaySettings,
        host: TableHost,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(board, shell, settings, clock)
        self.host = host
        self.game = host.game
        self.adapter = EngineAdapter(board)
        self.my_speed = board.speed
        self.top_speed = settings.top_speed
        self.ended: str | None = None
        """Why the table is gone, once it is."""
        self._shown = False
        self._notes = 0
        self._dealt_at = clock()
        self._played = 0.0
        self._in_lobby = False
        self._told_watching = False

    def first_names(self) -> tuple[str, str]:
        """The names the board starts with: the seats' if the table has said them, else placeholders."""
        return self._seat_names() if self.game.state is not None else PLACEHOLDER_NAMES

    def allows(self, action: str, on_board: bool = True) -> bool:
        if self._in_lobby and action in BOARD_ACTIONS:
            return False
        return super().allows(action, on_board)

    # ---------------------------------------------------------- the table

    def start(self) -> None:
        """Join the table: follow its game and its updates, and let the host read its connection."""
        self.game.subscribe(self._on_event)
        self.game.watch(self._on_table)
        if self.game.state is not None:
            self._show_table()
        elif self.settings.table_mode == TableMode.LOBBY:
            self._in_lobby = True
            self.shell.open_lobby()
        self.host.start(asyncio.get_running_loop())

    def replay(self, seed: int, rules: object) -> None:
        self.shell.notify("Replays are for solo games: at a table, the table deals", severity="warning", timeout=4)

    def close(self) -> None:
        self.host.close()

    def table_closed(self, reason: str) -> None:
        """The table is gone: no key is a request any more (the app says why over the board)."""
        self.ended = reason

    def _on_table(self, update: Snapshot | TableState | Notice | Lobby) -> None:
        if isinstance(update, Snapshot):
            self._played = update.played_ms / 1000  # the table's own time: stopped at game over
            self._dealt_at = self._clock() - self._played  # the game's time counts from its deal
            self._arrived()
        elif isinstance(update, TableState):
            self.board.table_state = update
            self._follow_auto()
            self.board.names = self._seat_names()
        elif isinstance(update, Notice):
            self._notice(update)
        elif isinstance(update, Lobby) and self._in_lobby:
            self.shell.lobby_changed(update)

    def _arrived(self) -> None:
        """A snapshot: this screen joined the table, or fell behind; show the table from it."""
        if self._in_lobby:
            self._in_lobby = False
            self.shell.close_lobby()
        you = self.game.you
        if you is not None and you.watching and self.settings.table_mode != TableMode.WATCH and not self._told_watching:
            self._told_watching = True
            self.shell.notify("Both seats are taken: you are watching", timeout=5)
        if self._shown:
            self.board.clear()
        self._show_table()

    def _seat_names(self) -> tuple[str, str]:
        state = self.game.state
        if state is None:
            return self.board.names
        s1, s2 = state.seats
        return (s1.name or PLACEHOLDER_NAMES[0], s2.name or PLACEHOLDER_NAMES[1])

    def _show_table(self) -> None:
        """Give the board the table's log in order, then follow the table's events as they come."""
        game, board = self.game, self.board
        board.you = game.you
        board.table_state = game.state
        board.names = self._seat_names()
        self.game_number = game.game_number
        self.adapter.reset()
        # A finished game took what the table says, however long this screen took to get here.
        seconds = self._played if game.over else self._clock() - self._dealt_at
        for kind, view in board_steps(game, seconds):
            if kind == "deal":
                board.deal = view if isinstance(view, DealView) else None
            elif kind == "battle":
                board.battle = view if isinstance(view, BattleView) else None
            elif kind == "result":
                board.result = view if isinstance(view, EndView) else None
            elif kind == "note" and isinstance(view, Notice) and self._logs(view):
                self._note_line(view.text)
        board.settle()  # the table as it is: a war in the log is on show whole, not laid again
        self._shown = True
        self._follow_auto()
        if game.over and board.result is not None:
            self._show_result(board.result)
        else:
            self.shell.close_result()

    def _on_event(self, event: Event) -> None:
        """The one listener of the table's game: the battle goes on show, then the deal or the result."""
        self._shown = True
        game, board = self.game, self.board
        self.adapter.told(event, game)
        if isinstance(event, GameStarted):
            self.shell.close_result()
            self.game_number = game.game_number
            self._dealt_at = self._clock()
            board.result = None
            board.battle = None
            board.deal = deal_view(game.game_number, event)
        elif isinstance(event, BattleWon):
            if event.wars and board.pause_on_war and board.auto:
                self._stop_auto_at_war()
        elif isinstance(event, GameOver):
            end = end_view(event, self._clock() - self._dealt_at)
            board.result = end
            board.count_result(end.result)
            self._show_result(end)

    def _logs(self, notice: Notice) -> bool:
        """Whether the battle log keeps this notice (the table's log does; a screen may leave some out)."""
        return notice.code in LOGGED_NOTICES

    def _notice(self, notice: Notice) -> None:
        text = capital(notice.text)
        if notice.code in LOGGED_NOTICES:
            if not self._logs(notice):
                return
            self._note_line(notice.text)
            self.shell.notify(notice.text, timeout=4, markup=False)
        elif notice.code is NoticeCode.CLOSING:
            if self.local:
                self.shell.table_closed(notice.text)
        elif self._in_lobby and self.shell.lobby_says(text):
            return
        else:
            severity: Severity = "warning" if notice.code is NoticeCode.REFUSED else "information"
            self.shell.notify(text, severity=severity, timeout=4, markup=False)

    def _note_line(self, text: str) -> None:
        self._notes += 1
        self.board.log_note = LogNote(self._notes, text)

    def back(self) -> bool:
        """q at a table reached from the lobby: leave the table and show the lobby again."""
        if self.settings.table_mode != TableMode.LOBBY or self._in_lobby or self.game.send is None:
            return False
        self.game.send(Leave())
        self.game.send(WatchLobby())
        self._in_lobby = True
        self.shell.close_result()
        self.shell.open_lobby()
        return True

    def join(self, table: str, watch: bool) -> None:
        """The lobby's choice: sit at (or watch) ``table``."""
        if self.game.send is not None:
            self.game.send(Join(table, watch))

    # ----------------------------------------------------------- the result

    def _show_result(self, end: EndView) -> None:
        self.shell.show_result(ResultShown(end, self.game.seed, kind=self.kind, hint=self._result_hint()))

    def _result_hint(self) -> tuple[str, ...]:
        if self.game.watching:
            return ("The players deal again", "esc: look at the table", "q: stop watching")
        return ("r or space: deal again once both players ask", "esc: look at the table", "q: leave")

    # ------------------------------------------------------------ auto-play

    def _follow_auto(self) -> None:
        """The status line shows the table's auto-play: its speed while it runs, else this player's."""
        state, board = self.board.table_state, self.board
        running = state is not None and state.auto_speed is not None
        board.auto = running
        board.speed = state.auto_speed if running and state is not None and state.auto_speed else self.my_speed

    def _my_seat_wants_auto(self) -> bool:
        state, you = self.board.table_state, self.game.you
        if state is None or you is None or you.seat is None:
            return False
        return state.seats[you.seat.index].auto

    def _stop_auto_at_war(self) -> None:
        self._ask_auto(False)
        self.shell.notify("Your auto-play stopped at a war: a asks for it again, w stops stopping", timeout=3)

    def _ask_auto(self, on: bool) -> None:
        self.game.set_auto(on, self.my_speed)

    # ---------------------------------------------------------------- keys

    def _watching(self) -> bool:
        """Whether this screen only watches (and says so): its player keys do nothing."""
        if self.ended is not None or self._in_lobby:
            return True
        if self.game.watching:
            self.shell.notify(WATCHING, timeout=3)
            return True
        return False

    def flip(self) -> None:
        if self._watching():
            return
        if self.game.over:
            self.game.restart()
        else:
            self.game.flip()

    def auto(self) -> None:
        if self._watching():
            return
        self._ask_auto(not self._my_seat_wants_auto())

    def faster(self) -> None:
        self._set_my_speed(min(faster(self.my_speed), self.top_speed))

    def slower(self) -> None:
        self._set_my_speed(slower(self.my_speed))

    def _set_my_speed(self, speed: float) -> None:
        if self._watching():
            return
        self.my_speed = speed
        self.shell.save_preferences(speed=speed)
        if self._my_seat_wants_auto():
            self._ask_auto(True)
        self._follow_auto()
        self.shell.say("speed", f"Your speed: {speed_label(speed)}; auto-play runs at the slower player's", timeout=2)

    def pause_on_war(self) -> None:
        if self._watching():
            return
        super().pause_on_war()

    def restart(self) -> None:
        if self._watching():
            return
        self.game.restart()

    def help_keys(self) -> Sequence[tuple[str, str]]:
        return SPECTATOR_KEYS if self.game.watching else TABLE_KEYS
