"""A node whose lease lapsed while NATS did not answer claims its tables again: it keeps those nobody took and lets go
only those another node took meanwhile, whose players follow them to that node and keep their seats.

Two in-process nodes on one nats-server; ann sits at oak on A, bob at elm on A. Node B's claim of oak while A's key
had expired is made here by hand (a write of oak's owner record naming B, on the record's revision), then A's
``Nodes.reclaim`` runs as its taking its key again calls it (``NodeLease.on_lapsed``)."""

from __future__ import annotations

import json
import re

from nodes_support import two_nodes
from ssh_support import until

from war_tui.cluster.leases import owner_key
from war_tui.cluster.router import MOVED


def open_on(srv) -> list[str]:
    return sorted(table.name for table in srv.server.tables.registry.tables if not table.closed)


async def test_a_lapsed_node_keeps_the_tables_nobody_took_and_lets_the_others_follow_their_new_node(
        tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server) as nodes:
        a, b = nodes.a.server, nodes.b.server
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        bob = await nodes.sit(nodes.a, "bob", "table elm")
        await bob.expect(r"SNAPSHOT you=bob seat=1 ")
        assert open_on(nodes.a) == ["elm", "oak"]
        assert a.cluster is not None and a.cluster.owners is not None and b.cluster is not None
        bucket = a.cluster.owners.bucket
        record = await bucket.read(owner_key("oak"))
        taken = json.dumps({"node": b.cluster.node, "incarnation": "b's"}).encode()
        await bucket.write(owner_key("oak"), taken, record.revision)  # B took oak while A's key had expired

        assert a.nodes is not None
        a.nodes.reclaim()
        await until(lambda: open_on(nodes.a) == ["elm"], what=lambda: f"open on A: {open_on(nodes.a)}")
        # her connection follows oak to B, nobody asking her to reconnect, and she is in her seat there
        await ann.expect(re.escape(MOVED) + r"(?s:.*)SNAPSHOT you=ann seat=1 ")
        assert open_on(nodes.b) == ["oak"]
        assert MOVED not in bob.text, "elm stays on A, its seat and its screen as they were"
        assert await a.cluster.owners.owner("elm") == a.cluster.node
