"""Where a server keeps its tables' checkpoints so they outlive it: the ``TableStore`` the keeper writes to.

Every write is a compare-and-set on the revision the writer last saw: a writer that is behind (a second
process, an owner that lost its lease while paused) gets ``StaleWrite`` and must read again or step down,
so no state is ever written over one it has not seen. ``NatsTableStore`` (``war_tui.cluster.table_store``)
keeps them in JetStream; ``MemoryTableStore`` keeps them in this process, for tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class StaleWrite(Exception):
    """The stored revision is not the one the write expected: someone else wrote (or deleted) the table."""


@dataclass(frozen=True)
class StoredTable:
    """A table's checkpoint as stored, and the revision a write over it must name."""

    name: str
    data: bytes
    revision: int


class TableStore(Protocol):
    async def load_all(self, most: int | None = None) -> list[StoredTable]:
        """The stored tables (deleted ones left out), oldest write first: at most ``most`` (None: all), whatever the
        store holds."""
        ...

    async def save(self, name: str, data: bytes, revision: int | None) -> int:
        """Write ``data`` over ``revision`` (None: the table must not exist); returns the new revision.

        ``StaleWrite`` when the stored revision is another."""
        ...

    async def delete(self, name: str, revision: int | None) -> None:
        """Remove the table if it is still at ``revision`` (None: whatever it holds); ``StaleWrite`` otherwise."""
        ...

    async def close(self) -> None: ...


class MemoryTableStore:
    """A ``TableStore`` in a dict, with one revision counter over all keys as JetStream has."""

    def __init__(self) -> None:
        self._tables: dict[str, StoredTable] = {}
        self._revision = 0
        self.closed = False

    async def load_all(self, most: int | None = None) -> list[StoredTable]:
        return sorted(self._tables.values(), key=lambda table: table.revision)[:most]

    async def save(self, name: str, data: bytes, revision: int | None) -> int:
        stored = self._tables.get(name)
        if (stored.revision if stored is not None else None) != revision:
            raise StaleWrite(name)
        self._revision += 1
        self._tables[name] = StoredTable(name, bytes(data), self._revision)
        return self._revision

    async def delete(self, name: str, revision: int | None) -> None:
        stored = self._tables.get(name)
        if revision is not None and (stored is None or stored.revision != revision):
            raise StaleWrite(name)
        self._tables.pop(name, None)
        self._revision += 1

    async def close(self) -> None:
        self.closed = True
