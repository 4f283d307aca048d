"""A finished game whose server died before its record left is in the statistics once all the same.

A server keeps a game's end in the store before anyone sees it, and publishes the game's record after: a
kill -9 between the two would lose the record. The next server that restores the table (the same one
restarted, or a node taking it over) hands the record of the game over on it again, and the statistics keep
a game id once however often it comes. The in-process server here drops its record as a process killed at
that moment would, then stops; the next start on the same NATS and statistics file recovers it.
"""

from __future__ import annotations

from nodes_support import close, games_in, keys, play, sit, stats_node
from ssh_support import until

BATTLES = 3
start = stats_node(BATTLES)


async def test_a_record_lost_with_its_server_is_stored_once_by_the_next_that_restores_the_table(
    tmp_path, nats_server
):
    allowed = keys(tmp_path)
    srv = await start(tmp_path, allowed, nats_server, "node")
    try:
        srv.server.tables.publish = lambda record: True  # taken, never sent: the process dies here
        ann = await sit(srv.port, "ann", "table oak")
        bob = await sit(srv.port, "bob", "table oak")
        await play(ann, bob, BATTLES)
        for seat in (ann, bob):
            await seat.expect(rf"OVER \S+ after {BATTLES}")
        await close(ann, bob)
    finally:
        await srv.server.stop()
    assert games_in(tmp_path, "node") == []
    logs = list(srv.logs)
    for _ in range(2):  # restored twice: the record comes again each time, the file keeps it once
        again = await start(tmp_path, allowed, nats_server, "node")
        try:
            await until(lambda: len(games_in(tmp_path, "node")) == 1)
            ((game_id, p1, p2, battles),) = games_in(tmp_path, "node")
            assert (p1, p2, battles) == ("ann", "bob", BATTLES) and game_id.startswith("oak.") and game_id.endswith(".1")
        finally:
            await again.server.stop()
        logs += again.logs
    assert len(games_in(tmp_path, "node")) == 1
    # One line for the game's end, by the server that saw it end: the records handed again say nothing.
    assert len([line for line in logs if line.startswith("table game over: ann ")]) == 1, logs
