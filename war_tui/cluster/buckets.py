"""A KV bucket bound if it exists, made if not: every node of a cluster opens the same buckets at start.

A deleted key leaves a marker, which JetStream keeps as the key's last message: one per key ever used, for
ever, would pile up in every bucket (a table's name, an owner record, a lobby entry). So ``delete`` writes
its marker with a time to live (``MARKER_TTL``) and ``sweep_markers`` clears at start the markers older than
that which a bucket may hold from before (a bucket an operator made without per-message expiry). A bucket
then holds its live keys and the keys deleted within the last ``MARKER_TTL`` seconds (docs/cluster.md).
"""

from __future__ import annotations

import contextlib
from datetime import UTC
from typing import Any

from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import Header, KeyValueConfig
from nats.js.client import JetStreamContext
from nats.js.errors import APIError, BadRequestError, BucketNotFoundError
from nats.js.kv import KV_DEL, KV_OP, KV_PURGE, KeyValue

MARKER_TTL = 60
"""Seconds a deleted key's marker stays (a reader sees the key gone; a write over it names its revision)."""
TTL_OFF = 10166
"""JetStream's error code for a message with a time to live in a stream that has per-message expiry off."""
WRONG_LAST = (10071, 10164)
"""JetStream's error codes for a write whose expected last sequence is not the subject's."""
SWEEP_TIMEOUT = 10.0
"""Seconds ``sweep_markers`` waits for the next key while it reads a bucket."""
WATCH_LINGER = 5.0
"""Seconds the consumer of a stopped watch (a start's sweep and restore) lingers on the server before it goes:
nats-py's own default keeps it five minutes, so every start of a node would leave four behind for that long."""


async def open_bucket(js: JetStreamContext, config: KeyValueConfig) -> KeyValue:
    """The bucket ``config`` names: as it is when it exists (an operator may have tuned it), else made so."""
    try:
        return await js.key_value(config.bucket)
    except BucketNotFoundError:
        pass
    try:
        return await js.create_key_value(config)
    except BadRequestError:  # another node made it a moment ago
        return await js.key_value(config.bucket)


def replicas_for(servers: int) -> int:
    """Copies of a bucket a cluster of ``servers`` keeps: 3 where there are 3 or more (one may be lost), else 1."""
    return 3 if servers >= 3 else 1


async def delete(js: JetStreamContext, bucket: str, key: str, revision: int | None, ttl: int = MARKER_TTL) -> int:
    """Delete ``key`` of ``bucket`` over ``revision`` (compare-and-set; None: whatever is there), its marker
    gone after ``ttl`` seconds; the marker's revision. JetStream's ``APIError`` for a write refused (a
    revision that moved on: 10071 or 10164)."""
    headers: dict[str, Any] = {KV_OP: KV_DEL}
    if revision:
        headers[Header.EXPECTED_LAST_SUBJECT_SEQUENCE] = str(revision)
    subject = f"$KV.{bucket}.{key}"
    try:
        return (await js.publish(subject, b"", headers=dict(headers), msg_ttl=ttl)).seq  # a copy: it adds its TTL
    except APIError as exc:
        if exc.err_code != TTL_OFF:
            raise
    return (await js.publish(subject, b"", headers=headers)).seq  # kept until the next start sweeps it


async def sweep_markers(js: JetStreamContext, kv: KeyValue, bucket: str, older_than: float = MARKER_TTL) -> int:
    """Clear the markers of deleted keys older than ``older_than`` seconds; how many. Each goes by a purge
    of its subject up to its own sequence number: a value written over it meanwhile stays."""
    from datetime import datetime

    markers: list[tuple[str, int]] = []
    now = datetime.now(UTC)
    watcher = await kv.watchall(meta_only=True, inactive_threshold=WATCH_LINGER)
    try:
        while (entry := await watcher.updates(timeout=SWEEP_TIMEOUT)) is not None:  # type: ignore[no-untyped-call]  # nats-py leaves it unannotated
            created: object = entry.created  # nats-py's Entry says int; it holds the message's datetime
            age = (now - created).total_seconds() if isinstance(created, datetime) else older_than
            if entry.operation in (KV_DEL, KV_PURGE) and entry.revision and age >= older_than:
                markers.append((entry.key, entry.revision))
    except NatsTimeout:
        pass  # a bucket that stopped answering: the next start sweeps what this one did not reach
    finally:
        with contextlib.suppress(Exception):  # the watch is over either way
            await watcher.stop()  # type: ignore[no-untyped-call]  # likewise
    for key, revision in markers:
        await js.purge_stream(f"KV_{bucket}", subject=f"$KV.{bucket}.{key}", seq=revision + 1)
    return len(markers)
