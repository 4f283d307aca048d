"""What a node of the cluster needs of the server whose tables it serves, and what a connection's router needs of
the node: Protocols, so the cluster stands below the server (``war_tui.serving.tables``' ``SharedTables`` and
``TableKeeper`` are these) and the router below the node (``nodes.Nodes`` is a ``TableNode``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..stats.records import GameRecord
from ..tables.link import DoorLink, Link
from ..tables.registry import Registry
from ..tables.store import StoredTable
from .relay import RelayNode


class ServerKeeper(Protocol):
    """The server's keeper of its tables in the store: who owns a table, and its checkpoints."""

    on_let_go: Callable[[str], None] | None

    async def claim(self, name: str) -> bool: ...

    async def unclaim(self, name: str) -> None: ...

    async def restore_now(self, name: str) -> None: ...

    async def open_stored(self, stored: StoredTable, *, claimed: bool) -> bool: ...

    def poke(self) -> None: ...

    async def flush(self, timeout: float | None = None) -> bool: ...

    def let_go(self, name: str) -> None: ...

    def let_go_all(self) -> list[str]: ...


class ServerTables(Protocol):
    """The server's tables: its registry, its links into it, its keeper and its statistics."""

    router: Callable[[str, str | None, str | None], DoorLink] | None
    publish: Callable[[GameRecord], bool] | None

    @property
    def registry(self) -> Registry: ...

    @property
    def keeper(self) -> ServerKeeper | None: ...

    def local_link(self, user_name: str, identity: str | None = None, address: str | None = None) -> Link: ...

    def wake(self) -> None: ...

    def record_here(self, record: GameRecord) -> None: ...

    def record_restored(self, names: list[str]) -> None: ...

    async def store(self, records: Sequence[GameRecord]) -> None: ...


class TableNode(Protocol):
    """This node as a connection's router asks it: who serves a table, and the way to the node that does."""

    @property
    def node(self) -> str: ...

    @property
    def host(self) -> ServerTables: ...

    @property
    def keeper(self) -> ServerKeeper: ...

    @property
    def relay(self) -> RelayNode: ...

    async def serve(self, name: str) -> bool: ...

    async def owner(self, name: str) -> str | None: ...
