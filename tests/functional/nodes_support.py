"""What the tests of tables kept in NATS share: SSH players at the stand-in table game, and a node's config."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
from ssh_support import TIMEOUT, ClientKey, InProcessServer, Seat, ServerProcess, connect, make_key, start_server, until
from ssh_support.players import MANY, Listener

from war_tui.cluster.config import ClusterConfig
from war_tui.core.rules import Rules
from war_tui.stats import StatsStore

FAKE_TABLE = (sys.executable, str(Path(__file__).parent / "ssh_support" / "fake_table.py"))


def cluster(nats_server, tmp_path: Path) -> ClusterConfig:
    host = nats_server.url.split("://", 1)[1]
    return ClusterConfig(urls=(f"nats://{nats_server.token}@{host}",), directory=tmp_path / "node", lease_seconds=2)


KEYS: dict[str, ClientKey] = {}


def keys(tmp_path: Path) -> list[ClientKey]:
    """ann's, bob's and eve's keys: whom a seat is kept for, whatever host key a server has."""
    KEYS.clear()
    KEYS.update({user: make_key(tmp_path, f"{user}_key") for user in ("ann", "bob", "eve")})
    return list(KEYS.values())


async def sit(port: int, user: str, command: str, **options) -> Seat:
    conn = await connect(port, KEYS[user], username=user, **options)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(100, 30), encoding=None)
    return Seat(conn, process)


async def play(ann: Seat, bob: Seat, battles: int, first: int = 1) -> str:
    """Both flip until ``battles`` more are played; the counts of the last, as every screen read them."""
    for seat in (ann, bob):
        await seat.expect(r"SNAPSHOT ")  # its game reads keys from here on
    counts = ""
    for battle in range(first, first + battles):
        ann.type(b"f")
        bob.type(b"f")
        seen = [await seat.expect(rf"BATTLE {battle} (\d+-\d+)") for seat in (ann, bob)]
        assert seen[0].group(1) == seen[1].group(1)
        counts = seen[0].group(1)
    return counts


async def close(*seats: Seat) -> None:
    for seat in seats:
        seat.conn.close()
    for seat in seats:
        with contextlib.suppress(Exception):  # the server may have gone first
            await asyncio.wait_for(seat.conn.wait_closed(), TIMEOUT)


async def line_player(port: int, user: str) -> Listener:
    conn = await connect(port, None, username=user)
    return Listener(conn, await conn.create_process("line table oak", encoding=None))


async def flip_both(ann: Listener, bob: Listener, battle: int, heard: int | None = None) -> None:
    """Both flip; ann's score says the table reached ``battle`` (her ``heard``-th battle on this connection)."""
    ann.say(b"\n")
    bob.say(b"\n")
    await ann.until(rf"(?s)(?:beats.*?){{{battle if heard is None else heard}}}")
    ann.say(b"score\n")
    await ann.until(rf"Battle {battle}, ")


LEASE = 2
"""Seconds a test node's lease lasts: short, so takeovers come quickly."""


def node(nats_server, tmp_path: Path, name: str) -> ClusterConfig:
    host = nats_server.url.split("://", 1)[1]
    return ClusterConfig(urls=(f"nats://{nats_server.token}@{host}",), directory=tmp_path / name, lease_seconds=LEASE)


async def kill_node(srv) -> None:
    """The node stops renewing its lease and drops its NATS connection, releasing nothing: as a kill -9 looks
    to the other nodes (its SSH listener stays, as a process the network cut off would)."""
    cluster = srv.server.cluster
    assert cluster is not None and cluster.lease is not None and cluster.client is not None
    await cluster.lease.stop(release=False)
    await cluster.client.close()


async def stop(*servers) -> None:
    for srv in servers:
        if srv is None:
            continue
        with contextlib.suppress(Exception):  # a killed node's NATS is gone: its stop says so, nothing more
            await srv.server.stop()


Start = Callable[[Path, list[ClientKey], Any, str], Awaitable[InProcessServer]]
"""Starts node ``name`` (tmp_path, allowed keys, nats_server, name)."""


def stats_node(battles: int) -> Start:
    """Starts in-process nodes at the stand-in table game whose games last ``battles``, each keeping its
    statistics in ``<name>.sqlite3`` in tmp_path (``games_in``), all with one host key, as a cluster's nodes."""
    host_key = asyncssh.generate_private_key("ssh-ed25519")

    async def start(tmp_path: Path, allowed: list[ClientKey], nats_server, name: str) -> InProcessServer:
        database = tmp_path / f"{name}.sqlite3"
        return await start_server(
            tmp_path, allowed, argv=FAKE_TABLE, cluster=node(nats_server, tmp_path, name), host_key=host_key,
            table_rules=Rules(max_battles=battles), stats=lambda: StatsStore.open(database), **MANY,
        )

    return start


def games_in(tmp_path: Path, name: str) -> list[tuple[str, str, str, int]]:
    """The table games in node ``name``'s statistics file: game id, names, battles."""
    database = tmp_path / f"{name}.sqlite3"
    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT game_id, p1_name, p2_name, battles FROM games ORDER BY game_id").fetchall()
    except sqlite3.OperationalError:  # not made yet, or being set up
        return []


@dataclass
class TwoNodes:
    """Nodes A and B on one nats-server, and the players who sat at them (closed with the nodes)."""

    a: InProcessServer
    b: InProcessServer
    allowed: list[ClientKey]
    """The players' keys the nodes let in (ann's, bob's, eve's)."""
    seats: list[Seat] = field(default_factory=list)

    async def sit(self, srv: InProcessServer, user: str, command: str, **options) -> Seat:
        seat = await sit(srv.port, user, command, **options)
        self.seats.append(seat)
        return seat

    async def ann_and_bob(self, table: str = "oak") -> tuple[Seat, Seat]:
        """ann sits at ``table`` on A (which opens and serves it), then bob at it on B (relayed to A)."""
        ann = await self.sit(self.a, "ann", f"table {table}")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        return ann, await self.sit(self.b, "bob", f"table {table}")


@contextlib.asynccontextmanager
async def two_nodes(tmp_path: Path, nats_server, start: Start | None = None, **options) -> AsyncIterator[TwoNodes]:
    """Nodes A and B of one cluster (``start``, else in-process servers at the stand-in table game with
    ``options``), sharing one host key as a cluster's nodes do; every seat taken through it is closed, then both
    nodes are stopped, however the test ends."""
    allowed = keys(tmp_path)
    host_key = asyncssh.generate_private_key("ssh-ed25519")

    async def in_process(tmp_path: Path, allowed: list[ClientKey], nats_server, name: str) -> InProcessServer:
        return await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=node(nats_server, tmp_path, name),
                                  host_key=host_key, **{**MANY, **options})

    begin = start or in_process
    a = await begin(tmp_path, allowed, nats_server, "a")
    pair: TwoNodes | None = None
    try:
        pair = TwoNodes(a, await begin(tmp_path, allowed, nats_server, "b"), allowed)
        yield pair
    finally:
        if pair is None:
            await stop(a)
        else:
            await close(*pair.seats)
            await stop(pair.a, pair.b)


# ------------------------------------------------------------------ nodes as real serve-ssh processes


def node_process(tmp_path: Path, nats_server, name: str, lease: int = LEASE) -> ServerProcess:
    """``serve-ssh`` as node ``name``: a data directory of its own, the host key the nodes share."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / name))
    url = node(nats_server, tmp_path, name).urls[0]
    return ServerProcess(
        "--public", "--port", "0", "--nats", url, "--node-lease", str(lease), "--host-key", str(tmp_path / "host_key"),
        "--max-sessions-per-address", "64", env=env,
    )


def count(server: ServerProcess, text: str) -> int:
    """How many lines of ``server``'s log hold ``text``."""
    return sum(text in line for line in server.lines)


async def logged(server: ServerProcess, text: str, times: int = 1) -> None:
    """Wait until ``server`` logged ``times`` lines holding ``text`` (while it runs)."""

    def seen() -> bool:
        assert server.process.poll() is None, f"the server ended: {server.lines}"
        return count(server, text) >= times

    await until(seen, what=lambda: f"no {text!r} in the log: {server.lines}")


@dataclass
class NodeProcesses:
    """Nodes of one cluster as serve-ssh processes, and the people connected to them."""

    nodes: list[ServerProcess]
    ports: list[int]
    people: list[Listener] = field(default_factory=list)
    keys: dict[str, ClientKey] = field(default_factory=dict)
    """The SSH key of each user who has one (the others come with none)."""

    async def come(self, index: int, user: str, command: str = "line table oak") -> Listener:
        """``user`` connects to node ``index`` (with their key, if they have one) and runs ``command`` with no
        terminal."""
        conn = await connect(self.ports[index], self.keys.get(user), username=user)
        someone = Listener(conn, await conn.create_process(command, encoding=None))
        self.people.append(someone)
        return someone


@contextlib.contextmanager
def node_processes(tmp_path: Path, nats_server, *names: str, lease: int = LEASE) -> Iterator[NodeProcesses]:
    """Nodes ``names`` as serve-ssh processes on ``nats_server``, listening; at the end everyone hangs up and every
    node is woken (a test may have stopped it) and killed, however the test ends, after what each screen and log
    said is printed (a failure's report shows it)."""
    nodes: list[ServerProcess] = []
    processes: NodeProcesses | None = None
    try:
        for name in names:
            nodes.append(node_process(tmp_path, nats_server, name, lease))
        processes = NodeProcesses(nodes, [server.wait_listening() for server in nodes])
        yield processes
    finally:
        for someone in processes.people if processes is not None else ():
            print("----", someone.seen.decode(errors="replace"))
            someone.conn.close()
        for server in nodes:
            print("====", "\n".join(server.lines))
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.process.pid, signal.SIGCONT)
            server.stop(signal.SIGKILL)
