"""Served statistics: each player's own games by identity, a row cap that trims, a summary read once."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest
from support.present import present

from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source, StatsStore, queries, schema
from war_tui.stats.records import OPPONENT, YOU


def game(battles: int, players: tuple[str | None, str | None] = (None, None), *, source: Source = Source.TABLE,
         names: tuple[str, str] = ("ann", "bob"), result: Result = Result.P1) -> GameRecord:
    return GameRecord(
        finished_at="2026-05-01T12:00:00+00:00", seed=battles, war_cards=1, gather=Gather.WINNER_FIRST,
        max_battles=10_000, p1_name=names[0], p2_name=names[1], result=result, reason=EndReason.ALL_CARDS,
        battles=battles, wars=1, longest_war=1, p1_count=52 if result is Result.P1 else 0,
        p2_count=0 if result is Result.P1 else 52, seconds=1.0, source=source,
        p1_player=players[0], p2_player=players[1],
    )


ANN, BOB, EVE = "key:SHA256:ann", "key:SHA256:bob", "addr:eve"


def test_a_players_summary_holds_only_the_games_they_sat_in(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    store.record(game(10, (ANN, BOB)))
    store.record(game(20, (EVE, BOB), names=("eve", "bob")))
    store.record(game(30, (BOB, ANN), names=("bob", "ann"), result=Result.P2))
    store.record(game(40, (ANN, None), source=Source.AUTO, names=("Player 1", "Player 2")))

    mine = present(store.summary(recent=10, player=ANN))
    assert sorted(r.battles for r in mine.recent) == [10, 30, 40]
    assert mine.totals.games == 3 and mine.histogram.games == 3
    assert present(store.summary(recent=10, player=EVE)).totals.games == 1
    assert present(store.summary(recent=10, player="key:SHA256:nobody")).totals.games == 0
    assert present(store.summary(recent=10)).totals.games == 4  # the operator's view: every game


def test_a_players_summary_names_nobody_else(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    store.record(game(10, (ANN, BOB)))
    store.record(game(30, (BOB, ANN), names=("bob", "ann")))
    store.record(game(40, (ANN, None), source=Source.AUTO, names=("Player 1", "Player 2")))
    mine = present(store.summary(recent=10, player=ANN))
    names = {(r.battles, r.p1_name, r.p2_name) for r in mine.recent}
    assert names == {(10, YOU, OPPONENT), (30, OPPONENT, YOU), (40, "Player 1", "Player 2")}
    totals = mine.totals
    for record in map(present, (totals.longest, totals.shortest, totals.most_wars, totals.deepest_war)):
        assert "bob" not in (record.p1_name, record.p2_name)


def test_an_older_file_gains_the_player_columns_and_keeps_its_games(tmp_path: Path):
    path = tmp_path / "stats.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as conn:  # a file of schema 1, with one game
        for statement in schema.MIGRATIONS[1]:
            conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = 1")
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        conn.execute(
            "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
            " end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source) VALUES"
            " ('2026-01-01T00:00:00+00:00', 1, 1, 'winner-first', 10000, 'a', 'b', 'p1', 'all-cards', 12, 0, 0,"
            " 52, 0, 1.0, 'auto')"
        )
    conn.close()
    store = StatsStore.open(path)
    assert store.enabled and store.record(game(13, (ANN, BOB)))
    assert [(r.battles, r.p1_player) for r in present(store.recent(5))] == [(13, ANN), (12, None)]
    with sqlite3.connect(path) as conn:
        plan = " ".join(str(r) for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE (p1_player = ? OR p2_player = ?)", (ANN, ANN)))
    conn.close()
    assert "games_by_p1_player" in plan and "games_by_p2_player" in plan  # a player's games by index


def test_the_row_cap_trims_the_oldest_a_tenth_at_a_time(tmp_path: Path):
    path = tmp_path / "served.sqlite3"
    store = StatsStore.open(path, max_rows=1_000)
    for start in range(0, 1_000, 100):
        store._pending.extend(game(n + 1) for n in range(start, start + 100))
        assert store.flush()
    assert present(store.totals()).games == 1_000 and store.trimmed == 0
    assert store.record(game(1_001))  # one past the cap: the oldest tenth goes at once
    assert present(store.totals()).games == 900 and store.trimmed == 101
    assert min(r.battles for r in present(store.recent(1_000))) == 102  # the newest 900 stay
    for n in range(1_002, 1_050):
        store.record(game(n))
    assert present(store.totals()).games == 948 and store.trimmed == 101  # under the cap: nothing more goes


def test_the_row_cap_has_a_range(tmp_path: Path):
    for bad in (0, 999, 10_000_001):
        with pytest.raises(ValueError):
            StatsStore.open(tmp_path / "served.sqlite3", max_rows=bad)


def test_the_summary_is_read_once_while_the_file_holds_the_same_games(tmp_path: Path, monkeypatch):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    store.record(game(10, (ANN, BOB)))
    reads = []
    real = queries.read_totals

    def counted(*args):
        reads.append(1)
        return real(*args)

    monkeypatch.setattr(queries, "read_totals", counted)
    first = present(store.summary(player=ANN))
    assert store.summary(player=ANN) is first and len(reads) == 1
    StatsStore.open(store.path).record(game(11, (ANN, BOB)))  # another process records a game
    assert present(store.summary(player=ANN)).totals.games == 2 and len(reads) == 2


def test_a_recovery_line_without_players_still_reads(tmp_path: Path):
    from war_tui.stats import recovery

    line = recovery.to_line(game(5, (ANN, BOB)))
    assert recovery.from_line(line).p1_player == ANN
    import json

    data = json.loads(line)
    del data["p1_player"], data["p2_player"]
    assert recovery.from_line(json.dumps(data)).p1_player is None


# ------------------------------------------------------------------ a game once, by its id; the leaderboard


def with_id(record: GameRecord, game_id: str | None) -> GameRecord:
    return dataclasses.replace(record, game_id=game_id)


def test_a_game_recorded_twice_under_one_id_is_one_game(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    once = with_id(game(10, (ANN, BOB)), "oak.5eed.1")
    assert store.record(once) and store.record(once)
    assert store.record(with_id(game(11, (ANN, BOB)), "oak.5eed.2"))
    with store._lock:  # two deliveries of one game waiting in one batch (a locked file)
        store._pending.extend([once, once])
    assert store.flush()
    assert [r.battles for r in present(StatsStore.open(tmp_path / "served.sqlite3").recent(10))] == [11, 10]


def test_games_without_an_id_are_each_a_game_as_before(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    solo = game(10, source=Source.AUTO)
    assert store.record(solo) and store.record(solo)
    assert present(store.totals()).games == 2


def schema_2_file(path: Path) -> None:
    """A statistics file as war-tui wrote it before games had ids: schema 2, one table game in it."""
    with sqlite3.connect(path, isolation_level=None) as conn:
        for version in (1, 2):
            for statement in schema.MIGRATIONS[version]:
                conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = 2")
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        conn.execute(
            "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
            " end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player)"
            " VALUES ('2026-01-01T00:00:00+00:00', 1, 1, 'winner-first', 10000, 'ann', 'bob', 'p1', 'all-cards',"
            f" 12, 0, 0, 52, 0, 1.0, 'table', '{ANN}', '{BOB}')"
        )
    conn.close()


def test_a_file_from_before_game_ids_keeps_its_games_and_stores_each_id_once(tmp_path: Path):
    path = tmp_path / "served.sqlite3"
    schema_2_file(path)
    store = StatsStore.open(path)
    assert store.enabled
    once = with_id(game(13, (BOB, ANN), names=("bob", "ann")), "oak.5eed.1")
    assert store.record(once) and store.record(once)
    assert [(r.battles, r.p1_player) for r in present(store.recent(5))] == [(13, BOB), (12, ANN)]
    assert {(leader.name, leader.games, leader.wins) for leader in present(store.leaders())} == {("ann", 2, 1), ("bob", 2, 1)}
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(schema.SCHEMA_VERSION,)]
        plan = " ".join(str(r) for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE (p1_player = ? OR p2_player = ?)", (ANN, ANN)))
    conn.close()
    assert "games_by_p1_player" in plan and "games_by_p2_player" in plan  # a player's games still by index


def test_a_read_only_file_from_before_game_ids_still_shows_its_games_and_leaders(tmp_path: Path):
    path = tmp_path / "served.sqlite3"
    schema_2_file(path)
    store = StatsStore.open(path, read_only=True)
    assert [r.battles for r in present(store.recent(5))] == [12]
    assert [(leader.name, leader.wins) for leader in present(store.leaders())] == [("ann", 1), ("bob", 0)]


def test_the_leaderboard_counts_each_identitys_table_games_wins_and_longest_game(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    store.record(game(10, (ANN, BOB)))
    store.record(game(30, (BOB, ANN), names=("bob", "ann"), result=Result.P2))
    store.record(game(50, (EVE, ANN), names=("eve", "Ann Lee")))
    store.record(game(70, (BOB, EVE), names=("bobby", "eve"), result=Result.DRAW))
    store.record(game(90, (EVE, None), names=("eve", "house")))  # the house in a seat: eve's game all the same
    store.record(game(900, (ANN, None), source=Source.AUTO))  # a solo game: not on the leaderboard
    store.record(game(990, (BOB, BOB), names=("bob", "bob")))  # against themselves: not counted
    leaders = present(store.leaders())
    assert [(one.player, one.name, one.games, one.wins, one.longest) for one in leaders] == [
        (EVE, "eve", 3, 2, 90),  # as many wins and games as ann: the longer game comes first
        (ANN, "Ann Lee", 3, 2, 50),  # the name of the latest game
        (BOB, "bobby", 3, 0, 70),
    ]
    assert [leader.player for leader in present(store.leaders(limit=1))] == [EVE]


def test_no_table_games_make_an_empty_leaderboard(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    assert store.leaders() == ()
    store.record(game(40, (ANN, None), source=Source.AUTO))
    assert store.leaders() == ()


def test_two_files_holding_the_same_games_in_another_order_list_the_same_leaders(tmp_path: Path):
    """Ties go by the games, never by the order a node got them in."""
    games = [game(10, (ANN, BOB)), game(40, (BOB, EVE)), game(20, (EVE, ANN))]  # each: 2 games, 1 win
    boards = []
    for name, order in (("a", games), ("b", games[::-1])):
        store = StatsStore.open(tmp_path / f"{name}.sqlite3")
        for record in order:
            store.record(record)
        boards.append([(one.player, one.games, one.wins, one.longest) for one in present(store.leaders())])
    assert boards[0] == boards[1]
    assert [player for player, *_ in boards[0]] == [EVE, BOB, ANN]  # the longer game first, then by identity
