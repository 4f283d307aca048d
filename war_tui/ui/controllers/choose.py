"""The one place that picks a way to play and its controller, from the settings and the table's connection."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...settings.play import PlaySettings
from .base import AppRoles, BoardState, Controller, Kind
from .solo import SoloController

if TYPE_CHECKING:  # a solo game loads nothing of the tables
    from ...stats.records import GameRecord
    from .table import TableConnection


def way_to_play(settings: PlaySettings, connection: TableConnection | None) -> Kind:
    """``--two-players`` (a table of its own unless one is given), a table over ``connection``, else solo."""
    if settings.two_players:
        return "two-players"
    return "solo" if connection is None else "table"


def controller_for(
    settings: PlaySettings,
    connection: TableConnection | None,
    *,
    board: BoardState,
    app: AppRoles,
    clock: Callable[[], float] = time.monotonic,
    new_seed: Callable[[], int],
    seed_source: Callable[[], int] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
) -> Controller:
    """The controller of ``way_to_play``, showing on ``board``; with two players and no ``connection``, a table
    of this process, dealt from ``seed_source`` (else ``new_seed``), its finished games given to ``on_record``."""
    kind = way_to_play(settings, connection)
    if kind == "solo":
        return SoloController(board, app, settings, clock=clock, new_seed=new_seed)
    from .seats import OneSeat
    from .table import TableController

    if kind == "table":
        assert connection is not None
        controller = TableController(board, app, settings, connection, seats=OneSeat(), clock=clock)
    else:
        from .two_players import BothSeats, LocalSeats, table_here

        host = connection if connection is not None else table_here(settings, seed_source or new_seed, on_record)
        if not isinstance(host, LocalSeats):
            raise TypeError("two players at one keyboard play at a table of this process")
        controller = TableController(board, app, settings, host, seats=BothSeats(host, settings), clock=clock)
    board.names = controller.first_names()
    return controller
