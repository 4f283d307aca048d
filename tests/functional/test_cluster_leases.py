"""Node leases and table owners on a real nats-server: one winner of a race, a dead node's table taken over,
a paused owner's write refused (in this process, and a process stopped with SIGSTOP), and a restarted node
taking its own tables back at once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys

import pytest
from support.waiting import until

from war_tui.cluster.config import MIN_LEASE
from war_tui.cluster.leases import LeaseBucket, NodeLease, Owners, node_id, node_key, owner_key
from war_tui.cluster.table_store import NatsTableStore, StoreUnavailable
from war_tui.tables.store import StaleWrite

TIMEOUT = 60.0  # a lease runs out in seconds; a loaded machine is slow, not wrong


async def node(client, name: str, seconds: int = MIN_LEASE) -> Owners:
    bucket = await LeaseBucket.open(client)
    lease = NodeLease(bucket, name, seconds)
    await lease.take()
    return Owners(bucket, lease)


def test_a_data_directory_keeps_its_node_id(tmp_path):
    first = node_id(tmp_path / "a")
    assert node_id(tmp_path / "a") == first
    assert node_id(tmp_path / "b") != first
    (tmp_path / "a" / "node-id").write_text("NOT AN ID!\n")
    assert node_id(tmp_path / "a") not in (first, "NOT AN ID!")  # a damaged id is made anew


async def test_eight_nodes_racing_for_one_table_make_one_owner(nats_server):
    nodes = [await node(await nats_server.client(), f"n{index}") for index in range(8)]
    won = await asyncio.gather(*(each.claim("oak") for each in nodes))
    winners = [each.lease.node for each, revision in zip(nodes, won) if revision is not None]
    assert len(winners) == 1
    assert await nodes[0].owner("oak") == winners[0]
    again = await asyncio.gather(*(each.claim("oak") for each in nodes))  # every lease alive: no change
    assert [each.lease.node for each, revision in zip(nodes, again) if revision is not None] == winners


@pytest.mark.serial  # a 2-second lease held or run out on the wall clock
async def test_a_dead_nodes_table_is_taken_over_once_its_lease_expires(nats_server):
    a_client, b_client = await nats_server.client(), await nats_server.client()
    try:
        a, b = await node(a_client, "na"), await node(b_client, "nb")
        b.lease.start()
        assert await a.claim("oak") is not None
        assert await b.claim("oak") is None  # a's lease holds
        # a stops renewing (killed): its key expires after the lease and b takes the table
        await until(lambda: b.claim("oak"), TIMEOUT, every=0.1)
        assert await b.owner("oak") == "nb"
        record = await a.bucket.read(node_key("na"))
        assert record.value is None and record.revision > 0  # an expiry marker, read as no lease
    finally:
        await b.lease.stop()


@pytest.mark.serial  # a 2-second lease held or run out on the wall clock
async def test_a_paused_owner_is_refused_once_another_took_its_table(nats_server):
    a_client, b_client = await nats_server.client(), await nats_server.client()
    try:
        store_a, store_b = await NatsTableStore.open(a_client), await NatsTableStore.open(b_client)
        a, b = await node(a_client, "na"), await node(b_client, "nb")
        b.lease.start()
        assert await a.claim("oak") is not None
        seen_by_a = await store_a.save("oak", b"battle 10", None)
        # a is paused past its lease (no renewals); b takes the table and writes it once before serving it
        await until(lambda: b.claim("oak"), TIMEOUT, every=0.1)
        [table] = await store_b.load_all()
        await store_b.save("oak", table.data, table.revision)
        await store_b.save("oak", b"battle 11 by b", table.revision + 1)
        # a wakes up: its lease is gone, and its write over what it saw is refused
        assert await a.lease.renew() is False and a.lease.lost
        with pytest.raises(StaleWrite):
            await store_a.save("oak", b"battle 11 by a", seen_by_a)
        assert await a.claim("oak") is None
        assert [t.data for t in await store_b.load_all()] == [b"battle 11 by b"]
    finally:
        await b.lease.stop()


@pytest.mark.serial  # a 2-second lease held or run out on the wall clock
async def test_a_node_that_lost_its_lease_steps_down_takes_a_fresh_one_and_claims_again(nats_server):
    """Its key gone under it (as after a pause past the lease): lost (``on_lost``, no claim), then rejoined
    (``on_rejoined``, a fresh lease) and claiming again, in one run of the process."""
    client = await nats_server.client()
    states: list[str] = []
    try:
        bucket = await LeaseBucket.open(client)
        lease = NodeLease(bucket, "na", MIN_LEASE, on_lost=lambda: states.append("lost"),
                          on_rejoined=lambda: states.append("rejoined"))
        await lease.take()
        owners = Owners(bucket, lease)
        assert await owners.claim("oak") is not None
        await bucket.delete(node_key("na"), lease.revision)  # expired, as far as the others know
        assert await lease.renew() is False and lease.lost and states == ["lost"]
        assert await owners.claim("elm") is None, "no claim while the lease is lost"
        lease.start()
        await until(lambda: asyncio.sleep(0, lease.rejoins), TIMEOUT, every=0.1)
        assert states == ["lost", "rejoined"] and not lease.lost and await owners.alive("na")
        assert await owners.claim("elm") is not None and await owners.claim("oak") is not None
    finally:
        await lease.stop()


async def test_a_restarted_node_takes_its_tables_back_at_once(nats_server, tmp_path):
    directory = tmp_path / "data"
    first_client, other_client = await nats_server.client(), await nats_server.client()
    other = await node(other_client, "nother", seconds=30)
    first = await node(first_client, node_id(directory), seconds=30)
    assert await first.claim("oak") is not None
    await first_client.close()  # killed: its lease of 30 s still holds
    assert await other.claim("oak") is None
    again = await node(await nats_server.client(), node_id(directory), seconds=30)  # the same data directory
    assert again.lease.incarnation != first.lease.incarnation
    assert await again.claim("oak") is not None  # at once, without waiting out the lease
    assert await other.claim("oak") is None
    record = await again.bucket.read(owner_key("oak"))
    assert again.lease.incarnation.encode() in (record.value or b"")


async def test_a_released_lease_frees_the_nodes_tables_at_once(nats_server):
    a = await node(await nats_server.client(), "na", seconds=30)
    b = await node(await nats_server.client(), "nb", seconds=30)
    assert await a.claim("oak") is not None
    await a.lease.stop(release=True)  # a stops cleanly (SIGTERM)
    assert await b.claim("oak") is not None


async def test_releasing_a_table_while_nats_is_gone_is_a_store_error_the_keeper_takes(nats_server):
    """A table that closes while the node's NATS connection is gone: the keeper, which tries its owner record's
    release, reads a store error it knows (not a NATS error that would end its task with a traceback)."""
    client = await nats_server.client()
    owners = await node(client, "na", seconds=30)
    revision = await owners.claim("oak")
    assert revision is not None
    await owners.lease.stop(release=False)
    await client.close()
    with pytest.raises(StoreUnavailable):
        await owners.release("oak", revision)


# An owner in a process of its own: takes its lease (renewed as a server renews it) and the table, saves it,
# says its revision, then waits for a line; told "save", it saves over that revision and says what came of it.
OWNER = """
import asyncio, sys
from war_tui.cluster.connection import connect
from war_tui.cluster.leases import LeaseBucket, NodeLease, Owners
from war_tui.cluster.table_store import NatsTableStore, StoreUnavailable
from war_tui.tables.store import StaleWrite
async def main():
    client = await connect([sys.argv[1]], lambda line: None, token=sys.argv[2])
    bucket = await LeaseBucket.open(client)
    lease = NodeLease(bucket, "npaused", int(sys.argv[3]))
    await lease.take()
    lease.start()
    owners = Owners(bucket, lease)
    store = await NatsTableStore.open(client)
    assert await owners.claim("oak") is not None
    revision = await store.save("oak", b"battle 10 by the paused owner", None)
    print("OWNS", revision, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    try:
        await store.save("oak", b"battle 11 by the paused owner", revision)
        print("WRITTEN", flush=True)
    except StaleWrite:
        print("REFUSED", "lost" if lease.lost else "kept", flush=True)
asyncio.run(main())
"""


@pytest.mark.serial  # a 2-second lease held or run out on the wall clock
async def test_an_owner_stopped_with_sigstop_past_its_lease_is_refused_when_it_wakes(nats_server):
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, nats_server.url, nats_server.token, str(MIN_LEASE)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    client = await nats_server.client()
    try:
        assert owner.stdout is not None and owner.stdin is not None
        line = await asyncio.to_thread(owner.stdout.readline)
        assert line.startswith("OWNS "), line
        taker = await node(client, "ntaker")
        assert await taker.claim("oak") is None  # the owner's lease holds while it runs
        os.kill(owner.pid, signal.SIGSTOP)
        await until(lambda: taker.claim("oak"), TIMEOUT, every=0.1)  # past its lease, the table is taken over
        store = await NatsTableStore.open(client)
        [table] = await store.load_all()
        revision = await store.save("oak", table.data, table.revision)  # written once before it is served
        await store.save("oak", b"battle 11 by the new owner", revision)
        os.kill(owner.pid, signal.SIGCONT)
        owner.stdin.write("save\n")
        owner.stdin.flush()
        outcome = await asyncio.to_thread(owner.stdout.readline)
        assert outcome.split()[0] == "REFUSED", outcome
        assert [t.data for t in await store.load_all()] == [b"battle 11 by the new owner"]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(owner.pid, signal.SIGCONT)
        owner.kill()
        owner.wait()


@pytest.mark.serial
async def test_nodes_keep_their_leases_and_tables_while_a_nats_cluster_has_no_leader(nats_cluster):
    """Two of three nats-servers killed for longer than a lease, then one restarted: the buckets have no leader
    until it is back and an election is won, and the nodes' keys may expire meanwhile. Neither node loses its lease;
    the table stays with the node that served it, and the other does not take it."""
    import time

    from war_tui.cluster.connection import connect

    survivor, first, second = nats_cluster.members
    clients = [await connect([survivor.url], lambda line: None, token=nats_cluster.token) for _ in range(2)]
    lost: list[str] = []
    leases: list[NodeLease] = []
    try:
        owners = []
        for name, client in zip(("na", "nb"), clients):
            bucket = await LeaseBucket.open(client, replicas=3)
            lease = NodeLease(bucket, name, MIN_LEASE, on_lost=lambda name=name: lost.append(name))
            await lease.take()
            lease.start()
            leases.append(lease)
            owners.append(Owners(bucket, lease))
        a, b = owners
        assert await a.claim("oak") is not None
        first.kill()
        second.kill()
        killed = time.monotonic()
        await until(lambda: all(lease.unanswered for lease in leases), TIMEOUT,
                    what="the renewals never met NATS without a leader")
        await until(lambda: time.monotonic() - killed > 2 * MIN_LEASE, TIMEOUT)  # every key's time to live passes
        first.start()
        await until(lambda: all(lease.answered_at is not None for lease in leases), TIMEOUT,
                    what=lambda: f"the renewals never reached NATS again (lost: {lost})")
        assert lost == [], "no node lost its lease to NATS's election"
        assert await b.claim("oak") is None, "b leaves a's table to a"
        assert await a.owner("oak") == "na"
        assert all(await asyncio.gather(*(lease.renew() for lease in leases)))
    finally:
        for lease in leases:
            await lease.stop(release=False)
        for client in clients:
            await client.close()
