"""What NATS under the tables costs: the embedded server's start and memory, and a store write's round trip.

    python benchmarks/nats_start.py [--starts 15] [--writes 2000]

1. start: ``war-tui serve-ssh`` as a process (``--public``, a stand-in game, an ephemeral loopback port,
   ``--no-preload``), from its start to its "listening on" line, alternately with its own embedded
   nats-server and with ``--nats`` to a nats-server already running, ``--starts`` times each in the same
   run, each kind restarted on a data folder of its own (its first start, which makes the buckets, is
   reported apart): the difference of the medians is what starting the embedded server adds.
   Beside it, in this process: ``Cluster.open`` (what the server's start runs: nats-server, connection,
   buckets, lease) embedded and with ``--nats``, alternately; and the embedded server alone
   (``EmbeddedNats.start``: nats-server started and listening).
2. memory: the resident size (VmRSS) of the embedded nats-server once started, and after ``--writes``
   table writes, beside the war-tui server process's own.
3. round trip: a table's save (a 1 KiB checkpoint by compare-and-set on its revision, awaited until
   acknowledged), ``--writes`` times, in batches of 100 alternating between two nats-servers run at once,
   one with the embedded server's ``sync_interval: always`` (every change on disk before it is
   acknowledged), one with JetStream's default (every 2 minutes): p50 and p99 of each.

Everything on 127.0.0.1; every loop is bounded by a count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from war_tui.cluster.config import ClusterConfig
from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import SYNC_INTERVAL, EmbeddedNats, config_text, server_program
from war_tui.cluster.node import Cluster
from war_tui.cluster.table_store import NatsTableStore

LISTENING = re.compile(r"listening on \S+:(\d+):")
STAND_IN = f"{sys.executable} -c 'import time; time.sleep(60)'"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children_named(pid: int, word: bytes) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                if word in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(int(child))
            except OSError:
                pass
    return found


def serve_start(folder: Path, extra: list[str]) -> tuple[float, float, float | None]:
    """Seconds from exec to "listening on"; the server's RSS and its nats-server's (None: not embedded)."""
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data"), "HOME": str(folder)}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--port", "0", "--no-preload",
         "--host-key", str(folder / "hk"), "--session-command", STAND_IN, *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if LISTENING.search(line):
                seconds = time.perf_counter() - started
                break
        else:
            raise SystemExit(f"serve-ssh did not start (status {process.wait()})")
        nats = children_named(process.pid, b"nats-server")
        return seconds, rss_mib(process.pid), (rss_mib(nats[0]) if nats else None)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


async def embedded_alone(folder: Path) -> tuple[float, int, EmbeddedNats]:
    server = EmbeddedNats(folder, lambda line: None)
    started = time.perf_counter()
    await server.start()
    seconds = time.perf_counter() - started
    assert server.pid is not None
    return seconds, server.pid, server


async def cluster_opens(root: Path, given: str, starts: int) -> tuple[list[float], list[float]]:
    """Seconds ``Cluster.open`` takes, as the server's start runs it: embedded, and with ``--nats``, alternately."""
    embedded: list[float] = []
    remote: list[float] = []
    for n in range(starts + 1):
        for kind in (("embedded", "given") if n % 2 == 0 else ("given", "embedded")):
            config = ClusterConfig(directory=root / kind) if kind == "embedded" else \
                ClusterConfig(urls=(given,), directory=root / kind)
            started = time.perf_counter()
            cluster = await Cluster.open(config, lambda line: None)
            seconds = time.perf_counter() - started
            await cluster.close()
            if n:  # the first of each made its buckets
                (embedded if kind == "embedded" else remote).append(seconds)
    return embedded, remote


def plain_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A nats-server configured as the embedded one (token ``shared-token``), started by subprocess."""
    folder.mkdir(parents=True)
    (folder / "nats.conf").write_text(config_text(folder, folder, "shared-token"), encoding="utf-8")
    process = subprocess.Popen([str(server_program()), "-c", str(folder / "nats.conf")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(3000):
        try:
            return process, json.loads((folder / f"nats-server_{process.pid}.ports").read_text())["nats"][0]
        except (OSError, ValueError, KeyError):
            time.sleep(0.01)
    raise SystemExit("the shared nats-server did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def round_trips(folder: Path, writes: int) -> tuple[dict[str, list[float]], float, float]:
    servers = {
        sync: EmbeddedNats(folder / sync, lambda line: None, sync=sync) for sync in (SYNC_INTERVAL, "2m")
    }
    times: dict[str, list[float]] = {sync: [] for sync in servers}
    clients = []
    try:
        stores = {}
        for sync, server in servers.items():
            await server.start()
            client = await connect([server.url], lambda line: None, token=server.token)
            clients.append(client)
            stores[sync] = await NatsTableStore.open(client)
        rss_before = rss_mib(servers[SYNC_INTERVAL].pid or 0)
        data = os.urandom(512).hex().encode()  # 1 KiB, about a table's checkpoint
        revisions: dict[str, int | None] = {sync: None for sync in servers}
        for batch in range(max(1, writes // 100)):
            for sync, store in (stores.items() if batch % 2 == 0 else reversed(stores.items())):
                for _ in range(100):
                    started = time.perf_counter()
                    revisions[sync] = await store.save("oak", data, revisions[sync])
                    times[sync].append(time.perf_counter() - started)
        rss_after = rss_mib(servers[SYNC_INTERVAL].pid or 0)
    finally:
        for client in clients:
            await client.close()
        for server in servers.values():
            await server.stop()
    return times, rss_before, rss_after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--writes", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nats-start-") as scratch:
        root = Path(scratch)

        async def alone_starts() -> list[float]:
            alone = []
            for n in range(args.starts):
                seconds, _, server = await embedded_alone(root / f"alone{n}")
                alone.append(seconds)
                await server.stop()
            return alone

        loop = asyncio.new_event_loop()
        alone = loop.run_until_complete(alone_starts())
        # The running nats-server of --nats is started without asyncio, whose child watcher in Python 3.11 is a
        # thread: with it, this process would start its embedded servers through the launcher, unlike a server.
        shared, url = plain_server(root / "shared")
        given = url.replace("nats://", "nats://shared-token@")  # a token as the URL's user
        embedded_s, given_s, server_rss, nats_rss = [], [], [], []
        try:
            first_embedded = serve_start(root / "embedded", [])[0]  # a first start: the buckets are made
            first_given = serve_start(root / "given", ["--nats", given])[0]
            for n in range(args.starts):
                for kind in (("embedded", "given") if n % 2 == 0 else ("given", "embedded")):
                    folder = root / kind  # a restart on the same data folder, as a server is restarted
                    if kind == "embedded":
                        seconds, rss, nats = serve_start(folder, [])
                        embedded_s.append(seconds)
                        server_rss.append(rss)
                        if nats is not None:
                            nats_rss.append(nats)
                    else:
                        given_s.append(serve_start(folder, ["--nats", given])[0])
            opens = loop.run_until_complete(cluster_opens(root / "opens", given, args.starts))
        finally:
            shared.terminate()
            shared.wait(30)
        times, rss_before, rss_after = loop.run_until_complete(round_trips(root / "trips", args.writes))
        loop.close()
    ms = 1000
    print(f"serve-ssh start to listening, median of {args.starts}: with its embedded nats-server"
          f" {statistics.median(embedded_s) * ms:.0f} ms, with --nats to a running one"
          f" {statistics.median(given_s) * ms:.0f} ms: the embedded server adds"
          f" {(statistics.median(embedded_s) - statistics.median(given_s)) * ms:+.0f} ms")
    print(f"Cluster.open (what the server's start runs before it listens), median of {args.starts}: embedded"
          f" {statistics.median(opens[0]) * ms:.0f} ms (p90 {percentile(opens[0], 0.9) * ms:.0f}), --nats"
          f" {statistics.median(opens[1]) * ms:.0f} ms (p90 {percentile(opens[1], 0.9) * ms:.0f})")
    print(f"a first start (a new data folder, the buckets made): with its embedded nats-server {first_embedded * ms:.0f} ms,"
          f" with --nats {first_given * ms:.0f} ms (once each)")
    print(f"the embedded server alone (started and listening): median {statistics.median(alone) * ms:.0f} ms,"
          f" p90 {percentile(alone, 0.9) * ms:.0f} ms")
    print(f"resident memory once listening, median: war-tui serve-ssh {statistics.median(server_rss):.1f} MiB,"
          f" its nats-server {statistics.median(nats_rss):.1f} MiB")
    print(f"nats-server after opening the buckets {rss_before:.1f} MiB, after {args.writes} writes {rss_after:.1f} MiB")
    for sync, values in times.items():
        print(f"table save (compare-and-set, 1 KiB) with sync_interval {sync}: p50 {percentile(values, 0.5) * ms:.2f} ms,"
              f" p99 {percentile(values, 0.99) * ms:.2f} ms ({len(values)} writes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
