"""War-tui runs under the NATS permissions docs/cluster.md gives its user: an account of its own, publishing
and subscribing only on its buckets, its games stream and its relay. Two nodes on a nats-server configured
with exactly the documented block: a table relayed from one node to the other, a game played to its end and
recorded on both, and not one permission violation in the server's log or the nodes'."""

from __future__ import annotations

import json
import re
from pathlib import Path

from nodes_support import games_in, play, stats_node, two_nodes
from ssh_support import until
from support.nats import NatsServer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cluster.md"
PASSWORD = "a-long-random-password"
BATTLES = 3


def documented_account() -> str:
    """The account block of docs/cluster.md's example, as an operator would paste it."""
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"```\n(# war-tui's own account.*?)```", text, re.S)
    assert match, "docs/cluster.md shows war-tui's account"
    return match.group(1)


class RestrictedServer(NatsServer):
    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.token = f"war-tui:{PASSWORD}"  # as nodes_support puts it before the host: user and password
        self.log = folder / "nats-server.log"

    def config(self) -> str:
        return (
            f'listen: "127.0.0.1:{self.port}"\n'
            f"ports_file_dir: {json.dumps(str(self.ports))}\n"
            f"jetstream {{ store_dir: {json.dumps(str(self.store))} }}\n"
            + documented_account()
        )


async def test_war_tui_runs_under_the_documented_permissions(tmp_path, monkeypatch):
    monkeypatch.setenv("WAR_TUI_PASSWORD", PASSWORD)  # the example reads it from the environment
    server = RestrictedServer(tmp_path / "nats").start()
    try:
        async with two_nodes(tmp_path, server, stats_node(BATTLES)) as nodes:
            ann, bob = await nodes.ann_and_bob()  # bob relayed to A, which serves oak
            await play(ann, bob, BATTLES)
            for seat in (ann, bob):
                await seat.expect(rf"OVER \S+ after {BATTLES}")
            await until(lambda: len(games_in(tmp_path, "a")) == 1 and len(games_in(tmp_path, "b")) == 1)
            logs = nodes.a.logs + nodes.b.logs
    finally:
        server.stop()
    violations = [line for line in server.log.read_text().splitlines() if "Violation" in line]
    assert violations == []
    assert [line for line in logs if "ermission" in line] == []
