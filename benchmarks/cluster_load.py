"""What many nodes cost a table: a flip with the players on one node or on two, and how long a takeover takes.

    python benchmarks/cluster_load.py [--flips 400] [--kills 20] [--lease 2]

One nats-server (the embedded one's configuration, started as a server does) on 127.0.0.1 and war-tui nodes in
this process, each as a server makes one (``Cluster.open``, a kept ``SharedTables``, ``start_nodes``) with a data
folder of its own; connections are the doors' ``SharedTables.link`` (a router), read as a table socket reads them,
without SSH or a game process: what is measured is the server's path, NATS included.

1. flip → every screen: both players flip, and the time from the second flip to the battle's line in both
   connections' output, ``--flips`` battles, a fresh table for each batch of 20 (a game of War lasts far
   longer), alternately with both players on node A and with ann on A (the owner) and bob on B (relayed):
   p50 and p99 of each, this process's CPU per battle, and the relay's NATS messages per relayed battle (both
   ways, pings and acknowledgements included).
2. takeover: ``--kills`` times, a node A owns a table that bob plays from node B; A is killed as a killed process
   looks to the others (its lease renewals stop and its NATS connection closes, nothing released); the time
   from the kill to bob's "the table moved" and fresh snapshot. Goal: p99 within the lease plus 2 s.

Every loop is bounded by a count; every wait by a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from war_tui.cluster.config import ClusterConfig
from war_tui.cluster.embedded import EmbeddedNats
from war_tui.cluster.node import Cluster
from war_tui.cluster.nodes import Nodes, start_nodes
from war_tui.cluster.router import MOVED
from war_tui.serving.tables.host import SharedTables
from war_tui.tables.link import DoorLink
from war_tui.tables.messages import Flip
from war_tui.tables.protocol import encode

WAIT = 30.0
BATCH = 20
SECRET = b"cluster_load: the secret every node of the run shares"
"""What visitors are hashed with for the caps across nodes (a served cluster uses its host key's)."""


class Node:
    def __init__(self, url: str, folder: Path, lease: int) -> None:
        self.config = ClusterConfig(urls=(url,), directory=folder, lease_seconds=lease)
        self.cluster: Cluster | None = None
        self.host = SharedTables(max_tables=100, seat_timeout=60.0, log=lambda line: None, kept=True)
        self.nodes: Nodes | None = None

    async def start(self) -> Node:
        self.cluster = await Cluster.open(self.config, lambda line: None)
        assert self.cluster.store is not None
        await self.host.keep_in(self.cluster.store, self.cluster.owners)
        self.nodes = await start_nodes(self.cluster, self.host, lambda line: None, SECRET)
        self.host.start()
        return self

    async def kill(self) -> None:
        """As a kill -9 looks to the other nodes: no renewals, no connection, nothing released."""
        assert self.cluster is not None and self.cluster.lease is not None and self.cluster.client is not None
        await self.cluster.lease.stop(release=False)
        await self.host.stop_keeping(0.0)  # it writes nothing more, as a killed process would not
        await self.cluster.client.close()
        await self.stop()

    async def stop(self) -> None:
        if self.nodes is not None:
            await self.nodes.stop()
        self.host.close("bye")
        await self.host.stop()
        if self.cluster is not None:
            await self.cluster.close()


class Screen:
    """A connection read as the table socket reads it: everything its link says, as it says it."""

    def __init__(self, node: Node, user: str, address: str = "127.0.0.1") -> None:
        self.link: DoorLink = node.host.link(user, f"key:{user}", address)
        self.text = bytearray()
        self.changed = asyncio.Event()
        self.link.on_output = self._wanted

    def _wanted(self) -> None:
        asyncio.get_running_loop().call_soon(self._take)

    def _take(self) -> None:
        data = self.link.take()
        if data:
            self.text += data
            self.changed.set()

    async def until(self, needle: bytes, start: int = 0) -> int:
        async def wait() -> int:
            while (at := self.text.find(needle, start)) < 0:
                self.changed.clear()
                await self.changed.wait()
            return at

        return await asyncio.wait_for(wait(), WAIT)

    def send(self, line: bytes) -> None:
        self.link.receive(line)


async def battle_times(ann: Screen, bob: Screen, battles: int, first: int) -> list[float]:
    times = []
    flip = encode(Flip())
    for battle in range(first, first + battles):
        marks = (len(ann.text), len(bob.text))
        ann.send(flip)
        await asyncio.sleep(0)
        start = time.perf_counter()
        bob.send(flip)
        needle = f'"battle":{battle},'.encode()
        await asyncio.gather(ann.until(needle, marks[0]), bob.until(needle, marks[1]))
        times.append((time.perf_counter() - start) * 1000)
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def count_relay_messages(*nodes: Node) -> list[int]:
    """[every message the nodes' relays send, those sent while two-node battles were timed], kept up to date."""
    counts = [0, 0]
    for node in nodes:
        assert node.nodes is not None
        relay = node.nodes.relay
        send = relay.send

        def counted(subject: str, data: bytes, send=send) -> None:
            counts[0] += 1
            send(subject, data)

        relay.send = counted  # type: ignore[method-assign]  # counted as it goes, the relay unchanged
    return counts


async def flips(url: str, folder: Path, count: int, lease: int) -> None:
    a = await Node(url, folder / "a", lease).start()
    b = await Node(url, folder / "b", lease).start()
    try:
        times: dict[str, list[float]] = {"one node": [], "two nodes": []}
        cpu = {"one node": 0.0, "two nodes": 0.0}
        relayed = count_relay_messages(a, b)
        for batch in range(count // BATCH):  # a table a batch: a game of War lasts far longer than a batch
            for label, nodes in (("one node", (a, a)), ("two nodes", (a, b))):
                table = f"{label.split()[0]}-{batch}"
                ann, bob = (Screen(node, f"{user}{batch}", f"10.0.{batch}.{i}")
                            for i, (node, user) in enumerate(zip(nodes, ("ann", "bob"), strict=True)))
                for screen in (ann, bob):
                    screen.link.join(table)
                    await screen.until(b'"kind":"snapshot"')
                before, sent = time.process_time(), relayed[0]
                times[label] += await battle_times(ann, bob, BATCH, 1)
                cpu[label] += time.process_time() - before
                if label == "two nodes":
                    relayed[1] += relayed[0] - sent
                for screen in (ann, bob):
                    screen.link.close()
        print(f"flip → both screens, {count} battles each, in batches of {BATCH}:")
        for label, values in times.items():
            print(f"  {label:9}  p50 {statistics.median(values):6.2f} ms  p99 {pct(values, 0.99):6.2f} ms")
        single = statistics.median(times["one node"])
        print(f"  two nodes / one node p50: {statistics.median(times['two nodes']) / single:.2f}x "
              f"(goal ≤ 1.2x + 2 ms: ≤ {single * 1.2 + 2:.2f} ms)")
        print("  this process's CPU per battle (both nodes, their NATS clients included): "
              + ", ".join(f"{label} {cpu[label] / count * 1000:.2f} ms" for label in cpu))
        print(f"  relay messages per relayed battle, both ways: {relayed[1] / count:.2f}")
    finally:
        await b.stop()
        await a.stop()


async def takeovers(url: str, folder: Path, kills: int, lease: int) -> None:
    if not kills:
        return
    b = await Node(url, folder / "b2", lease).start()
    times = []
    try:
        for trial in range(kills):
            a = await Node(url, folder / f"a{trial}", lease).start()
            table = f"kill-{trial}"
            ann, bob = Screen(a, "ann"), Screen(b, "bob")
            ann.link.join(table)
            await ann.until(b'"kind":"snapshot"')
            bob.link.join(table)
            await bob.until(b'"kind":"snapshot"')
            mark = len(bob.text)
            await a.kill()
            start = time.perf_counter()
            moved = await bob.until(MOVED.encode(), mark)
            await bob.until(b'"kind":"snapshot"', moved)
            times.append(time.perf_counter() - start)
            bob.link.close()
            ann.link.close()
        print(f"takeover, {kills} kills of the owner node (lease {lease} s): "
              f"p50 {statistics.median(times):.2f} s, p99 {pct(times, 0.99):.2f} s, most {max(times):.2f} s "
              f"(goal p99 ≤ {lease + 2} s)")
    finally:
        await b.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--flips", type=int, default=400)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--lease", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        nats = EmbeddedNats(folder / "nats", lambda line: None)
        await nats.start()
        url = nats.url.replace("nats://", f"nats://{nats.token}@")
        try:
            await flips(url, folder, args.flips - args.flips % BATCH or BATCH, args.lease)
            await takeovers(url, folder, args.kills, args.lease)
        finally:
            await nats.stop()


if __name__ == "__main__":
    asyncio.run(main())
