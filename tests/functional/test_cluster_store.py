"""The tables' store on a real nats-server: compare-and-set, any table name, and nothing acknowledged lost
when nats-server is killed with SIGKILL and started again."""

from __future__ import annotations

import pytest

from war_tui.cluster.keys import table_key, table_name
from war_tui.cluster.table_store import NatsTableStore
from war_tui.tables.store import MemoryTableStore, StaleWrite, StoredTable

NAMES = ["oak", "Oak", "山の上", "a.b", "a b", "-", "", "x" * 64, "ünïcödé 🂡", "=/_"]


@pytest.mark.parametrize("name", NAMES)
def test_any_table_name_is_a_key_of_its_own_that_reads_back(name):
    key = table_key(name)
    assert all(c.isascii() and (c.isalnum() or c in "-_=") for c in key)
    assert table_name(key) == name
    assert len({table_key(other) for other in NAMES}) == len(NAMES)


def test_a_key_no_name_makes_reads_as_none():
    assert table_name("owner.x") is None
    assert table_name("t-!!") is None


async def check_compare_and_set(store) -> None:
    first = await store.save("oak", b"one", None)
    with pytest.raises(StaleWrite):
        await store.save("oak", b"again", None)  # it exists: a create is stale
    second = await store.save("oak", b"two", first)
    with pytest.raises(StaleWrite):
        await store.save("oak", b"stale", first)  # a writer that missed "two"
    with pytest.raises(StaleWrite):
        await store.delete("oak", first)
    assert [(t.name, t.data) for t in await store.load_all()] == [("oak", b"two")]
    await store.delete("oak", second)
    assert await store.load_all() == []
    again = await store.save("oak", b"three", None)  # a deleted table may be made anew
    assert (await store.load_all()) == [StoredTable("oak", b"three", again)]


async def test_memory_store_refuses_a_stale_revision():
    await check_compare_and_set(MemoryTableStore())


async def test_nats_store_refuses_a_stale_revision(nats_server):
    client = await nats_server.client()
    await check_compare_and_set(await NatsTableStore.open(client))


async def test_every_name_is_stored_and_loaded_as_given(nats_server):
    client = await nats_server.client()
    store = await NatsTableStore.open(client)
    for name in NAMES:
        await store.save(name, name.encode() or b"empty", None)
    loaded = {table.name: table.data for table in await store.load_all()}
    assert loaded == {name: name.encode() or b"empty" for name in NAMES}


async def test_nothing_acknowledged_is_lost_when_nats_server_is_killed(nats_server):
    client = await nats_server.client()
    acknowledged: dict[str, bytes] = {}
    try:
        store = await NatsTableStore.open(client)
        revisions: dict[str, int] = {}
        for step in range(300):
            name = f"table {step % 7}"
            data = f"{name} at step {step}".encode()
            revisions[name] = await store.save(name, data, revisions.get(name))
            acknowledged[name] = data
        await store.delete("table 6", revisions["table 6"])
        del acknowledged["table 6"]
        nats_server.kill()  # at once after the last acknowledgement
    finally:
        await client.close()
    nats_server.start()
    client = await nats_server.client()
    loaded = await (await NatsTableStore.open(client)).load_all()
    assert {table.name: table.data for table in loaded} == acknowledged
