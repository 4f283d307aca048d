"""The caps per visitor and on sessions, across every node of a cluster: what each node tells, and the sums.

Each node tells the others, through NATS, what its caps count, with every visitor hashed (``VisitorKeys``: an
HMAC with a key drawn from the host key the nodes share, so no address or identity is written to NATS and the
same visitor hashes alike on every node):

- **with each table's lobby entry** (``nodes``): who opened the table and who holds its seats
  (``TableVisitors``), so every node counts the tables opened and the seats held per visitor on the others;
- **in a key of its own** (``SESSIONS_PREFIX`` + node id, in the leases bucket, expiring with a lease): how
  many sessions it has, in all and per address (``NodeSessions``).

``Elsewhere`` holds what the last read of the others found; a cap checks what this node holds plus that. What a
node read is up to two polls old (``nodes.LOBBY_INTERVAL``: the other writes at its poll, this one reads at
its own): nodes admitting one visitor within that window each admit up to the cap less what they read. Everything
read is another process's bytes: ``read_visitors`` and ``read_sessions`` read it through ``war_tui.untrusted``,
check types, sizes and counts, and raise ``BadRecord`` for anything else.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..untrusted import BadRecord, fields, read_json, whole

SESSIONS_PREFIX = "sessions."
"""The key of a node's session counts in the leases bucket: this and its node id."""
HASH_LENGTH = 24
"""Hex digits of a visitor's hash: 96 bits, no two visitors alike in practice."""
VISITOR_HASH = re.compile(rf"[0-9a-f]{{{HASH_LENGTH}}}")
MAX_SEATS = 2
MAX_SESSIONS = 10_000
"""Sessions one node may tell at most (``--max-sessions``' ceiling); a record past it is not one."""
MAX_SESSIONS_VALUE = 64 + MAX_SESSIONS * (HASH_LENGTH + 12)
"""Bytes of a node's session record at most: every session from an address of its own."""

Visitor = tuple[str | None, str | None]
"""A visitor's hashed (identity, address); either may be None."""


class VisitorKeys:
    """Hashes identities and addresses for NATS: the same on every node given the same secret."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"war-tui visitor across nodes\0" + secret).digest()

    def _hash(self, kind: str, value: str) -> str:
        return hmac.new(self._key, f"{kind}\0{value}".encode(), hashlib.sha256).hexdigest()[:HASH_LENGTH]

    def identity(self, identity: str | None) -> str | None:
        return None if identity is None else self._hash("identity", identity)

    def address(self, address: str | None) -> str | None:
        return None if address is None else self._hash("address", address)

    def visitor(self, identity: str | None, address: str | None) -> Visitor:
        return self.identity(identity), self.address(address)


@dataclass(frozen=True)
class TableVisitors:
    """Who opened a table and who holds its seats (taken or kept), hashed: what the caps per visitor count."""

    opened: Visitor = (None, None)
    seats: tuple[Visitor, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"opened": list(self.opened), "seats": [list(seat) for seat in self.seats]}


def table_visitors(keys: VisitorKeys, opened_by: tuple[str | None, str | None],
                   holders: Iterable[tuple[str | None, str | None]]) -> TableVisitors:
    """A table's visitors, hashed: ``opened_by`` is its (address, identity), ``holders`` its seats' (identity,
    address), as ``Table`` keeps them."""
    address, identity = opened_by
    return TableVisitors(keys.visitor(identity, address),
                         tuple(keys.visitor(i, a) for i, a in list(holders)[:MAX_SEATS]))


def _visitor(raw: object) -> Visitor:
    if not isinstance(raw, list) or len(raw) != 2:
        raise BadRecord("a visitor is not a pair")
    if not all(part is None or (isinstance(part, str) and VISITOR_HASH.fullmatch(part)) for part in raw):
        raise BadRecord("a visitor is not hashed")
    return raw[0], raw[1]


def read_visitors(raw: object) -> TableVisitors:
    """The visitors a lobby record holds (its parsed JSON); ``BadRecord`` for anything else."""
    raw = fields(raw, "the visitors", required=("opened", "seats"))
    seats = raw["seats"]
    if not isinstance(seats, list) or len(seats) > MAX_SEATS:
        raise BadRecord(f"the seats are not a list of at most {MAX_SEATS}")
    return TableVisitors(_visitor(raw["opened"]), tuple(_visitor(seat) for seat in seats))


@dataclass(frozen=True)
class NodeSessions:
    """One node's sessions: in all, and per hashed address."""

    total: int = 0
    by_address: Mapping[str, int] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        return json.dumps({"total": self.total, "addresses": dict(self.by_address)}, separators=(",", ":")).encode()


def node_sessions(keys: VisitorKeys, addresses: Iterable[str]) -> NodeSessions:
    """The record of a node whose sessions come from ``addresses`` (one per session), hashed."""
    counted = Counter(keys.address(address) or "" for address in addresses)
    return NodeSessions(sum(counted.values()), dict(sorted(counted.items())))


def read_sessions(value: bytes) -> NodeSessions:
    """The session counts a node's record holds; ``BadRecord`` for anything else."""
    raw = fields(read_json(value, MAX_SESSIONS_VALUE, 2), "a session record", required=("total", "addresses"))
    total, addresses = whole(raw["total"], "its total", 0, MAX_SESSIONS), raw["addresses"]
    if not isinstance(addresses, dict) or len(addresses) > MAX_SESSIONS:
        raise BadRecord(f"its addresses are not at most {MAX_SESSIONS:,} counts by address")
    for key, count in addresses.items():
        if not VISITOR_HASH.fullmatch(key):
            raise BadRecord("an address is not hashed")
        whole(count, "a count", 0, MAX_SESSIONS)
    if sum(addresses.values()) > total:
        raise BadRecord("its addresses count more sessions than its total")
    return NodeSessions(total, addresses)


class Elsewhere:
    """What the other nodes hold, as last read, by visitor: the tables they opened, the seats they hold, the
    sessions they have. The registry asks with raw identities and addresses; they are hashed to compare."""

    def __init__(self, keys: VisitorKeys) -> None:
        self.keys = keys
        self.tables: tuple[TableVisitors, ...] = ()
        """Every table the other nodes serve."""
        self.sessions: dict[str, NodeSessions] = {}
        """Every other node's sessions, by node id."""

    def tables_opened_by(self, identity: str | None, address: str | None) -> int:
        who, where = self.keys.visitor(identity, address)
        return sum(1 for t in self.tables if _matches(t.opened, who, where))

    def seats_held(self, identity: str | None, address: str | None) -> int:
        who, where = self.keys.visitor(identity, address)
        return sum(1 for t in self.tables for seat in t.seats if _matches(seat, who, where))

    def sessions_total(self) -> int:
        return sum(node.total for node in self.sessions.values())

    def sessions_from(self, address: str) -> int:
        hashed = self.keys.address(address) or ""
        return sum(node.by_address.get(hashed, 0) for node in self.sessions.values())


def _matches(visitor: Visitor, identity: str | None, address: str | None) -> bool:
    """As ``Seats.held`` compares: the same identity, or the same address."""
    return (identity is not None and visitor[0] == identity) or (address is not None and visitor[1] == address)
