"""Another program holding a statistics file: a SQLite connection in a write transaction, let go at the end."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(path: Path, how: str = "EXCLUSIVE") -> Iterator[sqlite3.Connection]:
    """``path`` held in a ``BEGIN {how}`` transaction until the block ends (or the holder lets go earlier, by
    ``rollback`` or ``COMMIT``, from any thread); then it is rolled back, if still held, and closed."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        holder.execute(f"BEGIN {how}")
        yield holder
    finally:
        if holder.in_transaction:
            holder.rollback()
        holder.close()
