"""What the statistics screens and commands read from the file: totals, game lengths, recent games, leaders.

Each reader takes a connection already inside one read transaction (the store opens it), so the parts of
one answer come from one snapshot and agree with each other. A ``Scope`` narrows a read to one player's
games; ``seen_by`` takes other people's names out of what that player is shown.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from typing import Any

from ..core.rules import EndReason, Gather, Result
from .records import Bin, GameRecord, Histogram, Leader, Source, Totals, known
from .seasons import ALL_TIME, Season, season_bounds

OVERFLOW_MIN_GAMES = 100  # below this the "top 1%" is a single game: no overflow bin
HISTOGRAM_BINS = 48  # divisible by 2, 3, 4, 6, 8, 12, 16, 24: merges evenly to narrower charts
LEADERS = 100  # identities the leaderboard lists unless told
MAX_LEADERS = 1_000  # and at most

COLUMNS = (
    "id, finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result, end_reason,"
    " battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player"
)


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals, histogram and recent games read in one transaction, so they agree with each other."""

    totals: Totals
    histogram: Histogram
    recent: tuple[GameRecord, ...]


def row_to_record(row: tuple[Any, ...]) -> GameRecord:
    """A row of ``COLUMNS`` as a record; values this war-tui does not know stay as their text."""
    (id_, finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result, reason,
     battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player) = row
    return GameRecord(
        finished_at=finished_at, seed=seed, war_cards=war_cards, gather=known(Gather, gather),
        max_battles=max_battles, p1_name=p1_name, p2_name=p2_name, result=known(Result, result),
        reason=known(EndReason, reason), battles=battles, wars=wars, longest_war=longest_war,
        p1_count=p1_count, p2_count=p2_count, seconds=seconds, source=known(Source, source),
        p1_player=p1_player, p2_player=p2_player, id=id_,
    )


@dataclass(frozen=True, slots=True)
class Scope:
    """Which games a read counts: all of them, or those one player sat in (``where`` joins with AND)."""

    where: str = "1"
    params: tuple[str, ...] = ()

    @classmethod
    def of(cls, player: str | None) -> Scope:
        if player is None:
            return cls()
        return cls("(p1_player = ? OR p2_player = ?)", (player, player))


def _one(conn: sqlite3.Connection, scope: Scope, order: str) -> GameRecord | None:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM games WHERE {scope.where} ORDER BY {order}, id DESC LIMIT 1", scope.params
    ).fetchone()
    return row_to_record(row) if row else None


def _nth_battles(conn: sqlite3.Connection, scope: Scope, offset: int, limit: int = 1) -> list[int]:
    rows = conn.execute(
        f"SELECT battles FROM games WHERE {scope.where} ORDER BY battles LIMIT ? OFFSET ?",
        (*scope.params, limit, offset),
    ).fetchall()
    return [r[0] for r in rows]


def read_totals(conn: sqlite3.Connection, scope: Scope = Scope()) -> Totals:
    row = conn.execute(
        "SELECT count(*), total(battles), total(wars), total(seconds), min(finished_at),"
        f" max(finished_at) FROM games WHERE {scope.where}",
        scope.params,
    ).fetchone()
    games = row[0]
    if games == 0:
        return Totals.empty()
    results: dict[Result | str, int] = {r: 0 for r in Result}
    for result, count in conn.execute(
        f"SELECT result, count(*) FROM games WHERE {scope.where} GROUP BY result ORDER BY result", scope.params
    ):
        results[known(Result, str(result))] = count
    middle = _nth_battles(conn, scope, (games - 1) // 2, 2 - games % 2)
    return Totals(
        games=games,
        results=results,
        total_battles=int(row[1]),
        total_wars=int(row[2]),
        seconds_played=row[3],
        mean_battles=row[1] / games,
        median_battles=sum(middle) / len(middle),
        longest=_one(conn, scope, "battles DESC"),
        shortest=_one(conn, scope, "battles ASC"),
        most_wars=_one(conn, scope, "wars DESC"),
        deepest_war=_one(conn, scope, "longest_war DESC"),
        first_at=row[4],
        last_at=row[5],
    )


def read_histogram(conn: sqlite3.Connection, bins: int, scope: Scope = Scope()) -> Histogram:
    games, low, high = conn.execute(
        f"SELECT count(*), min(battles), max(battles) FROM games WHERE {scope.where}", scope.params
    ).fetchone()
    if games == 0:
        return Histogram(())
    bins = max(1, bins)
    overflow = None
    top = _nth_battles(conn, scope, (games - 1) * 99 // 100)[0]  # the 99th percentile
    if games >= OVERFLOW_MIN_GAMES and high > 2 * top:
        count = conn.execute(
            f"SELECT count(*) FROM games WHERE {scope.where} AND battles > ?", (*scope.params, top)
        ).fetchone()[0]
        overflow = Bin(top + 1, high, count)
        high = top
    width = -(-(high - low + 1) // bins)
    counts = dict(
        conn.execute(
            f"SELECT (battles - ?) / ?, count(*) FROM games WHERE {scope.where} AND battles <= ? GROUP BY 1",
            (low, width, *scope.params, high),
        ).fetchall()
    )
    used = (high - low) // width + 1
    return Histogram(
        tuple(
            Bin(low + i * width, min(high, low + (i + 1) * width - 1), counts.get(i, 0))
            for i in range(used)
        ),
        overflow,
    )


def read_recent(conn: sqlite3.Connection, limit: int, scope: Scope = Scope()) -> list[GameRecord]:
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM games WHERE {scope.where} ORDER BY finished_at DESC, id DESC LIMIT ?",
        (*scope.params, max(0, limit)),
    ).fetchall()
    return [row_to_record(r) for r in rows]


def read_game(conn: sqlite3.Connection, game_id: int | str) -> list[GameRecord]:
    """The game stored with this id (its row's, or a table game's own, ``TABLE_GAME_ID``): one record, or none."""
    column = "game_id" if isinstance(game_id, str) else "id"
    return [row_to_record(r) for r in conn.execute(f"SELECT {COLUMNS} FROM games WHERE {column} = ?", (game_id,))]


_SEATS = """
    SELECT {me}_player AS player, count(*) AS games, total(result = '{me}') AS wins, max(battles) AS longest,
           max(id) AS last
    FROM games
    WHERE source = 'table' AND {me}_player IS NOT NULL AND {me}_player IS NOT {other}_player
    GROUP BY {me}_player"""
LEADERS_QUERY = f"""
    WITH seats AS ({_SEATS.format(me="p1", other="p2")} UNION ALL {_SEATS.format(me="p2", other="p1")})
    SELECT player, sum(games), sum(wins), max(longest), max(last) FROM seats
    GROUP BY player ORDER BY 3 DESC, 2 ASC, 4 DESC, 1 ASC LIMIT ?"""
"""Each seat's games from its own partial index, in the index's order (no sort, no visit to the table), then
the two seats of each identity together: a read of the seats, not of the games. A file of schema 4 keeps
each season's standings instead (``SEASON_QUERY``); this serves an older file read as it is. Ties go by the games
themselves (fewer games, then the longer game, then the identity), never by the order this file got them in,
so two nodes holding the same games list them alike."""


SEASON_QUERY = """
    SELECT player, games, wins, longest, longest_id, name FROM season_seats WHERE season = ?
    ORDER BY wins DESC, games ASC, longest DESC, player ASC LIMIT ?"""
"""A season's standings, kept by the file's trigger (schema 4), read in the rank index's order: a read of at
most ``limit`` rows however many games the season holds."""


def read_leaders(conn: sqlite3.Connection, limit: int, season: Season = ALL_TIME) -> tuple[Leader, ...]:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'season_seats'").fetchone():
        return tuple(
            Leader(player=player, name=name, games=games, wins=wins, longest=longest, longest_id=longest_id)
            for player, games, wins, longest, longest_id, name in conn.execute(SEASON_QUERY, (season.key, limit))
        )
    return _leaders_from_games(conn, limit, season)  # an older file, read as it is


def _leaders_from_games(conn: sqlite3.Connection, limit: int, season: Season) -> tuple[Leader, ...]:
    bounds = season_bounds(season)
    query = LEADERS_QUERY
    params: tuple[object, ...] = (limit,)
    if bounds is not None:
        query = query.replace("source = 'table'", "source = 'table' AND date(finished_at) >= ? AND date(finished_at) < ?")
        params = (*bounds, *bounds, limit)
    rows = conn.execute(query, params).fetchall()
    last = {row[4] for row in rows}
    names: dict[tuple[int, str], str] = {}
    for id_, p1, p1_name, p2, p2_name in conn.execute(
        f"SELECT id, p1_player, p1_name, p2_player, p2_name FROM games WHERE id IN ({','.join('?' * len(last))})",
        tuple(last),
    ):
        names[(id_, p1)] = p1_name
        names[(id_, p2)] = p2_name
    return tuple(
        Leader(player=player, name=names.get((last_id, player), ""), games=games, wins=int(wins), longest=longest)
        for player, games, wins, longest, last_id in rows
    )


def seen_by(summary: Summary, player: str) -> Summary:
    """Every record of ``summary`` as ``player`` may see it: other people's names are not theirs to see."""
    totals = summary.totals

    def seen(record: GameRecord | None) -> GameRecord | None:
        return record.seen_by(player) if record is not None else None

    return Summary(
        replace(
            totals, longest=seen(totals.longest), shortest=seen(totals.shortest),
            most_wars=seen(totals.most_wars), deepest_war=seen(totals.deepest_war),
        ),
        summary.histogram,
        tuple(record.seen_by(player) for record in summary.recent),
    )
