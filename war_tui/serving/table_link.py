"""What a door's session holds at the tables: a ``Link`` into this server's registry, or a ``Router`` that
may relay it to the node that serves its table. The doors and the table socket use either through this."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..tables.clock import Clock
from ..tables.table import Member


class TableLink(Protocol):
    on_output: Callable[[], None] | None
    on_join: Callable[[str, Member, str], None] | None
    clock: Clock
    max_queued: int

    @property
    def closed(self) -> bool: ...

    @property
    def close_reason(self) -> str | None: ...

    @property
    def member(self) -> Member | None: ...

    @property
    def queued(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    def join(self, table_name: str, watch: bool = False, counted: bool = True) -> Member | None: ...

    def watch_lobby(self) -> None: ...

    def receive(self, data: bytes) -> None: ...

    def take(self) -> bytes: ...

    def next_deadline(self) -> float | None: ...

    def poll(self) -> None: ...

    def close(self, reason: str | None = None) -> None: ...
