"""A KV bucket bound if it exists, made if not: every node of a cluster opens the same buckets at start."""

from __future__ import annotations

from nats.js.api import KeyValueConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BadRequestError, BucketNotFoundError
from nats.js.kv import KeyValue


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
