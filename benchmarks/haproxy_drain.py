"""How soon HAProxy stops sending new players to a draining node: two ``war-tui serve`` nodes on one nats-server
behind HAProxy, configured as docs/cluster.md says (``tests/functional/haproxy_support.py`` reads it out of the
docs), node 1 sent SIGTERM while two players sit at a table, then started again.

    python benchmarks/haproxy_drain.py [--rounds 5]

Each round: SIGTERM to node 1, then the seconds until HAProxy reports node 1 DOWN in each backend (SSH and web)
and why (``Layer7 wrong status``: its /readyz said 503 while it was still ending its games; ``Layer4``: it had
already closed); the seconds until node 1's process ended; node 1 started again on the same ports, the seconds
until HAProxy reports it UP in both. Goal: DOWN within 2 s of SIGTERM. Every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "functional"))

WAIT = 60.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    return parser.parse_args()


async def said(balancer, text: str, since: float) -> tuple[float, str]:
    """Seconds from ``since`` until HAProxy said ``text``, and its line."""
    deadline = since + WAIT
    while True:
        for when, line in list(balancer.lines):
            if when >= since and text in line:
                return when - since, line
        assert time.monotonic() < deadline, f"HAProxy never said {text!r}"
        await asyncio.sleep(0.01)


async def seated(port: int, user: str):
    from ssh_support import connect
    from ssh_support.players import Listener

    conn = await connect(port, None, username=user)
    someone = Listener(conn, await conn.create_process("line table oak", encoding=None))
    await someone.until("You sit at table oak")
    return someone


async def run(args: argparse.Namespace) -> None:
    from haproxy_support import HAProxy, Node, free_port, haproxy_config
    from support.nats import NatsServer

    with tempfile.TemporaryDirectory(prefix="war-haproxy-") as scratch:
        top = Path(scratch)
        nats = NatsServer(top / "nats").start()
        ssh_port, web_port = free_port(), free_port()
        nodes = [Node(top, nats, name, f"http://127.0.0.1:{web_port}") for name in ("a", "b")]
        balancer = None
        rows: dict[str, list[float]] = {"ssh DOWN": [], "web DOWN": [], "node 1 ended": [], "ssh UP": [], "web UP": []}
        reasons: list[str] = []
        try:
            for each in nodes:
                each.wait_listening()
            config = top / "haproxy.cfg"
            config.write_text(haproxy_config(ssh_port, web_port, nodes))
            balancer = HAProxy(config)
            await asyncio.sleep(2.0)
            first = nodes[0]
            for _ in range(args.rounds):
                people = [await seated(ssh_port, user) for user in ("ann", "bob")]
                began = time.monotonic()
                first.process.send_signal(signal.SIGTERM)
                for backend in ("ssh", "web"):
                    took, line = await said(balancer, f"war_{backend}_nodes/node1 is DOWN", began)
                    rows[f"{backend} DOWN"].append(took)
                    reason = re.search(r"reason: ([^,]+)", line)
                    reasons.append(reason[1] if reason is not None else line)
                await asyncio.to_thread(first.process.wait, WAIT)
                rows["node 1 ended"].append(time.monotonic() - began)
                for someone in people:
                    someone.conn.close()
                restarted = time.monotonic()
                first.start()
                first.wait_listening()
                for backend in ("ssh", "web"):
                    rows[f"{backend} UP"].append((await said(balancer, f"war_{backend}_nodes/node1 is UP", restarted))[0])
                await asyncio.sleep(1.0)
            print(f"{args.rounds} rounds; HAProxy checks /readyz every 500 ms, fall 2, rise 2 (docs/cluster.md)")
            for what, seconds in rows.items():
                print(f"{what:>13}: median {statistics.median(seconds):.2f} s, most {max(seconds):.2f} s"
                      f" ({', '.join(f'{s:.2f}' for s in seconds)})")
            print("DOWN because: " + ", ".join(sorted(set(reasons))))
        finally:
            if balancer is not None:
                balancer.end()
            for each in nodes:
                each.end()
            nats.kill()


if __name__ == "__main__":
    asyncio.run(run(parse_args()))
