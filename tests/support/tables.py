"""The pieces the tables tests share: a member's recording sink, a table on a fake clock, fixed deals."""

from __future__ import annotations

from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.tables import EventBatch, FakeClock, Notice, Snapshot, Table, TableOptions, TableState
from war_tui.tables.checkpoint import checkpoint, restore


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def dealing(p1: str, p2: str):
    """A deal function that gives every game of a table these packets."""
    return lambda: Game(cards(p1), cards(p2))


class Recorder:
    """A member's sink that keeps everything it is told."""

    def __init__(self) -> None:
        self.updates: list = []

    def __call__(self, update) -> None:
        self.updates.append(update)

    def clear(self) -> None:
        self.updates.clear()

    def notices(self) -> list[Notice]:
        return [u for u in self.updates if isinstance(u, Notice)]

    def texts(self) -> list[str]:
        return [n.text for n in self.notices()]

    def events(self) -> list:
        return [e for u in self.updates if isinstance(u, EventBatch) for e in u.events]

    def state(self) -> TableState:
        for update in reversed(self.updates):
            if isinstance(update, TableState):
                return update
            if isinstance(update, Snapshot):
                return update.state
        raise AssertionError("no state was sent")

    def snapshots(self) -> list[Snapshot]:
        return [u for u in self.updates if isinstance(u, Snapshot)]


def make_table(deal=None, records=None, log=None, **options) -> tuple[Table, FakeClock]:
    """Table oak on a fake clock, seed 42, nonce ``5eed``: its checkpoints and its games' ids are the same every run."""
    clock = FakeClock()
    table = Table(
        "oak", clock=clock, options=TableOptions(**options), deal=deal, seed_source=lambda: 42,
        on_record=records.append if records is not None else None, log=log, nonce="5eed",
    )
    return table, clock


def run_until_idle(table: Table, clock: FakeClock, limit: int = 100_000) -> None:
    """Poll the table at each of its deadlines until it has none (or the game is over)."""
    for _ in range(limit):
        deadline = table.next_deadline()
        if deadline is None or table.game.over:
            return
        clock.now = max(clock.now, deadline)
        table.poll()
    raise AssertionError("the table kept asking for time")


def restored(table: Table, clock: FakeClock, **kwargs) -> tuple[Table, FakeClock]:
    """``table`` checkpointed and restored on a clock of its own that reads the same time (another process's)."""
    again = FakeClock(clock.now)
    return restore(checkpoint(table), clock=again, options=table.options, **kwargs), again
