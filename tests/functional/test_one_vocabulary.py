"""One vocabulary and one number format: the same game reads the same on every screen and command."""

from __future__ import annotations

from pathlib import Path

import pytest
from screen_text import screen_text
from support.present import present
from textual.app import App
from war_ui_support import make_app, stats_shown, until

from war_tui.commands.simulate import report, simulate, text_report
from war_tui.commands.stats import text_report as stats_report
from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.presentation.speed import MAX
from war_tui.presentation.words import deepest_war_text
from war_tui.stats import GameRecord, StatsStore
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.stats import StatsScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers


def line_with(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if label in line)


async def test_the_deepest_war_is_worded_alike_in_simulate_stats_the_stats_screen_and_game_over(tmp_path: Path):
    tally = simulate(200, 1, Rules(), 1)
    data = report(tally, 1, Rules(), 1, 1.0)
    deepest = data["deepest_war"]
    assert isinstance(deepest, dict)
    depth, seed = deepest["depth"], deepest["seed"]
    assert depth >= 3  # deep enough that every wording differed
    words = deepest_war_text(depth)

    simulated = line_with(text_report(data, Rules()), "Deepest war")

    game = Game.deal(seed, Rules())
    game.play()
    assert game.longest_war == depth
    store = StatsStore.open(tmp_path / "stats.sqlite3")
    assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), seconds=60))
    summary = present(store.summary())
    command = line_with("\n".join(stats_report(summary.totals, summary.histogram, summary.recent)), "Deepest war")

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(StatsScreen(store))

    host = Host()
    async with host.run_test(size=(100, 30)) as pilot:
        await stats_shown(pilot)
        await until(pilot, lambda: "Deepest war" in screen_text(host))  # the panels laid out after the read
        stats_screen = line_with(screen_text(host), "Deepest war")

    app = make_app(seed=seed, auto=True, speed=MAX)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        game_over = line_with(screen_text(app), "Deepest war")

    for shown in (simulated, command, stats_screen, game_over):
        assert words in shown, shown
        assert "in a row" not in shown
