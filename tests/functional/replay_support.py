"""Served statistics for the tests of served replays and exports: a table game anyone may replay and a solo game
only its own player may."""

from __future__ import annotations

from pathlib import Path

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.stats import GameRecord, Source, StatsStore


def finished(seed: int, source: Source, names: tuple[str, str], players: tuple[str | None, str | None]) -> GameRecord:
    game = Game.deal(seed, Rules())
    game.start()
    while not game.over:
        game.play(256)
    return GameRecord.from_game(game, names, 1.0, source, players=players,
                                game_id=f"oak.5eed.{seed}" if source == Source.TABLE else None)


def served_stats(path: Path) -> tuple[int, int]:
    """A table game of '[i]ann' and 'bo' (id 1) and someone else's solo game (id 2); their battles."""
    store = StatsStore.open(path)
    table = finished(0, Source.TABLE, ("[i]ann", "bo"), ("key:SHA256:ann", "key:SHA256:bo"))
    solo = finished(1, Source.INTERACTIVE, ("eve", "house"), ("key:SHA256:eve", None))
    assert store.record(table) and store.record(solo)
    return table.battles, solo.battles
