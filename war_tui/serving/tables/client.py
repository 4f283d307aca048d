"""A game's end of its table socket: requests out through a bounded buffer, updates in through the checked reader.

The server's end is ``socket`` (``TableSocket``). No event loop here: the screen drives this from asyncio's reader and
writer callbacks (``ui/table_connection.py``), the line mode from ``select`` (``line/table.py``), so both
read, send, drop and give up alike.
"""

from __future__ import annotations

import contextlib
import socket

from ...tables import ProtocolError, Request, encode
from ...tables.messages import Update
from ...tables.protocol import update_reader

READ_SIZE = 64 * 1024
MAX_READ = 1024 * 1024
"""Bytes one ``receive`` drains at most: more than the server queues for a connection (a link's queue and the
socket's buffer) before it gives way to a fresh snapshot, so a backlog is read, and shown, as one."""
MAX_UNSENT = 64 * 1024
"""Bytes of requests waiting for the socket at most; past it, new requests are dropped (the server is not reading)."""


class TableClient:
    """The socket the server passed down (``WAR_TUI_TABLE_FD``), non-blocking; OSError if it is no socket."""

    def __init__(self, fd: int) -> None:
        sock = socket.socket(fileno=fd)
        sock.setblocking(False)
        self.sock = sock
        self.dropped = 0
        """Requests dropped because the socket would not take them."""
        self._reader = update_reader()
        self._unsent = bytearray()
        self.unread = False
        """The last ``receive`` stopped at ``MAX_READ`` with more waiting."""

    def fileno(self) -> int:
        return self.sock.fileno()

    @property
    def unsent(self) -> bool:
        """Requests wait for the socket to take them: wait for it to be writable."""
        return bool(self._unsent)

    def queue(self, request: Request) -> bool:
        """Hold ``request`` for the socket; False (and dropped) past ``MAX_UNSENT``."""
        line = encode(request)
        if len(self._unsent) + len(line) > MAX_UNSENT:
            self.dropped += 1
            return False
        self._unsent += line
        return True

    def flush(self) -> bool:
        """Send what the socket takes now; False once the connection is gone."""
        if not self._unsent:
            return True
        try:
            sent = self.sock.send(self._unsent)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            return False
        del self._unsent[:sent]
        return True

    def receive(self) -> list[Update | ProtocolError] | None:
        """The updates waiting on the socket, in order (a ``ProtocolError`` where a line is refused), up to
        ``MAX_READ`` bytes; None once the connection is gone (after what came before its end)."""
        chunks: list[bytes] = []
        size = 0
        ended = False
        while size < MAX_READ:
            try:
                data = self.sock.recv(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                data = b""
            if not data:
                ended = True
                break
            chunks.append(data)
            size += len(data)
            if len(data) < READ_SIZE:
                break  # what was waiting has been read: the next recv would only say so
        self.unread = size >= MAX_READ
        if not chunks:
            return None if ended else []
        return self._reader.feed(b"".join(chunks))  # an end read after them is read again next time

    def finish(self, timeout: float = 1.0) -> None:
        """Let what waits (a goodbye: "leave") go out before the socket closes, for at most ``timeout``."""
        if self._unsent:
            with contextlib.suppress(OSError):
                self.sock.setblocking(True)
                self.sock.settimeout(timeout)
                self.sock.sendall(self._unsent)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
