"""Stand-ins for the board and the app that record what a controller tells them, and a seat's host."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from war_tui.core.rules import Result
from war_tui.presentation.views import BattleView, DealView, EndView, LogNote
from war_tui.settings.play import PlaySettings
from war_tui.tables import TableState, You

SHOWN_WHOLE = PlaySettings(war_step=0.0, result_hold=0.0)


class Timer:
    def __init__(self, every: float, callback) -> None:
        self.every, self.callback, self.stopped = every, callback, False

    def stop(self) -> None:
        self.stopped = True

    def fire(self) -> None:
        assert not self.stopped
        self.callback()


@dataclass
class Board:
    """The board's state as plain attributes; a war is never laid step by step here unless a test says so."""

    deal: DealView | None = None
    result: EndView | None = None
    names: tuple[str, str] = ("Player 1", "Player 2")
    table_state: TableState | None = None
    you: You | None = None
    log_note: LogNote | None = None
    requests: tuple[str, ...] = ()
    emotes: tuple[str, str] = ("", "")
    auto: bool = False
    speed: float = 4.0
    pause_on_war: bool = False
    time_left: int | None = None
    behind: bool = False
    on_tv: bool = False
    laying: bool = False
    at_tie: bool = False
    battles: list[BattleView | None] = field(default_factory=list)
    tally: Counter[Result] = field(default_factory=Counter)
    laid: int = 0
    cleared: int = 0

    @property
    def battle(self) -> BattleView | None:
        return self.battles[-1] if self.battles else None

    @battle.setter
    def battle(self, view: BattleView | None) -> None:
        self.battles.append(view)

    def lay_war(self) -> None:
        self.laid += 1

    def settle(self) -> None:
        self.laying = self.at_tie = False

    def clear(self) -> None:
        self.cleared += 1

    def count_result(self, result: Result) -> None:
        self.tally[result] += 1

    def tally_line(self) -> str:
        return "Tally"


class FakeApp:
    """The app's side: notices, timers and screens, each recorded."""

    def __init__(self) -> None:
        self.is_running = True
        self.said: list[str] = []
        self.timers: list[Timer] = []
        self.results: list = []
        self.finished: list = []
        self.saved: list[dict] = []
        self.lobby_open = False
        self.tv_why: str | None = None
        self.closed: list[str] = []
        self.hints: list = []

    def notify(self, message, **_options) -> None:
        self.said.append(message)

    def say(self, kind, message, **_options) -> None:
        self.said.append(message)

    def unsay(self, kind) -> None:
        pass

    def set_interval(self, interval, callback) -> Timer:
        self.timers.append(Timer(interval, callback))
        return self.timers[-1]

    set_timer = set_interval

    def running(self) -> list[Timer]:
        return [t for t in self.timers if not t.stopped]

    def show_result(self, result) -> None:
        self.results.append(result)

    def close_result(self) -> None:
        pass

    def result_hint(self, hint) -> None:
        self.hints.append(hint)

    def refresh_bindings(self) -> None:
        pass

    def clear_for_deal(self) -> None:
        pass

    def game_finished(self, game, seconds, *, auto_seen) -> None:
        self.finished.append((game.result, seconds, auto_seen))

    def save_preferences(self, **changes) -> None:
        self.saved.append(changes)

    def open_lobby(self) -> None:
        self.lobby_open = True

    def close_lobby(self) -> bool:
        was, self.lobby_open = self.lobby_open, False
        return was

    def lobby_changed(self, lobby) -> None:
        pass

    def lobby_says(self, text) -> bool:
        return self.lobby_open

    def tv_waiting(self, why) -> None:
        self.tv_why = why

    def table_closed(self, reason) -> None:
        self.closed.append(reason)


class Host:
    """A seat's connection straight to a table in this process."""

    def __init__(self, game) -> None:
        self.game = game
        self.started = False

    def start(self, loop) -> None:
        self.started = True

    def close(self) -> None:
        pass
