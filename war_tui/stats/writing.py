"""How a finished game becomes a row of the statistics file, and how a capped file makes room.

Apart from the queries because writing has rules of its own: a table game's id is stored once however
often it is delivered, and a served file at its row cap loses its oldest games in one step (the seasons'
standings stay, those of weeks and months two years older than the newest game excepted).
"""

from __future__ import annotations

import sqlite3

from .records import GameRecord

INSERT = (
    "INSERT INTO games (finished_at, seed, war_cards, gather, max_battles, p1_name, p2_name, result,"
    " end_reason, battles, wars, longest_war, p1_count, p2_count, seconds, source, p1_player, p2_player, game_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
"""A game whose ``game_id`` is stored already is not stored again (only the unique id can conflict)."""

TRIM_SHARE = 10
"""A file at its row cap loses its oldest tenth at once: one DELETE per that many games, not one per game."""


def record_row(game: GameRecord) -> tuple[object, ...]:
    """``game`` as the values of ``INSERT``, in its order."""
    return (
        game.finished_at, game.seed, game.war_cards, str(game.gather), game.max_battles,
        game.p1_name, game.p2_name, str(game.result), str(game.reason), game.battles, game.wars,
        game.longest_war, game.p1_count, game.p2_count, game.seconds, str(game.source),
        game.p1_player, game.p2_player, game.game_id,
    )


def insert(conn: sqlite3.Connection, games: list[GameRecord], max_rows: int | None) -> int:
    """Inside a write transaction: store ``games``, then keep the file under ``max_rows``; returns the games
    deleted to do so."""
    conn.executemany(INSERT, [record_row(game) for game in games])
    return trim(conn, max_rows) if max_rows is not None else 0


def trim(conn: sqlite3.Connection, max_rows: int) -> int:
    """Inside a write transaction: past ``max_rows`` games, delete the oldest down to nine tenths of it.

    Cheap while under the cap: ids only grow (a trim takes the oldest), so max(id) - min(id) bounds the
    count from the rowid's two ends; the exact count is taken only past the cap. Returns the games deleted.
    """
    low, high = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
    if low is None or high - low + 1 <= max_rows:
        return 0
    if conn.execute("SELECT count(*) FROM games").fetchone()[0] <= max_rows:
        return 0
    keep = max(1, max_rows - max_rows // TRIM_SHARE)
    first_kept = conn.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?", (keep - 1,)).fetchone()[0]
    deleted: int = conn.execute("DELETE FROM games WHERE id < ?", (first_kept,)).rowcount
    prune_seasons(conn)
    return deleted


SEASONS_KEPT = "-2 years"
"""How far back from the newest game a week's or a month's standings are kept (all time is kept whole)."""


def prune_seasons(conn: sqlite3.Connection) -> None:
    """Inside a write transaction: forget the standings of weeks and months that ended long before the newest
    game, so the standings stay bounded as the games are."""
    newest = conn.execute("SELECT finished_at FROM games ORDER BY id DESC LIMIT 1").fetchone()
    if newest is None:
        return
    conn.execute(
        "DELETE FROM season_seats WHERE (season >= 'week ' AND season < 'week ' || date(?1, ?2))"
        " OR (season >= 'month ' AND season < 'month ' || strftime('%Y-%m', ?1, ?2))",
        (newest[0], SEASONS_KEPT),
    )


def is_locked(exc: BaseException) -> bool:
    """Another connection holds the file: it passes, so it must not turn statistics off."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
