"""What keeps a server from its NATS: one line for the operator, and the command exits 2."""

from __future__ import annotations


class ClusterUnavailable(Exception):
    """NATS cannot be started or reached at start-up; the message is one line a person can act on."""
