"""``--two-players``: a table of its own with both seats at this keyboard.

The table is a ``LocalHost`` in this process, so the table's rules decide as they do over SSH; player 1
flips with f or Left, player 2 with j or Right. The table controller is given ``BothSeats`` as its seat
policy (``seats``): what differs from one seat over a connection is all there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ...core.engine import Game
from ...presentation.requests import request_lines
from ...presentation.table_keys import two_player_keys
from ...presentation.unfolding import stopped_at_war_text
from ...settings.play import PlaySettings
from ...tables import Notice, NoticeCode, TableOptions
from ..table_connection import LocalHost
from .base import SEAT_ACTIONS, TABLE_ACTIONS, Kind
from .seats import SeatedTable
from .table import TableConnection

if TYPE_CHECKING:
    from ...stats.records import GameRecord


def first_deal(settings: PlaySettings, seeds: Callable[[], int]) -> Callable[[], Game]:
    """How the table at this keyboard deals: ``--p1/--p2`` (when given) first, then a shuffle from ``--seed``
    (when given) and then from ``seeds``."""
    packets = [settings.packets] if settings.packets is not None else []
    first_seed = [settings.seed] if settings.seed is not None else []
    rules = settings.rules

    def deal() -> Game:
        if packets:
            p1, p2 = packets.pop()
            return Game(p1, p2, rules)
        return Game.deal(first_seed.pop() if first_seed else seeds(), rules)

    return deal


def table_here(
    settings: PlaySettings, seeds: Callable[[], int], on_record: Callable[[GameRecord], None] | None
) -> LocalSeats:
    """A table of this process with both seats here, dealt by ``first_deal``; each finished game to ``on_record``."""
    return LocalHost(settings.names, on_record=on_record, options=TableOptions(rules=settings.rules),
                     deal=first_deal(settings, seeds))


@runtime_checkable
class LocalSeats(TableConnection, Protocol):
    """A table in this process with both seats here (``war_tui.ui.table_connection.LocalHost``)."""

    def flip(self, seat: int) -> None: ...

    def restart(self, seat: int) -> None: ...

    def set_auto(self, on: bool, speed: float) -> None: ...


class BothSeats:
    """The seat policy of one table with both seats at this keyboard; each player flips with their own key."""

    kind: Kind = "two-players"

    def __init__(self, host: LocalSeats, settings: PlaySettings) -> None:
        self.host = host
        self.names: tuple[str, str] | None = settings.names
        """The names this keyboard gave, whatever the table calls the seats."""
        self._auto = settings.auto

    def allows(self, table: SeatedTable, action: str, on_board: bool) -> bool:
        """Each player's flip key; space and enter flip for nobody on the board (over it they say whose keys are
        whose); none of a shared table's own keys."""
        if action == "flip":
            return not on_board
        return action in SEAT_ACTIONS or action not in TABLE_ACTIONS

    def start(self, table: SeatedTable) -> None:
        if self._auto:
            self.host.set_auto(True, table.my_speed)

    def logs(self, notice: Notice) -> bool:
        """Only the house's flips: both players sat down here at once, and nobody leaves but by quitting."""
        return notice.code is NoticeCode.HOUSE_FLIPPED

    def closing(self, table: SeatedTable, text: str) -> None:
        table.shell.table_closed(text)  # a table of this process: no connection ends to say so

    def asks_before_leaving(self, table: SeatedTable) -> bool:
        return False  # both players are here: q is theirs to press

    def requests(self, table: SeatedTable, house_in: int | None) -> tuple[str, ...]:
        board = table.board
        return request_lines(board.table_state, table.game.you, board.names, house_in=house_in, local=True)

    def flip(self, table: SeatedTable) -> None:
        """Space or enter over the result or help, or the palette's Flip: nobody's here, so say whose keys are whose."""
        names = table.board.names
        table.shell.notify(f"f or Left flips for {names[0]}, j or Right for {names[1]}", timeout=3)

    def stopped_at_war(self, table: SeatedTable) -> None:
        table.shell.notify(stopped_at_war_text("f or j"), timeout=4)

    def seat_flip(self, table: SeatedTable, seat: int) -> None:
        """A player's own key: flip, lay the war stopped at (the table holds there: it lays it for both), or at
        game over ask to deal again."""
        board = table.board
        if table.ended is not None:
            return
        if board.laying and not board.at_tie:
            board.lay_war()  # being laid: the rest at once
            return
        if table.game.over:
            self.host.restart(seat)
        else:
            self.host.flip(seat)

    def auto(self, table: SeatedTable) -> None:
        board = table.board
        if board.at_tie:
            self.host.flip(0)  # the table holds at the tie: a lays it, and auto-play carries on
            return
        if board.laying:
            board.settle()
        self.host.set_auto(not self.wants_auto(table), table.my_speed)

    def pause_on_war(self, table: SeatedTable) -> None:
        """"Stop at wars" changes the game for both, so both say so (either way)."""
        table.agree_war_stop()

    def restart(self, table: SeatedTable) -> None:
        if table.game.over:
            self.host.restart(0)
            self.host.restart(1)
        else:
            table.shell.notify("r deals again once the game is over", timeout=3)

    def wants_auto(self, table: SeatedTable) -> bool:
        state = table.board.table_state
        return state is not None and any(s.auto for s in state.seats)

    def ask_auto(self, table: SeatedTable, on: bool) -> None:
        self.host.set_auto(on, table.my_speed)

    def help_keys(self, table: SeatedTable) -> Sequence[tuple[str, str]]:
        return two_player_keys(table.board.names)

    def result_hint(self, table: SeatedTable) -> tuple[str, ...]:
        return ("f and j (or r): deal again", "esc: look at the table", "q: quit")
