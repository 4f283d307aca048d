"""The ``--metrics`` listener: a small HTTP/1.1 responder of its own (never the web door's) for three GET paths.

``/metrics`` (``metrics.py``), ``/healthz`` and ``/readyz`` (``health.py``): 200, or 503 with the reason in one
line. One request per connection, read within ``REQUEST_SECONDS`` and ``MAX_REQUEST`` bytes, at most
``MAX_CONNECTIONS`` connections at once (past it a new one is closed at once); on the server's own event loop,
so a loop that does not answer does not answer here either.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from .health import Health
from .metrics import CONTENT_TYPE, exposition, metrics_registry

if TYPE_CHECKING:
    from .server import GameServer

MAX_REQUEST = 8 * 1024
"""Bytes of a request's line and headers at most; a probe or a scraper sends a few hundred."""
REQUEST_SECONDS = 5.0
"""Seconds a connection has to send its request, and then to take the answer."""
MAX_CONNECTIONS = 32
PLAIN = "text/plain; charset=utf-8"
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}


class MetricsListener:
    """Listens at ``host``:``port`` (0: a free one, ``port`` says which once started) until ``stop``."""

    def __init__(self, server: GameServer, host: str, port: int) -> None:
        self.server = server
        self.host = host
        self.requested_port = port
        self.health: Health | None = None
        self._listener: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Listen, and start keeping the server's health; OSError (a port in use) reaches the caller."""
        health = Health(self.server)
        self._registry = metrics_registry(self.server, health)
        self._listener = await asyncio.start_server(
            self._connected, self.host, self.requested_port, limit=MAX_REQUEST,
        )
        self.health = health
        health.start()

    def serving(self) -> None:
        """The doors are open and the server said so: ready, once everything else is."""
        assert self.health is not None
        self.health.serving = True

    def stopping(self) -> None:
        """A stop began: not ready from now on."""
        assert self.health is not None
        self.health.stopping = True

    @property
    def port(self) -> int:
        assert self._listener is not None
        return int(self._listener.sockets[0].getsockname()[1])

    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.wait(set(self._connections))
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None
        if self.health is not None:
            await self.health.stop()

    # -- one connection, one request ---------------------------------------------------------------------

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is None or len(self._connections) >= MAX_CONNECTIONS:
            writer.close()
            return
        self._connections.add(task)
        try:
            with contextlib.suppress(ConnectionError, asyncio.TimeoutError, asyncio.LimitOverrunError,
                                     asyncio.IncompleteReadError):
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_SECONDS)
                status, kind, body, head_only = self._answer(head)
                writer.write(_response(status, kind, body, head_only))
                await asyncio.wait_for(writer.drain(), REQUEST_SECONDS)
        finally:
            self._connections.discard(task)
            writer.close()

    def _answer(self, head: bytes) -> tuple[int, str, bytes, bool]:
        """The status, content type and body for a request's line and headers, and whether to send the body."""
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            return 400, PLAIN, b"a request line is METHOD PATH HTTP/1.1\n", False
        method, target, _version = parts
        path = target.split("?", 1)[0]
        if path not in ("/metrics", "/healthz", "/readyz"):
            return 404, PLAIN, b"war-tui's metrics listener answers /metrics, /healthz and /readyz\n", method == "HEAD"
        if method not in ("GET", "HEAD"):
            return 405, PLAIN, b"GET or HEAD only\n", False
        assert self.health is not None
        if path == "/metrics":
            return 200, CONTENT_TYPE, exposition(self._registry), method == "HEAD"
        why = self.health.not_alive() if path == "/healthz" else self.health.not_ready()
        if why is None:
            return 200, PLAIN, b"ok\n", method == "HEAD"
        return 503, PLAIN, (why + "\n").encode(), method == "HEAD"


def _response(status: int, kind: str, body: bytes, head_only: bool) -> bytes:
    head = (
        f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
        f"Cache-Control: no-store\r\nConnection: close\r\n"
        + ("Allow: GET, HEAD\r\n" if status == 405 else "")
        + "\r\n"
    )
    return head.encode("ascii") + (b"" if head_only else body)
