"""The statistics screen: its picture over a fixed file, replay from the table, and its quiet states."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.locks import locked
from support.present import present
from support.stats_app import Host
from textual.widgets import DataTable
from war_ui_support import stats_shown, until

from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Rules
from war_tui.stats import GameRecord, Source, StatsStore
from war_tui.stats import store as store_module
from war_tui.ui.screens.stats import StatsScreen

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # see pyproject.toml's markers

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
SOURCES = (Source.INTERACTIVE, Source.AUTO, Source.SCREENSAVER)


@pytest.fixture(autouse=True)
def utc_clock(monkeypatch):
    """Times show in local time: pin the zone so the picture is the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def played(tmp_path: Path) -> StatsStore:
    """40 real games, one a minute from a fixed time, the last one with house rules."""
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    for seed in range(1, 41):
        rules = Rules(war_cards=2, gather=Gather.LOSER_FIRST) if seed == 40 else Rules()
        game = Game.deal(seed, rules)
        game.play()
        finished = (START + timedelta(minutes=seed)).isoformat(timespec="seconds")
        record = GameRecord.from_game(
            game, ("Ann", "Bob"), seconds=game.battles / 4, source=SOURCES[seed % 3], finished_at=finished
        )
        assert store.record(record)
    return store


def test_snapshot_of_the_stats_screen(snap_compare, played: StatsStore):
    assert snap_compare(Host(played), terminal_size=(80, 24), run_before=stats_shown)


def test_snapshot_of_the_stats_screen_on_a_larger_terminal(snap_compare, played: StatsStore):
    assert snap_compare(Host(played), terminal_size=(110, 36), run_before=stats_shown)


async def test_enter_on_a_recent_game_asks_the_app_to_replay_that_deal(played: StatsStore):
    app = Host(played)
    async with app.run_test(size=(80, 24)) as pilot:
        await stats_shown(pilot)
        table = app.screen.query_one("#stats-recent", DataTable)
        assert app.focused is table and table.row_count == 40
        await pilot.press("enter")  # the newest game: seed 40, house rules
        await pilot.pause()
        assert [(r.seed, r.rules) for r in app.replays] == [(40, Rules(war_cards=2, gather=Gather.LOSER_FIRST))]
        assert not isinstance(app.screen, StatsScreen)  # back to the game for the replay

        app.push_screen(StatsScreen(played))
        await stats_shown(pilot)
        await pilot.press("down", "down", "enter")  # the third newest: seed 38, standard rules
        await pilot.pause()
        assert [(r.seed, r.rules) for r in app.replays][1] == (38, Rules())
        assert app.replays[1].record.battles == _battles(38)


async def test_escape_and_s_close_the_screen(played: StatsStore):
    app = Host(played)
    async with app.run_test() as pilot:
        await stats_shown(pilot)
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen)
        app.push_screen(StatsScreen(played))
        await stats_shown(pilot)
        await pilot.press("s")
        assert not isinstance(app.screen, StatsScreen) and app.replays == []


async def test_the_numbers_on_screen_are_the_stores(played: StatsStore):
    totals = present(played.totals())
    app = Host(played)
    async with app.run_test(size=(100, 30)) as pilot:
        await stats_shown(pilot)
        title = str(app.screen.query_one("#stats-title").render())
        assert f"40 games since 2024-05-01 · {totals.total_battles:,} battles" in title
        figures = str(app.screen.query_one("#stats-figures").render())
        assert f"{present(totals.longest).battles:,} battles · seed {present(totals.longest).seed}" in figures
        assert f"{present(totals.most_wars).wars:,} wars in a game · seed {present(totals.most_wars).seed}" in figures
        shares = str(app.screen.query_one("#stats-shares").render())
        assert f"Player 1 wins {totals.results['p1']:>2}" in shares


async def test_a_corrupt_file_shows_why_statistics_are_off(tmp_path: Path):
    bad = tmp_path / "stats.sqlite3"
    bad.write_text("not a database at all\n" * 20)
    app = Host(StatsStore.open(bad))
    async with app.run_test() as pilot:
        await stats_shown(pilot)
        off = str(app.screen.query_one("#stats-off").render())
        assert off == f"Statistics are off: {bad} is not a statistics file (not an SQLite database); it was left untouched."
        assert "cannot be read" in str(app.screen.query_one("#stats-message").render())
        assert not app.screen.query("#stats-recent")
        await pilot.press("enter")  # nothing to replay: nothing happens, nothing breaks
        assert app.replays == []


async def test_no_games_yet_says_so(tmp_path: Path):
    app = Host(StatsStore.open(tmp_path / "stats.sqlite3"))
    async with app.run_test() as pilot:
        await stats_shown(pilot)
        assert str(app.screen.query_one("#stats-message").render()).startswith("No games recorded yet.")
        assert not app.screen.query("#stats-off")


async def test_no_stats_chosen_says_only_that(tmp_path: Path):
    app = Host(StatsStore.off("--no-stats was given"))
    async with app.run_test() as pilot:
        await stats_shown(pilot)
        off = str(app.screen.query_one("#stats-off").render())
        assert off == "Statistics are off: --no-stats was given."
        assert not app.screen.query("#stats-message")


def _battles(seed: int) -> int:
    game = Game.deal(seed)
    game.play()
    return game.battles


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (64, 20), (143, 30)])
async def test_a_full_share_keeps_every_result_row(tmp_path: Path, size: tuple[int, int]):
    """One game, so one result is 100.0%: its bar must not be a cell too wide and push a row out."""
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    game = Game.deal(2)
    game.play()
    assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 1.0, Source.AUTO))
    app = Host(store)
    async with app.run_test(size=size) as pilot:
        await stats_shown(pilot)
        shares = app.screen.query_one("#stats-shares")
        await until(pilot, lambda: shares.region.height > 2)  # laid out after the read, not with it
        box = [strip.text for strip in shares.render_lines(shares.region.reset_offset)]
        lines = [line[1:-1].strip() for line in box[1:-1]]  # inside the border, without the padding
        starts = ("Player 1 wins", "Player 2 wins", "Draws", "Stopped")
        assert [line[: len(s)] for line, s in zip(lines, starts, strict=False)] == list(starts), lines
        full = next(line for line in lines if "100.0%" in line)
        if size[0] >= 80:  # narrower, the panel has room for the figures only
            assert full.endswith("█"), lines


async def test_games_waiting_on_a_locked_file_are_shown_as_waiting_not_off(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(store_module, "RETRY_FIRST", 600.0)
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path, busy_timeout=0.05)
    game = Game.deal(2)
    game.play()
    with locked(path, "IMMEDIATE"):
        assert not store.record(GameRecord.from_game(game, ("Ann", "Bob"), 1.0, Source.AUTO))
        app = Host(store)
        async with app.run_test(size=(100, 30)) as pilot:
            await stats_shown(pilot)
            note = str(app.screen.query_one("#stats-off").render())
            assert note == "1 finished game is waiting to be saved: another program has the file locked. Retrying."
    assert store.flush() and present(store.totals()).games == 1


async def test_the_recent_games_fit_an_80_column_terminal(played: StatsStore):
    app = Host(played)
    async with app.run_test(size=(80, 24)) as pilot:
        await stats_shown(pilot)
        table = app.screen.query_one("#stats-recent", DataTable)
        assert table.max_scroll_x == 0  # every column in view, no sideways scrolling
        labels = [str(column.label) for column in table.columns.values()]
        assert labels == ["Finished", "Seed", "Winner", "Battles", "Wars", "Deep", "How", "Rules"]
        newest = table.get_row_at(0)
        assert str(newest[-1]) == "2 down loser" and str(newest[-2]) in ("hand", "auto", "saver")


async def test_the_tallest_bar_of_one_game_is_one_game(tmp_path: Path):
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    game = Game.deal(2)
    game.play()
    assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 1.0, Source.AUTO))
    app = Host(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await stats_shown(pilot)
        assert app.screen.query_one("#stats-histogram").border_subtitle == "tallest bar 1 game"
