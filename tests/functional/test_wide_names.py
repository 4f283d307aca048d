"""Wide characters in the players' names (CJK, emoji) never push a frame, a column or a word out of place."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.cells import cell_len
from screen_text import screen_rows
from support.present import present
from war_ui_support import make_app

from war_tui.commands.stats import recent_lines
from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.stats import GameRecord, StatsStore

pytestmark = pytest.mark.app  # see pyproject.toml's markers

WIDE = "山田太郎花子"


@pytest.mark.parametrize("size", [(100, 30), (40, 12)])
async def test_a_wide_name_in_the_pile_stays_inside_its_frame(size):
    app = make_app(names=(WIDE, "Bob"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("space", "space", "space")  # battle 3: the wide-named player takes 2 cards
        await pilot.pause()
        rows = screen_rows(app)
    pile_rows = [row for row in rows if WIDE in row and "takes" in row]
    assert pile_rows, "\n".join(rows)
    for row in pile_rows:
        assert cell_len(row) == size[0] and row.endswith("│"), row
    assert all(cell_len(row) <= size[0] for row in rows)


def test_war_tui_stats_lines_up_its_columns_under_wide_names(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    start = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    for i, names in enumerate([(WIDE, "Bob"), ("Ann", "Bob"), ("🎉 Party", "Bob")]):
        game = Game.deal(i + 1, Rules())
        game.play()
        finished = (start + timedelta(minutes=i)).isoformat(timespec="seconds")
        assert store.record(GameRecord.from_game(game, names, seconds=60, finished_at=finished))
    lines = recent_lines(present(store.recent(3)))
    header = lines[0]
    column = cell_len(header[: header.index("battles") + len("battles")])  # the right edge of the battles column
    for line in lines[1:]:
        cells = [cell_len(line[: i + 1]) for i, char in enumerate(line) if char.isdigit()]
        assert column in cells, (header, line)
