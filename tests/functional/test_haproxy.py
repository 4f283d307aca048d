"""HAProxy in front of two nodes on one NATS, configured as docs/cluster.md says: one node killed, its players
reconnect through HAProxy, land on the other node and sit at the same table, at the same battle.

The configuration is read out of docs/cluster.md, only its addresses and ports replaced by the test's, so the
documentation and what is tested cannot drift apart. Skipped only where Debian's haproxy is not installed
(.ci/run installs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import time

import asyncssh
import pytest
from haproxy_support import HAPROXY, HAProxy, Node, free_port, haproxy_config
from ssh_support import TIMEOUT, connect
from ssh_support.players import Listener

pytestmark = [
    pytest.mark.serial,  # nodes on 2-second leases: a starved node loses its own
    pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (apt-get install haproxy; .ci/run does)"),
]

SCORE = re.compile(r"Battle (\d+), [^.]*\. (?:You have|\w+ has) (\d+), (?:you have|\w+ has) (\d+)\.")


async def player(port: int, user: str) -> Listener:
    """``user`` through HAProxy, at oak in the line mode; an attempt refused or dropped is tried again."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            conn = await connect(port, None, username=user)
            someone = Listener(conn, await conn.create_process("line table oak", encoding=None))
            await someone.until("You sit at table oak")
            return someone
        except (OSError, TimeoutError, asyncssh.Error):  # refused, or dropped by a node going
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def score(someone: Listener) -> tuple[int, str, str]:
    """The battle and counts ``someone`` is told when asking for the score."""
    before = len(someone.seen)
    someone.say(b"s\n")

    async def reader() -> re.Match[str]:
        while (found := SCORE.search(someone.seen[before:].decode(errors="replace"))) is None:
            chunk = await someone.process.stdout.read(4096)
            assert chunk, someone.seen.decode(errors="replace")
            someone.seen.extend(chunk)
        return found

    found = await asyncio.wait_for(reader(), TIMEOUT)
    return int(found.group(1)), found.group(2), found.group(3)


async def battle(ann: Listener, bob: Listener, number: int) -> tuple[str, str]:
    """Both flip; the counts of battle ``number``, as both read them."""
    ann.say(b"\n")
    bob.say(b"\n")
    seen = set()
    for someone in (ann, bob):
        deadline = time.monotonic() + TIMEOUT
        while (told := await score(someone))[0] < number:
            assert time.monotonic() < deadline, someone.seen.decode(errors="replace")
            await asyncio.sleep(0.2)
        assert told[0] == number, someone.seen.decode(errors="replace")
        seen.add(told[1:])
    assert len(seen) == 1, seen
    return seen.pop()


async def test_players_of_a_killed_node_reconnect_through_haproxy_to_the_other_at_the_same_battle(
    tmp_path, nats_server
):
    ssh_port, web_port = free_port(), free_port()
    nodes = [Node(tmp_path, nats_server, name, f"http://127.0.0.1:{web_port}") for name in ("a", "b")]
    balancer = None
    people: list[Listener] = []
    try:
        for each in nodes:
            each.wait_listening()
        config = tmp_path / "haproxy.cfg"
        config.write_text(haproxy_config(ssh_port, web_port, nodes))
        balancer = HAProxy(config)
        ann = await player(ssh_port, "ann")
        people.append(ann)
        bob = await player(ssh_port, "bob")
        people.append(bob)
        assert await battle(ann, bob, 1)
        counts = await battle(ann, bob, 2)
        owner = next(each for each in nodes if each.connects("ann"))
        other = next(each for each in nodes if each is not owner)
        before = other.connects("ann")
        owner.process.send_signal(signal.SIGKILL)  # ann's node, which opened oak and serves it
        await asyncio.wait_for(ann.conn.wait_closed(), TIMEOUT)  # her connection went with it
        ann = await player(ssh_port, "ann")  # through HAProxy again: only the other node is left
        people.append(ann)
        assert other.connects("ann") == before + 1, other.lines
        assert "You sit at table oak in seat 1" in ann.seen.decode(errors="replace")
        if owner.connects("bob"):  # leastconn sent him to ann's node too: he comes back as she did
            await asyncio.wait_for(bob.conn.wait_closed(), TIMEOUT)
            bob = await player(ssh_port, "bob")
            people.append(bob)
        told = await score(ann)
        assert told == (2, *counts), (told, counts)  # the same table, at the battle it had reached
        assert await battle(ann, bob, 3)
        # The web door through HAProxy's HTTP mode: the page comes from the node left.
        async with asyncio.timeout(TIMEOUT):
            reader, writer = await asyncio.open_connection("127.0.0.1", web_port)
            writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web_port}\r\nConnection: close\r\n\r\n".encode())
            status = (await reader.readline()).decode()
            writer.close()
        assert status.startswith("HTTP/1.1 200"), status
    finally:
        for someone in people:
            with contextlib.suppress(Exception):
                someone.conn.close()
        if balancer is not None:
            balancer.end()
            print("==== haproxy\n" + "\n".join(line for _, line in balancer.lines))
        for each in nodes:
            each.end()
            print("====", "\n".join(each.lines))
