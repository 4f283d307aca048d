"""A seat at a shared table (or a spectator's chair): every rule stays with the table, a key here is a request.

The controller follows the table's ``RemoteGame`` as the solo one follows the engine, and adds what only
a table has: seats, requests, emotes, notices, a late joiner's replay, the lobby. The board shows the
newest state the table holds: a war still being laid settles at once when anything newer comes, and a
backlog read at once (a screen that fell behind) or a snapshot's log reaches the pile as its last battle
only, every battle still told in the log and the trend.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from ...core.events import Event, GameOver, GameStarted
from ...core.rules import Result, Rules
from ...presentation.requests import declinable, emote_line, new_requests
from ...presentation.result_hold import ResultHold
from ...presentation.speed import faster, slower, speed_label
from ...presentation.table_gone import Place, TableGone, table_gone
from ...presentation.table_keys import TV_KEYS
from ...presentation.table_views import BattleStep, DealStep, ResultStep, board_steps
from ...presentation.views import BattleView, EndView, LogNote, deal_view, end_view
from ...presentation.words import capital
from ...settings.play import PlaySettings
from ...settings.served import TableMode
from ...tables import (
    Emoted,
    Join,
    Lobby,
    Notice,
    NoticeCode,
    RemoteGame,
    SeatStatus,
    Snapshot,
    TableState,
    WatchLobby,
)
from ...tables.messages import LOGGED_NOTICES, Tuned
from ..adapter import EngineAdapter
from .base import TABLE_ACTIONS, BoardState, ResultShown, Severity, Stoppable, TableShell, TimeLimits
from .seats import OneSeat, SeatPolicy

BOARD_ACTIONS = frozenset({"flip", "auto", "faster", "slower", "pause_on_war", "restart", "scroll_log"})
"""The board's keys: in the lobby there is no table yet, so they leave the footer (and do nothing)."""
PLACEHOLDER_NAMES = ("Seat 1", "Seat 2")
"""What the board calls the seats before the table has said who sits in them."""

WATCHING = "You are watching: only the two players flip, play auto or deal again"
SIT_HINT = " (t takes a free seat)"
"""Said after ``WATCHING`` while a seat is free (or kept for someone away, which t takes once it is no longer)."""
TABLE_NOTE = "table"
"""The kind of the table's notes (``Notices.say``): one on show at a time."""
LEAVE_KEYS = frozenset({"q", "y", "ctrl+c"})
"""The keys that confirm leaving once q asked; any other stays."""
EMOTE_SHOWS = 6.0
"""Seconds an emote stays beside its sender's name."""
AGREE_SECONDS = 10.0
"""How long a first w waits for the second, which agrees (both players at one keyboard, ``agree_war_stop``)."""
WAR_STOP_NOTE = "war stop"
"""The kind of the notes about stopping at wars (``Notices.say``): the question leaves once it is answered."""


class TableConnection(Protocol):
    """How this process reaches its table (``war_tui.ui.table_connection``): a socket, or a table of its own."""

    game: RemoteGame

    def start(self, loop: asyncio.AbstractEventLoop) -> None: ...

    def close(self) -> None: ...


class TableController(TimeLimits):
    """The board following a table's game over a socket: a player's seat, or a spectator's view, or the lobby first."""

    game: RemoteGame
    shell: TableShell
    game_number = 0
    game_waits = False
    """The table plays on while a screen lays a war (the board's pacing)."""
    leave_asked = False
    """q asked this player to confirm leaving: the next key answers (``answer_leave``)."""

    def __init__(
        self,
        board: BoardState,
        shell: TableShell,
        settings: PlaySettings,
        host: TableConnection,
        *,
        seats: SeatPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``seats``: how this keyboard sits at the table (one seat over a connection unless told)."""
        super().__init__(board, shell, settings, clock)
        self.host = host
        self.seats: SeatPolicy = seats if seats is not None else OneSeat()
        self.kind = self.seats.kind
        self.game = host.game
        self.adapter = EngineAdapter(board, lines=True)
        self.my_speed = board.speed
        self.top_speed = settings.top_speed
        self.ended: str | None = None
        """Why the table is gone, once it is."""
        self._shown = False
        self._notes = 0
        self._dealt_at = clock()
        self._played = 0.0
        self.in_lobby = False
        self.tv = settings.table_mode == TableMode.TV
        """War TV: the server moves this spectator from table to table (``Tuned``); n asks for the next."""
        self._house_at: float | None = None
        """When the house flips for the player the table waits for, on this screen's clock."""
        self._ticking: Stoppable | None = None
        self._emote_timers: list[Stoppable | None] = [None, None]
        self._table_keys: tuple[bool, ...] = ()
        """Which of the table's own keys were in play when the footer last asked."""
        self._held_notes: list[str] = []
        self._war_stop_timer: Stoppable | None = None
        """Notes that came while a war is held at its tie: logged after its battle, as they happened."""
        self._leave_confirmed = False
        self._hold = ResultHold(settings.result_hold)
        """The result on show, holding against a key held through the last battle (space, enter, r)."""

    def first_names(self) -> tuple[str, str]:
        """The names the board starts with: the seats' if the table has said them, else placeholders."""
        if self.seats.names is not None:
            return self.seats.names
        return self._seat_names() if self.game.state is not None else PLACEHOLDER_NAMES

    def allows(self, action: str, on_board: bool = True) -> bool:
        if self.in_lobby and action in BOARD_ACTIONS | TABLE_ACTIONS:
            return False
        return self.seats.allows(self, action, on_board)

    def table_key(self, action: str) -> bool:
        """Emotes for players; the house only alone at the table; a seat only for a spectator while one is free or
        kept for someone away (the table says how long); declining while the other player's request waits."""
        if action == "next_table":
            return self.tv and self.ended is None
        you, state = self.game.you, self.game.state
        if you is None or state is None or self.ended is not None:
            return False
        if self.tv and action == "sit":
            return False  # War TV moves on at the game's end: a seat is taken with ssh HOST table NAME
        if action == "decline":
            return declinable(state, you)
        if action == "sit":
            return you.seat is None and any(seat.status is not SeatStatus.PLAYER for seat in state.seats)
        if you.seat is None:
            return False
        if action == "play_house":
            return state.seats[1 - you.seat.index].status.value == "open"
        return True

    # ---------------------------------------------------------- the table

    def start(self) -> None:
        """Join the table: follow its game and its updates, and let the host read its connection."""
        self.game.subscribe(self._on_event)
        self.game.watch(self._on_table)
        self.game.after_read(self._read)
        if self.game.state is not None:
            self._show_table()
        elif self.settings.table_mode == TableMode.LOBBY:
            self.in_lobby = True
            self.shell.open_lobby()
        self.host.start(asyncio.get_running_loop())
        self.seats.start(self)

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def replay(self, seed: int, rules: object) -> None:
        self.shell.notify("Replays are for solo games: at a table, the table deals", severity="warning", timeout=4)

    def close(self) -> None:
        self.host.close()

    def table_closed(self, reason: str) -> TableGone:
        """The table is gone: no key is a request any more; what the app says over the board, by what this person
        had there (a refusal, for someone the table never took in)."""
        self.ended = reason
        you = self.game.you
        if self.in_lobby:
            place = Place.LOBBY
        elif self.game.state is None or you is None:
            place = Place.NONE
        else:
            place = Place.SEAT if you.seat is not None else Place.WATCHING
        return table_gone(place, watch=self.settings.table_mode == TableMode.WATCH, reason=reason)

    def _on_table(self, update: Snapshot | TableState | Notice | Emoted | Lobby | Tuned) -> None:
        if isinstance(update, Snapshot):
            self._played = update.played_ms / 1000  # the table's own time: stopped at game over
            self._dealt_at = self._clock() - self._played  # the game's time counts from its deal
            self._arrived()
        elif isinstance(update, TableState):
            old = self.board.table_state
            self.board.table_state = update
            self._follow_auto()
            self.board.names = self._seat_names()
            self._state_changed(old, update)
        elif isinstance(update, Notice):
            self._notice(update)
        elif isinstance(update, Emoted):
            self._emoted(update)
        elif isinstance(update, Lobby) and self.in_lobby:
            self.shell.lobby_changed(update)
        elif isinstance(update, Tuned):
            self._tuned(update)

    def _tuned(self, tuned: Tuned) -> None:
        """War TV is on another table (its snapshot follows), or on none: the waiting screen says why."""
        if tuned.table is None:
            self.shell.close_result()
            self.shell.tv_waiting(tuned.why)
            return
        self.board.on_tv = True
        self.shell.tv_waiting(None)
        self.toast(f"War TV: table {tuned.table}, {tuned.why}", timeout=4)

    def _arrived(self) -> None:
        """A snapshot: this screen joined the table, or fell behind; show the table from it."""
        if self.in_lobby:
            self.in_lobby = False
            self.shell.close_lobby()
        self._held_notes = []  # the snapshot's log has them, in the table's order
        if self._shown:
            self.board.clear()
        self._show_table()

    def _state_changed(self, old: TableState | None, new: TableState) -> None:
        """What the players ask each other: a toast for the other's new request, the requests line, the result's
        hint; a war held at its tie laid once either player lays it."""
        board = self.board
        board.pause_on_war = new.war_stop
        news = new_requests(old, new, self.game.you, board.names)
        if news:
            self.toast("\n".join(news), timeout=5)
        if not new.held and board.at_tie:
            board.lay_war()  # the table no longer holds the war on show: whoever laid it, it is laid here too
        if new.house_in is None:
            self._house_at = None
        elif old is None or old.house_in is None or old.waiting_for != new.waiting_for:
            self._house_at = self._clock() + new.house_in
        self._show_requests()
        if new.over:
            self.shell.result_hint(self._result_hint())
        keys = tuple(self.table_key(action) for action in sorted(TABLE_ACTIONS))
        if keys != self._table_keys:
            self._table_keys = keys
            self.shell.refresh_bindings()

    def toast(
        self, text: str, *, timeout: float, severity: Severity = "information", short: str | None = None
    ) -> None:
        """The table's one note on show: each replaces the one before (most are about the same event, as a
        player leaving is told first as asked, then as done), so notes never stack over the board; ``short``:
        its words on a short screen."""
        self.shell.say(TABLE_NOTE, text, timeout=timeout, severity=severity, short=short)

    def _show_requests(self) -> None:
        """The requests line now; while the house counts down, again every second."""
        house_in = None
        if self._house_at is not None:
            house_in = max(0, math.ceil(self._house_at - self._clock()))
        self.board.requests = self.seats.requests(self, house_in)
        if self._house_at is not None and self._ticking is None and self.shell.is_running:
            self._ticking = self.shell.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self._house_at is None and self._ticking is not None:
            self._ticking.stop()
            self._ticking = None
        self._show_requests()

    def _emoted(self, emoted: Emoted) -> None:
        """An emote: beside its sender's name for a few seconds, in the log, and a toast."""
        text = emote_line(emoted.name, emoted.emote)
        self._note_line(text)
        self.toast(text, timeout=3)
        index = emoted.seat.index
        emotes = list(self.board.emotes)
        emotes[index] = emoted.text
        self.board.emotes = (emotes[0], emotes[1])
        timer = self._emote_timers[index]
        if timer is not None:
            timer.stop()
        if self.shell.is_running:
            self._emote_timers[index] = self.shell.set_timer(EMOTE_SHOWS, lambda: self._emote_gone(index))

    def _emote_gone(self, index: int) -> None:
        self._emote_timers[index] = None
        emotes = list(self.board.emotes)
        emotes[index] = ""
        self.board.emotes = (emotes[0], emotes[1])

    def _seat_names(self) -> tuple[str, str]:
        if self.seats.names is not None:
            return self.seats.names
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
        self._set_tally()
        self._house_at = None
        if game.state is not None:
            self._state_changed(None, game.state)
        self.game_number = game.game_number
        adapter = self.adapter
        adapter.reset()
        # A finished game took what the table says, however late this screen came.
        seconds = self._played if game.over else self._clock() - self._dealt_at
        adapter.holding = True  # each game's battles reach the pile as its last one, and the log whole
        for step in board_steps(game, seconds):
            if isinstance(step, BattleStep) and step.view is not None:
                adapter.show(step.view)
                continue
            adapter.flush()
            if isinstance(step, DealStep):
                board.deal = step.view
            elif isinstance(step, BattleStep):
                board.battle = None
            elif isinstance(step, ResultStep):
                board.result = step.view
            elif isinstance(step.view, Emoted):
                self._note_line(emote_line(step.view.name, step.view.emote))
            elif self.seats.logs(step.view):
                self._note_line(step.view.text)
        adapter.holding = False
        adapter.flush()
        if not (game.held and board.at_tie):
            board.settle()  # the table as it is: a war in the log is on show whole, not laid again
        self._shown = True
        self._follow_auto()
        if game.over and board.result is not None:
            self._show_result(board.result)
        else:
            self.shell.close_result()

    def _on_event(self, event: Event) -> None:
        """The one listener of the table's game: the battle goes on show (held while the game catches up, see
        ``_read``), then the deal or the result."""
        self._shown = True
        game, board, adapter = self.game, self.board, self.adapter
        if board.laying:
            board.settle()  # something newer of the game: the war on the pile is told whole first
        adapter.holding = game.catching_up
        adapter.on_event(event, game)
        if isinstance(event, (GameStarted, GameOver)):
            adapter.flush()  # a game's last battle is on show before its result, and none of it after the next deal
        if isinstance(event, GameStarted):
            self.shell.close_result()
            self.game_number = game.game_number
            self._dealt_at = self._clock()
            board.result = None
            board.battle = None
            board.deal = deal_view(game.game_number, event)
        elif isinstance(event, GameOver):
            end = end_view(event, game.played_ms / 1000)  # the table's time: the same on every screen
            self._set_tally()
            board.result = end
            self._show_result(end)

    def _notice(self, notice: Notice) -> None:
        text = capital(notice.text)
        if notice.code in LOGGED_NOTICES:
            if not self.seats.logs(notice):
                return
            self._note_line(notice.text)
            self.toast(notice.text, timeout=4)
        elif notice.code is NoticeCode.CLOSING:
            self.seats.closing(self, notice.text)
        elif self.in_lobby and self.shell.lobby_says(text):
            return
        else:
            severity: Severity = "warning" if notice.code is NoticeCode.REFUSED else "information"
            self.toast(text, severity=severity, timeout=4)

    def _read(self) -> None:
        """The updates of one read are applied: the battles held while catching up reach the board as one (the
        newest on the pile, shown whole unless the table holds it at its tie; each in the log and the trend), and
        the status line says whether this screen knows it is still behind."""
        adapter, board = self.adapter, self.board
        if adapter.holding:
            adapter.holding = False
            if adapter.flush() and board.laying and not board.at_tie:
                board.settle()
        board.behind = self.game.behind

    def _note_line(self, text: str) -> None:
        """A line in the battle log, after the battle on show: a war being laid is told whole first (a war held
        at its tie keeps the line until it is laid)."""
        board = self.board
        self.adapter.flush()  # battles held while catching up came first
        if board.laying:
            state = board.table_state
            if state is not None and state.held:
                self._held_notes.append(text)
                return
            board.settle()
        self._notes += 1
        board.log_note = LogNote(self._notes, text)

    def stops_at_tie(self, view: BattleView) -> bool:
        """Only while the table holds at this battle's tie: a war the table played on is never held here."""
        return self.game.held and view.battle == self.game.battles

    def stopped_at_war(self) -> None:
        self.seats.stopped_at_war(self)

    def battle_settled(self) -> None:
        notes, self._held_notes = self._held_notes, []
        for text in notes:
            self._note_line(text)

    def _set_tally(self) -> None:
        """The table's tally, the same on every screen (a late joiner's and a reconnected player's too)."""
        p1, p2, draws, stopped = self.game.tally
        tally = Counter({Result.P1: p1, Result.P2: p2, Result.DRAW: draws, Result.STOPPED: stopped})
        if +tally != +self.board.tally:
            self.board.tally = tally

    def back(self) -> bool:
        """q mid-game with another player at the table: ask first (``answer_leave``). Then, at a table reached
        from the lobby: leave the table and show the lobby again."""
        if self._ask_before_leaving():
            return True
        self._leave_confirmed = False
        if self.settings.table_mode != TableMode.LOBBY or self.in_lobby or self.game.send is None:
            return False
        self.game.leave()
        self.game.send(WatchLobby())
        self.in_lobby = True
        self.shell.close_result()
        self.shell.open_lobby()
        return True

    def _ask_before_leaving(self) -> bool:
        """Whether q asks to confirm (the seat policy's to say) and was not confirmed yet."""
        return not self._leave_confirmed and self.seats.asks_before_leaving(self)

    def answer_leave(self, key: str) -> bool:
        """q or y leaves; any other key stays (and does nothing else), and the table hears so."""
        self.leave_asked = False
        if key in LEAVE_KEYS:
            self._leave_confirmed = True
            return True
        if self.ended is None:
            self.game.set_leaving(False)
            self.toast("You stay at the table", timeout=2)
        return False

    def join(self, table: str, watch: bool) -> None:
        """The lobby's choice: sit at (or watch) ``table``."""
        if self.game.send is not None:
            self.game.send(Join(table, watch))

    # ----------------------------------------------------------- the result

    def _show_result(self, end: EndView) -> None:
        self._hold.start(self._clock())
        game = self.game
        named = None if game.state is None else (game.state.table, game.game_number)
        self.shell.show_result(ResultShown(end, game.seed, kind=self.kind, hint=self._result_hint(), table_game=named))

    def _result_hint(self) -> tuple[str, ...]:
        return self.seats.result_hint(self)

    # ------------------------------------------------------------ auto-play

    def _follow_auto(self) -> None:
        """The status line shows the table's auto-play: its speed while it is on (running, held at a war's tie, or
        from the next deal at game over), else this player's."""
        state, board = self.board.table_state, self.board
        speed = state.auto_speed if state is not None else None
        board.auto = speed is not None
        board.speed = speed if speed is not None else self.my_speed

    # ---------------------------------------------------------------- keys

    def only_watching(self) -> bool:
        """Whether this screen only watches (and says so): its player keys do nothing."""
        if self.ended is not None or self.in_lobby:
            return True
        if self.game.watching:
            self.toast(WATCHING + (SIT_HINT if self.table_key("sit") else ""), timeout=3)
            return True
        return False

    def mine(self, kind: str) -> bool:
        """Whether this player's seat holds that wish at the table now."""
        state, you = self.game.state, self.game.you
        if state is None or you is None or you.seat is None:
            return False
        return bool(getattr(state.seats[you.seat.index], kind))

    def result_holds(self) -> bool:
        """At game over, whether the result still ignores a key that asks to deal again: the keys have not paused
        since it showed (``ResultHold``), so a key held through the last battle never asks the table to deal."""
        return self.game.over and self._hold.holds(self._clock())

    def flip(self) -> None:
        if not self.result_holds():
            self.seats.flip(self)

    def seat_flip(self, seat: int) -> None:
        if not self.result_holds():
            self.seats.seat_flip(self, seat)

    def auto(self) -> None:
        self.seats.auto(self)

    def faster(self) -> None:
        self._set_my_speed(min(faster(self.my_speed), self.top_speed))

    def slower(self) -> None:
        self._set_my_speed(slower(self.my_speed))

    def _set_my_speed(self, speed: float) -> None:
        if self.only_watching():
            return
        self.my_speed = speed
        self.shell.save_preferences(speed=speed)
        if self.seats.wants_auto(self):
            self.seats.ask_auto(self, True)
        self._follow_auto()
        self.shell.say("speed", f"Your speed: {speed_label(speed)}; auto-play runs at the slower player's", timeout=2)

    def pause_on_war(self) -> None:
        self.seats.pause_on_war(self)

    def ask_war_stop(self) -> None:
        """Ask (or stop asking) that auto-play stop at every war: the table does once both players ask."""
        if not self.only_watching():
            self.game.set_war_stop(not self.mine("war_stop"))

    def agree_war_stop(self) -> None:
        """w asks, a second w agrees (both players at one keyboard), then the table is asked (``ask_war_stop``)."""
        if self.ended is not None:
            return
        if self._war_stop_timer is None:
            self._war_stop_timer = self.shell.set_timer(AGREE_SECONDS, self._war_stop_lapsed)
            turning = "Stop at every war" if not self.board.pause_on_war else "Stop stopping at wars"
            self.shell.say(WAR_STOP_NOTE, f"{turning}? w again agrees, for both players", timeout=AGREE_SECONDS)
            return
        self._war_stop_timer.stop()
        self._war_stop_timer = None
        self.shell.unsay(WAR_STOP_NOTE)  # answered: the status line says "war stop" (or no longer)
        self.ask_war_stop()  # both agreed: the board stops auto-play at the next tie (``stopped_at_war``)

    def _war_stop_lapsed(self) -> None:
        self._war_stop_timer = None
        self.shell.say(WAR_STOP_NOTE, "Nobody agreed: stop at wars stays as it was", timeout=3)

    def restart(self) -> None:
        if not self.result_holds():
            self.seats.restart(self)

    def emote(self, emote: int) -> None:
        if not self.only_watching():
            self.game.emote(emote)

    def play_house(self) -> None:
        if not self.only_watching():
            self.game.play_house()

    def decline(self) -> None:
        """Say no to what the other player asks (auto-play, stopping at wars, dealing again)."""
        if not self.only_watching():
            self.game.decline()

    def resync(self) -> None:
        """ctrl+l (after the screen is drawn again): a fresh snapshot of the table, whatever this screen holds."""
        if self.ended is None and not self.in_lobby:
            self.game.resync()

    def sit(self) -> None:
        if self.ended is None and not self.in_lobby and not self.tv:
            self.game.sit()

    def next_table(self) -> None:
        """n on War TV: the server moves on to the next table worth watching (or says there is none)."""
        if self.tv and self.ended is None:
            self.game.next_table()

    def help_keys(self) -> Sequence[tuple[str, str]]:
        return TV_KEYS if self.tv else self.seats.help_keys(self)
