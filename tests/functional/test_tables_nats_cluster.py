"""A NATS cluster of three loses a server mid-game: the tables' buckets are kept on all three, JetStream elects
a new leader for them, and the game goes on with no battle lost or played twice.

Two in-process war-tui nodes are given all three servers' URLs; ann plays on node A, bob on node B, at one
table. The nats-server that leads the tables' bucket (its stream's leader, as JetStream's stream info names
it) is killed with SIGKILL between ann's flip and bob's. Players are SSH clients running the stand-in table
game, which prints what its table tells it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import asyncssh
from nodes_support import FAKE_TABLE, LEASE, keys, play, two_nodes
from ssh_support import start_server
from ssh_support.players import MANY

from war_tui.cluster.config import ClusterConfig
from war_tui.cluster.keys import table_key
from war_tui.cluster.leases import BUCKET as LEASES
from war_tui.cluster.table_store import BUCKET as TABLES


def node(nats_cluster, tmp_path: Path, name: str) -> ClusterConfig:
    return ClusterConfig(urls=nats_cluster.urls(), directory=tmp_path / name, lease_seconds=LEASE)


HOST_KEY = asyncssh.generate_private_key("ssh-ed25519")
"""The host key every node shares, as a cluster's nodes do: their relay is signed with it."""


async def start_node(tmp_path: Path, allowed, nats_cluster, name: str):
    return await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=node(nats_cluster, tmp_path, name),
                              host_key=HOST_KEY, **MANY)


async def stream(nats_cluster, bucket: str):
    """JetStream's stream info of ``bucket`` (its stream is ``KV_<bucket>``), asked of any living server."""
    client = await nats_cluster.client()
    return await client.jetstream().stream_info(f"KV_{bucket}")


async def flip_once(ann, bob, battle: int, *, ann_first: bool = False) -> None:
    """Both flip once (ann already did with ``ann_first``), and ``battle`` shows on both screens: a key typed once
    arrives once, whichever NATS server carries it."""
    if not ann_first:
        ann.type(b"f")
    bob.type(b"f")
    for seat in (ann, bob):
        await seat.expect(rf"BATTLE {battle} ")


def battles(seat) -> list[int]:
    return [int(number) for number in re.findall(rb"BATTLE (\d+) ", bytes(seat.seen))]


async def test_on_a_cluster_of_three_both_buckets_are_kept_on_all_three(tmp_path, nats_cluster):
    async with await start_node(tmp_path, keys(tmp_path), nats_cluster, "a"):
        for bucket in (TABLES, LEASES):
            info = await stream(nats_cluster, bucket)
            assert info.config.num_replicas == 3, bucket
            assert info.cluster is not None and len(info.cluster.replicas or ()) == 2, "a leader and two followers"


async def test_the_nats_server_leading_the_tables_killed_mid_game_loses_no_battle(tmp_path, nats_cluster):
    async with two_nodes(tmp_path, nats_cluster, start_node) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        await play(ann, bob, 3)
        tables = await stream(nats_cluster, TABLES)
        assert tables.config.num_replicas == 3
        assert tables.cluster is not None and tables.cluster.leader is not None
        leader = nats_cluster.member(tables.cluster.leader)

        ann.type(b"f")  # battle 4 is asked for by one flip before the kill and one after: its save meets the election
        leader.kill()
        await flip_once(ann, bob, 4, ann_first=True)
        for battle in range(5, 8):
            await flip_once(ann, bob, battle)
        last = 7
        counts = re.findall(rf"BATTLE {last} (\d+-\d+)", ann.text)[-1]

        assert battles(ann) == battles(bob) == list(range(1, last + 1)), "every battle once, on both screens"
        client = await nats_cluster.client()
        kept = json.loads((await (await client.jetstream().key_value(TABLES)).get(table_key("oak"))).value)
        assert (kept["game"]["b"], "-".join(map(str, kept["game"]["counts"]))) == (last, counts)
        after = await stream(nats_cluster, TABLES)
        assert after.cluster is not None and after.cluster.leader not in (None, leader.name), "a new leader"
