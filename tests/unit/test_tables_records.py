"""A finished table game goes into the statistics with source "table", and reads back as one."""

from __future__ import annotations

from support.deals import PLAIN
from support.tables import Recorder, dealing, make_table

from war_tui.stats import Source, StatsStore
from war_tui.stats.text import SOURCE_LABELS
from war_tui.tables import two_player_table


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
