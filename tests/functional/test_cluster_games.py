"""Finished table games reach every node's statistics once: through the games stream, whichever node served them.

Nodes are in-process servers on one real nats-server, each with a data directory and a statistics file of its
own; players are SSH clients running the stand-in table game. A game lasts three battles.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from nodes_support import games_in, play, stats_node, two_nodes
from ssh_support import TIMEOUT, until

from war_tui.cluster.game_records import TAG_HEADER, GameKey
from war_tui.cluster.game_stream import STREAM, SUBJECT, GameStream
from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.stats.recovery import to_line

BATTLES = 3
RECORD = GameRecord(
    finished_at="2026-05-01T12:00:00+00:00", seed=7, war_cards=1, gather=Gather.WINNER_FIRST, max_battles=10_000,
    p1_name="ann", p2_name="bob", result=Result.P1, reason=EndReason.ALL_CARDS, battles=100, wars=1, longest_war=1,
    p1_count=52, p2_count=0, seconds=1.0, source=Source.TABLE, p1_player="key:ann", p2_player="key:bob",
    game_id="oak.5eed.1",
)


start_node = stats_node(BATTLES)
rows = games_in


def leaders(tmp_path: Path, name: str):
    board = StatsStore.open(tmp_path / f"{name}.sqlite3", read_only=True).leaders()
    assert board is not None
    return board


def signed(nodes, line: bytes) -> dict[str, str]:
    """The header that makes ``line`` a record of the cluster's nodes (signed with the key they share)."""
    assert nodes.a.server.nodes is not None
    return {TAG_HEADER: nodes.a.server.nodes.games.key.sign(line)}


async def test_a_record_no_node_signed_is_skipped_on_every_node(tmp_path, nats_server):
    """Anyone who reaches NATS can publish to the games stream, but a record without the tag of a node of the
    cluster (or with another's) is one line and stored nowhere; the same record signed is stored everywhere."""
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        a, b = nodes.a, nodes.b
        assert a.server.cluster is not None and a.server.cluster.client is not None
        js = a.server.cluster.client.jetstream()
        line = to_line(RECORD).encode()
        await js.publish(SUBJECT, line, stream=STREAM)
        await js.publish(SUBJECT, line, stream=STREAM, headers={TAG_HEADER: GameKey(b"another key").sign(line)})
        await until(lambda: all(sum("not signed by a node" in line for line in srv.logs) == 2 for srv in (a, b)))
        assert rows(tmp_path, "a") == rows(tmp_path, "b") == []
        await js.publish(SUBJECT, line, stream=STREAM, headers=signed(nodes, line))
        await until(lambda: len(rows(tmp_path, "a")) == 1 and len(rows(tmp_path, "b")) == 1)


async def finish_a_game(ann, bob) -> None:
    await play(ann, bob, BATTLES)
    for seat in (ann, bob):
        await seat.expect(rf"OVER \S+ after {BATTLES}")


async def test_a_game_served_by_one_node_is_in_every_nodes_statistics_once(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        ann, bob = await nodes.ann_and_bob()  # bob relayed to A, which serves oak
        await finish_a_game(ann, bob)
        over = time.monotonic()
        await until(lambda: len(rows(tmp_path, "a")) == 1 and len(rows(tmp_path, "b")) == 1)
        print(f"the game was in both nodes' statistics {(time.monotonic() - over) * 1000:.0f} ms after it ended")
        assert rows(tmp_path, "a") == rows(tmp_path, "b")
        game_id, p1, p2, battles = rows(tmp_path, "a")[0]
        assert (p1, p2, battles) == ("ann", "bob", BATTLES) and game_id.startswith("oak.")
    assert len(rows(tmp_path, "a")) == 1 and len(rows(tmp_path, "b")) == 1, "stored once, however often delivered"


async def test_a_record_published_again_is_one_row_on_every_node(tmp_path, nats_server):
    """The same game sent three times: twice with its id (JetStream drops the second), once under another id
    (as a republish after the duplicate window would be: delivered, and the file keeps one row)."""
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        a, b = nodes.a, nodes.b
        ann = await nodes.sit(a, "ann", "table oak")
        bob = await nodes.sit(a, "bob", "table oak")
        await finish_a_game(ann, bob)
        await until(lambda: len(rows(tmp_path, "a")) == 1 and len(rows(tmp_path, "b")) == 1)
        record = StatsStore.open(tmp_path / "a.sqlite3", read_only=True).recent()[0]
        stored = rows(tmp_path, "a")[0]
        record = replace(record, game_id=stored[0])
        assert a.server.cluster is not None and a.server.cluster.client is not None
        js = a.server.cluster.client.jetstream()
        line = to_line(record).encode()
        await js.publish(SUBJECT, line, stream=STREAM, headers={"Nats-Msg-Id": stored[0], **signed(nodes, line)})
        await js.publish(SUBJECT, line, stream=STREAM, headers={"Nats-Msg-Id": "again", **signed(nodes, line)})
        await js.publish(SUBJECT, b"not a game", stream=STREAM, headers=signed(nodes, b"not a game"))
        nodes = [srv.server.nodes for srv in (a, b)]
        await until(lambda: all(n is not None and n.games.folded == 2 for n in nodes))
        await until(lambda: all(any("a record of the games stream is skipped" in line for line in srv.logs) for srv in (a, b)))
        assert rows(tmp_path, "a") == rows(tmp_path, "b") == [stored]


async def test_a_record_no_file_could_store_is_dropped_and_the_statistics_stay_on(tmp_path, nats_server):
    """Records with a count past SQLite's integers or a list for a count are dropped (one line); a game after
    them is stored on every node."""
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        a, b = nodes.a, nodes.b
        assert a.server.cluster is not None and a.server.cluster.client is not None
        js = a.server.cluster.client.jetstream()
        good = json.loads(to_line(RECORD))
        for n, hostile in enumerate(({"battles": 2**70}, {"battles": [1]}, {"p1_name": 5}, {"seconds": "1"})):
            line = json.dumps({**good, **hostile, "game_id": f"elm.bad.{n}"}).encode()
            await js.publish(SUBJECT, line, stream=STREAM, headers={"Nats-Msg-Id": f"elm.bad.{n}", **signed(nodes, line)})
        good_line = to_line(RECORD).encode()
        await js.publish(SUBJECT, good_line, stream=STREAM, headers={"Nats-Msg-Id": "oak.5eed.1", **signed(nodes, good_line)})
        await until(lambda: len(rows(tmp_path, "a")) == 1 and len(rows(tmp_path, "b")) == 1)
        assert rows(tmp_path, "a") == rows(tmp_path, "b") == [("oak.5eed.1", "ann", "bob", 100)]
        assert any("a record of the games stream is skipped" in line for line in a.logs), a.logs
        assert not any("Statistics are off" in line for line in a.logs + b.logs)


async def test_a_node_down_while_a_game_finishes_catches_up_when_it_starts_again(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        await nodes.b.server.stop()
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        bob = await nodes.sit(nodes.a, "bob", "table oak")
        await finish_a_game(ann, bob)
        await until(lambda: len(rows(tmp_path, "a")) == 1)
        assert rows(tmp_path, "b") == []
        nodes.b = await start_node(tmp_path, nodes.allowed, nats_server, "b")  # the same data folder: the same node
        await until(lambda: len(rows(tmp_path, "b")) == 1)
        assert rows(tmp_path, "a") == rows(tmp_path, "b")


async def test_a_record_a_killed_node_fetched_but_never_stored_is_stored_when_it_starts_again(tmp_path, nats_server):
    """B's process dies between fetching a finished game from the stream and acking it (kill -9 mid-store): the
    record is B's to store, and B started again stores it at once, not after the stream's wait for an ack."""
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        assert nodes.b.server.nodes is not None and nodes.a.server.cluster is not None
        node_b = nodes.b.server.nodes.node
        await nodes.b.server.stop()
        js = nodes.a.server.cluster.client.jetstream()
        line = to_line(RECORD).encode()
        await js.publish(SUBJECT, line, stream=STREAM, headers=signed(nodes, line))
        await until(lambda: len(rows(tmp_path, "a")) == 1)
        dying = await js.pull_subscribe(SUBJECT, durable=node_b, stream=STREAM)
        assert [m.data for m in await dying.fetch(1, timeout=TIMEOUT)] == [line]  # fetched, never acked
        nodes.b = await start_node(tmp_path, nodes.allowed, nats_server, "b")
        await until(lambda: len(rows(tmp_path, "b")) == 1, what=lambda: f"B's statistics: {rows(tmp_path, 'b')}")
        assert rows(tmp_path, "a") == rows(tmp_path, "b") == [("oak.5eed.1", "ann", "bob", 100)]


async def test_the_leaderboard_reads_the_same_on_every_node(tmp_path, nats_server):
    """A game at oak (served by A) and one at elm (served by B): both nodes' leaderboards list both."""
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        ann = await nodes.sit(nodes.a, "ann", "table oak")
        bob = await nodes.sit(nodes.a, "bob", "table oak")
        await finish_a_game(ann, bob)
        eve = await nodes.sit(nodes.b, "eve", "table elm")
        ann2 = await nodes.sit(nodes.b, "ann", "table elm")
        await finish_a_game(eve, ann2)
        await until(lambda: len(rows(tmp_path, "a")) == 2 and len(rows(tmp_path, "b")) == 2)
        board = leaders(tmp_path, "a")
        assert board == leaders(tmp_path, "b")
        assert sorted(leader.games for leader in board) == [1, 1, 2], board


async def test_a_game_finished_while_nats_is_away_waits_and_reaches_the_stream_when_it_answers(tmp_path, nats_server):
    """nats-server killed: the game waits (one log line says so), nothing is recorded on this node alone; started
    again, the game is published and stored once, however often the client retried."""
    client = await nats_server.client()
    stored: list[GameRecord] = []
    alone: list[GameRecord] = []
    logs: list[str] = []

    async def store(records) -> None:
        stored.extend(records)

    stream = GameStream(client, "node-1", store=store, here=alone.append, log=logs.append, key=GameKey(b"secret"))
    try:
        await stream.start()
        nats_server.kill()
        record = RECORD
        assert stream.publish(record)
        await until(lambda: any("games stream does not answer" in line for line in logs))
        assert stored == [] and list(stream.waiting) == [record]
        nats_server.start()
        await until(lambda: stored == [record] and not stream.waiting)
        await until(lambda: any("answers again" in line for line in logs))
        assert sum("does not answer" in line for line in logs) == 1, logs
        await stream.stop(5.0)
        assert alone == [] and stored == [record], "stored once, recorded nowhere else"
    finally:
        await stream.stop(0)


async def test_a_game_stopped_by_a_sigterm_is_recorded_once_at_its_real_end(tmp_path, nats_server):
    """ann asks to deal again mid-game; A, which serves oak, stops as at a SIGTERM (bob, relayed from B, leaves
    his seat at A as A lets him go: no game ends there that the store does not keep). B takes oak over at the
    battle reached, the game plays on under its id to its real end, and that end is its one record."""
    battles = 6
    async with two_nodes(tmp_path, nats_server, stats_node(battles)) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 2)
        ann.type(b"r")
        oak = nodes.a.server.tables.registry.table("oak")
        assert oak is not None
        await until(lambda: any(seat.restart for seat in oak.state().seats))
        await nodes.a.server.stop()
        await bob.expect(r"SNAPSHOT you=bob seat=2 game=1 battles=2 ")
        ann.conn.close()
        ann = await nodes.sit(nodes.b, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=2 ")
        ann.type(b"R")  # she plays on after all
        await play(ann, bob, battles - 2, first=3)
        for seat in (ann, bob):
            await seat.expect(rf"OVER \S+ after {battles}")
        await until(lambda: len(rows(tmp_path, "b")) == 1)
        ((game_id, p1, p2, played),) = rows(tmp_path, "b")
        assert (p1, p2, played) == ("ann", "bob", battles) and game_id.endswith(".1")
        assert [row[3] for row in rows(tmp_path, "a")] in ([], [battles]), "A recorded no stop of its own"
