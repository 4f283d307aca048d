"""``NatsTableStore``: the tables' checkpoints in a JetStream KV bucket, one key per table, history 1.

Each write is a compare-and-set on the key's revision (JetStream's expected last sequence of the
subject); a write over a revision that moved on is ``StaleWrite``. The stream is written to disk before
each write is acknowledged on the embedded server (``war_tui.cluster.embedded.SYNC_INTERVAL``), and kept on
three servers in a cluster of three or more, so an acknowledged save survives a kill -9 of either process.
"""

from __future__ import annotations

from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import KeyValueConfig, StorageType
from nats.js.client import JetStreamContext
from nats.js.errors import APIError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from ..tables.store import StaleWrite, StoredTable
from .buckets import MARKER_TTL, WATCH_LINGER, WRONG_LAST, delete, open_bucket, sweep_markers
from .keys import table_key, table_name

BUCKET = "war-tui-tables"
MAX_VALUE = 128 * 1024
"""The largest checkpoint the bucket takes (a table's is bounded at 64 KiB)."""
READ_TIMEOUT = 10.0
"""Seconds ``load_all`` waits for the next table while it reads the bucket."""


class StoreUnavailable(ConnectionError):
    """NATS did not take a write now (a JetStream leader election, a reconnect): the keeper tries again."""


class NatsTableStore:
    """A ``war_tui.tables.store.TableStore`` on the bucket ``BUCKET``."""

    def __init__(self, kv: KeyValue, js: JetStreamContext, bucket: str = BUCKET, marker_ttl: int = MARKER_TTL) -> None:
        self.kv = kv
        self.js = js
        self.bucket = bucket
        self.marker_ttl = marker_ttl
        """Seconds a closed table's delete marker stays (``buckets.delete``)."""

    @classmethod
    async def open(
        cls, client: Client, *, replicas: int = 1, bucket: str = BUCKET, marker_ttl: int = MARKER_TTL,
    ) -> NatsTableStore:
        config = KeyValueConfig(
            bucket=bucket, description="war-tui: each shared table's checkpoint", history=1,
            max_value_size=MAX_VALUE, storage=StorageType.FILE, replicas=replicas,
        )
        js = client.jetstream()
        kv = await open_bucket(js, config)
        await sweep_markers(js, kv, bucket, marker_ttl)
        return cls(kv, js, bucket, marker_ttl)

    async def load_all(self, most: int | None = None) -> list[StoredTable]:
        watcher = await self.kv.watchall(ignore_deletes=True, inactive_threshold=WATCH_LINGER)
        tables: dict[str, StoredTable] = {}
        try:
            while (most is None or len(tables) < most) and (entry := await watcher.updates(timeout=READ_TIMEOUT)) is not None:  # type: ignore[no-untyped-call]  # nats-py leaves it unannotated
                name = table_name(entry.key)
                if name is not None and entry.value is not None:
                    tables[name] = StoredTable(name, entry.value, entry.revision or 0)
        except NatsTimeout:
            raise TimeoutError(f"the table store {self.bucket!r} stopped answering while it was read") from None
        finally:
            await watcher.stop()  # type: ignore[no-untyped-call]  # likewise
        return sorted(tables.values(), key=lambda table: table.revision)

    async def save(self, name: str, data: bytes, revision: int | None) -> int:
        key = table_key(name)
        try:
            if revision is None:
                return await self.kv.create(key, data)
            return await self.kv.update(key, data, last=revision)
        except KeyWrongLastSequenceError:
            raise StaleWrite(name) from None
        except NatsError as exc:  # no stream leader (an election), no responders, a timeout: try again later
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from None

    async def delete(self, name: str, revision: int | None) -> None:
        try:
            await delete(self.js, self.bucket, table_key(name), revision, self.marker_ttl)
        except APIError as exc:
            if exc.err_code in WRONG_LAST:
                raise StaleWrite(name) from None
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from None
        except NatsError as exc:
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from None

    async def close(self) -> None:
        """Nothing of its own to close: the connection is the server's."""
