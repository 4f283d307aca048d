"""A start that finds forged checkpoints in its tables bucket (issue 39): it listens before it restores them, each
replay off the event loop, and restores no more than --max-tables.

A stranger who reaches NATS writes 20 valid checkpoints claiming long games of a deal that never ends (under rules
that let a game run that long, as a server given ``--max-battles 1000000`` plays them). The server is started on
that embedded NATS; a player sits at a new table while the restores are still under way."""

from __future__ import annotations

import re

from nodes_support import FAKE_TABLE, close, keys, sit
from ssh_support import start_server
from ssh_support.players import MANY
from support.checkpoints import ENDLESS_RULES, long_checkpoint

from war_tui.cluster.config import ClusterConfig
from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import EmbeddedNats
from war_tui.cluster.table_store import NatsTableStore

FORGED = 20
BATTLES = 300_000
"""Battles each forged checkpoint claims: a replay of a fraction of a second, many of them the seconds a start
would have spent before it listened."""
MAX_TABLES = 16


async def forge(folder) -> None:
    """``FORGED`` long checkpoints written into the embedded NATS kept in ``folder``, as a stranger would."""
    nats = EmbeddedNats(folder, lambda line: None)
    await nats.start()
    try:
        client = await connect([nats.url], lambda line: None, token=nats.token)
        store = await NatsTableStore.open(client)
        for n in range(FORGED):
            await store.save(f"forged{n:02}", long_checkpoint(f"forged{n:02}", BATTLES), None)
        await client.close()
    finally:
        await nats.stop()


async def test_a_restart_with_20_forged_long_checkpoints_listens_before_it_restores_them(tmp_path):
    folder = tmp_path / "node"
    await forge(folder)
    allowed = keys(tmp_path)
    async with await start_server(
        tmp_path, allowed, argv=FAKE_TABLE, cluster=ClusterConfig(directory=folder, lease_seconds=2),
        table_rules=ENDLESS_RULES, max_tables=MAX_TABLES, preload_argv=None, **MANY,
    ) as srv:
        assert not any("restored" in line for line in srv.logs), "the start did not wait for the restores"
        ann = await sit(srv.port, "ann", "table elm")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        keeper = srv.server.tables.keeper
        assert keeper is not None
        restoring = srv.server.restoring
        assert restoring is not None
        await restoring  # within the test's timeout: the restores go on, one after another
        sat = next(i for i, line in enumerate(srv.logs) if re.search(r"table elm: ann sits at seat 1", line))
        restored = next(i for i, line in enumerate(srv.logs) if re.search(r"tables: \d+ tables restored: ", line))
        assert sat < restored, "ann sat at her table while the forged ones were still being restored"
        registry = srv.server.tables.registry
        assert len([t for t in registry.tables if not t.closed]) <= MAX_TABLES
        assert not any("server is full" in line for line in srv.logs), srv.logs
        # A forged table nobody sits at closes 30 s after its restore, so on a slow machine the first ones may close
        # before the last is replayed and make room for more: at least --max-tables less ann's are restored, and
        # those left in the store are said in one line.
        said = re.search(r"tables: (\d+) tables restored: ", srv.logs[restored])
        assert said is not None
        count = int(said[1])
        assert MAX_TABLES - 1 <= count <= FORGED
        left = [line for line in srv.logs if re.search(r"tables: \d+ more tables? in the store not restored: this "
                                                        r"server holds 16 tables at most \(--max-tables\)", line)]
        assert len(left) == (count < FORGED), srv.logs
        await close(ann)
