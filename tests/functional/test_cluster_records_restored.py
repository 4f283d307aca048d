"""A finished game whose server died before its record left is in the statistics once all the same.

A server keeps a game's end in the store before anyone sees it, and publishes the game's record after: a
kill -9 between the two would lose the record. The next server that restores the table (the same one
restarted, or a node taking it over) hands the record of the game over on it again, and the statistics keep
a game id once however often it comes. The in-process server here drops its record as a process killed at
that moment would, then stops; the next start on the same NATS and statistics file recovers it.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from nodes_support import FAKE_TABLE, close, cluster, keys, play, sit
from ssh_support import start_server, until
from ssh_support.players import MANY

from war_tui.core.rules import Rules
from war_tui.stats import StatsStore

BATTLES = 3


async def start(tmp_path: Path, allowed, nats_server):
    database = tmp_path / "stats.sqlite3"
    return await start_server(
        tmp_path, allowed, argv=FAKE_TABLE, cluster=cluster(nats_server, tmp_path),
        table_rules=Rules(max_battles=BATTLES), stats=lambda: StatsStore.open(database), **MANY,
    )


def rows(tmp_path: Path) -> list[tuple[str, int]]:
    try:
        with closing(sqlite3.connect(f"file:{tmp_path / 'stats.sqlite3'}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT game_id, battles FROM games ORDER BY game_id").fetchall()
    except sqlite3.OperationalError:  # not made yet
        return []


async def test_a_record_lost_with_its_server_is_stored_once_by_the_next_that_restores_the_table(
    tmp_path, nats_server
):
    allowed = keys(tmp_path)
    srv = await start(tmp_path, allowed, nats_server)
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
    assert rows(tmp_path) == []
    for _ in range(2):  # restored twice: the record comes again each time, the file keeps it once
        again = await start(tmp_path, allowed, nats_server)
        try:
            await until(lambda: len(rows(tmp_path)) == 1)
            ((game_id, battles),) = rows(tmp_path)
            assert game_id.startswith("oak.") and game_id.endswith(".1") and battles == BATTLES
        finally:
            await again.server.stop()
    assert len(rows(tmp_path)) == 1
