"""The caps per visitor and on sessions hold across the nodes of a cluster: what a visitor holds on node A
counts when they ask node B for more, and B refuses in the words a single server uses.

Nodes are in-process servers on one real nats-server sharing one host key; players are SSH clients running
the stand-in table game. Every client comes from 127.0.0.1 unless it binds another loopback address, so the
tests that count by identity give each connection an address of its own.
"""

from __future__ import annotations

import json

import asyncssh
import pytest
from nodes_support import TwoNodes, two_nodes
from ssh_support import InProcessServer, until

from war_tui.cluster.caps import SESSIONS_PREFIX
from war_tui.cluster.keys import table_key
from war_tui.cluster.nodes import LOBBY_BUCKET, entry_value
from war_tui.tables import SeatStatus
from war_tui.tables.messages import LobbyEntry

REFUSED = r"NOTICE closing closing the connection: (you already opened .*)\r?\n"


def tables_known(nodes: TwoNodes, count: int) -> bool:
    """B's lobby has read ``count`` tables of A's."""
    assert nodes.b.server.nodes is not None
    return len(nodes.b.server.nodes.others) == count


async def test_a_player_who_opened_the_cap_of_tables_on_one_node_is_refused_another_on_the_other(
    tmp_path, nats_server
):
    """ann (her key, whatever address she comes from) opens two tables on A, the most one player may; a third
    is refused on A, and on B in the same words."""
    async with two_nodes(tmp_path, nats_server, max_tables_per_address=2) as nodes:
        for n, table in enumerate(("oak", "elm")):
            seat = await nodes.sit(nodes.a, "ann", f"table {table}", local_addr=(f"127.0.0.{2 + n}", 0))
            await seat.expect(r"SNAPSHOT you=ann seat=1 ")
        here = await nodes.sit(nodes.a, "ann", "table ash", local_addr=("127.0.0.4", 0))
        words = (await here.expect(REFUSED)).group(1)
        assert "you already opened 2 of the tables" in words
        await until(lambda: tables_known(nodes, 2))
        there = await nodes.sit(nodes.b, "ann", "table ash", local_addr=("127.0.0.5", 0))
        assert (await there.expect(REFUSED)).group(1) == words
        bob = await nodes.sit(nodes.b, "bob", "table ash", local_addr=("127.0.0.5", 0))
        await bob.expect(r"SNAPSHOT you=bob seat=1 ")  # another player from her last address opens it


async def test_an_address_that_opened_the_cap_of_tables_on_one_node_is_refused_another_on_the_other(
    tmp_path, nats_server
):
    async with two_nodes(tmp_path, nats_server, max_tables_per_address=2) as nodes:
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        bob = await nodes.sit(nodes.a, "bob", "table elm")
        for seat in (ann, bob):
            await seat.expect(r"SNAPSHOT you=\w+ seat=1 ")
        await until(lambda: tables_known(nodes, 2))
        eve = await nodes.sit(nodes.b, "eve", "table ash")
        assert "you already opened 2 of the tables open here" in (await eve.expect(REFUSED)).group(1)
        assert [t.name for t in nodes.b.server.tables.registry.tables] == []


async def test_an_address_holding_the_cap_of_seats_through_one_node_watches_at_a_table_of_the_other(
    tmp_path, nats_server
):
    """ann sits at oak on A and bob at it from B (his seat is held at A, its owner): their address holds two
    seats, the most it may; eve, from it too, opens elm on B and watches, told why as on one server."""
    async with two_nodes(tmp_path, nats_server, max_seats_per_address=2) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        await until(lambda: tables_known(nodes, 1) and seats_known(nodes, 2))
        eve = await nodes.sit(nodes.b, "eve", "table elm")
        await eve.expect(r"SNAPSHOT you=eve seat=- ")
        await eve.expect(r"NOTICE info you watch: your address holds all the seats it may")


def seats_known(nodes: TwoNodes, count: int) -> bool:
    """B has read that A's tables have ``count`` seats held (a table's entry names its opener first, its seats
    at A's next write)."""
    assert nodes.b.server.nodes is not None
    return sum(len(table.seats) for table in nodes.b.server.nodes.elsewhere.tables) == count


async def refused(nodes: TwoNodes, srv: InProcessServer) -> str:
    """The reason eve's new connection to ``srv`` is turned away with."""
    with pytest.raises(asyncssh.DisconnectError) as full:
        await nodes.sit(srv, "eve", "table elm")
    return full.value.reason


def sessions_told(nodes: TwoNodes, count: int) -> bool:
    """B has read that A has ``count`` sessions."""
    assert nodes.b.server.nodes is not None
    return nodes.b.server.nodes.elsewhere.sessions_total() == count


async def test_sessions_from_one_address_are_capped_over_both_nodes(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server, max_sessions_per_address=3) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        other = await nodes.sit(nodes.a, "eve", "table elm")
        await other.expect(r"SNAPSHOT ")
        await until(lambda: sessions_told(nodes, 2))
        reason = await refused(nodes, nodes.b)
        assert "your address already has 3 games in progress here, the most one address may have" in reason


async def test_the_session_cap_counts_the_games_of_both_nodes(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server, max_sessions=2) as nodes:
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        await ann.expect(r"SNAPSHOT ")
        await until(lambda: sessions_told(nodes, 1))
        bob = await nodes.sit(nodes.b, "bob", "table oak")
        await bob.expect(r"SNAPSHOT ")
        await until(lambda: nodes.a.server.nodes is not None and nodes.a.server.nodes.elsewhere.sessions_total() == 1)
        reason = await refused(nodes, nodes.a)
        assert "the server is full (2 games in progress)" in reason


async def test_records_in_nats_that_are_not_a_nodes_are_ignored_with_one_line_each(tmp_path, nats_server):
    """A lobby entry whose visitors are not hashes and a session record that is not one (written to NATS by
    anyone who reaches it): B logs each once, counts neither, and goes on reading A's tables and sessions."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        cluster = nodes.a.server.cluster
        assert cluster is not None and cluster.client is not None and cluster.owners is not None
        lobby = await cluster.client.jetstream().key_value(LOBBY_BUCKET)
        visitors = {"opened": ["127.0.0.1", None], "seats": [[None, "127.0.0.1"]] * 5}
        entry = json.loads(entry_value("nbad", LobbyEntry(
            "bad", ("ann", None), (SeatStatus.PLAYER, SeatStatus.OPEN), 0, 1, 0, (26, 26), None)))
        await lobby.put(table_key("bad"), json.dumps({**entry, "visitors": visitors}).encode())
        await cluster.owners.bucket.put(SESSIONS_PREFIX + "nbad", b'{"total": -5, "addresses": []}', 60)
        await cluster.owners.bucket.put(SESSIONS_PREFIX + "nworse", b"\xff" * 70_000, 60)
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        await ann.expect(r"SNAPSHOT ")
        await until(lambda: sessions_told(nodes, 1) and tables_known(nodes, 1))
        b = nodes.b.server.nodes
        assert b is not None and list(b.others) == ["oak"] and set(b.elsewhere.sessions) == {nodes.a.server.cluster.node}
        await until(lambda: sum("in NATS is skipped" in line for line in nodes.b.logs) == 3)
        polls = b.polls
        await until(lambda: b.polls >= polls + 2)
        noted = [line for line in nodes.b.logs if "in NATS is skipped" in line]
        assert len(noted) == 3, noted
        assert all("127.0.0.1" not in line for line in noted)
