"""War TV in a cluster: a viewer on one node follows the tables another node serves, from the lobby every node
reads, and moves on when the game on show ends."""

from __future__ import annotations

from nodes_support import play, stats_node, two_nodes
from ssh_support import until

BATTLES = 3
start_node = stats_node(BATTLES)


async def test_tv_on_one_node_watches_a_table_of_another_and_moves_on_at_its_games_end(tmp_path, nats_server):
    async with two_nodes(tmp_path, nats_server, start_node) as nodes:
        eve = await nodes.sit(nodes.b, "eve", "tv")
        await eve.expect(r"TUNED - no table is playing now")
        ann, bob = await nodes.ann_and_bob("oak")  # oak is A's; eve's War TV is on B
        await play(ann, bob, 1)
        await eve.expect(r"TUNED oak ")  # from B's lobby: A's entry in NATS
        await eve.expect(r"SNAPSHOT you=eve seat=- game=1 battles=1 ")  # relayed to A, as a spectator
        await ann.expect(r"STATE .* spectators=1 ")  # counted at oak, as any spectator
        elm_ann = await nodes.sit(nodes.b, "ann", "table elm")
        elm_bob = await nodes.sit(nodes.b, "bob", "table elm")
        await play(elm_ann, elm_bob, 1)
        await play(ann, bob, BATTLES - 1, first=2)  # oak's game to its end
        await eve.expect(r"OVER \S+ after 3")
        await eve.expect(r"TUNED elm ")  # on to the table still playing, served by B
        await elm_ann.expect(r"STATE .* spectators=1 ")
        lobby = nodes.b.server.tables.registry.lobby
        await until(lambda: all(e.result is not None for e in lobby().tables if e.table == "oak"))  # A's word of it
        eve.type(b"n")  # the only table playing: War TV stays where it is
        await eve.expect(r"NOTICE info no other table is playing now: War TV stays at table elm")
