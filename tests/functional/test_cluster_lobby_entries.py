"""A table's lobby entry belongs to the node serving it: written over or deleted by another node (one that lost
the table while paused writes its own entry on waking, then deletes it), it is written again, so the table stays
in every lobby and a node that outlives its server still takes it over.

Nodes A and B are in-process servers on one real nats-server; ann plays at oak on A, bob at oak through B.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from nats.js.errors import KeyNotFoundError
from nodes_support import kill_node, two_nodes
from ssh_support import until

from war_tui.cluster.keys import table_key
from war_tui.cluster.nodes import LOBBY_BUCKET

pytestmark = pytest.mark.app

STALE = "n0000000000000001"
"""A node that served oak before A and lost it while paused."""


async def test_an_entry_written_over_then_deleted_by_a_stale_node_comes_back_and_the_table_is_taken_over(
        tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server) as nodes:
        a, b = nodes.a.server.nodes, nodes.b.server.nodes
        cluster = nodes.a.server.cluster
        assert a is not None and b is not None and cluster is not None and cluster.client is not None
        await nodes.ann_and_bob()
        await until(lambda: b.others.get("oak", ("",))[0] == a.node)

        lobby = await cluster.client.jetstream().key_value(LOBBY_BUCKET)
        stale = json.loads((await lobby.get(table_key("oak"))).value or b"{}")
        await lobby.put(table_key("oak"), json.dumps({**stale, "node": STALE}).encode())
        await lobby.delete(table_key("oak"))

        async def stored_node() -> str | None:
            with contextlib.suppress(KeyNotFoundError):
                value = (await lobby.get(table_key("oak"))).value
                return json.loads(value)["node"] if value else None
            return None

        async def listed_again() -> bool:
            return await stored_node() == a.node and b.others.get("oak", ("",))[0] == a.node

        await until(listed_again, timeout=30)  # the bucket, and so B's lobby, list oak again, served by A
        await kill_node(nodes.a)
        await until(lambda: "oak" in b.taken, timeout=30)  # and B takes it over when A dies
