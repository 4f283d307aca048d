"""A record anyone wrote to NATS stops nothing: each bucket and the games stream poisoned in turn, every node's
lobby, caps, takeovers and statistics go on, with one log line per bad record and no escape byte in the log.

Each poison is one of the issue's kinds: nesting three thousand deep (a ``RecursionError`` in every reader that
parsed on its own), as large as NATS lets the bucket hold, NaN and Infinity, escape sequences, the wrong types
and values out of range. Nodes A and B are in-process servers on one real nats-server; ann plays at oak on A,
bob at oak through B.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from nodes_support import TwoNodes, games_in, kill_node, play, stats_node, two_nodes
from ssh_support import until

from war_tui.cluster.caps import SESSIONS_PREFIX
from war_tui.cluster.game_records import TAG_HEADER
from war_tui.cluster.game_stream import STREAM, SUBJECT
from war_tui.cluster.keys import table_key
from war_tui.cluster.leases import node_key, owner_key
from war_tui.cluster.nodes import LOBBY_BUCKET, entry_value
from war_tui.cluster.relay_wire import open_subject
from war_tui.stats import GameRecord, Source
from war_tui.stats.recovery import to_line
from war_tui.tables import SeatStatus
from war_tui.tables.messages import LobbyEntry

BATTLES = 3
ESC = "\x1b]8;;http://e.vil\x07x\x1b]0;TITLE\x07\x1b[2J"
COMMON = {
    "nested": b"[" * 3000,
    "deep object": b'{"a":' * 1200 + b"1" + b"}" * 1200,
    "huge": b" " * 7900 + b"{}",  # as large as the lobby bucket and the stream take
    "nan": b'{"node": "nbad", "total": NaN, "addresses": {}, "battles": Infinity, "v": NaN}',
}


def entry(table: str, node: str = "nbad", **changes) -> dict:
    raw = json.loads(entry_value(node, LobbyEntry(
        table, ("ann", None), (SeatStatus.PLAYER, SeatStatus.OPEN), 0, 1, 0, (26, 26), None)))
    return {**raw, **changes}


GAME = json.loads(to_line(GameRecord(
    finished_at="2026-05-01T12:00:00+00:00", seed=7, war_cards=1, gather="winner-first", max_battles=10_000,
    p1_name="ann", p2_name="bob", result="p1", reason="all-cards", battles=100, wars=1, longest_war=1,
    p1_count=52, p2_count=0, seconds=60.0, source=Source.TABLE, p1_player="key:ann", p2_player="key:bob",
    game_id="elm.5eed.1",
)))


def poisons(where: str) -> dict[str, bytes]:
    """The poisons for one bucket or stream: the common ones and its own escapes, types and ranges."""
    every: dict[str, dict[str, Any]] = {
        "lobby": {"escapes": entry("p-escapes", node="n\x1b[2J"), "types": {"node": 5, "entry": []},
                  "range": entry("p-range", visitors={"opened": [None, None], "seats": [[None, None]] * 5})},
        "sessions": {"escapes": {"total": 1, "addresses": {ESC: 1}}, "types": {"total": "5", "addresses": []},
                     "range": {"total": 10**9, "addresses": {}}},
        "owners": {"escapes": {"node": ESC}, "types": {"node": 5}, "range": {"node": "n" * 300}},
        "stream": {"escapes": {**GAME, "p1_name": ESC}, "types": {**GAME, "battles": [1]},
                   "range": {**GAME, "battles": 2**53, "p1_count": -1}},
        "relay": {"escapes": {"conn": ESC, "door": "na", "user": "eve", "table": "oak"}, "types": {"conn": 5},
                  "range": {"conn": "0" * 20, "door": "na", "user": "eve", "table": "oak", "identity": "i" * 401}},
    }
    own = every[where]
    return {**COMMON, **{kind: json.dumps(value).encode() for kind, value in own.items()}}


def slug(kind: str) -> str:
    return kind.replace(" ", "-")


async def poison(nodes: TwoNodes, where: str) -> tuple[list[str], int]:
    """Write ``where``'s poisons to NATS (as anyone who reaches it could); the nodes that read them, and how many
    bad records each of them meets."""
    cluster = nodes.a.server.cluster
    assert cluster is not None and cluster.client is not None and cluster.owners is not None
    js = cluster.client.jetstream()
    found = poisons(where)
    for kind, value in found.items():
        name = slug(kind)
        if where == "lobby":
            await (await js.key_value(LOBBY_BUCKET)).put(table_key(f"p-{name}"), value)
        elif where == "sessions":
            await cluster.owners.bucket.put(f"{SESSIONS_PREFIX}n{name}", value, 60)
        elif where == "owners":
            await cluster.owners.bucket.put(owner_key(f"o-{name}"), value, 60)
        elif where == "stream":  # signed as a node signs: what a node's key gone astray could publish
            assert nodes.a.server.nodes is not None
            await js.publish(SUBJECT, value, stream=STREAM, headers={TAG_HEADER: nodes.a.server.nodes.games.key.sign(value)})
        else:
            await cluster.client.publish(open_subject(cluster.node), value)
    if where == "owners":  # a node reads an owner record when it opens the table: B opens each
        b = nodes.b.server.nodes
        assert b is not None
        eve = await nodes.sit(nodes.b, "eve", "table o-nested")  # a player, not left "joining the table..."
        await eve.expect(r"SNAPSHOT you=eve seat=1 ")
        for kind in found:
            assert await b.serve(f"o-{slug(kind)}"), "a record that names no node is no owner: B takes the table"
        return ["b"], len(found)
    return (["a"] if where == "relay" else ["a", "b"]), len(found)


def bad_lines(srv) -> list[str]:
    return [line for line in srv.logs if "is skipped" in line]


@pytest.mark.parametrize("where", ["lobby", "sessions", "owners", "stream", "relay"])
async def test_a_poisoned_record_in_each_bucket_and_stream_stops_nothing(tmp_path, nats_server, where):
    async with two_nodes(tmp_path, nats_server, stats_node(BATTLES)) as nodes:
        a, b = nodes.a.server.nodes, nodes.b.server.nodes
        assert a is not None and b is not None
        ann, bob = await nodes.ann_and_bob()
        readers, count = await poison(nodes, where)
        servers = {"a": nodes.a, "b": nodes.b}
        await until(lambda: all(len(bad_lines(servers[name])) >= count for name in readers))

        # The lobby goes on: a table opened on A after the poison is in B's lobby.
        eve = await nodes.sit(nodes.a, "eve", "table after")
        await eve.expect(r"SNAPSHOT ")
        await until(lambda: "after" in b.others)
        # The caps go on: B reads A's sessions (ann and eve).
        await until(lambda: b.elsewhere.sessions_total() >= 2)
        # The statistics go on: a game finished after the poison is in both nodes' files.
        await play(ann, bob, BATTLES)
        await until(lambda: len(games_in(tmp_path, "a")) == 1 and len(games_in(tmp_path, "b")) == 1)
        # One line per bad record, however many rounds read it since.
        polls = b.polls
        await until(lambda: b.polls >= polls + 2)
        for name in readers:
            assert len(bad_lines(servers[name])) == count, bad_lines(servers[name])
        for srv in servers.values():
            assert not any("\x1b" in line or "Traceback" in line for line in srv.logs)
        # The takeovers go on: A dies and B takes oak over.
        await kill_node(nodes.a)
        await until(lambda: "oak" in b.taken, timeout=30)


async def test_poisoned_checkpoints_are_one_line_each_and_the_takeovers_go_on(tmp_path, nats_server):
    """Tables of a dead node whose checkpoints are poisoned: a node that tries one says so once and does not try it
    again at every round; the table that can be restored (oak, when A dies) is taken over as ever."""
    async with two_nodes(tmp_path, nats_server, stats_node(BATTLES)) as nodes:
        b = nodes.b.server.nodes
        cluster = nodes.a.server.cluster
        assert b is not None and cluster is not None and cluster.client is not None and cluster.store is not None
        ann, bob = await nodes.ann_and_bob()
        lobby = await cluster.client.jetstream().key_value(LOBBY_BUCKET)
        found = {**poisons("stream"), "escapes": json.dumps({"v": 1, "name": ESC}).encode(),
                 "types": b'{"v": "1"}', "range": b'{"v": 1000000000}'}
        for kind, value in found.items():
            name = f"c-{slug(kind)}"
            await cluster.store.kv.put(table_key(name), value)
            await lobby.put(table_key(name), json.dumps(entry(name, node="ndead")).encode())

        def told(srv) -> list[str]:
            return [line for line in srv.logs if "could not be restored" in line]

        names = [f"c-{slug(kind)}" for kind in found]
        await until(lambda: all(any(f"{name} could" in line for srv in (nodes.a, nodes.b) for line in told(srv))
                                for name in names))
        polls = b.polls
        await until(lambda: b.polls >= polls + 3)
        for srv in (nodes.a, nodes.b):  # each node that tried a table says so once, however many rounds since
            for name in names:
                assert sum(f"{name} could" in line for line in told(srv)) <= 1, told(srv)
        assert not any("\x1b" in line for srv in (nodes.a, nodes.b) for line in srv.logs)
        await play(ann, bob, BATTLES)
        await kill_node(nodes.a)
        await until(lambda: "oak" in b.taken, timeout=30)


async def test_what_no_check_foresaw_is_one_line_and_the_loops_go_on(tmp_path, nats_server, monkeypatch):
    """A record that passes every check yet breaks what reads it (here: a restore and a game's reading made to
    raise): the takeover of that table and that batch of games are one line each; the other tables are taken
    over and the next games stored, as ever."""
    from war_tui.cluster import game_stream

    async with two_nodes(tmp_path, nats_server, stats_node(BATTLES)) as nodes:
        b = nodes.b.server.nodes
        cluster = nodes.a.server.cluster
        assert b is not None and cluster is not None and cluster.client is not None and cluster.store is not None
        ann, bob = await nodes.ann_and_bob()
        for srv in (nodes.a, nodes.b):  # whichever node claims ash first
            registry = srv.server.tables.registry

            def fragile(data: bytes, *args, read=registry.read, **kwargs):
                if b"fragile" in data:
                    raise RuntimeError("unforeseen")
                return read(data, *args, **kwargs)

            monkeypatch.setattr(registry, "read", fragile)
        read_game = game_stream.read_game
        monkeypatch.setattr(game_stream, "read_game",
                            lambda data: (_ for _ in ()).throw(RuntimeError()) if b"fragile" in data else read_game(data))
        await cluster.store.kv.put(table_key("ash"), b'{"fragile": 1}')
        await (await cluster.client.jetstream().key_value(LOBBY_BUCKET)).put(
            table_key("ash"), json.dumps(entry("ash", node="ndead")).encode())
        fragile = json.dumps({**GAME, "p1_name": "fragile"}).encode()
        await cluster.client.jetstream().publish(SUBJECT, fragile, stream=STREAM, headers={TAG_HEADER: b.games.key.sign(fragile)})
        taken = lambda: [line for srv in (nodes.a, nodes.b) for line in srv.logs if "ash could not be taken over" in line]  # noqa: E731 - read again and again
        await until(lambda: any("(RuntimeError)" in line for line in taken()))
        await until(lambda: any("met RuntimeError" in line for line in nodes.b.logs))
        await play(ann, bob, BATTLES)
        await until(lambda: len(games_in(tmp_path, "b")) == 1)
        await kill_node(nodes.a)
        await until(lambda: "oak" in b.taken, timeout=30)
        for srv in (nodes.a, nodes.b):  # each node that tried says so once, however many rounds since
            assert sum("ash could not be taken over" in line for line in srv.logs) <= 1, srv.logs


async def test_a_dead_nodes_lease_poisoned_is_no_lease_and_its_tables_are_taken_over(tmp_path, nats_server):
    """A dies; its lease key is then written with what no node writes (nested 3,000 deep; then another node's
    name): B counts A as gone, says so once, and takes oak over."""
    async with two_nodes(tmp_path, nats_server, stats_node(BATTLES)) as nodes:
        b = nodes.b.server.nodes
        cluster = nodes.b.server.cluster
        a_node = nodes.a.server.cluster.node if nodes.a.server.cluster is not None else ""
        assert b is not None and cluster is not None and cluster.owners is not None
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 1)
        await kill_node(nodes.a)
        await cluster.owners.bucket.put(node_key(a_node), b"[" * 3000, 60)
        await until(lambda: "oak" in b.taken, timeout=30)
        polls = b.polls
        await until(lambda: b.polls >= polls + 2)
        lines = [line for line in nodes.b.logs if "the lease" in line and "is skipped" in line]
        assert len(lines) == 1, lines
        assert await cluster.owners.alive(cluster.node), "a lease a node wrote is one"
        await cluster.owners.bucket.put(node_key(a_node), json.dumps({"node": "nother", "incarnation": "1"}).encode(), 60)
        assert not await cluster.owners.alive(a_node), "a lease that names another node is not A's"
