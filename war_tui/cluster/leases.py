"""Which node owns which table: a node id per data directory, a lease per node, an owner record per table.

- **A node** is a server's data directory: its id (``node_id``) is made once and kept there, so a server
  restarted on the same directory is the same node and takes its own tables back at once.
- **A node's lease** (``NodeLease``) is one key per node, written with a time to live (``Nats-TTL``, whole
  seconds) and renewed three times a lease by compare-and-set on its own revision: the node's membership of
  the cluster. A node that stops renewing (killed, paused) has its key expire; one that comes back after that
  finds its revision gone (``renew`` is False, ``lost`` is set, ``on_lost`` called): it steps down from every
  table at once, since others may have taken them. It keeps trying to take a fresh lease, a third of a lease
  apart; once it holds one (``on_rejoined``), it claims and takes over tables again.
- **A lease that lapsed while NATS did not answer** is not lost: a JetStream leader's election (the nats-server
  leading the bucket killed) takes 3 to 9 s, longer than a 3 s lease, and every node's renewals meet it alike.
  A node whose renewals found NATS not answering, and whose key expired meanwhile with nobody else's written over
  it, takes it again at once on the expired key's revision (``on_lapsed``) and claims its tables again, keeping
  those nobody took (``Nodes.reclaim``); and for a lease after NATS answers again it takes no other node's table
  (``Owners.claim``): their renewals met the same election.
- **A table's owner record** (``Owners``) names the node that applies the table's requests. A node takes a
  table that has no record, whose record is its own, or whose owner's lease has expired, by compare-and-set
  on the record's revision: of any number of nodes racing, one wins.
- **A node's session counts** (``cluster.caps``) live beside its lease, written with the same time to live
  (``put``) and listed by every node (``keys``).

A node that takes a table over writes its checkpoint once (the same data, a new revision) before it serves
it: from then on the previous owner's writes, compare-and-set on the revision it last saw, are refused
(``StaleWrite``), even if it was only paused and never learned it lost its lease.

Reads go to the stream itself, not through nats-py's ``KeyValue.get``/``create``: an expired key leaves a
delete marker (``Nats-Marker-Reason``, so that watchers learn of it) which those calls take for a value or
a conflict (nats-server issue #6711). Here a marker reads as no record, at the marker's revision, and a
write over it names that revision.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js.api import Header, KeyValueConfig, StorageType
from nats.js.client import JetStreamContext
from nats.js.errors import APIError, NotFoundError
from nats.js.kv import KV_DEL, KV_MARKER_REASON, KV_OP, KV_PURGE

from ..tables.store import StaleWrite
from ..untrusted import BadRecord, BadRecords, fields, read_json, shown_key, text
from .buckets import MARKER_TTL, WRONG_LAST, delete, open_bucket, sweep_markers
from .config import DEFAULT_LEASE, MAX_LEASE, MIN_LEASE
from .keys import table_key
from .table_store import StoreUnavailable
from .tasks import cancel_requested, end_tasks

BUCKET = "war-tui-leases"
RELEASED_TTL = 1
"""Seconds the marker of a deleted lease key stays before the bucket's own marker of its expiry takes its place
for ``MARKER_TTL`` seconds (``limit_marker_ttl``: an expired key's marker, which watchers see)."""
RENEWALS = 3
"""Renewals per lease: a renewal may be late twice before the lease runs out."""
NODE_FILE = "node-id"
NODE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
MAX_OWNER_RECORD = 256
"""Bytes of an owner record or a lease at most (``{"node": ..., "incarnation": ...}``: under 120)."""


def node_id(directory: Path) -> str:
    """This data directory's node id, made on first use (``n`` and 16 hex digits) and kept in ``NODE_FILE``."""
    path = directory / NODE_FILE
    with contextlib.suppress(OSError, UnicodeDecodeError):
        text = path.read_text(encoding="ascii").strip()
        if NODE_ID.fullmatch(text):
            return text
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    made = "n" + secrets.token_hex(8)
    temporary = path.with_name(f".{NODE_FILE}.{os.getpid()}")
    temporary.write_text(made + "\n", encoding="ascii")
    os.replace(temporary, path)  # whole or not at all: a half-written id is never read
    return made


@dataclass(frozen=True)
class Record:
    """A lease key as read: its value (None: never written, deleted or expired) and its revision (0: none)."""

    value: bytes | None
    revision: int


class LeaseBucket:
    """The keys of a KV bucket (the leases'; the lobby's, to read), read and written on the stream under it, expiry
    markers understood: no read makes a consumer."""

    def __init__(self, js: JetStreamContext, bucket: str = BUCKET) -> None:
        self.js = js
        self.bucket = bucket
        self.stream = f"KV_{bucket}"
        self.prefix = f"$KV.{bucket}."

    @classmethod
    async def open(
        cls, client: Client, *, replicas: int = 1, bucket: str = BUCKET, marker_ttl: int = MARKER_TTL,
    ) -> LeaseBucket:
        js = client.jetstream()
        config = KeyValueConfig(
            bucket=bucket, description="war-tui: node leases and table owners", history=1,
            storage=StorageType.FILE, replicas=replicas, limit_marker_ttl=marker_ttl,
        )
        kv = await open_bucket(js, config)
        await sweep_markers(js, kv, bucket, marker_ttl)
        return cls(js, bucket)

    async def read(self, key: str) -> Record:
        try:
            message = await self.js.get_msg(self.stream, subject=self.prefix + key)
        except NotFoundError:
            return Record(None, 0)
        headers = message.headers or {}
        gone = headers.get(KV_OP) in (KV_DEL, KV_PURGE) or KV_MARKER_REASON in headers
        return Record(None if gone else (message.data or b""), message.seq or 0)

    async def write(self, key: str, value: bytes, revision: int, ttl: int | None = None) -> int:
        """Write over ``revision`` (0: nothing there); ``StaleWrite`` if the key is at another."""
        headers: dict[str, Any] = {Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(revision)}
        try:
            ack = await self.js.publish(self.prefix + key, value, headers=headers, msg_ttl=ttl)
        except APIError as exc:
            if exc.err_code in WRONG_LAST:
                raise StaleWrite(key) from None
            raise
        return ack.seq

    async def put(self, key: str, value: bytes, ttl: int) -> int:
        """Write ``key`` whatever is there, to expire after ``ttl`` seconds; its new revision."""
        ack = await self.js.publish(self.prefix + key, value, msg_ttl=ttl)
        return ack.seq

    async def keys(self, prefix: str, limit: int) -> list[str]:
        """The keys starting with ``prefix`` (expired ones too, until their marker goes), ``limit`` at most."""
        info = await self.js.stream_info(self.stream, subjects_filter=f"{self.prefix}{prefix}>")
        subjects = info.state.subjects or {}
        return [subject[len(self.prefix):] for subject in list(subjects)[:limit] if subject.startswith(self.prefix)]

    async def delete(self, key: str, revision: int) -> None:
        try:
            await delete(self.js, self.bucket, key, revision, RELEASED_TTL)
        except APIError as exc:
            if exc.err_code in WRONG_LAST:
                raise StaleWrite(key) from None
            raise


def node_key(node: str) -> str:
    return f"node.{node}"


def owner_key(table: str) -> str:
    return f"owner.{table_key(table)}"


class NodeLease:
    """This node's lease: ``take`` it at start, ``run`` renews it until ``stop``.

    Its states: held (renewed a third of a lease apart), lost (a renewal found the key gone or another's:
    ``on_lost``, then a fresh ``take`` a third of a lease apart) and held again (``on_rejoined``)."""

    def __init__(self, bucket: LeaseBucket, node: str, seconds: int = DEFAULT_LEASE,
                 on_lost: Callable[[], None] | None = None, on_rejoined: Callable[[], None] | None = None,
                 on_lapsed: Callable[[], None] | None = None) -> None:
        if not MIN_LEASE <= seconds <= MAX_LEASE:
            raise ValueError(f"a node lease is {MIN_LEASE} to {MAX_LEASE} seconds, not {seconds}")
        self.bucket = bucket
        self.node = node
        self.seconds = seconds
        self.incarnation = secrets.token_hex(6)
        """This process's run of the node: a restart is the same node, another incarnation."""
        self.revision = 0
        self.lost = False
        self.on_lost = on_lost
        self.on_rejoined = on_rejoined
        self.on_lapsed = on_lapsed
        self.rejoins = 0
        """Fresh leases taken after one was lost (for the log and the tests)."""
        self.lapses = 0
        """Leases taken again after they expired while NATS did not answer (for the log and the tests)."""
        self.unanswered = False
        """A renewal since the last one NATS kept found NATS not answering (no leader for the bucket, or the
        connection away): an expiry meanwhile is NATS's outage, not this node's silence."""
        self.answered_at: float | None = None
        """When (``time.monotonic``) NATS kept a renewal after one it did not answer: for a lease from then, the
        other nodes' keys may have lapsed in the same outage (``Owners.claim``)."""
        self.written_at: float | None = None
        """When (``time.monotonic``) the last take or renewal that NATS kept was sent: the lease lasts from then."""
        self._task: asyncio.Task[None] | None = None

    def _value(self) -> bytes:
        return json.dumps({"node": self.node, "incarnation": self.incarnation}).encode()

    async def take(self) -> None:
        """Hold the node's lease, over whatever is there: a key this node's last run left is this node's."""
        for _ in range(8):  # a marker may appear between the read and the write; the next read sees it
            record = await self.bucket.read(node_key(self.node))
            with contextlib.suppress(StaleWrite):
                sent = time.monotonic()
                self.revision = await self.bucket.write(node_key(self.node), self._value(), record.revision, self.seconds)
                self.lost = False
                self.written_at = sent
                return
        raise StaleWrite(node_key(self.node))

    async def renew(self) -> bool:
        """Renew by compare-and-set on the last revision; False (and ``lost``) if the lease ran out meanwhile."""
        if self.lost:
            return False
        sent = time.monotonic()
        try:
            self.revision = await self.bucket.write(node_key(self.node), self._value(), self.revision, self.seconds)
        except StaleWrite:
            record = await self.bucket.read(node_key(self.node))
            if record.value == self._value():  # a renewal that timed out here was written there: still ours
                self.revision = record.revision
            elif record.value is None and self.unanswered and await self._take_again(record.revision):
                self.lapses += 1
                self._kept(sent)
                if self.on_lapsed is not None:
                    self.on_lapsed()
                return True
            else:
                self.lost = True
                if self.on_lost is not None:
                    self.on_lost()
                return False
        self._kept(sent)
        return True

    async def _take_again(self, revision: int) -> bool:
        """The key expired while NATS did not answer: write it again on the expired key's revision (so not over
        anyone else's); whether it was."""
        try:
            self.revision = await self.bucket.write(node_key(self.node), self._value(), revision, self.seconds)
        except StaleWrite:
            return False
        return True

    def _kept(self, sent: float) -> None:
        self.written_at = sent
        if self.unanswered:
            self.unanswered = False
            self.answered_at = time.monotonic()

    @property
    def others_may_lapse(self) -> bool:
        """Within a lease of NATS answering again after an outage: other nodes' leases may have expired in it, as
        this node's may have, while their nodes live on (they take theirs again at their next renewal)."""
        answered = self.answered_at
        return self.unanswered or (answered is not None and time.monotonic() - answered < self.seconds)

    @property
    def held(self) -> bool:
        """Whether the node holds its lease by its own clock: not lost, and kept by NATS within a lease (a node cut
        off from NATS stops holding it when it runs out there, before a renewal can tell)."""
        written = self.written_at
        return not self.lost and written is not None and time.monotonic() - written < self.seconds

    async def rejoin(self) -> None:
        """Take a fresh lease after this one was lost, then ``on_rejoined``; NATS's error if it does not answer."""
        if not self.lost:
            return
        await self.take()
        self.rejoins += 1
        if self.on_rejoined is not None:
            self.on_rejoined()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while not cancel_requested():
            await asyncio.sleep(self.seconds / RENEWALS)
            try:
                if self.lost:
                    await self.rejoin()
                else:
                    await self.renew()
            except StaleWrite:
                pass
            except (NatsError, OSError, TimeoutError):  # NATS away or electing a leader: the next try may reach it
                self.unanswered = not self.lost

    async def stop(self, release: bool = True) -> None:
        """Stop renewing; ``release`` deletes the lease so the node's tables may be taken at once."""
        if self._task is not None:
            await end_tasks([self._task])
            self._task = None
        if release and not self.lost:
            with contextlib.suppress(StaleWrite, NatsError, OSError, TimeoutError):  # stopping: the lease runs out anyway
                await self.bucket.delete(node_key(self.node), self.revision)


class Owners:
    """The owner records of tables, as this node takes, keeps and gives them up."""

    def __init__(self, bucket: LeaseBucket, lease: NodeLease, bad: BadRecords | None = None) -> None:
        self.bucket = bucket
        self.lease = lease
        self.bad = bad
        """Where a record that is no node's is told (one line each); it counts as no owner."""

    def _value(self) -> bytes:
        return json.dumps({"node": self.lease.node, "incarnation": self.lease.incarnation}).encode()

    async def owner(self, table: str) -> str | None:
        """The node named by the table's owner record (alive or not); None when it has none."""
        record = await self.bucket.read(owner_key(table))
        return self._node_of(table, record)

    async def alive(self, node: str) -> bool:
        """Whether ``node``'s lease holds: its record is there and names it (anything else is no lease, one line)."""
        key = node_key(node)
        record = await self.bucket.read(key)
        if record.value is None:
            return False
        try:
            if node_of(record.value) == node:
                return True
            raise BadRecord("it names another node")
        except BadRecord as exc:
            if self.bad is not None:
                self.bad(f"cluster: the lease {shown_key(key)} in NATS is skipped ({exc}): the node counts as gone",
                         (key, record.revision))
            return False

    async def claim(self, table: str) -> int | None:
        """Own ``table``: the owner record's new revision, or None while another node's lease holds it.

        A record of this node (a restart of it included) is taken back at once; a record of a node whose
        lease expired is taken over. Never while this node's own lease is lost (until it holds a fresh one)."""
        if self.lease.lost:
            return None
        record = await self.bucket.read(owner_key(table))
        owner = self._node_of(table, record)
        if owner is not None and owner != self.lease.node and (self.lease.others_may_lapse or await self.alive(owner)):
            return None
        try:
            return await self.bucket.write(owner_key(table), self._value(), record.revision)
        except StaleWrite:  # another node took it between the read and the write
            return None

    async def release(self, table: str, revision: int) -> None:
        """Give the table up (closed, or the node stopping); ``StaleWrite`` if another node owns it now, and
        ``StoreUnavailable`` while NATS does not answer (the record stays: whoever asks for the table next is
        sent to this node, which opens it afresh)."""
        try:
            await self.bucket.delete(owner_key(table), revision)
        except NatsError as exc:
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from None


    def _node_of(self, table: str, record: Record) -> str | None:
        """The node an owner record names; None (and one log line) for a record that names none."""
        if record.value is None:
            return None
        try:
            return node_of(record.value)
        except BadRecord as exc:
            if self.bad is not None:
                key = owner_key(table)
                self.bad(f"cluster: the owner record {shown_key(key)} in NATS is skipped ({exc}): no node owns the table",
                         (key, record.revision))
            return None


def node_of(value: bytes) -> str:
    """The node an owner record names; ``BadRecord`` for anything else."""
    raw = fields(read_json(value, MAX_OWNER_RECORD, 1), "an owner record", required=("node",))
    return text(raw["node"], "its node", 63, NODE_ID)
