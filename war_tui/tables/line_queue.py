"""Lines waiting for a connection, oldest first, with their size in bytes: the bounded queue a link keeps.

What to do past the bound is the owner's (a link gives way to a fresh snapshot, the relay's door to a gap it
asks a snapshot for); the queue only says whether a line fits and keeps the count right.
"""

from __future__ import annotations

from collections import deque


class LineQueue:
    """Encoded lines for one connection, at most ``limit`` bytes as its owner uses ``fits``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lines: deque[bytes] = deque()
        self._size = 0

    @property
    def size(self) -> int:
        """Bytes queued."""
        return self._size

    def __bool__(self) -> bool:
        return bool(self._lines)

    def fits(self, line: bytes) -> bool:
        """Whether ``line`` goes in within ``limit``."""
        return self._size + len(line) <= self.limit

    def append(self, line: bytes) -> None:
        self._lines.append(line)
        self._size += len(line)

    def appendleft(self, line: bytes) -> None:
        self._lines.appendleft(line)
        self._size += len(line)

    def clear(self) -> None:
        self._lines.clear()
        self._size = 0

    def take(self) -> bytes:
        """Everything queued, in order; the queue is empty after."""
        data = b"".join(self._lines)
        self.clear()
        return data
