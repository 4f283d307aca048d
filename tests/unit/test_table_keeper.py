"""The keeper: no screen sees a table's state before the store keeps it, and a restart finds every table."""

from __future__ import annotations

import asyncio

from support.checkpoints import ENDLESS_RULES, long_checkpoint
from support.tables import Recorder
from support.waiting import until

from war_tui.core.events import BattleWon
from war_tui.core.rules import Side
from war_tui.serving.tables.keeper import LET_GO, TableKeeper
from war_tui.tables import EventBatch, FakeClock, Registry, Snapshot, TableOptions
from war_tui.tables.store import MemoryTableStore, StaleWrite


class SlowStore(MemoryTableStore):
    """A store whose writes wait until the test lets them through, or fail while it says so."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.failures = 0

    async def save(self, name: str, data: bytes, revision: int | None) -> int:
        await self.gate.wait()
        if self.failures:
            self.failures -= 1
            raise ConnectionError("NATS away")
        return await super().save(name, data, revision)


def registry(clock: FakeClock | None = None) -> tuple[Registry, list[TableKeeper]]:
    keepers: list[TableKeeper] = []
    reg = Registry(clock=clock or FakeClock(), hold_updates=True, seed_source=lambda: 7,
                   on_change=lambda: keepers[0].poke())
    return reg, keepers


async def keeper_for(store: MemoryTableStore, log: list[str] | None = None, clock: FakeClock | None = None):
    reg, keepers = registry(clock)
    keeper = TableKeeper(reg, store, (log if log is not None else []).append)
    keepers.append(keeper)
    await keeper.restore()
    return reg, keeper


def battles(sink: Recorder) -> list[BattleWon]:
    return [e for e in sink.events() if isinstance(e, BattleWon)]


def seat_two(reg: Registry):
    ann_sink, bob_sink = Recorder(), Recorder()
    ann = reg.join("oak", "ann", ann_sink, identity="key:ann")
    bob = reg.join("oak", "bob", bob_sink, identity="key:bob")
    return (ann, bob), (ann_sink, bob_sink)


async def test_a_battle_reaches_the_screens_only_once_the_store_kept_it():
    store = SlowStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), (ann_sink, bob_sink) = seat_two(reg)
    await keeper.flush()
    store.gate.clear()
    ann.flip()
    bob.flip()
    await asyncio.sleep(0.05)
    assert battles(ann_sink) == [] and battles(bob_sink) == []
    store.gate.set()
    await keeper.flush()
    assert len(battles(ann_sink)) == 1 and len(battles(bob_sink)) == 1
    (stored,) = await store.load_all()
    assert stored.name == "oak"


async def test_a_lone_flip_reaches_the_screens_unwritten_and_its_battle_waits_for_the_store():
    store = SlowStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), (ann_sink, bob_sink) = seat_two(reg)
    await keeper.flush()
    written = keeper.written
    store.gate.clear()
    ann.flip()
    assert await until(lambda: bob_sink.state().waiting_for == (Side.P2,))
    assert keeper.written == written
    bob.flip()
    await asyncio.sleep(0.05)
    assert battles(ann_sink) == [] and battles(bob_sink) == []
    store.gate.set()
    await keeper.flush()
    assert len(battles(bob_sink)) == 1 and keeper.written == written + 1


async def test_a_stop_keeps_a_flip_handed_on_unwritten():
    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    (ann, _bob), _ = seat_two(reg)
    await keeper.flush()
    ann.flip()
    await keeper.flush()
    assert await keeper.stop(5.0)
    again, _keeper = await keeper_for(store)
    back = again.table("oak")
    assert back is not None and back.state().waiting_for == (Side.P2,)


async def test_a_restart_finds_the_table_at_its_battle_with_its_seats_kept():
    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), _ = seat_two(reg)
    for _ in range(12):
        ann.flip()
        bob.flip()
    await keeper.flush()
    table = reg.table("oak")
    assert table is not None
    seq, counts = table.seq, table.game.counts
    log: list[str] = []
    again, _keeper = await keeper_for(store, log)
    back = again.table("oak")
    assert back is not None and back.game.battles == 12 and back.game.counts == counts and back.seq >= seq
    assert any("restored: oak" in line for line in log)
    sink = Recorder()
    ann_again = again.join("oak", "ann", sink, identity="key:ann")
    assert ann_again.seat is Side.P1  # her kept seat, not a spectator's place
    stranger = again.join("oak", "eve", Recorder(), identity="key:eve")
    assert stranger.seat is None


async def test_screens_go_on_from_the_restored_battle_without_a_gap():
    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), _ = seat_two(reg)
    for _ in range(5):
        ann.flip()
        bob.flip()
    await keeper.flush()
    again, keeper2 = await keeper_for(store)
    (ann, bob), (ann_sink, _) = seat_two(again)
    ann.flip()
    bob.flip()
    await keeper2.flush()
    snapshot = next(u for u in ann_sink.updates if isinstance(u, Snapshot))
    after = [u for u in ann_sink.updates if isinstance(u, EventBatch)]
    assert snapshot.battles == 5
    assert [e.battle for e in battles(ann_sink)] == [6]
    assert after[0].seq > snapshot.seq


async def test_a_closed_table_is_deleted_and_not_restored():
    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), _ = seat_two(reg)
    await keeper.flush()
    assert len(await store.load_all()) == 1
    table = reg.table("oak")
    assert table is not None
    table.close("the table closed")
    keeper.poke()
    await asyncio.sleep(0)
    await keeper.flush()
    assert await store.load_all() == []


async def test_stopping_keeps_the_tables_though_the_registry_then_closes():
    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    (ann, bob), _ = seat_two(reg)
    ann.flip()
    bob.flip()
    assert await keeper.stop(2.0)
    reg.close("the server is restarting: reconnect in a moment")
    await asyncio.sleep(0.01)
    (stored,) = await store.load_all()
    again, _keeper = await keeper_for(store)
    table = again.table("oak")
    assert table is not None and table.game.battles == 1


async def test_a_store_away_holds_the_screens_then_they_catch_up_with_one_line_each_way():
    store = SlowStore()
    log: list[str] = []
    reg, keeper = await keeper_for(store, log)
    (ann, bob), (ann_sink, _) = seat_two(reg)
    await keeper.flush()
    store.failures = 3
    ann.flip()
    bob.flip()
    await asyncio.sleep(0.05)
    assert battles(ann_sink) == []
    await keeper.flush(10.0)
    assert len(battles(ann_sink)) == 1
    assert sum("does not answer" in line for line in log) == 1
    assert sum("answers again" in line for line in log) == 1


async def test_a_write_refused_as_stale_lets_the_table_go_and_deletes_nothing():
    store = MemoryTableStore()
    log: list[str] = []
    reg, keeper = await keeper_for(store, log)
    (ann, bob), (ann_sink, _) = seat_two(reg)
    await keeper.flush()
    (stored,) = await store.load_all()
    await store.save("oak", stored.data, stored.revision)  # another server wrote it meanwhile
    ann.flip()
    bob.flip()
    await keeper.flush()
    assert LET_GO in ann_sink.texts()
    assert reg.table("oak") is None
    assert len(await store.load_all()) == 1
    assert any("lets it go" in line for line in log)


async def test_a_checkpoint_that_cannot_be_restored_is_one_line_and_its_name_is_free_again():
    store = MemoryTableStore()
    await store.save("oak", b'{"v": 99}', None)
    log: list[str] = []
    reg, keeper = await keeper_for(store, log)
    assert any("oak could not be restored" in line for line in log)
    seat_two(reg)
    await keeper.flush()
    (stored,) = await store.load_all()
    assert stored.data != b'{"v": 99}'


async def test_claims_skip_a_table_another_live_server_owns():
    class Owned:
        async def claim(self, table: str) -> int | None:
            return None

        async def release(self, table: str, revision: int) -> None:
            raise AssertionError("nothing claimed")

    store = MemoryTableStore()
    reg, keeper = await keeper_for(store)
    seat_two(reg)
    await keeper.flush()
    log: list[str] = []
    again, keepers = registry()
    other = TableKeeper(again, store, log.append, owners=Owned())
    keepers.append(other)
    assert await other.restore() == []
    assert again.table("oak") is None
    assert any("served by another server" in line for line in log)


def test_stale_write_is_what_the_memory_store_says_of_a_moved_revision():
    async def scenario() -> None:
        store = MemoryTableStore()
        first = await store.save("oak", b"1", None)
        await store.save("oak", b"2", first)
        try:
            await store.save("oak", b"3", first)
        except StaleWrite:
            return
        raise AssertionError("a stale revision was written over")

    asyncio.run(scenario())


# ------------------------------------------------------------------ bounded restores (issue 39)


async def test_a_checkpoint_longer_than_the_servers_games_is_refused_before_its_replay():
    store = MemoryTableStore()
    await store.save("oak", long_checkpoint("oak", 1_000_000), None)
    log: list[str] = []
    await keeper_for(store, log)  # the registry's tables play the default rules: 10,000 battles at most
    [line] = [line for line in log if "oak could not be restored" in line]
    assert "battles: not a whole number from 0 to 10000" in line, line


async def test_a_long_game_within_the_servers_cap_is_restored_where_it_was():
    store = MemoryTableStore()
    await store.save("oak", long_checkpoint("oak", 20_000), None)
    reg = Registry(clock=FakeClock(), hold_updates=True, options=TableOptions(rules=ENDLESS_RULES))
    keeper = TableKeeper(reg, store, [].append)
    assert await keeper.restore() == ["oak"]
    table = reg.table("oak")
    assert table is not None and table.game.battles == 20_000


async def test_a_start_restores_at_most_max_tables_and_lists_no_further_than_four_times_as_many():
    store = MemoryTableStore()
    names = [f"t{n:02}" for n in range(20)]
    for name in names:
        await store.save(name, long_checkpoint(name, 10), None)
    log: list[str] = []
    reg = Registry(clock=FakeClock(), hold_updates=True, max_tables=3, options=TableOptions(rules=ENDLESS_RULES))
    keeper = TableKeeper(reg, store, log.append)
    assert await keeper.list_stored() == 12
    assert await keeper.restore_listed() == names[:3]
    assert not any("could not be restored" in line for line in log), log
    assert "tables: 9 more tables in the store not restored: this server holds 3 tables at most (--max-tables)" in log
    assert len(await store.load_all()) == 20, "what is not restored stays in the store"


async def test_a_table_asked_for_is_restored_before_those_listed_ahead_of_it():
    store = MemoryTableStore()
    for name in ("ash", "elm", "oak"):
        await store.save(name, long_checkpoint(name, 10), None)
    reg = Registry(clock=FakeClock(), hold_updates=True, options=TableOptions(rules=ENDLESS_RULES))
    keeper = TableKeeper(reg, store, [].append)
    await keeper.list_stored()
    await keeper.restore_now("oak")
    assert [table.name for table in reg.tables] == ["oak"]
    assert await keeper.restore_listed() == ["oak", "ash", "elm"]
