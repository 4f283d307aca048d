"""The embedded nats-server dies with the process that started it, whichever way it was started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TIMEOUT = 60.0

# Starts the embedded server (with a second thread running, or not), prints its pid, and waits to be killed.
SCRIPT = """
import asyncio, sys, threading, time
from pathlib import Path
from war_tui.cluster.embedded import EmbeddedNats
if sys.argv[2] == "threads":
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
async def main():
    server = EmbeddedNats(Path(sys.argv[1]), print)
    await server.start()
    print("PID", server.pid, flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
@pytest.mark.parametrize("threads", ["one thread", "threads"])
def test_the_embedded_server_dies_with_a_server_killed_with_sigkill(tmp_path, threads):
    # One thread: a preexec_fn asks for the signal; with threads, the launcher does.
    server = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "cluster"), threads.split()[0]],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
    )
    nats = None
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("PID "), line
        nats = int(line.split()[1])
        assert alive(nats)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while alive(nats) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(nats)
    finally:
        server.kill()
        server.wait()
        if nats is not None and alive(nats):  # the test failed: end what it started, by pid
            os.kill(nats, signal.SIGKILL)
