"""A seat belongs to its player, not to a connection: faults between real serve-ssh processes move connections,
never seats.

Three nodes on one real nats-server; ann (her own SSH key) sits at oak through node A, which serves it, bob (his
key) through B, relayed to A, and eve watches through C. After each fault (the owner stopped with SIGSTOP past its
lease and woken, or bob's own node killed with kill -9) each player is in their own seat with their flip standing,
no node's log says a seat of a player who never left was given up, the table is not closed, and every screen shows
the same counts at the battle it reaches.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from nodes_support import NodeProcesses, logged, node_processes
from ssh_support import TIMEOUT, ServerProcess, make_key
from ssh_support.players import Listener

from war_tui.cluster.router import MOVED
from war_tui.serving.tables.keeper import LET_GO

pytestmark = [pytest.mark.app, pytest.mark.serial]  # nodes on 2-second leases: a starved node loses its own

GIVEN_UP = ("left seat", "not kept", "closed, nobody was at it", "takes seat")
"""What a node's log says when a seat is given up, or the table closed: never for a player who never left."""
SCORE = r"Battle (\d+), [^.]*\. (?:You have|\w+ has) (\d+), (?:you have|\w+ has) (\d+)\."


async def counts_at(people: list[Listener], battle: int) -> set[tuple[str, str]]:
    """The counts each of ``people`` is told at ``battle``: its score, asked for until its table reached it."""
    seen: set[tuple[str, str]] = set()
    pattern = re.compile(SCORE)
    for someone in people:
        deadline = time.monotonic() + TIMEOUT
        while True:
            before = len(someone.seen)
            someone.say(b"s\n")
            match = await said_after(someone, before, pattern)
            if int(match.group(1)) >= battle:
                assert int(match.group(1)) == battle, someone.seen.decode(errors="replace")
                seen.add((match.group(2), match.group(3)))
                break
            assert time.monotonic() < deadline, someone.seen.decode(errors="replace")
            await asyncio.sleep(0.2)
    return seen


async def said_after(someone: Listener, before: int, pattern: re.Pattern[str]) -> re.Match[str]:
    """The first match of ``pattern`` in what ``someone`` was told past its first ``before`` bytes, waited for."""

    async def reader() -> re.Match[str]:
        while (match := pattern.search(someone.seen[before:].decode(errors="replace"))) is None:
            chunk = await someone.process.stdout.read(4096)
            assert chunk, someone.seen.decode(errors="replace")
            someone.seen.extend(chunk)
        return match

    return await asyncio.wait_for(reader(), TIMEOUT)


def given_up(*servers: ServerProcess) -> list[str]:
    return [line for server in servers for line in server.lines if any(text in line for text in GIVEN_UP)]


@contextlib.asynccontextmanager
async def seated(tmp_path: Path, nats_server) -> AsyncIterator[tuple[NodeProcesses, Listener, Listener, Listener]]:
    """Nodes A, B, C; ann (her key) at oak through A, which serves it, bob (his key) through B, eve watching
    through C."""
    with node_processes(tmp_path, nats_server, "a", "b", "c") as three:
        three.keys.update({user: make_key(tmp_path, f"{user}_key") for user in ("ann", "bob")})
        ann = await three.come(0, "ann")  # A opens oak and serves it
        await ann.until("You sit at table oak in seat 1")
        bob = await three.come(1, "bob")  # relayed from B to A
        await bob.until("You sit at table oak in seat 2")
        eve = await three.come(2, "eve", "line watch oak")  # relayed from C to A
        await eve.until("You are watching table oak")
        yield three, ann, bob, eve


async def test_an_owner_paused_past_its_lease_moves_connections_never_seats(tmp_path, nats_server):
    """The owner stops before anyone flipped, within the short stay of bob's sitting: the table moves, ann's
    connection to the paused node and bob's relayed one follow it, and each seat stays its player's."""
    async with seated(tmp_path, nats_server) as (three, ann, bob, eve):
        a, b, c = three.nodes
        os.kill(a.process.pid, signal.SIGSTOP)  # past its lease: B or C takes oak over, bob and eve follow it
        await asyncio.wait_for(_taken(b, c), TIMEOUT)
        await bob.until(re.escape(MOVED))
        os.kill(a.process.pid, signal.SIGCONT)
        await eve.until(re.escape(MOVED))  # she follows the table too, whenever her node learns it moved
        await logged(a, "lost its lease")
        await ann.until(re.escape(MOVED))  # her connection to A follows the table: nobody asks her to reconnect
        ann.say(b"\n")
        bob.say(b"\n")
        assert len(await counts_at([ann, bob, eve], 1)) == 1, "one battle, the same counts on every screen"
        for someone in (ann, bob):
            moved = someone.seen.decode(errors="replace").split(MOVED, 1)[1]
            assert "You are watching" not in moved and LET_GO not in someone.seen.decode(errors="replace")
        assert given_up(*three.nodes) == []


async def _taken(*servers: ServerProcess) -> None:
    while not any("oak taken over" in line for server in servers for line in server.lines):
        await asyncio.sleep(0.1)


async def test_a_players_node_killed_keeps_their_seat_and_requests(tmp_path, nats_server):
    """bob's own node dies (kill -9) while he asks to stop at wars: the owner lets his silent relay go without
    giving up his seat or his request, and bob, back through C, plays on in seat 2."""
    async with seated(tmp_path, nats_server) as (three, ann, bob, eve):
        a, b, c = three.nodes
        ann.say(b"\n")
        bob.say(b"\n")
        await counts_at([ann, bob, eve], 1)
        bob.say(b"w\n")
        await ann.until("bob asks to stop at wars")
        b.stop(signal.SIGKILL)
        await logged(a, "went with a fault")
        bob = await three.come(2, "bob")
        await bob.until("You sit at table oak in seat 2")
        ann.say(b"w\n")  # bob's request stands: hers agrees to it
        await ann.until("Auto-play stops at every war now: both players asked.")
        ann.say(b"\n")
        bob.say(b"\n")
        assert len(await counts_at([ann, bob, eve], 2)) == 1, "one battle, the same counts on every screen"
        assert given_up(a, c) == []
