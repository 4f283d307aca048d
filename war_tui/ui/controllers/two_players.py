"""``--two-players``: a table of its own with both seats at this keyboard.

The table is a ``LocalHost`` in this process, so the table's rules decide as they do over SSH; player 1
flips with f or Left, player 2 with j or Right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ...core.engine import Game

from ...presentation.table_keys import two_player_keys
from ...settings.play import PlaySettings
from ...tables import Notice, NoticeCode
from .base import Kind, Stoppable
from .table import TableController, TableHost


def first_deal(settings: PlaySettings, seeds: Callable[[], int]) -> Callable[[], Game]:
    """How the table at this keyboard deals: ``--p1/--p2`` (when given) first, then a shuffle from ``seeds``."""
    packets = [settings.packets] if settings.packets is not None else []
    rules = settings.rules

    def deal() -> Game:
        if packets:
            p1, p2 = packets.pop()
            return Game(p1, p2, rules)
        return Game.deal(seeds(), rules)

    return deal


AGREE_SECONDS = 10.0
"""How long the first w waits for the second, which agrees."""
WAR_STOP_NOTE = "war stop"
"""The kind of the notes about stopping at wars (``Shell.say``): the question leaves once it is answered."""


class LocalSeats(TableHost, Protocol):
    """A table in this process with both seats here (``war_tui.ui.table_connection.LocalHost``)."""

    def flip(self, seat: int) -> None: ...

    def restart(self, seat: int) -> None: ...

    def set_auto(self, on: bool, speed: float) -> None: ...


class TwoPlayerController(TableController):
    """One table, both seats at this keyboard; each player flips with their own key."""

    host: LocalSeats
    kind: Kind = "two-players"
    local = True
    _war_stop_timer: Stoppable | None = None

    def first_names(self) -> tuple[str, str]:
        return self.settings.names

    def _seat_names(self) -> tuple[str, str]:
        return self.settings.names

    def allows(self, action: str, on_board: bool = True) -> bool:
        """Each player's flip key; space and enter flip for nobody on the board (over it they say whose keys are whose)."""
        if action == "flip":
            return not on_board
        return action in {"p1_flip", "p2_flip"} or super().allows(action, on_board)

    def start(self) -> None:
        super().start()
        if self.settings.auto:
            self.host.set_auto(True, self.my_speed)

    def _logs(self, notice: Notice) -> bool:
        """Only the house's flips: both players sat down here at once, and nobody leaves but by quitting."""
        return notice.code is NoticeCode.HOUSE_FLIPPED

    def flip(self) -> None:
        """Space or enter over the result or help, or the palette's Flip: nobody's here, so say whose keys are whose."""
        names = self.board.names
        self.shell.notify(f"f or Left flips for {names[0]}, j or Right for {names[1]}", timeout=3)

    def seat_flip(self, seat: int) -> None:
        """A player's own key: flip, lay the war stopped at (the table holds there: it lays it for both), or at
        game over ask to deal again."""
        if self.ended is not None:
            return
        if self.board.laying and not self.board.at_tie:
            self.board.lay_war()  # being laid: the rest at once
            return
        if self.game.over:
            self.host.restart(seat)
        else:
            self.host.flip(seat)

    def auto(self) -> None:
        if self.board.at_tie:
            self.host.flip(0)  # the table holds at the tie: a lays it, and auto-play carries on
            return
        if self.board.laying:
            self.board.settle()
        self.host.set_auto(not self._my_seat_wants_auto(), self.my_speed)

    def pause_on_war(self) -> None:
        """w asks, a second w agrees: "stop at wars" changes the game for both, so both say so (either way)."""
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
        super().pause_on_war()  # both agreed: the board stops auto-play at the next tie (``stopped_at_war``)

    def _war_stop_lapsed(self) -> None:
        self._war_stop_timer = None
        self.shell.say(WAR_STOP_NOTE, "Nobody agreed: stop at wars stays as it was", timeout=3)

    def _ask_auto(self, on: bool) -> None:
        self.host.set_auto(on, self.my_speed)

    def _my_seat_wants_auto(self) -> bool:
        state = self.board.table_state
        return state is not None and any(s.auto for s in state.seats)

    def restart(self) -> None:
        if self.game.over:
            self.host.restart(0)
            self.host.restart(1)
        else:
            self.shell.notify("r deals again once the game is over", timeout=3)

    def help_keys(self) -> Sequence[tuple[str, str]]:
        return two_player_keys(self.board.names)

    def _result_hint(self) -> tuple[str, ...]:
        return ("f and j (or r): deal again", "esc: look at the table", "q: quit")
