"""What the tests of tables kept in NATS share: SSH players at the stand-in table game, and a node's config."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

from ssh_support import TIMEOUT, ClientKey, Seat, connect, make_key
from ssh_support.players import Listener

from war_tui.cluster.config import ClusterConfig

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


async def sit(port: int, user: str, command: str) -> Seat:
    conn = await connect(port, KEYS[user], username=user)
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
        with contextlib.suppress(Exception):  # a killed node's NATS is gone: its stop says so, nothing more
            await srv.server.stop()
