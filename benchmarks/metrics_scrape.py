"""What a scrape of ``/metrics`` costs the server: ``war-tui serve-ssh --metrics`` with 16 tables and 100 sessions.

    python benchmarks/metrics_scrape.py [--tables 16] [--spectators 4] [--lobby 4] [--scrapes 100] [--rounds 7]

The server runs as its own process (``--public`` on an ephemeral loopback port, the stand-in table game for every
session, statistics in a scratch folder); the clients (asyncssh, in this process) fill ``--tables`` tables with 2
players and ``--spectators`` spectators each, and ``--lobby`` people in the lobby: 100 sessions by default. Once
``/metrics`` counts them all, each round measures the server's main thread's CPU (``/proc/PID/schedstat``, in
nanoseconds) over a second with no scrape, then over ``--scrapes`` scrapes one after another; a scrape's cost is
the difference, over the count. Goal: under 5 ms of server CPU a scrape. Also the scrape's size, and how long one
takes to come back (p50). Every loop is bounded by a count or a time.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from ssh_clients import ServeSsh, connect

STAND_IN = Path(__file__).resolve().parent.parent / "tests" / "functional" / "ssh_support" / "fake_table.py"
SESSIONS = re.compile(r'^war_tui_sessions\{door="ssh",kind="\w+"\} (\d+)', re.MULTILINE)
WAIT = 120.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--spectators", type=int, default=4)
    parser.add_argument("--lobby", type=int, default=4)
    parser.add_argument("--scrapes", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    return parser.parse_args()


def main_thread_ns(pid: int) -> int:
    """Nanoseconds the process's main thread (the event loop) has run on a CPU."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


async def get(port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        answer = await reader.read()
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n", 1)[0], head
    return body


async def seat(port: int, user: str, command: str) -> asyncssh.SSHClientConnection:
    conn = await connect(port, user)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(100, 30), encoding=None)
    await asyncio.wait_for(process.stdout.readuntil(b"TABLE "), WAIT)  # its game is up
    return conn


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="war-metrics-") as scratch:
        workdir = Path(scratch)
        sessions = args.tables * (2 + args.spectators) + args.lobby
        server = ServeSsh(workdir, [
            "--metrics", "0", "--session-command", f"{sys.executable} {STAND_IN}", "--game-nice", "0",
            "--max-sessions", str(sessions + 10), "--max-sessions-per-address", str(sessions + 10),
            "--max-attempts-per-minute", "100000", "--max-tables", str(args.tables),
            "--max-spectators", str(args.spectators), "--max-lobby", str(args.lobby + 1),
            "--max-unauthenticated", str(sessions + 10),
            "--max-tables-per-address", str(args.tables), "--max-seats-per-address", str(2 * args.tables),
        ])
        conns: list[asyncssh.SSHClientConnection] = []
        try:
            await server.wait_listening()
            deadline = time.monotonic() + WAIT
            while not (found := re.search(r"metrics at http://127\.0\.0\.1:(\d+)/", server.log_text())):
                assert time.monotonic() < deadline, server.log_text()
                await asyncio.sleep(0.05)
            metrics = int(found[1])
            for table in range(args.tables):
                for user in ("ann", "bob"):
                    conns.append(await seat(server.port, f"{user}{table}", f"table t{table}"))
                conns += await asyncio.gather(*(
                    seat(server.port, f"eve{table}x{n}", f"watch t{table}") for n in range(args.spectators)
                ))
            conns += await asyncio.gather(*(seat(server.port, f"cy{n}", "tables") for n in range(args.lobby)))
            while sum(int(n) for n in SESSIONS.findall((await get(metrics, "/metrics")).decode())) < sessions:
                assert time.monotonic() < deadline, "the sessions did not all start"
                await asyncio.sleep(0.2)
            body = await get(metrics, "/metrics")
            pid = server.process.pid
            costs, latencies = [], []
            for _ in range(args.rounds):
                idle_start, idle_at = main_thread_ns(pid), time.monotonic()
                await asyncio.sleep(1.0)
                idle_rate = (main_thread_ns(pid) - idle_start) / (time.monotonic() - idle_at)
                start, at = main_thread_ns(pid), time.monotonic()
                for _ in range(args.scrapes):
                    asked = time.perf_counter()
                    await get(metrics, "/metrics")
                    latencies.append(time.perf_counter() - asked)
                spent = main_thread_ns(pid) - start - idle_rate * (time.monotonic() - at)
                costs.append(spent / args.scrapes / 1e6)
            print(f"{sessions} sessions at {args.tables} tables (+ the lobby), {len(body):,} bytes a scrape")
            print("server CPU per scrape (ms), each round: " + ", ".join(f"{cost:.2f}" for cost in costs))
            print(f"median {statistics.median(costs):.2f} ms (goal < 5 ms); "
                  f"a scrape back in {1000 * statistics.median(latencies):.2f} ms (p50)")
        finally:
            for conn in conns:
                conn.close()
            server.stop()


if __name__ == "__main__":
    asyncio.run(run(parse_args()))
