"""What a controller works with (the board's state, the roles the app plays for it) and what the app asks of it."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from ...core.engine import Game
from ...core.played import PlayedGame
from ...core.rules import Result, Rules
from ...presentation.status import one_minute_text
from ...presentation.views import BattleView, DealView, EndView, LogNote
from ...settings.play import PlaySettings

if TYPE_CHECKING:  # a solo game loads nothing of the tables
    from ...presentation.table_gone import TableGone
    from ...tables import Lobby, TableState, You

Severity = Literal["information", "warning", "error"]
TABLE_ACTIONS = frozenset({"emote", "play_house", "sit", "decline", "next_table"})
"""Keys only a shared table has: emotes, the house in the empty seat, taking a free seat, declining the other
player's request, a fresh copy of the table."""
SEAT_ACTIONS = frozenset({"p1_flip", "p2_flip"})
"""Each player's own flip key: only two players at one keyboard have them."""
Kind = Literal["solo", "table", "two-players"]
"""A way to play (``choose.way_to_play``): it chooses the controller, the board's layout and the result screen."""


class Stoppable(Protocol):
    """A running timer."""

    def stop(self) -> object: ...


class BoardState(Protocol):
    """The board as a controller sees it: what is on show, and its pacing of a war (``war_tui.ui.board.Board``)."""

    deal: DealView | None
    battle: BattleView | None
    result: EndView | None
    names: tuple[str, str]
    tally: Counter[Result]
    table_state: TableState | None
    you: You | None
    log_note: LogNote | None
    requests: tuple[str, ...]
    emotes: tuple[str, str]
    auto: bool
    speed: float
    pause_on_war: bool
    time_left: int | None
    behind: bool
    on_tv: bool

    @property
    def laying(self) -> bool:
        """A war on the pile not yet decided (being laid, or stopped at its tie)."""

    @property
    def at_tie(self) -> bool:
        """A war stopped at its tie (not being laid)."""

    def lay_war(self) -> None: ...

    def settle(self) -> None: ...

    def clear(self) -> None: ...

    def count_result(self, result: Result) -> None: ...

    def tally_line(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ResultShown:
    """The result screen a controller asks for over the board."""

    end: EndView
    seed: int | None
    kind: Kind = "solo"
    hint: tuple[str, ...] = ()
    """A table's lines saying what deals again (the solo screen words its own)."""
    next_deal_in: float | None = None
    """The screensaver's seconds to the next deal."""
    table_game: tuple[str, int] | None = None
    """A table's game: the table's name and the game's number there, which find it in the statistics."""


class Notices(Protocol):
    """Notices over the board."""

    def notify(
        self, message: str, *, title: str = "", severity: Severity = "information", timeout: float | None = None,
        markup: bool = True,
    ) -> object: ...

    def say(
        self, kind: str, message: str, *, timeout: float, severity: Severity = "information", short: str | None = None
    ) -> None:
        """A notice that replaces the one of the same ``kind`` still on show, so a key pressed again and again
        leaves one notice, not a pile. ``short``: its words on a short screen, where a toast covers the board
        (the board says the rest)."""

    def unsay(self, kind: str) -> None:
        """Take the notice of this ``kind`` off the screen now: what it asked was answered."""


class Timers(Protocol):
    """The app's clock callbacks, while it runs."""

    @property
    def is_running(self) -> bool: ...

    def set_interval(self, interval: float, callback: Callable[[], object]) -> Stoppable: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Stoppable: ...


class Results(Protocol):
    """A game's result over the board."""

    def show_result(self, result: ResultShown) -> None:
        """The result over the board (under the too-small notice if that is showing); once per result."""

    def close_result(self) -> None: ...

    def result_hint(self, hint: tuple[str, ...]) -> None:
        """A table's result on show says ``hint`` from now on (what deals again changed)."""

    def clear_for_deal(self) -> None:
        """A new deal: the result, help and statistics leave the board."""


class TableScreens(Protocol):
    """A table's own screens: the lobby (the tables to join), the notice that the table is gone, the footer."""

    def open_lobby(self) -> None: ...

    def close_lobby(self) -> bool:
        """Take the lobby away; whether it was open."""

    def lobby_changed(self, lobby: Lobby) -> None: ...

    def tv_waiting(self, why: str | None) -> None:
        """War TV has no table to show, for the reason ``why`` (over the board); None: it shows one again."""

    def lobby_says(self, text: str) -> bool:
        """Say ``text`` in the lobby if it is on show; whether it was."""

    def table_closed(self, reason: str) -> None: ...

    def refresh_bindings(self) -> None:
        """The keys in play changed: the footer asks ``allows`` again."""


class Preferences(Protocol):
    """The preferences file: what the player changed is kept for the next game."""

    def save_preferences(self, **changes: object) -> None: ...


class Statistics(Protocol):
    """The statistics file of solo games."""

    def game_finished(self, game: Game, seconds: float, *, auto_seen: bool) -> None:
        """A solo game is over: the statistics' turn (``auto_seen``: auto-play ran during it)."""


class SoloShell(Notices, Timers, Results, Preferences, Statistics, Protocol):
    """What a solo game asks of the app."""


class TableShell(Notices, Timers, Results, TableScreens, Preferences, Protocol):
    """What a table's screen asks of the app."""


class AppRoles(SoloShell, TableShell, Protocol):
    """Every role the app plays for a controller (``choose.controller_for`` gives each only its own)."""


class Controller(Protocol):
    """What the board and the app ask of every way to play: its actions, the board's pacing, the help's keys."""

    @property
    def game(self) -> PlayedGame | None: ...

    @property
    def game_number(self) -> int: ...

    @property
    def kind(self) -> Kind: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def counts_down(self) -> bool:
        """Whether a limit (the game's --time-limit, the server's session) counts down on the status line."""

    def count_down(self) -> None: ...

    def start(self) -> None:
        """The board is on screen: deal, or join the table."""

    def close(self) -> None:
        """The app is closing."""

    def allows(self, action: str, on_board: bool = True) -> bool:
        """Whether ``action`` is one of this way to play's keys now (the footer shows only those);
        ``on_board``: the board is the screen on top, not a result or help over it."""

    def help_keys(self) -> Sequence[tuple[str, str]] | None:
        """The keys the help lists (None: the solo game's)."""

    @property
    def leave_asked(self) -> bool:
        """q asked this player to confirm leaving: the next key answers (``answer_leave``)."""

    def answer_leave(self, key: str) -> bool:
        """The key after q asked to confirm leaving: whether it leaves."""

    def back(self) -> bool:
        """q: whether this way to play went back somewhere (a table left for the lobby it came from);
        False: the app quits."""

    def flip(self) -> None: ...

    def auto(self) -> None: ...

    def faster(self) -> None: ...

    def slower(self) -> None: ...

    def pause_on_war(self) -> None: ...

    def restart(self) -> None: ...

    def replay(self, seed: int, rules: Rules) -> None: ...

    # The board's pacing: it tells these as it lays a war.

    @property
    def game_waits(self) -> bool: ...

    def battle_settled(self) -> None: ...

    def stopped_at_war(self) -> None: ...

    def stops_at_tie(self, view: BattleView) -> bool: ...


@runtime_checkable
class AtTable(Protocol):
    """The keys and news only a table has (its controller; a solo game's keys never include them)."""

    def seat_flip(self, seat: int) -> None:
        """A player's own flip key (both players at one keyboard)."""

    def emote(self, emote: int) -> None: ...

    def play_house(self) -> None: ...

    def sit(self) -> None: ...

    def decline(self) -> None: ...

    def next_table(self) -> None:
        """War TV: on to the next table worth watching."""

    def resync(self) -> None: ...

    def join(self, table: str, watch: bool) -> None:
        """The lobby's choice: sit at (or watch) ``table``."""

    def table_closed(self, reason: str) -> TableGone:
        """The connection to the table is gone: what to say of it, and the exit status to leave with."""


def board_key(action: str) -> bool:
    """The keys every way to play has (a table's own and each player's flip key are a table's to allow)."""
    return action not in SEAT_ACTIONS | TABLE_ACTIONS


class TimeLimits:
    """What every controller shares: the board, the app, the settings, and the limits counting down."""

    game_ends: float | None = None
    """When this game's --time-limit ends, on the app's clock (None: no limit)."""

    def __init__(self, board: BoardState, shell: Notices, settings: PlaySettings, clock: Callable[[], float]) -> None:
        self.board = board
        self.shell = shell
        self.settings = settings
        self._clock = clock
        self._session_ends = clock() + settings.session_minutes * 60 if settings.session_minutes else None
        self._warned: set[str] = set()  # the limits whose one-minute notice was given

    @property
    def counts_down(self) -> bool:
        """Whether a limit (the game's --time-limit, the server's session) counts down on the status line."""
        return self.settings.time_limit is not None or self._session_ends is not None

    def count_down(self) -> None:
        """The time left on the status line, and one notice a minute before each limit (if it is longer than that)."""
        now = self._clock()
        limits = {
            "game": (self.game_ends, self.settings.time_limit),
            "session": (self._session_ends, self.settings.session_minutes),
        }
        left = [ends - now for ends, _ in limits.values() if ends is not None]
        self.board.time_left = max(0, math.ceil(min(left))) if left else None
        for which, (ends, minutes) in limits.items():
            if ends is None or minutes is None or minutes <= 1 or which in self._warned:
                continue
            if ends - now <= 60:
                self._warned.add(which)
                self.shell.notify(
                    one_minute_text(session=which == "session"), title="Time", severity="warning", timeout=10
                )
