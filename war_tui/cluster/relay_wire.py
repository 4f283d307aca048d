"""What goes between nodes on the relay: its subjects, its message kinds, and the open request a door sends.

Subjects carry node ids and connection ids this package makes, never a client's text; an open request is
checked field by field, as anything another process sends. Every message ends with a tag (``RelayKey``) only a
node holding the host key every node shares can make, for its subject and its sender: an open request, a
player's line, an owner's update, "gone" or an answer from anyone else who reaches NATS is dropped.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from nats.errors import Error as NatsError

from ..untrusted import BadRecord, fields, finite, read_json, text
from .leases import NODE_ID

PREFIX = "war-tui.relay"
CONN_ID = re.compile(r"[0-9a-f]{20}")
MAX_OPEN = 4 * 1024
"""Bytes an open request may have (names and identities are short)."""
MAX_TEXT = 400
"""Characters of a user name, identity or address an open request may carry."""
OPEN_TIMEOUT = 3.0
"""Seconds an owner has to answer an open request."""
OPEN_FRESH = 60.0
"""Seconds an open request's time (the door's clock) may be from the owner's: an older one, signed as it may be,
is one seen on the wire and sent again. The nodes' clocks must agree within it."""
MAX_OPENED = 65_536
"""Open requests an owner remembers at most (each for twice ``OPEN_FRESH``), so none is taken twice."""
LINES = b"L"
"""Numbered, either way: a connection's lines to its owner, or the owner's lines to the connection."""
CLOSE = b"C"
"""Numbered, door to owner: the connection left (after the lines before it)."""
END = b"E"
"""Numbered, owner to door: the link finished (after the lines before it)."""
MOVE = b"M"
"""Numbered, owner to door: the owner is stopping: the door routes the connection to whichever node takes the table."""
SKIP = b"S"
"""Numbered, owner to door: what came before this number was given up (a fresh snapshot follows)."""
PING = b"P"
"""Door to owner, with the door's acknowledgement: the connection is still there."""
ACK = b"A"
"""Either way: the highest number applied in a row, when no other message carries it."""
GONE = b"X"
"""Owner to door, with a closing line: the owner does not know the connection (any more)."""
ACK_EVERY = 16
"""Messages a door takes from its owner before it acknowledges them on its own (else its next key or ping does):
the owner's window stays short without a message for every update."""
RESEND_AFTER = 0.5
"""Fraction of the lease after which an unacknowledged message is sent again (the door pings every third of it,
and every message carries the acknowledgement, so a message delivered is acknowledged by then)."""
LOST = "the table's server lost this connection; reconnect to sit again"
DRAIN_TIMEOUT = 1.0
"""Seconds a stopping node gives what it has to send."""

NATS_ERRORS = (NatsError, OSError, TimeoutError, asyncio.TimeoutError)


TAG_BYTES = 16
"""Bytes of the tag ending every relay message: 128 bits of an HMAC-SHA256."""
OPENER = ""
"""The sender an open request is signed as: the door it comes from is in its signed body."""


class RelayKey:
    """Signs and checks relay messages with a key drawn from the host key every node shares (as the caps' hashes
    are): a message is taken only from a node, as the sender its receiver expects (an update from the owner the
    door opened the relay with, a line from the door the owner opened it for), on the subject it was sent to."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"war-tui relay between nodes\0" + secret).digest()

    def sign(self, sender: str, subject: str, data: bytes) -> bytes:
        return data + self._tag(sender, subject, data)

    def check(self, sender: str, subject: str, data: bytes) -> bytes:
        """``data`` without its tag; ``BadRecord`` when it is not ``sender``'s, signed for ``subject``."""
        body, tag = data[:-TAG_BYTES], data[-TAG_BYTES:]
        if len(data) < TAG_BYTES or not hmac.compare_digest(tag, self._tag(sender, subject, body)):
            raise BadRecord("not signed by the node it should come from (do the nodes share the host key?)")
        return body

    def _tag(self, sender: str, subject: str, data: bytes) -> bytes:
        signed = hmac.new(self._key, f"{sender}\0{subject}\0".encode(), hashlib.sha256)
        signed.update(data)
        return signed.digest()[:TAG_BYTES]


def open_subject(node: str) -> str:
    return f"{PREFIX}.open.{node}"


def in_subject(owner: str, door: str, conn: str) -> str:
    return f"{PREFIX}.in.{owner}.{door}.{conn}"


def out_subject(door: str, conn: str) -> str:
    return f"{PREFIX}.out.{door}.{conn}"


def new_conn_id() -> str:
    return secrets.token_hex(10)


@dataclass(frozen=True)
class OpenRequest:
    """What a door tells an owner of a connection it relays. Nothing in it decides a cap: the owner counts every
    relayed connection as its own (a relayed watcher is a spectator the cap counts, whatever its door says)."""

    conn: str
    door: str
    user: str
    identity: str | None
    address: str | None
    table: str
    watch: bool
    at: float
    """When the door sent it, by its wall clock (seconds since the epoch): an owner takes it once, and only fresh."""

    def encode(self) -> bytes:
        return json.dumps(self.__dict__).encode()

    @classmethod
    def decode(cls, data: bytes) -> OpenRequest:
        """Raises ``BadRecord`` (a ``ValueError``) for anything but a request this module makes."""
        raw = fields(read_json(data, MAX_OPEN, 1), "an open request", required=("conn", "door", "user", "table"))
        conn = text(raw["conn"], "its connection", 20, CONN_ID)
        door = text(raw["door"], "its door", 63, NODE_ID)
        user = raw["user"]  # the player's name as their door knows it: the owner reduces it as it seats them
        if not isinstance(user, str) or len(user) > MAX_TEXT:
            raise BadRecord(f"its user is not text of at most {MAX_TEXT} characters")
        identity, address = (None if raw.get(key) is None else text(raw[key], f"its {key}", MAX_TEXT)
                             for key in ("identity", "address"))
        table = text(raw["table"], "its table", MAX_TEXT)
        at = finite(raw.get("at"), "its time", 0.0, 1e11)
        return cls(conn, door, user, identity, address, table, raw.get("watch") is True, at)
