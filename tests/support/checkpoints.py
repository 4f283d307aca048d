"""Forged checkpoints: valid bytes a stranger who reaches NATS may write into the tables bucket."""

from __future__ import annotations

import json
from functools import lru_cache

from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Rules
from war_tui.tables import FakeClock, TableOptions
from war_tui.tables.checkpoint import checkpoint
from war_tui.tables.table import Table

ENDLESS_SEED = 293
"""A deal that never ends by itself when the winner gathers cards as laid: it runs on to the battle cap."""
ENDLESS_RULES = Rules(1, Gather.LAID, 1_000_000)


@lru_cache(maxsize=8)
def _reached(battles: int) -> tuple[tuple[int, int], list[str] | None]:
    """The counts and end (at the cap) of the endless deal after ``battles`` battles."""
    game = Game.deal(ENDLESS_SEED, ENDLESS_RULES)
    game.start()
    game.play(battles)
    end = [game.result.value, game.reason.value] if game.result is not None and game.reason is not None else None
    return game.counts, end


def long_checkpoint(name: str, battles: int) -> bytes:
    """A checkpoint of table ``name`` whose game (under ``ENDLESS_RULES``) claims ``battles`` battles played, every
    field as a server writes it: restoring it replays every one of them."""
    body = json.loads(checkpoint(Table(name, clock=FakeClock(), options=TableOptions())))
    rules = ENDLESS_RULES
    counts, end = _reached(battles)
    body["game"].update(rules=[rules.war_cards, rules.gather.value, rules.max_battles], seed=ENDLESS_SEED, deck=None,
                        b=battles, counts=list(counts), end=end)
    body["log"] = []
    return json.dumps(body, separators=(",", ":")).encode()
