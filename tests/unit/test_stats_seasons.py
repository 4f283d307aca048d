"""The leaderboard's seasons: this week, this month and all time in UTC, past seasons kept."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from support.present import present

from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source, StatsStore, schema
from war_tui.stats.seasons import Season, Span

ANN, BOB, EVE = "key:SHA256:ann", "key:SHA256:bob", "addr:eve"


def game(when: str, players: tuple[str, str], result: Result = Result.P1, battles: int = 10,
         names: tuple[str, str] = ("ann", "bob")) -> GameRecord:
    return GameRecord(
        finished_at=when, seed=battles, war_cards=1, gather=Gather.WINNER_FIRST, max_battles=10_000,
        p1_name=names[0], p2_name=names[1], result=result, reason=EndReason.ALL_CARDS, battles=battles, wars=1,
        longest_war=1, p1_count=52, p2_count=0, seconds=1.0, source=Source.TABLE,
        p1_player=players[0], p2_player=players[1],
    )


def board(store: StatsStore, season: Season) -> list[tuple[str, int, int, int]]:
    return [(one.player, one.games, one.wins, one.longest) for one in present(store.leaders(season=season))]


def test_a_week_runs_monday_to_sunday_and_a_month_from_its_first_day_in_utc():
    sunday_late = datetime(2026, 12, 13, 23, 30, tzinfo=UTC)
    assert Season.of(Span.WEEK, sunday_late) == Season(Span.WEEK, date(2026, 12, 7))
    monday_in_tokyo = datetime(2026, 12, 14, 8, 0, tzinfo=timezone(timedelta(hours=9)))  # still Sunday in UTC
    assert Season.of(Span.WEEK, monday_in_tokyo).key == "week 2026-12-07"
    assert Season.of(Span.MONTH, datetime(2027, 1, 1, 0, 0, tzinfo=UTC)).key == "month 2027-01"
    week = Season(Span.WEEK, date(2026, 12, 28))
    assert week.describe(date(2026, 12, 30)) == "this week, 28 Dec-3 Jan 2027"
    assert present(week.previous()).describe(date(2026, 12, 30)) == "the week of 21-27 Dec 2026"
    assert Season(Span.MONTH, date(2026, 12, 1)).next() == Season(Span.MONTH, date(2027, 1, 1))
    assert Season(Span.ALL).previous() is None and Season(Span.ALL).describe(date.today()) == "all time"


@settings(max_examples=60, deadline=None)
@given(st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2099, 12, 31),
                    timezones=st.sampled_from([UTC, timezone(timedelta(hours=-11)), timezone(timedelta(hours=13))])))
def test_the_files_seasons_are_the_ones_python_names(tmp_path_factory, when: datetime):
    """The trigger's SQLite dates and seasons.py's Python dates name the same week and month for any moment."""
    path = tmp_path_factory.mktemp("seasons") / "served.sqlite3"
    store = StatsStore.open(path)
    store.record(game(when.isoformat(), (ANN, BOB)))
    with sqlite3.connect(path) as conn:
        kept = {row[0] for row in conn.execute("SELECT season FROM season_seats WHERE player = ?", (ANN,))}
    conn.close()
    assert kept == {"all", Season.of(Span.WEEK, when).key, Season.of(Span.MONTH, when).key}


def test_each_season_counts_only_its_own_games(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3")
    store.record(game("2026-11-20T10:00:00+00:00", (BOB, ANN), battles=300))  # November: bob wins
    store.record(game("2026-12-01T10:00:00+00:00", (EVE, ANN), battles=40))  # last week: eve wins
    store.record(game("2026-12-08T10:00:00+00:00", (ANN, BOB), battles=20))  # this week: ann wins twice
    store.record(game("2026-12-09T10:00:00+00:00", (ANN, EVE), battles=30))
    week, month = Season(Span.WEEK, date(2026, 12, 7)), Season(Span.MONTH, date(2026, 12, 1))
    assert board(store, week) == [(ANN, 2, 2, 30), (EVE, 1, 0, 30), (BOB, 1, 0, 20)]  # the longer game first
    assert board(store, present(week.previous())) == [(EVE, 1, 1, 40), (ANN, 1, 0, 40)]
    assert board(store, month) == [(ANN, 3, 2, 40), (EVE, 2, 1, 40), (BOB, 1, 0, 20)]
    assert board(store, present(month.previous())) == [(BOB, 1, 1, 300), (ANN, 1, 0, 300)]
    assert board(store, Season(Span.ALL)) == [(ANN, 4, 2, 300), (BOB, 2, 1, 300), (EVE, 2, 1, 40)]
    assert board(store, Season(Span.WEEK, date(2026, 12, 14))) == []
    longest = present(store.leaders(season=month))[0]
    assert longest.longest_id is not None
    assert present(store.game(longest.longest_id))[0].battles == 40  # enter on the row replays this game


def test_a_past_season_stays_when_the_row_cap_deletes_its_games(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3", max_rows=1_000)
    store.record(game("2026-11-03T10:00:00+00:00", (EVE, BOB), battles=99))
    assert store.record_all([game("2026-12-10T10:00:00+00:00", (ANN, BOB))] * 1_000)
    assert all(record.p1_player == ANN for record in present(store.recent(2_000)))  # eve's game is gone
    assert board(store, Season(Span.MONTH, date(2026, 11, 1))) == [(EVE, 1, 1, 99), (BOB, 1, 0, 99)]
    assert board(store, Season(Span.ALL))[:2] == [(ANN, 1_000, 1_000, 10), (EVE, 1, 1, 99)]


def test_standings_of_seasons_two_years_before_the_newest_game_go_with_the_cap(tmp_path: Path):
    store = StatsStore.open(tmp_path / "served.sqlite3", max_rows=1_000)
    store.record(game("2024-01-10T10:00:00+00:00", (EVE, BOB)))
    assert board(store, Season(Span.MONTH, date(2024, 1, 1))) == [(EVE, 1, 1, 10), (BOB, 1, 0, 10)]
    assert store.record_all([game("2026-05-01T10:00:00+00:00", (ANN, BOB))] * 1_000)
    assert board(store, Season(Span.MONTH, date(2024, 1, 1))) == []
    assert board(store, Season(Span.MONTH, date(2026, 5, 1)))[0] == (ANN, 1_000, 1_000, 10)
    assert EVE in [player for player, *_ in board(store, Season(Span.ALL))]


def test_a_file_of_schema_3_gains_its_seasons_from_the_games_it_holds(tmp_path: Path):
    path = tmp_path / "served.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as conn:
        for version in (1, 2, 3):
            for statement in schema.MIGRATIONS[version]:
                conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = 3")
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        for when, p1, p2, result in (("2026-12-08", ANN, BOB, "p1"), ("2026-12-01", BOB, ANN, "p1"),
                                     ("2026-12-09", ANN, ANN, "p1")):
            conn.execute(
                "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
                " end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player)"
                f" VALUES ('{when}T09:00:00+00:00', 1, 1, 'winner-first', 10000, 'a', 'b', '{result}', 'all-cards',"
                f" 12, 0, 0, 52, 0, 1.0, 'table', '{p1}', '{p2}')"
            )
    conn.close()
    week = Season(Span.WEEK, date(2026, 12, 7))
    read_only = StatsStore.open(path, read_only=True)  # left as it is: its games are counted by date
    assert board(read_only, week) == [(ANN, 1, 1, 12), (BOB, 1, 0, 12)]
    store = StatsStore.open(path)
    assert board(store, week) == [(ANN, 1, 1, 12), (BOB, 1, 0, 12)]
    assert board(store, Season(Span.ALL)) == [(ANN, 2, 1, 12), (BOB, 2, 1, 12)]
    store.record(dataclasses.replace(game("2026-12-10T09:00:00+00:00", (BOB, ANN)), battles=50))
    assert board(store, week) == [(ANN, 2, 1, 50), (BOB, 2, 1, 50)]  # the trigger keeps them up from here
