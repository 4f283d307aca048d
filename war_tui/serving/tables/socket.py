"""The server's end of a game process's table socket: bytes between it and the connection's ``Link``.

The game process of a table connection inherits one end of a socket pair; the
server keeps the other and pumps it here. What the game sends goes to
``link.receive`` in bounded reads, at a bounded byte rate (the link checks and
rate-limits each request). What the link queues is written when the link says
there is something (``on_output``), coalesced to one write per turn of the
event loop. While the game does not take what was written, nothing more is
taken from the link: its own bounded queue then falls behind and resynchronises
with a fresh snapshot, so a slow game never slows the table nor grows the server.
A fresh snapshot the game asked for too soon after the last is served when the
link says it is due (``next_deadline``, then ``poll``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import socket
import struct
import termios
from collections import deque
from collections.abc import Callable

from ...tables.clock import seconds_until
from ...tables.link import TableLink
from ...tables.rate import TokenBucket

READ_CHUNK = 16 * 1024
READ_RATE = 64 * 1024
"""Bytes a second a game may send on average: requests are a few dozen bytes, keys repeat ~30 a second."""
READ_BURST = 64 * 1024
MARK_GRAIN = 0.01
MAX_MARKS = 64
"""Output is marked with when it reached the link (``behind``): one mark for whatever arrives within ``MARK_GRAIN``
seconds, and at most ``MAX_MARKS`` marks a socket. Past it the marks of what the game has read go (one look at
the socket), and if the game is that far behind still, the two marks closest in time become one, with the older
time: a screen is said to be behind by a little more than it is, never less."""


class TableSocket:
    """Pumps one socket to and from one ``Link`` until ``close``.

    ``on_request`` is called after what the game sent was carried out (a host wakes
    its table timers then); ``on_finished`` once the link closed and all it had to
    say was written (the socket's sending side is shut then, so the game reads an end).
    """

    def __init__(
        self,
        sock: socket.socket,
        link: TableLink,
        *,
        on_request: Callable[[], None] | None = None,
        on_finished: Callable[[], None] | None = None,
        read_rate: float = READ_RATE,
        read_burst: float = READ_BURST,
        screens: set[TableSocket] | None = None,
    ) -> None:
        """``screens``: the server's set of table sockets, which this one is in until it closes (``behind``)."""
        self.sock = sock
        self.link = link
        self._on_request = on_request
        self._on_finished = on_finished
        self._loop = asyncio.get_running_loop()
        self._fd = sock.fileno()
        sock.setblocking(False)
        self._out = memoryview(b"")
        self._writing = False
        self._scheduled = False
        self._reading = False
        self._closed = False
        self._finished = False
        self._budget = TokenBucket(read_rate, read_burst, self._loop.time())
        self._resume: asyncio.TimerHandle | None = None
        self._due: asyncio.TimerHandle | None = None
        """The call that serves the link's deferred snapshot when it is due."""
        self.bytes_in = 0
        self.bytes_out = 0
        self._arrived: float | None = None
        """When the oldest output the link holds for the game reached it (None: it holds none)."""
        self._taken = 0
        self._marks: deque[tuple[int, float]] = deque()
        """Each piece taken from the link: where it ends in the stream of output and when it reached the link."""
        self._screens = screens
        self._written_call: Callable[[], None] | None = None
        if screens is not None:
            screens.add(self)
        link.on_output = self._wanted
        self._start_reading()
        self._wanted()  # what the link queued before the socket was there (the snapshot on joining)

    # -- from the game ------------------------------------------------------------------------------

    def _start_reading(self) -> None:
        if not self._reading and not self._closed:
            self._loop.add_reader(self._fd, self._readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._fd)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = self.sock.recv(READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the game closed its end: it is leaving the table
            self._stop_reading()
            self.link.close()
            self._wanted()
            return
        self.bytes_in += len(data)
        self.link.receive(data)
        self._watch_deadline()
        if self._on_request is not None:
            self._on_request()
        self._spend(len(data))

    def _watch_deadline(self) -> None:
        """Poll the link when its deferred snapshot is due (one call waits at a time)."""
        delay = seconds_until(self.link.next_deadline(), self.link.clock)
        if delay is not None and self._due is None and not self._closed:
            self._due = self._loop.call_later(delay, self._poll_link)

    def _poll_link(self) -> None:
        self._due = None
        self.link.poll()
        self._watch_deadline()  # not due yet on the link's clock: again when it is

    def _spend(self, size: int) -> None:
        """Take ``size`` from the read budget; past it, stop reading until the budget has refilled."""
        wait = self._budget.spend(size, self._loop.time())
        if wait > 0 and self._reading:
            self._stop_reading()
            self._resume = self._loop.call_later(wait, self._resume_reading)

    def _resume_reading(self) -> None:
        self._resume = None
        if not self.link.closed:
            self._start_reading()

    # -- to the game --------------------------------------------------------------------------------

    def _wanted(self) -> None:
        """The link has something to say: write it on the next turn of the loop (once per turn)."""
        if self._arrived is None:
            self._arrived = self._loop.time()
        if not self._scheduled and not self._writing and not self._closed:
            self._scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self._closed:
            return
        while True:
            if not self._out:
                data = self.link.take()
                arrived, self._arrived = self._arrived, None
                if not data:
                    break
                self._mark(len(data), self._loop.time() if arrived is None else arrived)
                self._out = memoryview(data)
            try:
                sent = self.sock.send(self._out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:  # the game is gone; its session ends the link
                self._out = memoryview(b"")
                self._stop_writing()
                self.link.close()
                self._finish()
                return
            self.bytes_out += sent
            if sent and self._written_call is not None:
                call, self._written_call = self._written_call, None
                call()
            self._out = self._out[sent:]
            if self._out:  # the game is behind: wait until it takes this, take nothing more meanwhile
                if not self._writing:
                    self._loop.add_writer(self._fd, self._flush)
                    self._writing = True
                return
        self._stop_writing()
        if self.link.finished:
            self._finish()

    def when_written(self, call: Callable[[], None]) -> None:
        """``call`` once the game has been written anything (the table's first word: a snapshot, or a refusal);
        at once if it has."""
        if self.bytes_out:
            call()
        else:
            self._written_call = call

    def _mark(self, size: int, arrived: float) -> None:
        self._taken += size
        marks = self._marks
        if marks and arrived - marks[-1][1] < MARK_GRAIN:
            marks[-1] = (self._taken, marks[-1][1])
            return
        if len(marks) >= MAX_MARKS:
            self._forget_read()
        if len(marks) >= MAX_MARKS:
            closest = min(range(len(marks) - 1), key=lambda i: marks[i + 1][1] - marks[i][1])
            marks[closest] = (marks[closest + 1][0], marks[closest][1])
            del marks[closest + 1]
        marks.append((self._taken, arrived))

    def _forget_read(self) -> None:
        """Let go of the marks of what the game has read."""
        read = self.bytes_out - unread(self.sock)
        marks = self._marks
        while marks and marks[0][0] <= read:
            marks.popleft()

    def behind(self) -> float:
        """Seconds the oldest output the game has not read yet has waited since it reached the link (0: it has read
        everything): how far its screen is behind its table."""
        if self._closed:
            return 0.0
        self._forget_read()
        marks = self._marks
        oldest = marks[0][1] if marks else self._arrived
        return 0.0 if oldest is None else max(0.0, self._loop.time() - oldest)

    def _stop_writing(self) -> None:
        if self._writing:
            self._loop.remove_writer(self._fd)
            self._writing = False

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_WR)
        if self._on_finished is not None:
            self._on_finished()

    @property
    def delivered(self) -> bool:
        """Everything the link said has been read by the game (or there is no game to read it any more)."""
        if self._closed:
            return True
        if self._out or self._scheduled or self.link.queued:
            return False
        return unread(self.sock) == 0

    @property
    def held(self) -> int:
        """Bytes taken from the link and not yet written (at most one ``take()``)."""
        return len(self._out)

    # -- the end ------------------------------------------------------------------------------------

    def close(self) -> None:
        """The connection is over: leave the table, stop pumping, close the socket; safe to call twice."""
        if self._closed:
            return
        self.link.close()
        self._closed = True
        self._stop_reading()
        self._stop_writing()
        if self._resume is not None:
            self._resume.cancel()
        if self._due is not None:
            self._due.cancel()
            self._due = None
        self.link.on_output = None
        self._out = memoryview(b"")
        self._marks.clear()
        if self._screens is not None:
            self._screens.discard(self)
        self.sock.close()


def unread(sock: socket.socket) -> int:
    """Bytes written to ``sock`` that its peer has not read yet (0 where the system cannot say)."""
    try:
        raw = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4)  # SIOCOUTQ: same request number
    except (OSError, AttributeError):
        return 0
    (count,) = struct.unpack("i", raw)
    return int(count)
