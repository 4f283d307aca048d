"""An app that shows nothing but the statistics screen."""

from __future__ import annotations

from textual.app import App

from war_tui.stats import StatsStore
from war_tui.ui.app import WarApp
from war_tui.ui.screens.stats import StatsScreen


class Host(App[None]):
    """The smallest app that shows the stats screen and keeps the replay requests it gets; with the game's
    stylesheets, as the game shows it (the footer's look is in them)."""

    CSS_PATH = WarApp.CSS_PATH

    def __init__(self, store: StatsStore) -> None:
        super().__init__()
        self.store = store
        self.replays: list[StatsScreen.ReplayRequested] = []

    def on_mount(self) -> None:
        self.push_screen(StatsScreen(self.store))

    def on_stats_screen_replay_requested(self, message: StatsScreen.ReplayRequested) -> None:
        self.replays.append(message)
