"""How soon ``/readyz`` follows NATS: ``war-tui serve-ssh --metrics`` on a real nats-server that is stopped and
woken (SIGSTOP, SIGCONT), then killed and restarted.

    python benchmarks/readyz_nats.py [--rounds 5] [--node-lease 3]

The nats-server is the pinned wheel's (as the tests' ``NatsServer``), on 127.0.0.1; the server reaches it with
``--nats`` and a token file, with the default lease. Each round: SIGSTOP, then the seconds until ``/readyz`` answers
503; SIGCONT, the seconds until 200; a kill -9, the seconds until 503; a restart on the same port and store, the
seconds until 200. ``/readyz`` is asked every 20 ms. Goals: 503 within 5 s of losing NATS, 200 within 5 s of its
return. Every loop is bounded by a count or a time.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

WAIT = 60.0
ASK_EVERY = 0.02


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--node-lease", type=int, default=3)
    return parser.parse_args()


async def readyz(port: int) -> int:
    """``/readyz``'s status (0: no answer within a second)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 1.0)
        try:
            writer.write(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(), 1.0)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return 0
    return int(answer.split(b" ", 2)[1])


async def seconds_until(port: int, status: int) -> float:
    began = time.monotonic()
    while await readyz(port) != status:
        assert time.monotonic() - began < WAIT, f"/readyz never answered {status}"
        await asyncio.sleep(ASK_EVERY)
    return time.monotonic() - began


async def run(args: argparse.Namespace) -> None:
    from support.nats import NatsServer

    with tempfile.TemporaryDirectory(prefix="war-readyz-") as scratch:
        top = Path(scratch)
        nats = NatsServer(top / "nats").start()
        token = top / "token"
        token.write_text(nats.token + "\n")
        token.chmod(0o600)
        log = open(top / "server.log", "w+")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--port", "0", "--metrics", "0",
             "--nats", nats.url, "--nats-token-file", str(token), "--node-lease", str(args.node_lease),
             "--host-key", str(top / "host_key")],
            stdin=subprocess.DEVNULL, stderr=log, env={**os.environ, "XDG_DATA_HOME": str(top / "data")},
            start_new_session=True,
        )
        rows: dict[str, list[float]] = {"stopped: 503": [], "woken: 200": [], "killed: 503": [], "restarted: 200": []}
        try:
            deadline = time.monotonic() + WAIT
            while True:
                log.seek(0)
                found = re.search(r"metrics at http://127\.0\.0\.1:(\d+)/", log.read())
                if found:
                    break
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                await asyncio.sleep(0.05)
            port = int(found[1])
            await seconds_until(port, 200)
            for _ in range(args.rounds):
                assert nats.process is not None
                nats.process.send_signal(signal.SIGSTOP)
                rows["stopped: 503"].append(await seconds_until(port, 503))
                nats.process.send_signal(signal.SIGCONT)
                rows["woken: 200"].append(await seconds_until(port, 200))
                await asyncio.sleep(2.0)
                nats.kill()
                rows["killed: 503"].append(await seconds_until(port, 503))
                nats.start()
                rows["restarted: 200"].append(await seconds_until(port, 200))
                await asyncio.sleep(2.0)
            print(f"--node-lease {args.node_lease}, {args.rounds} rounds, /readyz asked every {ASK_EVERY * 1000:.0f} ms")
            for what, seconds in rows.items():
                print(f"{what:>16}: median {statistics.median(seconds):.2f} s, most {max(seconds):.2f} s"
                      f" ({', '.join(f'{s:.2f}' for s in seconds)})")
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
            nats.kill()


if __name__ == "__main__":
    asyncio.run(run(parse_args()))
