"""What forged game records cost every node: 20,000 published to the games stream at once, as anyone who reaches
NATS can.

    python benchmarks/forged_records.py [--runs 3] [--records 20000] [--nodes 2] [--kinds burst,spread,garbage]
        [--wait 300] [--signed]

Each run starts a nats-server (the pinned wheel's, as the tests' ``NatsServer``) and ``--nodes`` nodes, each an SSH
server in a process of its own with its tables in that NATS and its statistics in a file of its own (as
``serve-ssh --nats`` runs them; the host key shared). Five real table games (five players) are published and
stored everywhere first (signed as a node signs them). Then, for each kind of flood, ``--records`` records are
published at once (core NATS: as fast as one client sends), unsigned as anyone who reaches NATS can publish them
or, with ``--signed``, signed with the nodes' key (a forger who holds the host key), and the run waits until
every node's consumer has nothing pending:

- **burst**: the issue's attack: records a table could have played, all crediting ``key:flooder``, finished now;
- **spread**: the same, each finished a minute before the last (two weeks of them): what a node's rate per
  identity cannot tell from a player's games;
- **garbage**: what no table plays: nested 3,000 deep, NaN, escapes in names, counts out of range, in turn.

Reported per kind, as the medians of the runs (each run's in brackets): each node's CPU (its process's threads,
``/proc/<pid>/task/*/schedstat``) from the first record published to the last one handled, the seconds that
took, the forged games each node stored, whether every real game is still in every file, and who leads the
leaderboard. Goal (issue 39): less than 5 s of CPU per node for 20,000 forged records, no real game displaced.
Linux only (``/proc``). Every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

WAIT = 300.0
"""Seconds a flood has to be handled by every node, unless ``--wait`` says otherwise."""
REAL = 5
KINDS = ("burst", "spread", "garbage")


def cpu_seconds(pid: int) -> float:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e9


# ----------------------------------------------------------------------------- a node's process


async def serve(url: str, folder: Path, host_key: Path) -> None:
    """One node: prints its node id once it reads the games stream, runs until stdin closes."""
    import asyncssh

    from war_tui.cluster.config import ClusterConfig
    from war_tui.ssh.server import ServerConfig, SshServer
    from war_tui.stats import StatsStore

    database = folder / "stats.sqlite3"
    config = ServerConfig(
        host_key=asyncssh.read_private_key(host_key), authorized_keys=None, port=0, game_nice=0,
        session_argv=(sys.executable, str(ROOT / "tests" / "functional" / "ssh_support" / "fake_table.py")),
        cluster=ClusterConfig(urls=(url,), directory=folder / "cluster", lease_seconds=3),
        stats=lambda: StatsStore.open(database, max_rows=100_000),
    )
    server = SshServer(config, log=lambda line: print(line, file=sys.stderr, flush=True))
    await server.start()
    assert server.cluster is not None
    print(json.dumps({"node": server.cluster.node}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await server.stop()


# ----------------------------------------------------------------------------- the records


def record(n: int, player: str, finished: datetime, table: str = "oak") -> dict[str, object]:
    return {
        "finished_at": finished.isoformat(timespec="seconds"), "seed": n, "war_cards": 1, "gather": "winner-first",
        "max_battles": 10_000, "p1_name": player.split(":")[1][:16], "p2_name": "house", "result": "p1",
        "reason": "all-cards", "battles": 300, "wars": 20, "longest_war": 2, "p1_count": 52, "p2_count": 0,
        "seconds": 120.0, "source": "table", "p1_player": player, "p2_player": None,
        "game_id": f"{table}.{n:016x}.1",
    }


def flood(kind: str, count: int, start: int) -> list[bytes]:
    now = datetime.now(UTC)
    if kind == "burst":
        return [json.dumps(record(start + n, "key:flooder", now)).encode() for n in range(count)]
    if kind == "spread":
        return [json.dumps(record(start + n, "key:flooder", now - timedelta(minutes=n))).encode() for n in range(count)]
    good = record(start, "key:flooder", now)
    poisons = [
        b"[" * 3000, b'{"battles": NaN}', json.dumps({**good, "p1_name": "\x1b]0;x\x07\x1b[2J"}).encode(),
        json.dumps({**good, "battles": 2**53, "p1_count": -5}).encode(), b" " * 7000,
    ]
    return [poisons[n % len(poisons)] for n in range(count)]


# ----------------------------------------------------------------------------- one run


async def pending(js, nodes: list[str]) -> int:
    from war_tui.cluster.game_stream import STREAM

    total = 0
    for node in nodes:
        info = await js.consumer_info(STREAM, node)
        total += (info.num_pending or 0) + (info.num_ack_pending or 0)
    return total


async def settle(js, nodes: list[str], wait: float = WAIT) -> float:
    """Seconds until every node handled every record."""
    begun = time.monotonic()
    while time.monotonic() - begun < wait:
        try:
            if await pending(js, nodes) == 0:
                return time.monotonic() - begun
        except Exception:  # noqa: BLE001 - a consumer being made: asked again
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the nodes did not handle the records within {wait:g} s")


def stored(folder: Path, player: str) -> int:
    for _ in range(50):  # a read beside the node's writer may meet its checkpoint: read again
        try:
            with contextlib.closing(sqlite3.connect(folder / "stats.sqlite3", timeout=10)) as conn:
                return int(conn.execute("SELECT count(*) FROM games WHERE p1_player = ?", (player,)).fetchone()[0])
        except sqlite3.DatabaseError:
            time.sleep(0.1)
    raise RuntimeError(f"{folder / 'stats.sqlite3'} could not be read")


def leader(folder: Path) -> str:
    from war_tui.stats import StatsStore

    leaders = StatsStore.open(folder / "stats.sqlite3", read_only=True).leaders(1)
    return leaders[0].player if leaders else "-"


@dataclass
class Outcome:
    """One node's part in one flood."""

    cpu: float
    seconds: float
    stored: int
    """Forged games in its statistics file."""
    real: int
    """Real games still in it."""
    leader: str


async def run(records: int, count: int, kinds: list[str], wait: float, forger_signs: bool) -> dict[str, list[Outcome]]:
    import asyncssh
    from support.nats import NatsServer

    from war_tui.cluster.connection import connect
    from war_tui.cluster.game_records import TAG_HEADER, GameKey
    from war_tui.cluster.game_stream import SUBJECT
    from war_tui.ssh.keys import host_secret

    with tempfile.TemporaryDirectory(prefix="war-forged-") as tmp:
        top = Path(tmp)
        nats = NatsServer(top / "nats").start()
        url = nats.url.replace("nats://", f"nats://{nats.token}@")
        host_key = top / "host_key"
        made = asyncssh.generate_private_key("ssh-ed25519")
        host_key.write_bytes(made.export_private_key())
        key = GameKey(host_secret(made))

        def signed(line: bytes) -> dict[str, str]:
            return {TAG_HEADER: key.sign(line)}

        processes: list[subprocess.Popen[str]] = []
        folders: list[Path] = []
        names: list[str] = []
        try:
            for n in range(count):
                folder = top / f"node{n}"
                folder.mkdir()
                process = subprocess.Popen(
                    [sys.executable, __file__, "--serve", url, str(folder), str(host_key)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                )
                assert process.stdout is not None
                names.append(json.loads(process.stdout.readline())["node"])
                processes.append(process)
                folders.append(folder)
            client = await connect([url], lambda line: None)
            js = client.jetstream()
            now = datetime.now(UTC)
            for n in range(REAL):
                line = json.dumps(record(n + 1, f"key:real{n}", now, "elm")).encode()
                await js.publish(SUBJECT, line, headers=signed(line))
            await settle(js, names)
            found: dict[str, list[Outcome]] = {}
            for k, kind in enumerate(kinds):
                lines = flood(kind, records, 1_000 * (k + 1) * records)
                before = [cpu_seconds(p.pid) for p in processes]
                begun = time.monotonic()
                for line in lines:
                    await client.publish(SUBJECT, line, headers=signed(line) if forger_signs else None)
                await client.flush()
                await settle(js, names, wait)
                took = time.monotonic() - begun  # from the first record published
                found[kind] = [
                    Outcome(cpu_seconds(p.pid) - b, took, stored(f, "key:flooder"),
                            sum(stored(f, f"key:real{n}") for n in range(REAL)), leader(f))
                    for p, b, f in zip(processes, before, folders)
                ]
            await client.close()
            return found
        finally:
            for process in processes:
                assert process.stdin is not None
                process.stdin.close()
            for process in processes:
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
            nats.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, choices=range(1, 21), metavar="1-20")
    parser.add_argument("--records", type=int, default=20_000, choices=range(1, 200_001), metavar="1-200000")
    parser.add_argument("--nodes", type=int, default=2, choices=range(1, 5), metavar="1-4")
    parser.add_argument("--kinds", default=",".join(KINDS), help="which floods, in order (burst, spread, garbage)")
    parser.add_argument("--wait", type=float, default=WAIT, help="seconds a flood has to be handled (10-3600)")
    parser.add_argument("--signed", action="store_true", help="the forger holds the nodes' host key")
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        url, folder, host_key = args.serve
        asyncio.run(serve(url, Path(folder), Path(host_key)))
        return 0
    kinds = args.kinds.split(",")
    if not kinds or any(kind not in KINDS for kind in kinds) or not 10 <= args.wait <= 3600:
        parser.error(f"--kinds takes some of {', '.join(KINDS)}; --wait 10 to 3600 seconds")
    runs = [asyncio.run(run(args.records, args.nodes, kinds, args.wait, args.signed)) for _ in range(args.runs)]
    print(f"{args.records:,} forged records ({'signed with' if args.signed else 'without'} the nodes' key),"
          f" {args.nodes} nodes, {args.runs} runs (load {os.getloadavg()[0]:.2f})")
    for kind in kinds:
        for node in range(args.nodes):
            cpu = [r[kind][node].cpu for r in runs]
            took = [r[kind][node].seconds for r in runs]
            last = runs[-1][kind][node]
            print(f"  {kind:<8} node {node}: CPU {statistics.median(cpu):.2f} s [{', '.join(f'{c:.2f}' for c in cpu)}],"
                  f" handled in {statistics.median(took):.1f} s, forged games stored {last.stored:,},"
                  f" real games {last.real}/{REAL}, leader {last.leader}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
