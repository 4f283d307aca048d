"""How this keyboard sits at a table: one seat (or a spectator's chair), or both seats (``two_players``).

The table controller is given one ``SeatPolicy`` and asks it what differs between the two: which seat a key
acts for and how it reaches the table, whose names the board shows and who is "you" on the requests line,
which keys are in play, what the help and the result say. Everything else of a table is the controller's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ...presentation.requests import LEAVE_PROMPT, LEAVE_PROMPT_SHORT, request_lines
from ...presentation.table_keys import SPECTATOR_KEYS, TABLE_KEYS
from ...presentation.words import capital
from ...tables import Notice, RemoteGame, SeatStatus
from ...tables.messages import LOGGED_NOTICES
from .base import TABLE_ACTIONS, BoardState, Kind, Severity, TableShell, board_key


class SeatedTable(Protocol):
    """The table controller as a seat policy uses it (``table.TableController`` is one): its game, its board and
    shell, and the few questions and requests that differ by seat."""

    leave_asked: bool

    @property
    def game(self) -> RemoteGame: ...

    @property
    def board(self) -> BoardState: ...

    @property
    def shell(self) -> TableShell: ...

    @property
    def ended(self) -> str | None: ...

    @property
    def in_lobby(self) -> bool: ...

    @property
    def my_speed(self) -> float: ...

    def table_key(self, action: str) -> bool: ...

    def only_watching(self) -> bool: ...

    def mine(self, kind: str) -> bool: ...

    def ask_war_stop(self) -> None: ...

    def agree_war_stop(self) -> None: ...

    def toast(
        self, text: str, *, timeout: float, severity: Severity = "information", short: str | None = None
    ) -> None: ...


class SeatPolicy(Protocol):
    """What a table's screen does differently with one seat here or both."""

    @property
    def kind(self) -> Kind: ...

    @property
    def names(self) -> tuple[str, str] | None:
        """The names this keyboard gave the seats, kept whatever the table says (None: the table's names)."""

    def allows(self, table: SeatedTable, action: str, on_board: bool) -> bool: ...

    def start(self, table: SeatedTable) -> None:
        """The table is joined."""

    def logs(self, notice: Notice) -> bool:
        """Whether the battle log keeps this notice (the table's log does; a screen may leave some out)."""

    def closing(self, table: SeatedTable, text: str) -> None:
        """The table says it is closing (a socket's host says so itself once the socket ends)."""

    def asks_before_leaving(self, table: SeatedTable) -> bool:
        """Whether q asks to confirm leaving before it leaves."""

    def requests(self, table: SeatedTable, house_in: int | None) -> tuple[str, ...]:
        """The requests line: what one player asks the other, worded for whoever is "you" here."""

    def stopped_at_war(self, table: SeatedTable) -> None:
        """The board stopped a war at its tie (the table holds auto-play there): say who lays it."""

    def flip(self, table: SeatedTable) -> None: ...

    def seat_flip(self, table: SeatedTable, seat: int) -> None: ...

    def auto(self, table: SeatedTable) -> None: ...

    def pause_on_war(self, table: SeatedTable) -> None: ...

    def restart(self, table: SeatedTable) -> None: ...

    def wants_auto(self, table: SeatedTable) -> bool:
        """Whether auto-play is asked for by the seat (or seats) here."""

    def ask_auto(self, table: SeatedTable, on: bool) -> None: ...

    def help_keys(self, table: SeatedTable) -> Sequence[tuple[str, str]]: ...

    def result_hint(self, table: SeatedTable) -> tuple[str, ...]:
        """The result's lines saying what deals again."""


class OneSeat:
    """A player's seat, or a spectator's chair, over a connection: a key is a request from "you"."""

    kind: Kind = "table"
    names: tuple[str, str] | None = None

    def allows(self, table: SeatedTable, action: str, on_board: bool) -> bool:
        return table.table_key(action) if action in TABLE_ACTIONS else board_key(action)

    def start(self, table: SeatedTable) -> None:
        pass

    def logs(self, notice: Notice) -> bool:
        return notice.code in LOGGED_NOTICES

    def closing(self, table: SeatedTable, text: str) -> None:
        pass  # the host says why once the connection ends

    def asks_before_leaving(self, table: SeatedTable) -> bool:
        """A seated player, mid-game, with another player at the table (who hears of it at once, as spectators
        do); at game over, alone with the house, or watching, q leaves at once."""
        state, you = table.game.state, table.game.you
        if (table.ended is not None or table.in_lobby or state is None or state.over or you is None
                or you.seat is None or state.seats[1 - you.seat.index].status is not SeatStatus.PLAYER):
            return False
        if not table.leave_asked:
            table.leave_asked = True
            table.game.set_leaving(True)
            table.toast(capital(LEAVE_PROMPT), timeout=5, short=LEAVE_PROMPT_SHORT)
        return True

    def requests(self, table: SeatedTable, house_in: int | None) -> tuple[str, ...]:
        return request_lines(table.board.table_state, table.game.you, table.board.names, house_in=house_in)

    def flip(self, table: SeatedTable) -> None:
        if table.only_watching():
            return
        if table.game.over:
            if not table.mine("restart"):
                table.game.restart()
        else:
            table.game.flip()  # held at a war's tie, this lays it for everyone

    def seat_flip(self, table: SeatedTable, seat: int) -> None:
        pass

    def stopped_at_war(self, table: SeatedTable) -> None:
        pass  # the requests line says who lays it

    def auto(self, table: SeatedTable) -> None:
        if not table.only_watching():
            self.ask_auto(table, not self.wants_auto(table))

    def pause_on_war(self, table: SeatedTable) -> None:
        """Ask (or stop asking) that auto-play stop at every war: the table does once both players ask."""
        table.ask_war_stop()

    def restart(self, table: SeatedTable) -> None:
        """Ask (or stop asking) to deal again; mid-game, to stop this game and deal again (once both ask)."""
        if not table.only_watching():
            table.game.restart(not table.mine("restart"))

    def wants_auto(self, table: SeatedTable) -> bool:
        state, you = table.board.table_state, table.game.you
        if state is None or you is None or you.seat is None:
            return False
        return state.seats[you.seat.index].auto

    def ask_auto(self, table: SeatedTable, on: bool) -> None:
        table.game.set_auto(on, table.my_speed)

    def help_keys(self, table: SeatedTable) -> Sequence[tuple[str, str]]:
        return SPECTATOR_KEYS if table.game.watching else TABLE_KEYS

    def result_hint(self, table: SeatedTable) -> tuple[str, ...]:
        game = table.game
        if game.watching:
            return ("The players deal again", "esc: look at the table", "q: stop watching")
        state, you = game.state, game.you
        ask = "r or space: deal again once both players ask"
        if state is not None and you is not None and you.seat is not None:
            mine, other = state.seats[you.seat.index], state.seats[1 - you.seat.index]
            name = table.board.names[1 - you.seat.index]
            if mine.restart and not other.restart:
                ask = f"You asked to deal again: waiting for {name} (r withdraws)"
            elif other.restart and not mine.restart:
                ask = f"{name} asks to deal again: r or space agrees"
        return (ask, "esc: look at the table", "q: leave")
