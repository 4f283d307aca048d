"""``war-tui replay``'s app: the replay screen alone, in the game's styles and theme."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from importlib.resources import files

from textual.app import App
from textual.await_complete import AwaitComplete

from ..presentation.glyphs import choose_glyphs
from ..stats.replay import Replay
from .screens.replay import ReplayScreen
from .theme import HIGH_CONTRAST

STYLES = files("war_tui.styles")
"""The game's style sheets (``ui.app``'s own), named here so a replay loads none of the game's modules."""


class ReplayApp(App[None]):
    """The replay screen is the app's first and only screen of its own (no blank screen drawn before it), so its
    style sheet is the app's (Textual reads a screen's own only for a screen pushed)."""

    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss"), str(STYLES / "replay.tcss")]
    TITLE = "war-tui replay"

    def __init__(self, replay: Replay, names: tuple[str, str], *, ascii: bool = False,
                 environ: Mapping[str, str] | None = None, game_id: int | str | None = None, start: int = 1,
                 local: bool = True, reached_at: tuple[str | None, str | None] = (None, None)) -> None:
        super().__init__()
        self.game_id = game_id
        self.start = start
        self.local = local
        self.reached_at = reached_at
        self.replay = replay
        self.names = names
        self.glyphs = choose_glyphs(ascii, os.environ if environ is None else environ)
        self.register_theme(HIGH_CONTRAST)

    def get_default_screen(self) -> ReplayScreen:
        return ReplayScreen(self.replay, self.names, self.glyphs, game_id=self.game_id, start=self.start,
                            local=self.local, reached_at=self.reached_at)

    def pop_screen(self) -> AwaitComplete:
        """Leaving the replay (escape, q) ends the app: the replay is its bottom screen."""
        if len(self.screen_stack) <= 1:
            self.exit()
            return AwaitComplete(asyncio.sleep(0))
        return super().pop_screen()


def run_replay(replay: Replay, names: tuple[str, str], *, ascii: bool = False, game_id: int | str | None = None,
               start: int = 1, local: bool = True, reached_at: tuple[str | None, str | None] = (None, None)) -> int:
    app = ReplayApp(replay, names, ascii=ascii, game_id=game_id, start=start, local=local, reached_at=reached_at)
    app.run()
    return app.return_code or 0
