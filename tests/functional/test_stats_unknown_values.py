"""A newer war-tui may write values this one does not know (a result, a source, a gather order,
rules out of today's range): they are shown as they are, never a crash."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import run_main
from textual.app import App
from textual.widgets import DataTable
from war_ui_support import stats_shown

from war_tui.core.engine import Game
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.ui.screens.stats import StatsScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path)
    for seed in (3, 4, 5, 6):
        game = Game.deal(seed)
        game.play()
        assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 2.0, Source.AUTO))
    with sqlite3.connect(path) as conn:  # what a newer war-tui might write
        conn.execute("UPDATE games SET result = 'forfeit', source = 'tournament' WHERE seed = 3")
        conn.execute("UPDATE games SET gather = 'spiral', end_reason = 'timeout' WHERE seed = 4")
        conn.execute("UPDATE games SET war_cards = 9 WHERE seed = 5")
    conn.close()
    return path


def test_the_text_report_shows_unknown_values_as_they_are(db: Path, capsys):
    code, out, err = run_main(["stats", "--stats-db", str(db)], capsys)
    assert code == 0 and err == ""
    assert "4 games" in out
    results = out.split("\n\n")[1]
    assert "forfeit" in results and "1" in results.split("forfeit")[1]
    recent = out.split("Recent games:\n")[1]
    assert "forfeit" in recent and "spiral" in recent and "9 down" in recent


def test_the_json_report_shows_unknown_values_as_they_are(db: Path, capsys):
    code, out, err = run_main(["stats", "--json", "--stats-db", str(db)], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["games"] == 4
    assert data["results"]["forfeit"]["count"] == 1
    assert sum(r["count"] for r in data["results"].values()) == 4
    by_seed = {g["seed"]: g for g in data["recent"]}
    assert by_seed[3]["result"] == "forfeit" and by_seed[3]["source"] == "tournament"
    assert by_seed[4]["rules"]["gather"] == "spiral" and by_seed[4]["reason"] == "timeout"
    assert by_seed[5]["rules"]["war_cards"] == 9


class Host(App[None]):
    def __init__(self, store: StatsStore) -> None:
        super().__init__()
        self.store = store
        self.replays: list = []

    def on_mount(self) -> None:
        self.push_screen(StatsScreen(self.store))

    def on_stats_screen_replay_requested(self, message) -> None:
        self.replays.append(message)


async def test_the_stats_screen_shows_unknown_values_and_replays_only_known_rules(db: Path):
    app = Host(StatsStore.open(db))
    async with app.run_test(size=(100, 30)) as pilot:
        await stats_shown(pilot)
        assert isinstance(app.screen, StatsScreen)
        table = app.screen.query_one("#stats-recent", DataTable)
        assert table.row_count == 4
        cells = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(4)]
        assert any("forfeit" in row and "tournament" in row for row in cells), cells
        assert any("spiral" in row for row in cells), cells
        rows = {str(table.get_row_at(i)[1]): i for i in range(4)}  # by seed
        table.move_cursor(row=rows["5"])
        await pilot.press("enter")  # rules this war-tui cannot play: said so, not dealt with other rules
        await pilot.pause()
        assert app.replays == []
        table.move_cursor(row=rows["6"])
        await pilot.press("enter")
        await pilot.pause()
        assert [r.seed for r in app.replays] == [6]
