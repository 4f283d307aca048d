"""What keeping tables in NATS adds to the server's CPU per battle: kept (the default) beside memory only.

    python benchmarks/cluster_cpu.py [--runs 5] [--battles 300]

Each run starts two servers one after the other, in an order that alternates from run to run: an SSH server
(``SshServer``, ``--public`` on an ephemeral loopback port) in a process of its own, its tables kept in NATS
(``ClusterConfig()``: an embedded nats-server, ``sync_interval: always``, as ``serve-ssh`` runs by default)
or in memory only (``cluster=None``, as the in-process tests of the other server parts run). Two SSH clients
in this process sit at one table and flip ``--battles`` battles, each flip after the last battle reached
both screens, at a fresh table every 20 battles. The game is the tests' stand-in table game (``tests/functional/ssh_support/fake_table.py``,
one line per update): the server's own work per battle is the same as with the real game, less the
bytes of the real game's screens, so the share NATS takes of it is, if anything, overstated here.

Measured from ``/proc/<pid>/task/*/schedstat``: the server process's CPU (every thread of it, its children
not included) over the battles only, and the embedded nats-server's over the same battles. Reported: the medians of the runs per
battle, and the ratio kept / memory (goal: a move adds at most 5%, a ratio ≤ 1.05).

Linux only (``/proc``). Every loop is bounded by a count; every wait by a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKE_TABLE = (sys.executable, str(ROOT / "tests" / "functional" / "ssh_support" / "fake_table.py"))
WAIT = 60.0
BATCH = 20


def cpu_seconds(pid: int | None) -> float:
    """CPU of ``pid``'s threads (its children not included), in nanoseconds' resolution (``/proc/<pid>/stat``
    counts in ticks of 10 ms, too coarse for a few hundred battles); 0 without one."""
    if pid is None:
        return 0.0
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e9


# ----------------------------------------------------------------------------- the server's process


async def serve(kept: bool, folder: Path) -> None:
    """The server: prints one JSON line (its port, its nats-server's pid), runs until stdin closes."""
    sys.path.insert(0, str(ROOT))
    import asyncssh

    from war_tui.cluster.config import ClusterConfig
    from war_tui.ssh.server import ServerConfig, SshServer

    config = ServerConfig(
        host_key=asyncssh.generate_private_key("ssh-ed25519"), session_argv=FAKE_TABLE, authorized_keys=None, port=0,
        max_sessions_per_address=64, max_tables=64, tables_per_address=64, seats_per_address=64, game_niceness=0,
        cluster=ClusterConfig(directory=folder / "cluster") if kept else None,
    )
    server = SshServer(config, log=lambda line: None)
    await server.start()
    cluster = server.cluster
    nats = cluster.embedded.pid if cluster is not None and cluster.embedded is not None else None
    print(json.dumps({"port": server.port, "nats": nats}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    keeper = server.tables.keeper
    print(json.dumps({"written": keeper.written if keeper is not None else 0}), flush=True)
    await server.stop()


# ----------------------------------------------------------------------------- the clients


class Player:
    def __init__(self, process) -> None:
        self.process = process
        self.seen = bytearray()

    async def until(self, pattern: bytes) -> None:
        regex = re.compile(pattern)

        async def read() -> None:
            while not regex.search(self.seen):
                chunk = await self.process.stdout.read(4096)
                if not chunk:
                    raise RuntimeError(f"the session ended before {pattern!r}")
                self.seen.extend(chunk)

        try:
            await asyncio.wait_for(read(), WAIT)
        except TimeoutError:
            raise RuntimeError(f"no {pattern!r} within {WAIT:g} s; the end of the screen: {bytes(self.seen[-300:])!r}") from None


async def sit(port: int, user: str, table: str):
    import asyncssh

    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=[], agent_path=None, password="",
    ), WAIT)
    process = await conn.create_process(f"table {table}", term_type="xterm-256color", term_size=(100, 30), encoding=None)
    return conn, Player(process)


async def one_run(kept: bool, battles: int, folder: Path) -> tuple[float, float, float]:
    """CPU seconds per battle of the server and of its nats-server; the store's writes per battle (the tables'
    openings and closings counted)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", "kept" if kept else "memory", "--folder", str(folder),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    conns = []
    try:
        started = json.loads(await asyncio.wait_for(child.stdout.readline(), WAIT))
        server = nats = 0.0
        for batch in range(battles // BATCH):  # a table a batch: a game of War may end before 300 battles
            players = []
            for user in ("ann", "bob"):
                conn, player = await sit(started["port"], user, f"t{batch}")
                conns.append(conn)
                players.append(player)
                await player.until(rb"SNAPSHOT ")
            await players[0].until(rb"seats=ann:player,bob:player ")
            server -= cpu_seconds(child.pid)
            nats -= cpu_seconds(started["nats"])
            for battle in range(1, BATCH + 1):
                for player in players:
                    player.process.stdin.write(b"f")
                for player in players:
                    await player.until(rb"BATTLE %d " % battle)
            server += cpu_seconds(child.pid)
            nats += cpu_seconds(started["nats"])
            for conn in conns:
                conn.close()
        played = battles // BATCH * BATCH
        for conn in conns:
            conn.close()
        child.stdin.close()
        written = json.loads(await asyncio.wait_for(child.stdout.readline(), WAIT))["written"]
        return server / played, nats / played, written / played
    finally:
        for conn in conns:
            conn.close()
        child.stdin.close()
        try:
            await asyncio.wait_for(child.wait(), WAIT)
        except TimeoutError:
            child.kill()
            await child.wait()


async def measure(runs: int, battles: int) -> None:
    server: dict[str, list[float]] = {"memory": [], "kept": []}
    nats: list[float] = []
    writes: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            order = (False, True) if run % 2 == 0 else (True, False)
            for kept in order:
                mine, its, written = await one_run(kept, battles, Path(tmp) / f"run{run}-{int(kept)}")
                server["kept" if kept else "memory"].append(mine)
                if kept:
                    nats.append(its)
                    writes.append(written)
    ms = {label: statistics.median(values) * 1000 for label, values in server.items()}
    print(f"server CPU per battle, {runs} runs of {battles} battles (medians; each run's in brackets):")
    for label, values in server.items():
        shown = ", ".join(f"{value * 1000:.2f}" for value in values)
        print(f"  {label:7} {ms[label]:.2f} ms  ({shown})")
    pairs = [k / m for k, m in zip(server["kept"], server["memory"], strict=True) if m]
    print(f"  kept / memory: {ms['kept'] / ms['memory']:.2f}x (run by run, median {statistics.median(pairs):.2f}x);"
          f" a move adds {ms['kept'] - ms['memory']:.2f} ms (goal ≤ 5%: ≤ 1.05x)")
    print(f"  the embedded nats-server beside it: {statistics.median(nats) * 1000:.2f} ms per battle")
    print(f"  the store's writes: {statistics.median(writes):.2f} per battle (the tables' joins and leaves counted)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--battles", type=int, default=300, help=f"rounded down to a multiple of {BATCH}")
    parser.add_argument("--serve", choices=("kept", "memory"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve == "kept", args.folder))
    else:
        asyncio.run(measure(max(1, args.runs), max(BATCH, args.battles - args.battles % BATCH)))


if __name__ == "__main__":
    main()
