"""Stylesheets seeded from the preloaded game parent's warm-up: the same screen, without parsing again."""

from __future__ import annotations

import pytest
from screen_text import screen_text
from textual.css.stylesheet import Stylesheet

from war_tui.settings.play import PlaySettings
from war_tui.ui.app import WarApp
from war_tui.ui.fastpath import stylesheets

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # see pyproject.toml's markers

@pytest.fixture
def restored(monkeypatch):
    """Whatever the test seeds is undone: Stylesheet as Textual made it, nothing shared."""
    monkeypatch.setattr(Stylesheet, "__init__", Stylesheet.__init__)
    monkeypatch.setattr(stylesheets, "_shared", {})


async def drawn(size=(100, 30)) -> tuple[str, WarApp]:
    app = WarApp(PlaySettings(seed=7), stats=None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()  # the first board: what a newcomer sees, the same on every run
        return screen_text(app), app


async def test_a_seeded_app_draws_the_same_screen_from_the_warm_apps_parse(restored):
    plain, warm = await drawn()
    assert stylesheets.share_parsed(warm.stylesheet)
    parsed = len(list(warm.stylesheet._parse_cache.keys()))
    fresh = Stylesheet(variables=dict(warm.stylesheet._variables))
    assert len(list(fresh._parse_cache.keys())) == parsed > 0  # it starts with everything the warm app parsed
    seeded, _ = await drawn()
    assert seeded == plain


async def test_a_stylesheet_with_other_variables_parses_its_own(restored):
    _, warm = await drawn()
    stylesheets.share_parsed(warm.stylesheet)
    other = Stylesheet(variables={**warm.stylesheet._variables, "primary": "#123456"})
    assert not list(other._parse_cache.keys())


@pytest.mark.parametrize("fastpath, seeded", [("1", "True"), ("0", "False")])
def test_the_game_parent_shares_its_stylesheets_unless_the_fast_path_is_off(fastpath, seeded):
    """An operator's WAR_TUI_FASTPATH=0 reaches the parent: its games then parse their own stylesheets."""
    import os
    import subprocess
    import sys

    code = (
        "from war_tui import preload; preload.warm(); from textual.css.stylesheet import Stylesheet; "
        "print(getattr(Stylesheet.__init__, '_war_tui_seeded', False))"
    )
    env = {**os.environ, "WAR_TUI_FASTPATH": fastpath}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == seeded
