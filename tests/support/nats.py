"""A real nats-server for tests: the pinned wheel's, on 127.0.0.1, its store in the test's tmp folder.

Configured as the embedded server is (``war_tui.cluster.embedded.config_text``: JetStream synced before each
acknowledgement, a token), started on a port it picks, killed or stopped by its pid, and restarted on the
same port and store, as an operator's restart would. ``NatsCluster``: three of them routed to one another, for the
loss of one server of a cluster of three.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from support.ports import free_port
from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import PROGRAM, config_text, server_program

START_TIMEOUT = 30.0
"""Seconds it has to listen: tens of milliseconds on a quiet machine, far more on a loaded one."""


async def close_all(clients: list) -> None:
    """Close each connection still open (its server may be gone: a close that fails or hangs is given up on)."""
    for client in clients:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), START_TIMEOUT)
    clients.clear()


class NatsServer:
    """One nats-server; ``url`` and ``token`` reach it once ``start`` returned."""

    def __init__(self, folder: Path, tls: str = "") -> None:
        self.folder = folder
        self.tls = tls
        """A ``tls { ... }`` block for its configuration: it then asks its clients for TLS."""
        self.log: Path | None = None
        """Where its own log goes (None: nowhere)."""
        self.store = folder / "store"
        self.ports = folder / "run"
        self.token = "test-token"
        self.port = -1
        self.url = ""
        self.process: subprocess.Popen[bytes] | None = None
        self.clients: list = []
        """The connections ``client`` made, closed by ``close_clients``."""

    def start(self) -> NatsServer:
        self.store.mkdir(parents=True, exist_ok=True)
        self.ports.mkdir(parents=True, exist_ok=True)
        config = self.folder / "nats.conf"
        config.write_text(self.config(), encoding="utf-8")
        log = subprocess.DEVNULL if self.log is None else self.log.open("ab")
        try:
            self.process = subprocess.Popen(
                [str(server_program()), "-c", str(config)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
            )
        finally:
            if not isinstance(log, int):
                log.close()
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

    def config(self) -> str:
        return config_text(self.store, self.ports, self.token, self.port) + self.tls

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
        """A connection as the game server makes one (the ``nats_server`` fixture closes it at the end)."""
        client = await connect([self.url], lambda line: None, token=self.token)
        self.clients.append(client)
        return client

    async def close_clients(self) -> None:
        await close_all(self.clients)


class ClusterMember(NatsServer):
    """One server of ``NatsCluster``: a name of its own, a route port, routes to every member."""

    def __init__(self, folder: Path, name: str, route_port: int, routes: list[int]) -> None:
        super().__init__(folder)
        self.name = name
        self.route_port = route_port
        self.routes = routes
        self.port = free_port()  # fixed from the start: every member's routes and a client's URLs name it

    def config(self) -> str:
        routes = ", ".join(json.dumps(f"nats-route://127.0.0.1:{port}") for port in self.routes)
        return (
            f"server_name: {json.dumps(self.name)}\n"
            + config_text(self.store, self.ports, self.token, self.port)
            + "cluster {\n"
            "  name: war-tui-test\n"
            f'  listen: "127.0.0.1:{self.route_port}"\n'
            f"  routes: [{routes}]\n"
            "}\n"
        )


class NatsCluster:
    """Three nats-servers routed to one another, JetStream on each with its own store: ``members[i].url``,
    ``urls`` for a client of all three, and one member killed by its pid as a crash would end it."""

    def __init__(self, folder: Path, size: int = 3) -> None:
        self.folder = folder
        self.size = size
        self.members = self._members()
        self.clients: list = []

    def _members(self) -> list[ClusterMember]:
        route_ports = [free_port() for _ in range(self.size)]
        return [
            ClusterMember(self.folder / f"n{i}", f"n{i}", route_ports[i], route_ports) for i in range(self.size)
        ]

    @property
    def token(self) -> str:
        return self.members[0].token

    def urls(self) -> tuple[str, ...]:
        """A URL per member, the token in each, as ``--nats`` takes them."""
        return tuple(f"nats://{self.token}@127.0.0.1:{member.port}" for member in self.members)

    def start(self) -> NatsCluster:
        """Each member started; a member that exits at once (a port taken between naming and binding it, by
        another test's server) has every member started again on other ports."""
        for attempt in range(3):
            try:
                for member in self.members:
                    member.start()
                return self
            except AssertionError:
                self.kill()
                if attempt == 2:
                    raise
                self.members = self._members()
        return self

    def member(self, name: str) -> ClusterMember:
        return next(member for member in self.members if member.name == name)

    async def client(self):
        """A connection to all three (the ``nats_cluster`` fixture closes it at the end)."""
        client = await connect([member.url for member in self.members], lambda line: None, token=self.token)
        self.clients.append(client)
        return client

    async def close_clients(self) -> None:
        await close_all([*self.clients, *(client for member in self.members for client in member.clients)])
        self.clients.clear()
        for member in self.members:
            member.clients.clear()

    async def ready(self) -> None:
        """Until JetStream has a meta leader (the cluster elects one after its routes are up): a bucket can be made."""
        client = await self.client()
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                try:
                    await client.jetstream().account_info()
                    return
                except Exception:  # no leader yet: JetStream answers with one error or another
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.1)
        finally:
            await client.close()

    def kill(self) -> None:
        for member in self.members:
            member.kill()
