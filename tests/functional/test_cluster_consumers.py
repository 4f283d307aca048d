"""What a node's start leaves on the NATS server: no consumer outlives the watches it makes (issue 38: consumers per
node constant). A start sweeps each bucket's old delete markers and reads the tables' bucket to restore them, each a
watch with a consumer of its own; those consumers go once the watch is over, not five minutes later."""

from __future__ import annotations

from nats.js.api import KeyValueConfig, StorageType
from support.waiting import until

from war_tui.cluster.buckets import open_bucket, sweep_markers
from war_tui.cluster.leases import BUCKET as LEASES
from war_tui.cluster.leases import LeaseBucket
from war_tui.cluster.nodes import LOBBY_BUCKET
from war_tui.cluster.table_store import BUCKET as TABLES
from war_tui.cluster.table_store import NatsTableStore

STARTS = 3
LINGER_BOUND = 120.0
"""Seconds the test gives the server to drop a finished watch's consumer: a bound far past the few seconds it
takes, and far short of nats-py's own five minutes."""


async def test_a_node_started_again_and_again_leaves_no_consumer_behind(nats_server):
    client = await nats_server.client()
    js = client.jetstream()
    lobby_config = KeyValueConfig(bucket=LOBBY_BUCKET, history=1, storage=StorageType.MEMORY)

    async def consumers() -> dict[str, int]:
        return {bucket: (await js.stream_info(f"KV_{bucket}")).state.consumer_count
                for bucket in (TABLES, LEASES, LOBBY_BUCKET)}

    async def none_left() -> bool:
        return not any((await consumers()).values())

    await (await NatsTableStore.open(client)).save("oak", b"a table", None)
    for _ in range(STARTS):  # what each start of a node does with the buckets: sweep them, read the tables
        store = await NatsTableStore.open(client)
        assert [table.name for table in await store.load_all()] == ["oak"]
        await LeaseBucket.open(client)
        await sweep_markers(js, await open_bucket(js, lobby_config), LOBBY_BUCKET)
    await until(none_left, LINGER_BOUND, what="consumers of finished watches are still on the server")
