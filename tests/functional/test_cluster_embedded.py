"""The embedded nats-server dies with the process that started it, whichever way it was started, and is
started again when it dies alone."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from nats.errors import Error as NatsError

from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import EmbeddedNats
from war_tui.cluster.table_store import NatsTableStore
from war_tui.tables.store import StaleWrite

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


async def test_a_killed_embedded_server_is_started_again_and_loses_nothing_acknowledged(tmp_path):
    lines: list[str] = []
    server = EmbeddedNats(tmp_path / "cluster", lines.append)
    await server.start()
    client = None
    try:
        client = await connect([server.url], lambda line: None, token=server.token)
        store = await NatsTableStore.open(client)
        revision = await store.save("oak", b"battle 1", None)
        first = server.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)  # nats-server alone: the war-tui server lives on
        deadline = time.monotonic() + TIMEOUT
        while True:  # the connection finds it again where it was
            try:
                revision = await store.save("oak", b"battle 2", revision)
                break
            except StaleWrite:  # a save that timed out while it was down was written once it was back
                break
            except (NatsError, OSError, TimeoutError):
                assert time.monotonic() < deadline, lines
                await asyncio.sleep(0.1)
        assert server.pid != first
        assert [(t.name, t.data) for t in await store.load_all()] == [("oak", b"battle 2")]
        assert any("exited with status -9; starting it again on port" in line for line in lines), lines
    finally:
        if client is not None:
            await client.close()
        await server.stop()
    assert server.pid is not None and not alive(server.pid)
