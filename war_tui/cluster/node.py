"""A server's place in the cluster: its NATS (embedded or given), its connection, its node id and lease.

One code path either way: without ``--nats`` the server starts its own nats-server (``embedded``) and
connects to it as it would to any; with ``--nats URL`` it connects to those. ``Cluster.open`` fails with
``ClusterUnavailable`` (one line; the command exits 2); ``close`` lets go of the lease, the connection and
the embedded server, in that order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.errors import NoRespondersError

from ..untrusted import BadRecords
from .access import NatsAccess, Secret
from .buckets import replicas_for
from .config import ClusterConfig
from .connection import connect
from .embedded import EmbeddedNats
from .errors import ClusterUnavailable
from .leases import LeaseBucket, NodeLease, Owners, node_id
from .relay_wire import PREFIX
from .table_store import NatsTableStore

CLOSE_TIMEOUT = 5.0
"""Seconds the connection has to flush what it holds when the server stops."""
PROBE_SUBJECT = f"{PREFIX}.probe"
"""What ``answers`` asks on: war-tui's NATS user may publish there, and no node listens to it."""


class Cluster:
    """What ``open`` started and reached; the keeper takes ``store`` and ``owners`` from here."""

    def __init__(self, config: ClusterConfig, log: Callable[[str], None]) -> None:
        self.config = config
        self.log = log
        self.embedded: EmbeddedNats | None = None
        self.client: Client | None = None
        self.node = ""
        self.store: NatsTableStore | None = None
        self.lease: NodeLease | None = None
        self.owners: Owners | None = None
        self.bad = BadRecords(log)
        """Records in NATS that are not what they should be: one log line each, within a budget of their own."""
        self.on_reconnect: list[Callable[[], None]] = []
        """Called each time the NATS connection comes back (the relay sends again what was not acknowledged)."""
        self.on_lost: list[Callable[[], None]] = []
        """Called when the node's lease ran out under it: it steps down from every table at once."""
        self.on_rejoined: list[Callable[[], None]] = []
        """Called when the node holds a fresh lease again: it may claim and take over tables."""
        self.on_lapsed: list[Callable[[], None]] = []
        """Called when the node took its lease again after it expired while NATS did not answer: it claims its
        tables again, and lets go only those another node took."""

    @classmethod
    async def open(cls, config: ClusterConfig, log: Callable[[str], None]) -> Cluster:
        cluster = cls(config, log)
        try:
            await cluster._open()
        except BaseException:
            await cluster.close()
            raise
        return cluster

    async def _open(self) -> None:
        config = self.config
        try:
            self.node = node_id(config.directory)
        except OSError as exc:
            raise ClusterUnavailable(f"cannot keep a node id in {config.directory}: {exc.strerror or exc}") from None
        urls, access = config.urls, config.access
        if not urls:
            self.embedded = EmbeddedNats(config.directory, self.log)
            await self.embedded.start()
            urls, access = (self.embedded.url,), NatsAccess(token=Secret(self.embedded.token))
        self.client = await connect(urls, self.log, access=access, name=f"war-tui {self.node}", reconnected=self._reconnected)
        replicas = replicas_for(len(self.client.servers))
        try:
            self.store, leases = await asyncio.gather(
                NatsTableStore.open(self.client, replicas=replicas), LeaseBucket.open(self.client, replicas=replicas)
            )
            self.lease = NodeLease(leases, self.node, config.lease_seconds, on_lost=self._lost,
                                   on_rejoined=self._rejoined, on_lapsed=self._lapsed)
            await self.lease.take()
        except Exception as exc:  # noqa: BLE001 - whatever JetStream refused, the operator reads one line
            raise ClusterUnavailable(f"NATS has no usable JetStream: {exc}") from None
        self.owners = Owners(leases, self.lease, self.bad)
        self.lease.start()

    def describe(self) -> str:
        """The banner's line: which NATS, and this node."""
        if self.embedded is not None:
            return f"tables kept in NATS: embedded nats-server on {self.embedded.url}, store in {self.config.directory}"
        from .connection import shown_url

        return f"tables kept in NATS: {', '.join(shown_url(url) for url in self.config.urls)}; node {self.node}"

    @property
    def connected(self) -> bool:
        """The connection to NATS is up (the client's view: a stopped nats-server may still look connected)."""
        return self.client is not None and self.client.is_connected

    async def answers(self, timeout: float) -> bool:
        """Whether NATS answers within ``timeout``: a request on a subject war-tui may publish on (docs/cluster.md)
        that no node listens to, so NATS answers itself ("no responders")."""
        client = self.client
        if client is None or not client.is_connected:
            return False
        try:
            await client.request(PROBE_SUBJECT, b"", timeout=timeout)
        except NoRespondersError:
            return True
        except (TimeoutError, NatsError, OSError):
            return False
        return True

    def _reconnected(self) -> None:
        for call in list(self.on_reconnect):
            call()

    def _lost(self) -> None:
        self.log(f"cluster: node {self.node} lost its lease (paused or cut off past {self.config.lease_seconds} s); "
                 "it lets its tables go and takes a fresh lease")
        for call in list(self.on_lost):
            call()

    def _lapsed(self) -> None:
        self.log(f"cluster: node {self.node}'s lease expired while NATS did not answer (a JetStream leader's election, "
                 "or the connection away); it took it again and keeps the tables no other node took")
        for call in list(self.on_lapsed):
            call()

    def _rejoined(self) -> None:
        self.log(f"cluster: node {self.node} holds a fresh lease; it serves and takes over tables again")
        for call in list(self.on_rejoined):
            call()

    async def close(self) -> None:
        if self.lease is not None:
            await self.lease.stop()
            self.lease = None
        if self.client is not None:
            with contextlib.suppress(Exception):  # closing: NATS may be gone already, nothing to report
                await asyncio.wait_for(self.client.close(), CLOSE_TIMEOUT)
            self.client = None
        if self.embedded is not None:
            await self.embedded.stop()
