"""Whether the server is alive and ready to take players, as ``/healthz`` and ``/readyz`` say (``--metrics``).

Alive: the event loop answers within a second (a beat every quarter second, and how late it came). Ready: every
door listens, the game parent is ready, NATS answers and the node holds its lease; not while starting, nor from
the moment a stop begins. NATS is asked every second with a request nobody answers but NATS itself ("no
responders"), so a nats-server that is gone or stopped (SIGSTOP, a dead network: the connection stays open)
is noticed within a second and the request's timeout. While ``--metrics`` is on, the beat also measures how far
each screen at the tables is behind its table, once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import GameServer

BEAT = 0.25
"""Seconds between the beats that tell the event loop answers."""
LIVE_WITHIN = 1.0
"""Seconds late a beat may come while the server is alive."""
NATS_EVERY = 1.0
NATS_TIMEOUT = 1.0
"""Seconds between two questions to NATS, and how long one may wait for its answer."""
SAMPLE_EVERY = 1.0
"""Seconds between two measures of how far the screens are behind."""


class Health:
    """The server's liveness and readiness, kept by tasks of its own from ``start`` to ``stop``."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.serving = False
        """The doors opened and the server said it listens (``_serve`` sets it): before, it is starting."""
        self.stopping = False
        """A stop began (a signal): not ready from then on, before the doors close (``_serve`` sets it)."""
        self.nats_answered = False
        """NATS answered the last question (False until it did once)."""
        self._loop = asyncio.get_running_loop()
        self._beat_at = self._loop.time()
        self._late = 0.0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [self._loop.create_task(self._beat()), self._loop.create_task(self._ask_nats())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    # -- alive --------------------------------------------------------------------------------------------

    async def _beat(self) -> None:
        sampled = self._loop.time()
        while True:
            before = self._loop.time()
            await asyncio.sleep(BEAT)
            self._beat_at = now = self._loop.time()
            self._late = now - before - BEAT
            if now - sampled >= SAMPLE_EVERY:
                sampled = now
                observe = self.server.counts.screen_behind.observe
                for seconds in self.server.behind():
                    observe(seconds)

    def not_alive(self) -> str | None:
        """Why the server is not alive, in one line; None while it is."""
        silent = self._loop.time() - self._beat_at - BEAT
        late = max(self._late, silent)
        if late > LIVE_WITHIN:
            return f"the event loop answered {late:.1f} s late"
        return None

    # -- ready --------------------------------------------------------------------------------------------

    async def _ask_nats(self) -> None:
        while True:
            self.nats_answered = await self._nats_answers()
            await asyncio.sleep(NATS_EVERY)

    async def _nats_answers(self) -> bool:
        cluster = self.server.cluster
        return cluster is not None and await cluster.answers(NATS_TIMEOUT)

    @property
    def nats_connected(self) -> bool:
        """Connected to NATS, and NATS answered the last question."""
        cluster = self.server.cluster
        return cluster is not None and cluster.connected and self.nats_answered

    @property
    def lease_held(self) -> bool:
        cluster = self.server.cluster
        return cluster is not None and cluster.lease is not None and cluster.lease.held

    def not_ready(self) -> str | None:
        """Why the server should get no new players now, in one line; None when it may."""
        server = self.server
        if self.stopping or server.stopping:
            return "the server is stopping"
        if not self.serving:
            return "the server is starting"
        if not server.listening:
            return "a door does not listen"
        if server.game_parent is not None and not server.game_parent.ready:
            return "the game parent is not ready"
        if server.config.cluster is not None:
            if not self.nats_connected:
                return "NATS does not answer"
            if not self.lease_held:
                return "this node does not hold its lease"
        return None
