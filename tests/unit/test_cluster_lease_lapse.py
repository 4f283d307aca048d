"""A node's lease through NATS not answering: a JetStream leader's election (3 to 9 s with the pinned nats-server,
``benchmarks/lease_election.py``) outlasts a 3 s lease, and the key may expire in it. The node takes it again and
keeps its tables; a node whose key another wrote over, or that was silent itself (paused), still loses it.

The bucket here is a stand-in that answers or does not, as the test says: which of an expiry and a renewal a new
leader handles first is NATS's race, so only a stand-in makes each order happen every time."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

from support.waiting import until

from war_tui.cluster.config import MIN_LEASE
from war_tui.cluster.leases import NodeLease, Owners, Record, node_key, owner_key
from war_tui.tables.store import StaleWrite


class Bucket:
    """The leases' keys, with a switch: while ``answering`` is False every read and write times out."""

    def __init__(self) -> None:
        self.keys: dict[str, Record] = {}
        self.answering = True
        self.revision = 0

    def _answer(self) -> None:
        if not self.answering:
            raise TimeoutError("no stream leader")

    async def read(self, key: str) -> Record:
        self._answer()
        return self.keys.get(key, Record(None, 0))

    async def write(self, key: str, value: bytes, revision: int, ttl: int | None = None) -> int:
        self._answer()
        if self.keys.get(key, Record(None, 0)).revision != revision:
            raise StaleWrite(key)
        self.revision += 1
        self.keys[key] = Record(value, self.revision)
        return self.revision

    def expire(self, key: str) -> None:
        """The key's time to live ran out: a marker at a new revision, read as no value."""
        self.revision += 1
        self.keys[key] = Record(None, self.revision)


@contextlib.asynccontextmanager
async def renewing(bucket: Bucket, name: str = "na") -> AsyncIterator[tuple[NodeLease, list[str]]]:
    """A node's lease taken and renewed as a server renews it; what it told (``lost``, ``lapsed``), in order."""
    told: list[str] = []
    lease = NodeLease(bucket, name, MIN_LEASE, on_lost=lambda: told.append("lost"),  # type: ignore[arg-type]  # a stand-in LeaseBucket
                      on_lapsed=lambda: told.append("lapsed"))
    await lease.take()
    lease.start()
    try:
        yield lease, told
    finally:
        await lease.stop(release=False)


async def lease_through_silence(bucket: Bucket, lease: NodeLease) -> None:
    """NATS stops answering until the lease's renewals have met it, and its key expires meanwhile."""
    bucket.answering = False
    await until(lambda: lease.unanswered, what="a renewal never met NATS not answering")
    bucket.expire(node_key(lease.node))
    bucket.answering = True


async def test_a_lease_that_expired_while_nats_elected_a_leader_is_taken_again_not_lost():
    bucket = Bucket()
    async with renewing(bucket) as (lease, told):
        await lease_through_silence(bucket, lease)
        await until(lambda: told, what="the renewals never reached NATS again")
        assert (told, lease.lost) == (["lapsed"], False), "the node keeps its lease, and so its tables"
        record = bucket.keys[node_key("na")]
        assert record.value is not None and json.loads(record.value)["node"] == "na"
        assert lease.held


async def test_a_lease_another_wrote_over_meanwhile_is_lost_as_ever():
    bucket = Bucket()
    async with renewing(bucket) as (lease, told):
        await lease_through_silence(bucket, lease)
        marker = bucket.keys[node_key("na")].revision
        await bucket.write(node_key("na"), b'{"node": "na", "incarnation": "another run"}', marker)
        await until(lambda: told, what="the node never learned its lease was gone")
        assert told == ["lost"] and lease.lost and lease.lapses == 0


async def test_a_silent_node_whose_lease_expired_loses_it():
    """Paused (SIGSTOP), it tried no renewal while its key expired: others may have taken its tables."""
    bucket = Bucket()
    lost: list[bool] = []
    lease = NodeLease(bucket, "na", MIN_LEASE, on_lost=lambda: lost.append(True))
    await lease.take()
    bucket.expire(node_key("na"))
    assert not await lease.renew()
    assert lost == [True] and lease.lapses == 0


async def test_after_nats_answers_again_a_node_takes_no_other_nodes_table_for_a_lease():
    """Their renewals met the same election: their keys may have expired while their nodes live on."""
    bucket = Bucket()
    a = NodeLease(bucket, "na", MIN_LEASE)
    b = NodeLease(bucket, "nb", MIN_LEASE)
    await a.take()
    await b.take()
    a_owners, b_owners = Owners(bucket, a), Owners(bucket, b)
    assert await a_owners.claim("oak") is not None
    b.start()
    try:
        await lease_through_silence(bucket, b)
        bucket.expire(node_key("na"))  # a's key expired in the same silence; a renews at its next turn
        await until(lambda: b.answered_at is not None, what="b never reached NATS again")
        assert await b_owners.claim("oak") is None, "b leaves a's table to a within a lease of the silence"
        assert json.loads(bucket.keys[owner_key("oak")].value or b"{}")["node"] == "na"
    finally:
        await b.stop(release=False)
