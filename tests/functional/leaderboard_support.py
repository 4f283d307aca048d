"""A served lobby with a server's statistics file, for the leaderboard's tests."""

from __future__ import annotations

from table_support import DirectHost, busy_registry
from war_ui_support import until

from war_tui.settings.play import PlaySettings
from war_tui.stats import StatsStore
from war_tui.ui.app import WarApp
from war_tui.ui.screens.leaderboard import LeaderboardScreen
from war_tui.ui.screens.lobby import LobbyScreen

ANN = "key:SHA256:ann"
"""ann's identity: the player whose lobby ``lobby_app`` shows unless told."""


def lobby_app(store: StatsStore, *, leaderboard: bool = True, you: str | None = ANN, **environ: str) -> WarApp:
    """eve's lobby (tables oak, elm and pine), as a served game with the server's statistics file."""
    settings = PlaySettings(served=True, table_fd=-1, table_mode="lobby", leaderboard=leaderboard, player=you)
    return WarApp(settings, environ={"LANG": "C.UTF-8", **environ}, clock=lambda: 0.0, stats=store,
                  table=DirectHost(busy_registry(), "eve"))


async def in_the_lobby(pilot) -> LobbyScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.lobby is not None)
    return pilot.app.screen


async def leaderboard_read(pilot) -> LeaderboardScreen:
    """Until the leaderboard shows what it read (it reads in a worker thread)."""
    await until(pilot, lambda: isinstance(pilot.app.screen, LeaderboardScreen)
                and (pilot.app.screen.leaders is not None or pilot.app.screen.unreadable))
    await pilot.pause()
    return pilot.app.screen
