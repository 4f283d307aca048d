"""The web door's HTTP connections before they become a game: counted, timed and bounded, as SSH logins are.

aiohttp bounds no request's whole head nor the time it takes to arrive, so each connection is a
``GuardedConnection`` until its websocket upgrade: per address and in all, its head's bytes and lines,
its seconds, and the descriptors left for games. A refusal is a short response and a flood-bounded log line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..serving.config import MAX_SESSIONS
from ..serving.limits import address_key
from ..serving.log_format import record_line
from ..settings.options import number, setting, whole

WEB_DOOR = "the web door's own caps"
"""The help's heading of the web door's flags (``serve --help``)."""
HEADER_BYTES = 16 * 1024
"""The most bytes a request's line and headers may take together (aiohttp bounds each line, not the sum)."""
HEADER_LINES = 100
"""The most lines a request's head may have (a browser sends about 15)."""
LINE_BYTES = 8190
"""The longest request line or header line (aiohttp's ``max_line_size`` and ``max_field_size``)."""
MAX_REQUEST_LINE = 200
"""Characters of one of aiohttp's log lines the door's log keeps: what a client sent may be inside."""
FD_RESERVE_SHARE = 10
FD_RESERVE_MIN = 64
"""File descriptors kept for games and their connections: a tenth of the open-file limit, at least 64;
past the rest, new HTTP connections are closed at once."""
FD_COUNT_INTERVAL = 0.25
"""Seconds between counts of the open file descriptors (``/proc/self/fd``); accepts in between add one each."""
FD_DIRECTORY = "/proc/self/fd"
NO_REQUEST = "no request"
"""Why a connection that sent nothing within the header time was closed (``HttpGuard.refused``)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent with every response: the pages replace the policy with their own; errors keep this one."""
STATUS = {
    408: ("Request Timeout", "the request took too long to arrive"),
    431: ("Request Header Fields Too Large", "the request's headers were too large"),
    503: ("Service Unavailable", "too many connections; please try again later"),
}


@dataclass(frozen=True)
class GuardConfig:
    """The bounds on HTTP connections not yet upgraded to a game's websocket."""

    max_pending: int = setting(whole(
        "web_max_pending", 1, MAX_SESSIONS, 512, metavar="N", group=WEB_DOOR,
        help="HTTP connections not yet a game's websocket (a page loading, or idle between requests),"
        " {low}-{high:,}; past it the oldest is closed (default {default})"))
    """Such connections at once, from every address; past it the oldest is closed."""
    max_pending_per_address: int = setting(whole(
        "web_max_pending_per_address", 1, MAX_SESSIONS, 32, metavar="N", group=WEB_DOOR,
        help="such connections from one address, {low}-{high:,}; past it a new one is closed at once"
        " (default {default})"))
    """Such connections at once from one address; past it a new one is closed at once."""
    header_seconds: float = setting(number(
        "web_header_seconds", 1, 300.0, 10.0, "seconds", metavar="S", group=WEB_DOOR,
        help="seconds a browser has to send a request's line and headers, {low:g}-{high:g} (default {default:g})"))
    """Seconds from the connection (or a request's first byte) to the end of the request's headers."""
    keepalive_seconds: float = setting(number(
        "web_keepalive_seconds", 1, 3600.0, 30.0, "seconds", metavar="S", group=WEB_DOOR,
        help="seconds a connection may wait idle between requests, {low:g}-{high:g} (default {default:g})"))
    """Seconds a connection may wait idle between requests (aiohttp's keep-alive)."""
    fd_reserve: int | None = None
    """File descriptors kept for games; None: from the open-file limit (``fd_reserve``)."""


def fd_reserve(limit: int | None = None) -> int:
    """The file descriptors kept for games out of ``limit`` (default: this process's soft RLIMIT_NOFILE)."""
    if limit is None:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        limit = soft if soft != resource.RLIM_INFINITY else 1 << 20
    return max(FD_RESERVE_MIN, limit // FD_RESERVE_SHARE)


def open_file_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class FdCount:
    """How many file descriptors this process has open, counted at most every ``interval`` seconds.

    Between counts each accepted connection adds one, so a flood is seen at once; a count costs one
    ``/proc`` listing, whatever the rate of connections. None where there is no ``/proc``.
    """

    def __init__(self, interval: float = FD_COUNT_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._clock = clock
        self._counted_at = float("-inf")
        self._count: int | None = None

    def opened(self) -> int | None:
        """Count one more (a connection accepted); the count, recounted if it is old."""
        now = self._clock()
        if now - self._counted_at >= self.interval:
            self._counted_at = now
            try:
                self._count = len(os.listdir(FD_DIRECTORY))
            except OSError:
                self._count = None
        elif self._count is not None:
            self._count += 1
        return self._count


def head_end(data: bytes) -> int:
    """Where the last request head in ``data`` ends (after its blank line), or -1."""
    bare, crlf = data.rfind(b"\n\n"), data.rfind(b"\n\r\n")
    return max(bare + 2 if bare >= 0 else -1, crlf + 3 if crlf >= 0 else -1)


def plain_response(status: int) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, with the door's security headers."""
    reason, text = STATUS[status]
    body = f"war-tui: {text}.\n".encode()
    head = [f"HTTP/1.1 {status} {reason}", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Connection: close", "Server: war-tui"]
    head += [f"{name}: {value}" for name, value in SECURITY_HEADERS.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class HttpGuard:
    """The door's count of HTTP connections not yet upgraded, and what it refuses; one per door."""

    def __init__(self, config: GuardConfig, flood_log: Callable[[str, str], None], debug: bool = False) -> None:
        self.config = config
        self.flood_log = flood_log
        self.debug = debug
        """Log the quiet closes too (``--log-level debug``): connections that never sent a byte."""
        self.pending: OrderedDict[GuardedConnection, None] = OrderedDict()
        """Connections not yet upgraded, oldest first."""
        self.per_address: Counter[str] = Counter()
        self.by_transport: dict[Any, GuardedConnection] = {}
        self.fds = FdCount()
        self.fd_limit = open_file_limit()
        self.reserve = config.fd_reserve if config.fd_reserve is not None else fd_reserve(self.fd_limit)
        self.refused: Counter[str] = Counter()
        """Connections refused or closed, by why (for the tests and the figures)."""

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """The protocol factory for ``loop.create_server``: each of ``inner``'s protocols, guarded."""
        return lambda: GuardedConnection(self, inner())

    def admit(self, conn: GuardedConnection) -> str | None:
        """Count a new connection in; why it may not stay, or None."""
        opened = self.fds.opened()
        if opened is not None and opened >= self.fd_limit - self.reserve:
            return "file descriptors kept for games"
        if self.per_address[conn.key] >= self.config.max_pending_per_address:
            return "too many connections from one address"
        self.pending[conn] = None
        self.per_address[conn.key] += 1
        while len(self.pending) > self.config.max_pending:
            oldest = next(iter(self.pending))
            oldest.refuse("too many connections", 503)
        return None

    def release(self, conn: GuardedConnection) -> None:
        """The connection closed or was upgraded: it no longer counts."""
        if self.pending.pop(conn, False) is None:
            self.per_address[conn.key] -= 1
            if self.per_address[conn.key] <= 0:
                del self.per_address[conn.key]
        if conn.seen_transport is not None and self.by_transport.get(conn.seen_transport) is conn:
            del self.by_transport[conn.seen_transport]

    def upgraded(self, transport: Any) -> None:
        """The request on ``transport`` became a websocket: the game's own bounds take it from here."""
        conn = self.by_transport.get(transport)
        if conn is not None:
            conn.upgrade()

    def close_all(self) -> None:
        for conn in list(self.pending):
            conn.refuse("shutdown", None)


SECURED_HEAD = "".join(f"{name}: {value}\r\n" for name, value in SECURITY_HEADERS.items()).encode()


def secured(head: bytes) -> bytes:
    """A response's head with the security headers, if it starts a response that has none (aiohttp's own)."""
    if not head.startswith(b"HTTP/1.") or b"\r\nContent-Security-Policy:" in head[:4096]:
        return head
    line_end = head.find(b"\r\n")
    return head if line_end < 0 else head[:line_end + 2] + SECURED_HEAD + head[line_end + 2:]


class SecuredTransport(asyncio.Transport):
    """The connection's transport as aiohttp sees it, the same but for one thing: a response aiohttp writes
    itself, outside the application (a malformed request's 400), gets the door's security headers too.

    Only until the websocket is upgraded: after that the bytes are frames, never read.
    """

    def __init__(self, transport: asyncio.Transport, conn: GuardedConnection) -> None:
        super().__init__()
        self._transport = transport
        self._conn = conn

    def write(self, data: Any) -> None:
        if not self._conn.is_upgraded and data[:7] == b"HTTP/1.":
            data = secured(bytes(data))
        self._transport.write(data)

    def writelines(self, list_of_data: Any) -> None:
        chunks = list(list_of_data)
        if chunks and not self._conn.is_upgraded and chunks[0][:7] == b"HTTP/1.":
            chunks[0] = secured(bytes(chunks[0]))
        self._transport.writelines(chunks)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def close(self) -> None:
        self._transport.close()

    def abort(self) -> None:
        self._transport.abort()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def write_eof(self) -> None:
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()


class GuardedConnection(asyncio.Protocol):
    """One accepted connection: aiohttp's protocol inside, the door's bounds around it until it upgrades."""

    def __init__(self, guard: HttpGuard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.seen_transport: asyncio.Transport | None = None
        """The transport aiohttp is given (and a request's ``transport`` is)."""
        self.key = "?"
        self.label = "?"
        self._admitted = False
        self._upgraded = False
        self._closed = False
        self._head_bytes = 0
        self._head_lines = 0
        self._spoke = False
        """A byte arrived: a request began (a browser's preconnect sends none until it is used)."""
        self._tail = b""
        self._timer: asyncio.TimerHandle | None = None

    # -- asyncio's calls -------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        self.key = address_key(address)
        self.label = f"{address}:{peer[1]}" if peer and ":" not in address else f"[{address}]:{peer[1] if peer else 0}"
        refusal = self.guard.admit(self)
        if refusal is not None:
            self._closed = True
            self.guard.refused[refusal] += 1
            self.guard.flood_log(f"web {self.label}: refused: {refusal}", "web connections refused")
            transport.write(plain_response(503))
            transport.close()
            return
        self._admitted = True
        self._arm()
        seen = self.seen_transport = SecuredTransport(transport, self)
        self.guard.by_transport[seen] = self
        self.inner.connection_made(seen)

    def data_received(self, data: bytes) -> None:
        if self._closed:
            return
        self._spoke = True
        if not self._upgraded and not self._measure(data):
            return
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self._admitted:
            return self.inner.eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._disarm()
        if self._admitted:
            self.guard.release(self)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self._admitted:
            self.inner.resume_writing()

    # -- the bounds ------------------------------------------------------------------------------------

    def _measure(self, data: bytes) -> bool:
        """Count ``data`` into the request heads it carries; False if that broke a bound (and closed it)."""
        seen = self._tail + data
        end = head_end(seen)
        if end >= 0:
            rest = seen[end:]
            self._head_bytes = len(rest)
            self._head_lines = rest.count(b"\n")
            self._disarm()
        else:
            self._head_bytes += len(data)
            self._head_lines += data.count(b"\n")
            rest = seen
        self._tail = rest[-2:]
        if self._head_bytes > HEADER_BYTES or self._head_lines > HEADER_LINES:
            self.refuse("request headers too large", 431)
            return False
        if self._head_bytes and self._timer is None:
            self._arm()
        return True

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.guard.config.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self._upgraded or self._closed:
            return
        if self._spoke:
            self.refuse("request headers too slow", 408)
            return
        # A browser opens connections ahead of need and may leave one unused: no request, so no answer and no
        # line (but at debug); it is closed all the same, as a connection that only holds a place would be.
        self.refuse(NO_REQUEST, None)
        if self.guard.debug:
            seconds = self.guard.config.header_seconds
            self.guard.flood_log(f"web {self.label}: closed: nothing sent in {seconds:g} s (an unused preconnect,"
                                 " or an idle client)", "web connections closed")

    @property
    def is_upgraded(self) -> bool:
        return self._upgraded

    def upgrade(self) -> None:
        self._upgraded = True
        self._disarm()
        self.guard.release(self)

    def refuse(self, why: str, status: int | None) -> None:
        """Answer ``status`` (None: nothing) and close; the inner protocol learns of it as a lost connection."""
        if self._closed:
            self.guard.release(self)  # counted no more, whatever happened first
            return
        self._closed = True
        self._disarm()
        self.guard.release(self)
        self.guard.refused[why] += 1
        if status is not None:
            self.guard.flood_log(f"web {self.label}: closed: {why}", "web connections closed")
        if self.transport is not None:
            if status is not None and not self.transport.is_closing():
                self.transport.write(plain_response(status))
            self.transport.close()


class RequestLog(logging.Handler):
    """aiohttp's own log lines (a malformed request, an error in a handler) as one line each, through the
    door's flood-bounded log: never a traceback, and at most its burst a second."""

    def __init__(self, flood_log: Callable[[str, str], None]) -> None:
        super().__init__(logging.INFO)
        self.flood_log = flood_log

    def emit(self, record: logging.LogRecord) -> None:
        self.flood_log(f"web: {record_line(record, MAX_REQUEST_LINE, where=True)}", "web request errors")


def request_logger(flood_log: Callable[[str, str], None]) -> logging.Logger:
    """A logger of the door's own for aiohttp's request handlers (its ``logger`` argument); no global state."""
    logger = logging.Logger("war_tui.web.requests", logging.INFO)
    logger.addHandler(RequestLog(flood_log))
    return logger


def handler_args(config: GuardConfig, logger: logging.Logger) -> dict[str, Any]:
    """aiohttp's own per-connection bounds (``AppRunner``'s keyword arguments for its request handlers).

    Only names aiohttp takes: given one it does not know, aiohttp drops them all.
    """
    return {
        "keepalive_timeout": config.keepalive_seconds, "max_line_size": LINE_BYTES, "max_field_size": LINE_BYTES,
        "max_headers": HEADER_LINES, "logger": logger,
    }
