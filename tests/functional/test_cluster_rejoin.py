"""A node's lease is its membership of the cluster, not a one-time grant: real serve-ssh processes on one real
nats-server, one of them stopped with SIGSTOP past its lease and woken with SIGCONT.

Its states, one by one: **lost** (it learns it on waking: one log line, its own players and those relayed to it
follow the table to whichever node took it, seats kept), **rejoined** (it holds a fresh lease without a
restart) and **taking over again** (a kill -9 of the node that took its table gives the table back to it).
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from nodes_support import LEASE, count, logged, node_processes
from ssh_support.players import Listener

pytestmark = [pytest.mark.app, pytest.mark.serial]  # nodes on 2-second leases: a starved node loses its own


async def flip(ann: Listener, bob: Listener) -> None:
    """Both flip once the last battle is on both screens (a key stands for what its player saw): one battle more."""
    seen = [person.seen.decode(errors="replace").count(" beats ") for person in (ann, bob)]
    ann.say(b"\n")
    bob.say(b"\n")
    for person, before in zip((ann, bob), seen):
        await person.until(rf"(?s)(?:beats.*?){{{before + 1}}}")


async def battle_reached(person: Listener, battle: int) -> None:
    person.say(b"score\n")
    await person.until(rf"Battle {battle}, ")


async def test_a_node_paused_past_its_lease_loses_it_rejoins_and_takes_tables_over_again(tmp_path, nats_server):
    with node_processes(tmp_path, nats_server, "a", "b") as nodes:
        a, b = nodes.nodes
        ann = await nodes.come(0, "ann")  # A opens oak and owns it
        await ann.until("You sit at table oak in seat 1")
        bob = await nodes.come(1, "bob")  # relayed from B to A
        await bob.until("seat 2")
        for _ in (1, 2):
            await flip(ann, bob)

        os.kill(a.process.pid, signal.SIGSTOP)  # past its lease: B takes oak over, bob follows it there
        await logged(b, "oak taken over")
        await bob.until(r"(?s)the table moved.*Back in step: game 1, battle 2\. ")
        os.kill(a.process.pid, signal.SIGCONT)

        assert count(b, "relay: table oak moved") == 1, "bob's connection re-routed once"
        # lost: said once, its player told to reconnect
        await logged(a, "lost its lease")
        await ann.until(r"(?s)the table moved.*Back in step: game 1, battle 2\. ")  # she follows it, seat kept
        # rejoined, without a restart
        await logged(a, "holds a fresh lease")
        assert count(a, "lost its lease") == 1 and count(a, "holds a fresh lease") == 1
        ann.conn.close()
        ann = await nodes.come(1, "ann")
        await ann.until("seat 1")
        await battle_reached(ann, 2)
        await flip(ann, bob)

        # taking over again: B dies, and A (the only other node) takes oak over at the battle reached
        killed = time.monotonic()
        b.stop(signal.SIGKILL)
        await logged(a, "oak taken over")
        print(f"the rejoined node took oak over {time.monotonic() - killed:.1f} s after the kill -9 (lease {LEASE} s)")
        for person in (ann, bob):
            person.conn.close()
        ann, bob = await nodes.come(0, "ann"), await nodes.come(0, "bob")
        await ann.until("seat 1")
        await bob.until("seat 2")
        await battle_reached(ann, 3)
        await flip(ann, bob)
        await battle_reached(bob, 4)
        assert count(a, "lost its lease") == 1, "one loss, one line"
        assert count(b, "relay: table oak moved") == 1 and "from another connection" not in bob.seen.decode()
