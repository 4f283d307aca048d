"""HAProxy in front of war-tui nodes, as docs/cluster.md configures it: for tests/functional/test_haproxy.py and
benchmarks/haproxy_drain.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from nodes_support import LEASE, node
from ssh_support import TIMEOUT
from support.ports import free_port
from support.waiting import START

HAPROXY = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
"""Debian's haproxy (in /usr/sbin, which a user's PATH may leave out); None where it is not installed."""
DOCS = Path(__file__).parents[2] / "docs" / "cluster.md"


def haproxy_config(ssh_port: int, web_port: int, nodes: list[Node]) -> str:
    """docs/cluster.md's HAProxy configuration, bound to the test's ports, its servers the test's nodes."""
    text = DOCS.read_text()
    block = re.search(r"```\n(# /etc/haproxy/haproxy\.cfg.*?)```", text, re.S)
    assert block is not None, "docs/cluster.md has no HAProxy configuration"
    config = block.group(1).replace("bind :22\n", f"bind 127.0.0.1:{ssh_port}\n")
    config = config.replace("bind :80\n", f"bind 127.0.0.1:{web_port}\n")

    def server(found: re.Match[str]) -> str:
        index = int(found.group("n")) - 1
        if index >= len(nodes):
            return ""
        door = nodes[index].ports["ssh" if found.group("port") == "2222" else "web"]
        return f"{found.group('lead')}server node{index + 1} 127.0.0.1:{door} check port {nodes[index].ports['metrics']}\n"

    config, count = re.subn(
        r"(?P<lead> +)server node(?P<n>\d) 10\.0\.0\.\d+:(?P<port>2222|8080) check port 9100\n", server, config
    )
    assert count == 6, config  # three nodes a door in the docs
    return config


class Node:
    """``war-tui serve --ssh P --web P --metrics P`` on the test's NATS, its stderr collected; ``start`` again
    after it ended brings it back on the same ports, as a restarted service."""

    def __init__(self, tmp_path: Path, nats_server, name: str, web_host: str) -> None:
        self.argv = [
            sys.executable, "-m", "war_tui", "serve", "--public", "--nats", node(nats_server, tmp_path, name).urls[0],
            "--node-lease", str(LEASE), "--host-key", str(tmp_path / "host_key"), "--web-host", web_host,
            "--max-sessions-per-address", "64", "--game-nice", "0",
        ]
        self.env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / name))
        self.ports = {"ssh": free_port(), "web": free_port(), "metrics": free_port()}
        self.lines: list[str] = []
        self.start()

    def start(self) -> None:
        ports = ["--ssh", str(self.ports["ssh"]), "--web", str(self.ports["web"]), "--metrics", str(self.ports["metrics"])]
        self.process = subprocess.Popen(
            [*self.argv, *ports], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, env=self.env,
        )
        self._ready = threading.Event()
        threading.Thread(target=self._collect, args=(self.process,), daemon=True).start()

    def _collect(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        listening = 0
        for line in process.stderr:
            self.lines.append(line.rstrip("\n"))
            if "listening on " in line:
                listening += 1
                if listening == 3:  # both doors and the metrics listener
                    self._ready.set()
        self._ready.set()

    def wait_listening(self) -> None:
        assert self._ready.wait(START) and self.process.poll() is None, self.lines

    def connects(self, user: str) -> int:
        return sum(1 for line in self.lines if re.search(rf" connect \S+ user={user}$", " " + line))

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class HAProxy:
    """``haproxy -db`` (in the foreground) on a configuration file; its lines kept with when they came."""

    def __init__(self, config: Path) -> None:
        self.process = subprocess.Popen(
            [HAPROXY or "haproxy", "-db", "-f", str(config)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[tuple[float, str]] = []
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def said(self, text: str, since: float = 0.0) -> float | None:
        """When HAProxy first said ``text`` at or after ``since`` (time.monotonic); None: not yet."""
        return next((when for when, line in list(self.lines) if when >= since and text in line), None)

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
