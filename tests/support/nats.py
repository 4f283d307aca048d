"""A real nats-server for tests: the pinned wheel's, on 127.0.0.1, its store in the test's tmp folder.

Configured as the embedded server is (``war_tui.cluster.embedded.config_text``: JetStream synced before each
acknowledgement, a token), started on a port it picks, killed or stopped by its pid, and restarted on the
same port and store, as an operator's restart would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import PROGRAM, config_text, server_program

START_TIMEOUT = 30.0
"""Seconds it has to listen: tens of milliseconds on a quiet machine, far more on a loaded one."""


class NatsServer:
    """One nats-server; ``url`` and ``token`` reach it once ``start`` returned."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.store = folder / "store"
        self.ports = folder / "run"
        self.token = "test-token"
        self.port = -1
        self.url = ""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> NatsServer:
        self.store.mkdir(parents=True, exist_ok=True)
        self.ports.mkdir(parents=True, exist_ok=True)
        config = self.folder / "nats.conf"
        config.write_text(config_text(self.store, self.ports, self.token, self.port), encoding="utf-8")
        self.process = subprocess.Popen(
            [str(server_program()), "-c", str(config)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        ports = self.ports / f"{PROGRAM}_{self.process.pid}.ports"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"nats-server exited with {self.process.returncode}"
            try:
                self.url = json.loads(ports.read_text(encoding="utf-8"))["nats"][0]
                break
            except (OSError, ValueError, KeyError, IndexError):
                time.sleep(0.005)
        else:
            raise AssertionError(f"nats-server did not listen within {START_TIMEOUT:g} s")
        self.port = int(self.url.rsplit(":", 1)[1])  # a restart listens where clients knew it
        return self

    def kill(self) -> None:
        """SIGKILL, by pid: no clean-up of its own runs."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, sig)
            try:
                self.process.wait(START_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for stale in self.ports.glob("*.ports"):
            stale.unlink()

    def restart(self) -> NatsServer:
        self.stop()
        return self.start()

    async def client(self):
        """A connection as the game server makes one."""
        return await connect([self.url], lambda line: None, token=self.token)
