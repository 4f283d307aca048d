"""A finished table game goes into the statistics with source "table", and reads back as one."""

from __future__ import annotations

from support.deals import PLAIN
from support.tables import Recorder, dealing, make_table

from war_tui.stats import Source, StatsStore
from war_tui.stats.text import SOURCE_LABELS
from war_tui.tables import FakeClock, Table, two_player_table


def test_a_table_games_record_is_stored_and_read_back_with_source_table(tmp_path):
    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    clock.advance(3)
    while not table.game.over:
        ann.flip()
        bob.flip()
    store = StatsStore.open(tmp_path / "stats.db")
    assert store.record(records[0])
    assert store.flush()
    [back] = StatsStore.open(tmp_path / "stats.db", read_only=True).recent()
    assert (back.source, back.p1_name, back.p2_name, back.battles) == (Source.TABLE, "ann", "bob", 2)


def test_a_table_games_record_carries_the_identities_of_its_seats(tmp_path):
    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    ann = table.join("ann", Recorder(), identity="key:SHA256:ann")
    bob = table.join("bob", Recorder(), identity="addr:bob")
    table.join("eve", Recorder(), identity="key:SHA256:eve")  # watching: not in the record
    clock.advance(3)
    while not table.game.over:
        ann.flip()
        bob.flip()
    [record] = records
    assert (record.p1_player, record.p2_player) == ("key:SHA256:ann", "addr:bob")
    store = StatsStore.open(tmp_path / "stats.db")
    assert store.record(record)
    assert [r.battles for r in store.summary(player="addr:bob").recent] == [2]
    assert store.summary(player="key:SHA256:eve").recent == ()


def test_a_two_player_game_is_recorded_with_the_names_as_given():
    records: list = []
    local = two_player_table(("Ann Lee", "Bob"), deal=dealing(*PLAIN), on_record=records.append)
    ann, bob = local.players
    while not local.table.game.over:
        ann.flip()
        bob.flip()
    [record] = records
    assert (record.p1_name, record.p2_name, record.source) == ("Ann Lee", "Bob", Source.TABLE)


def test_every_source_has_a_label_for_the_stats_screen():
    assert set(SOURCE_LABELS) == set(Source)
    assert SOURCE_LABELS[Source.TABLE] == "table"


def play_out(ann, bob, table) -> None:
    while not table.game.over:
        ann.flip()
        bob.flip()


def test_each_table_game_has_its_own_id_and_a_table_opened_again_under_its_name_a_new_one():
    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    clock.advance(3)
    play_out(ann, bob, table)
    ann.restart()
    bob.restart()
    play_out(ann, bob, table)
    again = Table("oak", clock=FakeClock(), deal=dealing(*PLAIN), on_record=records.append)  # opened again later
    assert again.nonce != table.nonce and len(again.nonce) == 16
    ann, bob = again.join("ann", Recorder()), again.join("bob", Recorder())
    play_out(ann, bob, again)
    first, second, third = (record.game_id for record in records)
    assert (first, second) == ("oak.5eed.1", "oak.5eed.2")
    assert third == f"oak.{again.nonce}.1"


def test_a_table_given_its_nonce_names_its_games_as_any_node_holding_it_does():
    """The nonce goes with the table: a node that restores it names the same game the same."""
    ids = []
    for _ in range(2):
        records: list = []
        table = Table("oak", clock=FakeClock(), deal=dealing(*PLAIN), on_record=records.append, nonce="5eed")
        ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
        play_out(ann, bob, table)
        ids.append(records[0].game_id)
    assert ids == ["oak.5eed.1", "oak.5eed.1"]


def test_a_table_game_delivered_twice_is_stored_once(tmp_path):
    records: list = []
    table, clock = make_table(dealing(*PLAIN), records)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    clock.advance(3)
    play_out(ann, bob, table)
    [record] = records
    store = StatsStore.open(tmp_path / "stats.db")
    assert store.record(record) and store.record(record)  # a stream redelivering it after a restart
    assert StatsStore.open(tmp_path / "stats.db").totals().games == 1
