"""Many nodes on one NATS: one table however many nodes open it, players on different nodes at one table, a
lobby of every node's tables, and a node that dies has its tables taken over by another.

Nodes are in-process servers on one real nats-server, each with a data directory of its own (a node id of its
own); players are SSH clients running the stand-in table game, which prints what its table tells it. A node
"dies" as a killed process would for the others: its lease renewals stop and its NATS connection closes,
nothing released.
"""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
from nats.errors import TimeoutError as NatsTimeout
from nodes_support import FAKE_TABLE, LEASE, close, keys, kill_node, node, node_processes, play, sit, stop, two_nodes
from ssh_support import start_server, until
from ssh_support.players import MANY

from war_tui.cluster.relay_wire import GONE, LINES, LOST, new_conn_id, open_subject, out_subject
from war_tui.cluster.router import MOVED
from war_tui.cluster.sequenced import encode_numbered
from war_tui.serving.goodbyes import RESTARTING
from war_tui.tables.messages import Notice, NoticeCode
from war_tui.tables.protocol import encode


def tables_open(*servers) -> list[str]:
    return [table.name for srv in servers for table in srv.server.tables.registry.tables if not table.closed]


async def test_a_player_on_each_node_plays_at_one_table_and_both_see_every_battle(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        counts = await play(ann, bob, 5)
        assert re.fullmatch(r"\d+-\d+", counts)
        assert tables_open(nodes.a, nodes.b) == ["oak"], "the table is open on its owner only"
        assert nodes.b.server.nodes is not None and len(nodes.b.server.nodes.relay.doors) == 1


async def test_two_nodes_opening_one_table_at_once_open_it_once(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await asyncio.gather(nodes.sit(nodes.a, "ann", "table oak"), nodes.sit(nodes.b, "bob", "table oak"))
        seen = [await seat.expect(r"SNAPSHOT you=\w+ seat=(\d) ") for seat in (ann, bob)]
        assert sorted(match.group(1) for match in seen) == ["1", "2"], "both sit at one table"
        assert tables_open(nodes.a, nodes.b) == ["oak"]
        await play(ann, bob, 2)


async def test_the_lobby_of_each_node_lists_the_tables_of_every_node_and_seats_at_any(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann = await nodes.sit(nodes.a, "ann", "table elm")
        bob = await nodes.sit(nodes.b, "bob", "table oak")
        for seat in (ann, bob):
            await seat.expect(r"SNAPSHOT ")
        eve = await nodes.sit(nodes.b, "eve", "tables")
        await eve.expect(r"LOBBY 2/\d+ full=False elm:ann/-\+0 oak:bob/-\+0")
        eve.type(b"J")  # from B's lobby to elm, which A serves
        await eve.expect(r"SNAPSHOT you=eve seat=2 ")
        await ann.expect(r"STATE seats=ann:player,eve:player ")


async def test_when_the_owner_node_dies_the_table_resumes_on_the_other_at_the_same_battle(tmp_path, nats_server):
    """ann plays on node A (the owner), bob on node B; A dies mid-game. B takes the table over within the lease
    (plus 2 s): bob is told the table moved and keeps his seat; ann reconnects to B and sits again; the game
    goes on from the battle both last saw."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        counts = await play(ann, bob, 4)
        await kill_node(nodes.a)
        died = asyncio.get_running_loop().time()
        await bob.expect(re.escape(MOVED))
        await bob.expect(rf"SNAPSHOT you=bob seat=2 game=1 battles=4 counts={counts} ")
        moved = asyncio.get_running_loop().time() - died
        assert tables_open(nodes.b) == ["oak"]
        ann.conn.close()
        ann = await nodes.sit(nodes.b, "ann", "table oak")
        await ann.expect(rf"SNAPSHOT you=ann seat=1 game=1 battles=4 counts={counts} ")
        await play(ann, bob, 1, first=5)
        assert nodes.b.server.nodes is not None and nodes.b.server.nodes.taken == ["oak"]
        joins = [line for line in nodes.b.logs if "table oak seat" in line]
        assert any("table oak seat 2 as bob (the table moved here)" in line for line in joins), joins
        assert not any("from the lobby" in line for line in joins), joins
        print(f"the table moved {moved:.2f} s after its owner died (lease {LEASE} s)")


async def test_tables_taken_over_together_resume_at_their_battles_for_players_of_one_address(tmp_path, nats_server):
    """ann and bob (both from 127.0.0.1, as people behind one router are) play at oak and at elm, both served by A;
    A dies with all four connections. B takes both tables over, nobody at either yet: neither is closed as a
    table its address left, so each comes back at the battle it reached, never dealt afresh at battle 0."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        reached = {}
        for table, battles in (("oak", 3), ("elm", 2)):
            ann = await nodes.sit(nodes.a, "ann", f"table {table}")
            await ann.expect(r"SNAPSHOT you=ann seat=1 ")
            bob = await nodes.sit(nodes.a, "bob", f"table {table}")
            reached[table] = (battles, await play(ann, bob, battles))
        b = nodes.b.server.nodes
        assert b is not None
        await until(lambda: {"oak", "elm"} <= set(b.others))  # B's lobby lists both, as A's
        await kill_node(nodes.a)
        await close(*nodes.seats)
        await until(lambda: sorted(b.taken) == ["elm", "oak"])
        polls = b.polls
        await until(lambda: b.polls >= polls + 2)  # lobby rounds, each waking the tables' poll
        for table, (battles, counts) in reached.items():
            for seat, user in ((1, "ann"), (2, "bob")):
                back = await nodes.sit(nodes.b, user, f"table {table}")
                await back.expect(rf"SNAPSHOT you={user} seat={seat} game=1 battles={battles} counts={counts} ")
        assert sorted(tables_open(nodes.b)) == ["elm", "oak"]


async def test_players_of_one_address_cut_off_together_find_both_tables_at_their_battles(tmp_path, nats_server):
    """ann and bob (both from 127.0.0.1, as people behind one router are) play at oak and at elm on A; all four
    connections drop at once, as a fault drops them. A's lobby goes round meanwhile (each round wakes the tables'
    poll): neither table closes as one its address left, so each is where it was when they reconnect."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        reached = {}
        for table, battles in (("oak", 3), ("elm", 2)):
            ann = await nodes.sit(nodes.a, "ann", f"table {table}")
            await ann.expect(r"SNAPSHOT you=ann seat=1 ")
            bob = await nodes.sit(nodes.a, "bob", f"table {table}")
            reached[table] = (battles, await play(ann, bob, battles))
        a = nodes.a.server.nodes
        assert a is not None
        await close(*nodes.seats)
        await until(lambda: all(t.empty for t in nodes.a.server.tables.registry.tables))
        polls = a.polls
        await until(lambda: a.polls >= polls + 2)  # lobby rounds, each waking the tables' poll
        for table, (battles, counts) in reached.items():
            for seat, user in ((1, "ann"), (2, "bob")):
                back = await nodes.sit(nodes.a, user, f"table {table}")
                await back.expect(rf"SNAPSHOT you={user} seat={seat} game=1 battles={battles} counts={counts} ")
        assert sorted(tables_open(nodes.a)) == ["elm", "oak"]


async def test_a_node_whose_write_was_refused_claims_the_table_again_only_after_a_renewal(tmp_path, nats_server):
    """B took oak over from A; then someone else writes oak (as an owner paused past its lease writes before it
    learns it lost the table), so B's next write (ann back at her seat) is refused and B lets oak go. Its clock
    held still, B does not claim oak again however often its connections and its lobby ask (a claim at once would
    be refused again at every write of the other's); a renewal's time later it does, ann and bob in their seats."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        counts = await play(ann, bob, 2)
        await kill_node(nodes.a)
        await bob.expect(re.escape(MOVED))
        b = nodes.b.server.nodes
        keeper = nodes.b.server.tables.keeper
        cluster = nodes.b.server.cluster
        assert b is not None and keeper is not None and cluster is not None and cluster.store is not None
        await bob.expect(rf"SNAPSHOT you=bob seat=2 game=1 battles=2 counts={counts} ")  # in his seat at B
        await keeper.flush()  # B wrote his seat: its revision is the table's
        now = b.clock()
        b.clock = lambda: now
        taken = nodes.b.server.tables.registry.checkpoint("oak")
        assert taken is not None
        await cluster.store.save("oak", taken[1], keeper.revisions["oak"])  # the other writer's write
        ann.conn.close()
        ann = await nodes.sit(nodes.b, "ann", "table oak")
        await until(lambda: any("oak was written by another server" in line for line in nodes.b.logs))
        polls = b.polls
        await until(lambda: b.polls >= polls + 3)  # lobby rounds (each may take a table over); routers try too
        assert nodes.b.server.tables.registry.table("oak") is None
        assert sum("oak taken over from the store" in line for line in nodes.b.logs) == 1
        b.clock = lambda: now + LEASE
        for seat, user, who in ((1, "ann", ann), (2, "bob", bob)):
            await who.expect(rf"SNAPSHOT you={user} seat={seat} game=1 battles=2 counts={counts} ")


async def test_a_flip_typed_while_the_owner_lies_dead_is_played_at_the_tables_next_owner(tmp_path, nats_server):
    """bob flips on B after A, the owner, died and before B takes the table over: nobody acknowledges his flip, so
    B's relay keeps it and hands it to the table's next owner. Once ann is back, her flip alone plays battle 5."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        counts = await play(ann, bob, 4)
        await kill_node(nodes.a)
        bob.type(b"f")
        await bob.expect(re.escape(MOVED))
        ann.conn.close()
        ann = await nodes.sit(nodes.b, "ann", "table oak")
        await ann.expect(rf"SNAPSHOT you=ann seat=1 game=1 battles=4 counts={counts} ")
        ann.type(b"f")
        for seat in (ann, bob):
            await seat.expect(r"BATTLE 5 ")
        assert "BATTLE 6 " not in bob.text


async def test_an_owner_paused_past_its_lease_is_refused_and_no_battle_is_played_twice(tmp_path, nats_server):
    """A's renewals stop but it runs on: B takes the table; A's next write is refused and A lets the table go, ann's
    connection to A following it to B in her seat; every battle bob sees comes once."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        a, b = nodes.a, nodes.b
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 3)
        cluster = a.server.cluster
        assert cluster is not None and cluster.lease is not None
        await cluster.lease.stop(release=False)  # paused: its lease runs out, its process does not
        await bob.expect(re.escape(MOVED))
        await until(lambda: b.server.nodes is not None and b.server.nodes.taken == ["oak"])
        ann.type(b"f")  # A still serves ann: her flip reaches its stale table, whose write is refused
        await ann.expect(re.escape(MOVED))  # never told to reconnect
        await ann.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=3 ")
        assert "NOTICE closing" not in ann.text
        await play(ann, bob, 1, first=4)
        battles = re.findall(rb"BATTLE (\d+) ", bytes(bob.seen))
        assert battles == sorted(set(battles), key=int), battles


async def test_a_node_stopped_hands_its_tables_over_and_players_elsewhere_keep_their_seats(tmp_path, nats_server):
    """A stops as SIGTERM stops it: its own player is told it restarts; bob, relayed from B, is told the table
    moved and plays on at B in his seat; ann reconnects to B and sits again."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        counts = await play(ann, bob, 3)
        await nodes.a.server.stop()
        await ann.expect(re.escape(RESTARTING))
        await bob.expect(re.escape(MOVED))
        await bob.expect(rf"SNAPSHOT you=bob seat=2 game=1 battles=3 counts={counts} ")
        ann.conn.close()
        ann = await nodes.sit(nodes.b, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=3 ")
        await play(ann, bob, 1, first=4)


async def test_a_player_whose_node_died_keeps_the_seat_at_a_table_served_elsewhere(tmp_path, nats_server):
    """bob's connection is on B, relayed to A; B dies. A hears nothing from B's relay for a lease and lets
    bob's connection go, a fault and not his leaving: his seat waits for him as it was (awaited, as after a
    restart), and he sits in it again through A."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 2)
        await kill_node(nodes.b)
        await ann.expect(r"STATE seats=ann:player,bob:awaited ")
        bob.conn.close()
        bob = await nodes.sit(nodes.a, "bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 game=1 battles=2 ")
        await play(ann, bob, 1, first=3)


@pytest.mark.app  # the real game, in the line mode
async def test_kill_9_of_the_owner_process_moves_the_table_and_keeps_every_seat(tmp_path, nats_server):
    """Two serve-ssh processes on one NATS; ann plays on A (the owner), bob on B. A is killed with SIGKILL:
    B takes the table over at the battle they reached, bob plays on in his seat, ann reconnects to B and
    sits in hers."""
    with node_processes(tmp_path, nats_server, "a", "b") as nodes:
        a, b = nodes.nodes
        ann = await nodes.come(0, "ann")
        await ann.until("You sit at table oak in seat 1")
        bob = await nodes.come(1, "bob")
        await bob.until("seat 2")
        for battle in range(1, 4):  # each flips once the last battle is on both screens (a key stands for what it saw)
            ann.say(b"\n")
            bob.say(b"\n")
            for person in (ann, bob):
                await person.until(rf"(?s)(?:beats.*?){{{battle}}}")
        a.stop(9)
        ann.conn.close()
        await bob.until(r"(?s)the table moved.*Back in step: game 1, battle 3\. ")
        ann = await nodes.come(1, "ann")
        await ann.until("seat 1")
        ann.say(b"score\n")
        await ann.until("Battle 3, ")
        ann.say(b"\n")
        bob.say(b"\n")
        await ann.until(r"Game 1, battle 3\.(?s:.*) beats ")
        ann.say(b"score\n")
        await ann.until("Battle 4, ")
        assert any("oak taken over" in line for line in b.lines), b.lines


async def test_a_relayed_player_the_owner_let_go_reaches_the_table_again_in_his_seat(tmp_path, nats_server):
    """The owner let bob's relayed connection go (as it does when his node was quiet for a lease, its NATS cut
    off meanwhile): a fault, not his leaving. His next key is answered that the owner forgot the connection, and
    his node routes it to the table again: he is back in his seat, never told to reconnect (before: "the table's
    server lost this connection; reconnect to sit again", and his connection ended)."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 1)
        assert nodes.a.server.nodes is not None
        for relayed in list(nodes.a.server.nodes.relay.relayed.values()):
            relayed.end(fault=True)  # as the owner's sweep of quiet relays does
        await ann.expect(r"STATE seats=ann:player,bob:awaited ")
        bob.type(b"f")
        await bob.expect(re.escape(MOVED))
        await bob.expect(r"SNAPSHOT you=bob seat=2 game=1 battles=1 ")
        await ann.expect(r"STATE seats=ann:player,bob:player ")
        assert LOST not in bob.text and "TABLE END" not in bob.text


async def test_a_table_refused_at_its_first_join_leaves_no_owner_record(tmp_path, nats_server):
    """A full node claims elm for bob, then cannot open it: the claim is given up, so no node waits on a
    table nobody serves (and a client cannot fill the leases with names)."""
    allowed = keys(tmp_path)
    a = await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=node(nats_server, tmp_path, "a"),
                           max_tables=1, **MANY)
    try:
        ann = await sit(a.port, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        bob = await sit(a.port, "bob", "table elm")
        await bob.expect(r"NOTICE closing closing the connection: the server is full")
        owners = a.server.cluster.owners
        assert await owners.owner("oak") is not None
        assert await owners.owner("elm") is None
        await close(ann, bob)
    finally:
        await stop(a)


async def test_joins_asked_for_while_one_is_on_its_way_are_refused_not_opened_here(tmp_path, nats_server):
    """eve, in B's lobby, asks for elm (A's) eight times at once: one join goes to A, the others are refused;
    B opens no elm of its own."""
    async with two_nodes(tmp_path, nats_server) as nodes:
        ann = await nodes.sit(nodes.a, "ann", "table elm")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        eve = await nodes.sit(nodes.b, "eve", "tables")
        await eve.expect(r"LOBBY 1/\d+ full=False elm:ann/-\+0")
        eve.type(b"J" * 8)
        await eve.expect(r"SNAPSHOT you=eve seat=2 ")
        # Each key is its own join: those read before the first join arrived are on their way, those after at a
        # table already; either way refused, and none opens an elm on B.
        refused = r"NOTICE refused you are (?:on your way to a table already|already at a table)"
        await eve.expect(rf"(?s)(?:{refused}.*?){{7}}")
        assert tables_open(nodes.a, nodes.b) == ["elm"]


async def test_the_lobby_read_poll_after_poll_makes_no_consumer(tmp_path, nats_server):
    """ann and bob play at A's table: its lobby entry changes battle after battle, and both nodes read the
    lobby again each time. No bucket has a consumer once the nodes' starts are over (nats-py's ``keys`` made
    one a read, each lingering for minutes until the server's limit refused every read)."""
    from war_tui.cluster.leases import BUCKET as LEASES
    from war_tui.cluster.nodes import LOBBY_BUCKET
    from war_tui.cluster.table_store import BUCKET as TABLES

    client = await nats_server.client()
    js = client.jetstream()

    async def consumers() -> dict[str, int]:
        return {bucket: (await js.stream_info(f"KV_{bucket}")).state.consumer_count
                for bucket in (LOBBY_BUCKET, LEASES, TABLES)}

    async def consumers_are(counts: dict[str, int]) -> bool:
        return await consumers() == counts

    async with two_nodes(tmp_path, nats_server) as nodes:
        ann, bob = await nodes.ann_and_bob()
        await play(ann, bob, 1)
        none = dict.fromkeys((LOBBY_BUCKET, LEASES, TABLES), 0)
        await until(lambda: consumers_are(none), 120, what="the starts' watches left consumers behind")
        for battle in range(2, 8):
            await play(ann, bob, 1, first=battle)
            for srv in (nodes.a, nodes.b):  # each node's next full poll reads the changed lobby
                assert srv.server.nodes is not None
                polls = srv.server.nodes.polls
                await until(lambda srv=srv, polls=polls: srv.server.nodes.polls >= polls + 2)
        assert nodes.b.server.nodes is not None
        assert nodes.b.server.nodes.others["oak"][1].battles == 7, "the lobby was read all along"
        assert await consumers() == none


async def test_forged_relay_messages_on_nats_reach_no_player_and_pass_no_cap(tmp_path, nats_server):
    """Whoever reaches NATS without the host key (issue 39): a forged "gone" and a forged update to a relayed
    player, and open requests that say they are not counted, for a table capped at one spectator."""
    async with two_nodes(tmp_path, nats_server, max_spectators=1) as nodes:
        ann, bob = await nodes.ann_and_bob()  # bob relayed from B to A, which serves oak
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        cluster = nodes.a.server.cluster
        b = nodes.b.server.nodes
        assert cluster is not None and cluster.client is not None and b is not None
        await until(lambda: len(b.relay.doors) == 1)
        (conn,) = b.relay.doors
        out = out_subject(nodes.b.server.cluster.node, conn)
        await cluster.client.publish(out, encode_numbered(LINES, 1, 0, encode(Notice(NoticeCode.INFO, "FORGED"))))
        await cluster.client.publish(out, GONE + encode(Notice(NoticeCode.CLOSING, "closing the connection: FORGED")))
        for _ in range(3):
            opened = {"conn": new_conn_id(), "door": nodes.b.server.cluster.node, "user": "eve", "table": "oak",
                      "watch": True, "counted": False, "at": time.time()}
            with pytest.raises(NatsTimeout):
                await cluster.client.request(open_subject(cluster.node), json.dumps(opened).encode(), timeout=1.0)
        await until(lambda: sum("is skipped (not signed" in line for srv in (nodes.a, nodes.b)
                                for line in srv.logs) == 5)
        await play(ann, bob, 2)  # bob plays on, told nothing of the forgeries
        assert "FORGED" not in bob.seen.decode(errors="replace")
        table = nodes.a.server.tables.registry.table("oak")
        assert table is not None and table.watching == 0 and len(table.members) == 2
