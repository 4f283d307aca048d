"""A game record written by anyone (a forged record that reached the statistics file through NATS, or a file
edited by hand) reaches the statistics screen as letters: no escape byte of it reaches a terminal.

The records hold an OSC 8 link, a title change, a clear-screen and a bidi override in every text field the
screen shows (finish time, result, source, gather order, names of a game that is not a table's); the test
reads what the screen draws, line by line as the terminal is sent it, and finds their letters but no escape.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest
from support.stats_app import Host
from textual.widgets import DataTable, Static
from war_ui_support import stats_shown

from war_tui.core.engine import Game
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.stats.text import outcome, when
from war_tui.untrusted import DROPPED_CATEGORIES

pytestmark = pytest.mark.app  # see pyproject.toml's markers

ESCAPES = "\x1b]8;;http://e.vil\x07LINK\x1b]8;;\x07\x1b]0;TITLE\x07\x1b[2J\x1b[HCLEAR\u202eBIDI\x9b31m"


@pytest.fixture
def forged(tmp_path: Path) -> StatsStore:
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path)
    for seed in (3, 4, 5):
        game = Game.deal(seed)
        game.play()
        assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 2.0, Source.AUTO))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET result = ?, source = ?, gather = ? WHERE seed = 3",
                     ("p" + ESCAPES, "s" + ESCAPES, "g" + ESCAPES))
        conn.execute("UPDATE games SET p1_name = ?, p2_name = ?, result = 'p1', finished_at = ? WHERE seed = 4",
                     ("n" + ESCAPES, "m" + ESCAPES, "2026" + ESCAPES))
    conn.close()
    return store


def escapes_in(text: str) -> list[str]:
    return [hex(ord(ch)) for ch in text if ch != "\n" and unicodedata.category(ch) in DROPPED_CATEGORIES]


async def test_the_statistics_screen_draws_no_escape_byte_of_a_forged_record(forged: StatsStore):
    app = Host(forged)
    async with app.run_test(size=(160, 40)) as pilot:
        await stats_shown(pilot)
        await pilot.pause()
        table = app.screen.query_one("#stats-recent", DataTable)
        cells = [cell.plain for row in range(table.row_count) for cell in table.get_row_at(row)]
        assert any("LINK" in cell and "TITLE" in cell for cell in cells), "the forged record is shown, as letters"
        drawn = []
        for widget in [table, *app.screen.query(Static)]:
            for y in range(widget.size.height):
                drawn.append("".join(segment.text for segment in widget.render_line(y)))
        assert any("CLEAR" in line for line in drawn)
        assert escapes_in("\n".join(cells + drawn)) == []


def test_the_words_of_a_forged_record_are_plain_in_the_text_report_too(forged: StatsStore):
    recent = forged.recent()
    assert recent is not None
    shown = [outcome(record) for record in recent] + [when(record.finished_at) for record in recent]
    assert any("LINK" in text for text in shown)
    assert escapes_in("\n".join(shown)) == []
