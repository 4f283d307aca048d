"""What forged checkpoints cost a start: ``war-tui serve-ssh`` on an embedded NATS whose tables bucket holds 20 valid
checkpoints claiming games of a million battles of a deal that never ends (issue 39).

    python benchmarks/restore_start.py [--starts 5] [--forged 20] [--battles 1000000]

Each start is a process (``--public``, an ephemeral loopback port, ``--no-preload``; no client comes) on a data
folder of its own, its stderr read line by line: seconds from exec to its "listening on" line and to its "tables:
... restored" line, and the CPU it had used by then (``/proc``). Three kinds, alternately, ``--starts`` times each:

- ``empty``: nothing in the bucket, the baseline start;
- ``forged``: the forged checkpoints, the server's tables at the default rules (10,000 battles at most): each is
  refused before its replay;
- ``forged, -- --max-battles 1000000``: the same, on a server whose tables play that long: each is replayed (its
  length is a real game's there), after the server listens, off its event loop; at most ``--max-tables`` (16).

Everything on 127.0.0.1; every loop is bounded by a count.
"""

from __future__ import annotations

import argparse
import asyncio
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
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.checkpoints import long_checkpoint

from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import EmbeddedNats
from war_tui.cluster.table_store import NatsTableStore

LISTENING = re.compile(r"listening on \S+:(\d+):")
RESTORED = re.compile(r"tables: (\d+) tables? restored")
WAIT = 120.0
"""Seconds a start may take at most before the run gives up on it."""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def forge(folder: Path, count: int, battles: int) -> None:
    nats = EmbeddedNats(folder / "data" / "war-tui" / "cluster", lambda line: None)
    await nats.start()
    try:
        client = await connect([nats.url], lambda line: None, token=nats.token)
        store = await NatsTableStore.open(client)
        for n in range(count):
            await store.save(f"forged{n:02}", long_checkpoint(f"forged{n:02}", battles), None)
        await client.close()
    finally:
        await nats.stop()


def start(folder: Path, extra: list[str], restores: bool) -> tuple[float, float, float | None, float | None]:
    """Seconds from exec to "listening on" and the CPU used by then; to "restored" and the CPU by then (None: no
    restore awaited)."""
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data"), "HOME": str(folder)}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--port", "0", "--no-preload",
         "--host-key", str(folder / "hk"), *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )
    listening = listening_cpu = restored = restored_cpu = None
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if time.perf_counter() - started > WAIT:
                break
            if listening is None and LISTENING.search(line):
                listening, listening_cpu = time.perf_counter() - started, cpu_seconds(process.pid)
                if not restores:
                    break
            if RESTORED.search(line):
                restored, restored_cpu = time.perf_counter() - started, cpu_seconds(process.pid)
                break
        if listening is None or listening_cpu is None:
            raise SystemExit(f"serve-ssh did not start (status {process.poll()})")
        return listening, listening_cpu, restored, restored_cpu
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--forged", type=int, default=20)
    parser.add_argument("--battles", type=int, default=1_000_000)
    args = parser.parse_args()
    kinds = {
        "empty": ([], False, False),
        "forged": ([], True, False),
        "forged, -- --max-battles 1000000": (["--", "--max-battles", "1000000"],
                                          True, True),
    }
    found: dict[str, list[tuple[float, float, float | None, float | None]]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="restore-start-") as root:
        for n in range(args.starts):
            for k, (kind, (extra, forged, restores)) in enumerate(kinds.items()):
                folder = Path(root) / f"{n}-{k}"
                folder.mkdir()
                if forged:
                    asyncio.run(forge(folder, args.forged, args.battles))
                found[kind].append(start(folder, extra, restores))
    print(f"{args.forged} forged checkpoints of {args.battles:,} battles; medians of {args.starts} starts each")
    for kind, runs in found.items():
        listening = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[1] for run in runs)
        line = f"  {kind:32} listening after {listening:5.2f} s ({cpu:5.2f} s CPU)"
        restored = [run for run in runs if run[2] is not None and run[3] is not None]
        if restored:
            line += (f"; restored after {statistics.median(run[2] for run in restored if run[2] is not None):5.2f} s"
                     f" ({statistics.median(run[3] for run in restored if run[3] is not None):5.2f} s CPU)")
        print(line)


if __name__ == "__main__":
    main()
