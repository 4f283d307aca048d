"""``war-tui replay``'s app: the replay screen alone, in the game's styles and theme."""

from __future__ import annotations

import os
from collections.abc import Mapping

from textual.app import App

from ..presentation.glyphs import choose_glyphs
from ..stats.replay import Replay
from .app import STYLES
from .screens.replay import ReplayScreen
from .theme import HIGH_CONTRAST


class ReplayApp(App[None]):
    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss")]
    TITLE = "war-tui replay"

    def __init__(self, replay: Replay, names: tuple[str, str], *, ascii: bool = False,
                 environ: Mapping[str, str] | None = None, game_id: int | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.replay = replay
        self.names = names
        self.glyphs = choose_glyphs(ascii, os.environ if environ is None else environ)
        self.register_theme(HIGH_CONTRAST)

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.replay, self.names, self.glyphs, game_id=self.game_id))


def run_replay(replay: Replay, names: tuple[str, str], *, ascii: bool = False, game_id: int | None = None) -> int:
    app = ReplayApp(replay, names, ascii=ascii, game_id=game_id)
    app.run()
    return app.return_code or 0
