"""What War TV looks like: on a table (oak of the busy registry), and with no table to show.

Regenerate after a deliberate change with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import pytest
from table_support import DirectHost, busy_registry, direct_app

from war_tui.serving.tv import CLOSEST, NO_TABLE
from war_tui.tables.messages import Tuned

pytestmark = pytest.mark.app  # see pyproject.toml's markers


class TvHost(DirectHost):
    """War TV's connection straight to a registry: the server's word of the table (``Tuned``), then the table."""

    def __init__(self, registry, tuned: Tuned) -> None:
        super().__init__(registry, "lou", tuned.table, watch=True)
        self.tuned = tuned

    def start(self, loop) -> None:
        self.game.handle(self.tuned)
        if self.tuned.table is not None:
            super().start(loop)


def on_oak():
    return direct_app(TvHost(busy_registry(), Tuned("oak", CLOSEST)), mode="tv")


def no_table():
    return direct_app(TvHost(busy_registry(), Tuned(None, NO_TABLE)), mode="tv")


@pytest.mark.parametrize(("factory", "size"), [(on_oak, (100, 30)), (no_table, (80, 24))], ids=["on-oak", "no-table"])
def test_tv_screen_state(snap_compare, factory, size):
    assert snap_compare(factory(), terminal_size=size)
