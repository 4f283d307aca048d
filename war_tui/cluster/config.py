"""What a server is told about its cluster, light enough for the command line to load on every start
(nothing of NATS is imported here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from ..stats.store import APP_NAME
from .access import NatsAccess

DEFAULT_LEASE = 3
"""Seconds a node's lease lasts unless renewed (``--node-lease``): how long its tables wait for it.

Shorter than a JetStream leader's election (3 to 9 s when a nats-server of three is killed), on purpose: a key
that expires while NATS does not answer is taken again, not lost (``leases.NodeLease``, "lapsed"), so a longer
lease would only make a dead node's tables wait longer."""
MIN_LEASE = 2
MAX_LEASE = 60


def default_directory() -> Path:
    """Where a server keeps its node id and its embedded NATS store: beside the served statistics."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False) / "cluster"


@dataclass(frozen=True)
class ClusterConfig:
    urls: tuple[str, ...] = ()
    """``--nats``: the cluster to use; none: start an embedded nats-server."""
    directory: Path = field(default_factory=default_directory)
    """The node id, and the embedded server's store (``jetstream/``)."""
    lease_seconds: int = DEFAULT_LEASE
    access: NatsAccess = field(default_factory=NatsAccess)
    """How this server signs in to the ``--nats`` cluster: credentials files, TLS files (docs/cluster.md)."""
