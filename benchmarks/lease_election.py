"""How long a node's lease bucket cannot be written after the nats-server leading it is killed, against the lease.

A NATS cluster of three (the pinned nats-server, ``tests/support/nats.py``'s ``NatsCluster``), the leases' bucket
kept on all three as a server makes it (``LeaseBucket.open``, replicas 3), a node's lease taken and renewed as
``NodeLease`` renews it. Each round kills (SIGKILL) the server that leads the bucket's stream, with the node's
client connected to another one (``--via leader``: to the one killed, so its reconnect counts too), and measures:

- **unwritable**: from the kill until a write to the stream is acknowledged again (a renewal can land): the
  election, as a node sees it;
- whether the node's lease came through: **kept** (a renewal after the election found its own revision),
  **taken again** (the key expired in the election and the node took it again, ``NodeLease.lapses``) or **LOST**
  (the node would let every table it serves go).

    .venv/bin/python benchmarks/lease_election.py --rounds 10 --lease 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.nats import NatsCluster

from war_tui.cluster.connection import connect
from war_tui.cluster.leases import BUCKET, LeaseBucket, NodeLease

TRY_TIMEOUT = 0.5
"""Seconds one write may wait for its acknowledgement before it is tried again."""


async def unwritable(bucket: LeaseBucket, key: str, killed: float, limit: float = 60.0) -> float:
    """Seconds from ``killed`` until a write to the stream is acknowledged."""
    while time.monotonic() - killed < limit:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(bucket.put(key, b"probe", 60), TRY_TIMEOUT)
            return time.monotonic() - killed
        await asyncio.sleep(0.05)
    return float("inf")


async def one_round(folder: Path, lease_seconds: int, via_leader: bool) -> tuple[float, str]:
    cluster = NatsCluster(folder).start()
    try:
        await cluster.ready()
        setup = await cluster.client()
        try:
            await LeaseBucket.open(setup, replicas=3)
            info = await setup.jetstream().stream_info(f"KV_{BUCKET}")
        finally:
            await setup.close()
        assert info.cluster is not None and info.cluster.leader is not None
        leader = cluster.member(info.cluster.leader)
        first = leader if via_leader else next(m for m in cluster.members if m is not leader)
        urls = [first.url] + [m.url for m in cluster.members if m is not first]
        client = await connect(urls, lambda line: None, token=cluster.token)
        try:
            bucket = LeaseBucket(client.jetstream())
            lost: list[float] = []
            lease = NodeLease(bucket, "nmeasure", lease_seconds, on_lost=lambda: lost.append(time.monotonic()))
            await lease.take()
            lease.start()
            await asyncio.sleep(lease_seconds)
            leader.kill()
            killed = time.monotonic()
            took = await unwritable(bucket, "probe", killed)
            await asyncio.sleep(2 * lease_seconds)  # the renewals after the election: do they find the lease?
            await lease.stop(release=False)
            return took, "LOST" if lost else "taken again" if lease.lapses else "kept"
        finally:
            await client.close()
    finally:
        cluster.kill()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, choices=range(1, 101), metavar="N")
    parser.add_argument("--lease", type=int, default=3, choices=range(2, 61), metavar="S")
    parser.add_argument("--via", choices=("follower", "leader"), default="follower")
    args = parser.parse_args()
    times: list[float] = []
    ends: Counter[str] = Counter()
    for n in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="war-tui-election-") as folder:
            took, end = await one_round(Path(folder), args.lease, args.via == "leader")
        times.append(took)
        ends[end] += 1
        print(f"round {n + 1}: unwritable {took:.2f} s, lease {end}", flush=True)
    print(f"{args.rounds} rounds, lease {args.lease} s, client via the {args.via}: unwritable median "
          f"{statistics.median(times):.2f} s, max {max(times):.2f} s; lease " + ", ".join(
              f"{end} {count}" for end, count in sorted(ends.items())))


if __name__ == "__main__":
    asyncio.run(main())
