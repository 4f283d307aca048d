"""The loss of one of three nodes loses no table, no seat and no finished game.

Three in-process nodes on one real nats-server, each with its own data directory and statistics file; ann
opened table oak on node A and came back through B, bob sits through C, so both are relayed to A. A dies as a
killed process looks to the others (its lease renewals stop, its NATS connection closes, nothing released):
B or C takes the table over at the battle both screens showed, both keep their seats, the game is played to
its end, and its record is in B's and C's statistics once. Players are SSH clients running the stand-in table
game, which prints what its table tells it.
"""

from __future__ import annotations

import re

from nodes_support import close, games_in, keys, kill_node, play, sit, stats_node, stop
from ssh_support import until

from war_tui.cluster.router import MOVED

BATTLES = 6


start_node = stats_node(BATTLES)
rows = games_in


def battles(seat) -> list[int]:
    return [int(number) for number in re.findall(r"BATTLE (\d+) ", seat.text)]


async def test_the_loss_of_one_of_three_nodes_loses_no_table_no_seat_and_no_finished_game(tmp_path, nats_server):
    allowed = keys(tmp_path)
    a = await start_node(tmp_path, allowed, nats_server, "a")
    b = await start_node(tmp_path, allowed, nats_server, "b")
    c = await start_node(tmp_path, allowed, nats_server, "c")
    try:
        ann = await sit(a.port, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        await close(ann)
        ann = await sit(b.port, "ann", "table oak")  # her seat, kept for her, at A's table
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        bob = await sit(c.port, "bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        counts = await play(ann, bob, 2)

        await kill_node(a)
        for seat, number in ((ann, 1), (bob, 2)):
            await seat.expect(re.escape(MOVED))
            await seat.expect(rf"SNAPSHOT you=\w+ seat={number} game=1 battles=2 counts={counts} ")
        await play(ann, bob, BATTLES - 2, first=3)
        for seat in (ann, bob):
            await seat.expect(rf"OVER \S+ after {BATTLES}")
        assert battles(ann) == battles(bob) == list(range(1, BATTLES + 1)), "every battle once, on both screens"
        served = [srv for srv in (b, c) if any(t.name == "oak" for t in srv.server.tables.registry.tables)]
        assert len(served) == 1, "one node took the table over"

        await until(lambda: len(rows(tmp_path, "b")) == 1 and len(rows(tmp_path, "c")) == 1)
        assert rows(tmp_path, "b") == rows(tmp_path, "c")
        ((game_id, p1, p2, played),) = rows(tmp_path, "b")
        assert (p1, p2, played) == ("ann", "bob", BATTLES) and game_id.startswith("oak.") and game_id.endswith(".1")
        await close(ann, bob)
    finally:
        await stop(a, b, c)
    assert len(rows(tmp_path, "b")) == 1 and len(rows(tmp_path, "c")) == 1
