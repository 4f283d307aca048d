"""A table's owner paused (SIGSTOP) shorter than its lease while a player on another node comes to its table: the
player's node asks the owner to relay them, gets no answer in time and asks again; the owner, woken, seats the
player once, on the connection the player is waiting on.

Each unanswered ask is the same connection asked again (``remote_link.Unanswered``), and the owner answers a
connection it took already with the answer that missed its door (``RelayNode._again``): a woken owner never seats
a player's earlier asks beside the one they wait on, which would take the seat from it ("from another
connection") and close it."""

from __future__ import annotations

import os
import signal
import time

import pytest
from nodes_support import count, flip_both, logged, node_processes
from ssh_support import make_key, until

from war_tui.cluster.relay_wire import OPEN_TIMEOUT

pytestmark = [pytest.mark.app, pytest.mark.serial]

LONG_LEASE = 30
"""Seconds of the nodes' leases: the owner keeps its lease (and so its table) through its pause, however loaded
the machine."""
ANOTHER_CONNECTION = "bob plays on at seat 2 from another connection"


async def test_a_woken_owner_seats_a_player_it_made_wait_once(tmp_path, nats_server):
    with node_processes(tmp_path, nats_server, "a", "b", lease=LONG_LEASE) as two:
        two.keys.update({user: make_key(tmp_path, f"{user}_key") for user in ("ann", "bob")})
        a, b = two.nodes
        ann = await two.come(0, "ann")  # A opens oak and serves it
        await ann.until("You sit at table oak in seat 1")
        os.kill(a.process.pid, signal.SIGSTOP)
        bob = await two.come(1, "bob")  # relayed from B to A, which does not answer
        await logged(b, "table oak (through the cluster)")  # B asks A for bob's connection from here on
        asking = time.monotonic()
        await until(lambda: time.monotonic() - asking > 2 * OPEN_TIMEOUT + 1, 60.0)  # B asked A again, twice
        os.kill(a.process.pid, signal.SIGCONT)
        await bob.until("You sit at table oak in seat 2")
        await flip_both(ann, bob, 1)  # bob's connection is the one that plays
        assert count(a, "bob sits at seat 2") == 1, a.lines
        assert count(a, ANOTHER_CONNECTION) == 0, a.lines
        assert "from another connection" not in bob.seen.decode(errors="replace")
        assert count(a, "lost its lease") == 0, "the owner kept its lease through the pause"
