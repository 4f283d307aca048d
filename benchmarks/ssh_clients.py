"""What the SSH load benchmarks share: ``war-tui serve-ssh`` as a process of its own, and a loopback client.

The server listens on an ephemeral loopback port with ``--public`` and keeps its games' statistics in
a scratch folder; its CPU and its games (its child processes) are read from ``/proc``.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import asyncssh

CLK_TCK = os.sysconf("SC_CLK_TCK")


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_of(pid: int) -> float:
    """Seconds of CPU (user + system) a process has used; 0 once it is gone."""
    fields = stat_fields(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / CLK_TCK


class ServeSsh:
    """``war-tui serve-ssh --port 0 --public`` with a host key and a log in ``workdir``, plus ``flags``."""

    def __init__(self, workdir: Path, flags: list[str]) -> None:
        command = [
            sys.executable, "-m", "war_tui", "serve-ssh", "--port", "0", "--public",
            "--host-key", str(workdir / "host_key"), *flags,
        ]
        self.log = open(workdir / "server.log", "w+")  # noqa: SIM115 - closed in stop()
        # The games' statistics go to a scratch data folder, not the user's.
        env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
        # A session of its own, as a daemon runs: the kernel shares the CPU between sessions (autogroups)
        # before nice values, so the clients in this process must not share the server's.
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stderr=self.log, env=env, start_new_session=True
        )
        self.port = 0

    async def wait_listening(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.log.seek(0)
            match = re.search(r"listening on \S+:(\d+):", self.log.read())
            if match:
                self.port = int(match.group(1))
                return
            if self.process.poll() is not None:
                break
            await asyncio.sleep(0.05)
        self.log.seek(0)
        raise SystemExit(f"server did not start:\n{self.log.read()}")

    def log_text(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def cpu_seconds(self) -> float:
        return cpu_of(self.process.pid)

    def games_cpu_seconds(self) -> dict[int, float]:
        """CPU seconds of each game still running (a game gone meanwhile is left out)."""
        cpu = {}
        for pid in self.games():
            fields = stat_fields(pid)
            if fields is not None:
                cpu[pid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
        return cpu

    def games(self) -> list[int]:
        """The game processes: the server's children, and those of its preloaded game parent (if any)."""
        pids = []
        for pid in children(self.process.pid):
            if pid == self.game_parent():
                pids += children(pid)
            elif not is_nats_server(pid):  # the server's embedded NATS is no game
                pids.append(pid)
        return pids

    def game_parent(self) -> int | None:
        """The preloaded game parent's pid (``python -m war_tui.preload``), None without one."""
        for pid in children(self.process.pid):
            try:
                if b"war_tui.preload" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
            except OSError:
                continue
        return None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def is_nats_server(pid: int) -> bool:
    """The embedded nats-server the server starts (docs/cluster.md), which the games' counts leave out."""
    try:
        return b"nats-server" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def children(parent: int) -> list[int]:
    """The live (not zombie) child processes of ``parent``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat_fields(int(entry.name))
            if fields is not None and int(fields[1]) == parent and fields[0] != "Z":
                pids.append(int(entry.name))
    return pids


async def connect(
    port: int, username: str = "bench", source: str | None = None, **options
) -> asyncssh.SSHClientConnection:
    """A client of the server on loopback, from the address ``source`` if given; no keys, no agent.

    Keyboard-interactive lets it in with no question asked; asyncssh tries it only with a password set.
    """
    extra = {"local_addr": (source, 0)} if source else {}
    settings = {"client_keys": [], "password": "", **options}
    return await asyncssh.connect(
        "127.0.0.1", port, username=username, known_hosts=None, agent_path=None, **extra, **settings,
    )
