"""Two players at one keyboard (``--two-players``): the same ``Table`` with both seats local.

The screen follows ``game`` (a ``RemoteGame``, fed straight by seat 1's member, so
it sees exactly what an SSH player sees) and turns each player's keys into that
player's requests: ``players[0].flip()``, ``players[1].flip()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.engine import Game
from ..stats.records import GameRecord
from .clock import Clock, monotonic
from .options import TableOptions
from .remote_game import RemoteGame
from .table import Member, Table

LOCAL_TABLE_NAME = "local"


@dataclass(frozen=True, slots=True)
class LocalTable:
    table: Table
    game: RemoteGame
    players: tuple[Member, Member]


def two_player_table(
    names: tuple[str, str],
    *,
    clock: Clock = monotonic,
    options: TableOptions | None = None,
    deal: Callable[[], Game] | None = None,
    seed_source: Callable[[], int] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
) -> LocalTable:
    """A table with ``names[0]`` in seat 1 and ``names[1]`` in seat 2, both at this keyboard.

    The host drives its timers as any table's: ``table.poll()`` at ``table.next_deadline()``.
    Its records carry the names as given, as a solo game's do (they come from this keyboard's
    own flags), not as the table reduces them for screens shared with strangers.
    """
    record = None if on_record is None else (lambda r: on_record(replace(r, p1_name=names[0], p2_name=names[1])))
    table = Table(LOCAL_TABLE_NAME, clock=clock, options=options, deal=deal, seed_source=seed_source,
                  on_record=record)
    game = RemoteGame()
    first = table.join(names[0], game.handle)
    second = table.join(names[1], _ignore)
    game.send = first.request
    return LocalTable(table, game, (first, second))


def _ignore(update: object) -> None:
    """Seat 2's updates: the one screen already shows them through seat 1's."""
