"""The few things of the game server a door's session and the game launcher use (``House``).

A session is given this, never the concrete server: it cannot reach another door's state, and the
modules of a door need not import the server that holds them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, MutableSet
from typing import Any, Protocol

from .config import GameConfig
from .counts import ServerCounts
from .game_parent import GameParent
from .limits import FloodLog
from .pty_process import PtyProcess
from .tables.host import SharedTables


class House(Protocol):
    """The game server as a session sees it: its limits, its tables, its game parent, its log."""

    @property
    def config(self) -> GameConfig: ...

    @property
    def tables(self) -> SharedTables: ...

    @property
    def game_parent(self) -> GameParent | None: ...

    @property
    def flood_log(self) -> FloodLog: ...

    @property
    def counts(self) -> ServerCounts:
        """What ``--metrics`` reads; a door counts its refusals here."""
        ...

    @property
    def processes(self) -> MutableSet[PtyProcess]:
        """Every game process started: ``--metrics`` counts those still running."""
        ...

    def log(self, line: str) -> None: ...

    def track(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
