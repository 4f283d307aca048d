"""Preferences that stick: the theme picked in the palette and the speed set with + / - outlive the app.

Each app is built from the command line as ``war-tui`` builds it (flags, then the
file in this test's own XDG_CONFIG_HOME), so a second run sees what the first saved.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen_text import screen_rows, screen_text
from textual.command import CommandList, CommandPalette
from textual.widgets import Input
from war_ui_support import OPENING_SEED, make_app, until

from war_tui.cli import build_parser
from war_tui.commands.config import theme_names
from war_tui.commands.play import settings_from_args
from war_tui.ui.app import WarApp
from war_tui.ui.screens.preferences_notice import TITLE as NOTICE_TITLE
from war_tui.ui.screens.preferences_notice import PreferencesNotice
from war_tui.ui.screens.scrolling_dialog import AT_THE_END, MORE_BELOW

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)


@pytest.fixture
def user_file(own_config_folder):
    return own_config_folder / "war-tui" / "config.toml"


def app_from_command_line(*argv: str) -> WarApp:
    settings = settings_from_args(build_parser().parse_args(list(argv)), themes=theme_names())
    return WarApp(replace(settings, seed=OPENING_SEED), environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)


def notices(app: WarApp) -> list[tuple[str, dict]]:
    """Every notification the app raises from now on, as (message, options)."""
    said: list[tuple[str, dict]] = []
    notify = app.notify

    def record(message, **options):
        said.append((message, options))
        notify(message, **options)

    app.notify = record  # type: ignore[method-assign]  # the test hears every notice the app raises
    return said


def top_hit(app: WarApp) -> str:
    """The palette's first line (what enter chooses), or "" while it has none."""
    hits = app.screen.query_one(CommandList)
    return str(hits.get_option_at_index(0).prompt) if hits.option_count else ""


async def pick_theme(app: WarApp, pilot, name: str) -> None:
    """As a player does it: ctrl+p, "Theme", then the theme's name."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*"Theme")
    await until(pilot, lambda: top_hit(app).startswith("Theme"))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette) and "themes" in str(app.screen.query_one(Input).placeholder))
    await pilot.press(*name)
    await until(pilot, lambda: top_hit(app) == name)
    await pilot.press("enter")
    await until(pilot, lambda: app.theme == name)


async def test_the_theme_picked_in_the_palette_is_the_next_runs_theme(user_file):
    first = app_from_command_line()
    async with first.run_test(size=SIZE) as pilot:
        assert first.theme == "textual-dark"
        await pick_theme(first, pilot, "nord")
    assert user_file.read_text() == 'theme = "nord"\n'

    second = app_from_command_line()
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert second.theme == "nord"


async def test_the_speed_set_with_plus_is_saved_and_the_next_run_starts_with_it(user_file):
    user_file.parent.mkdir()
    user_file.write_text("# mine\nspeed = 8  # a good pace\n")
    app = app_from_command_line()
    async with app.run_test(size=SIZE) as pilot:
        assert app.board.speed == 8
        await pilot.press("plus")
        assert user_file.read_text() == "# mine\nspeed = 16  # a good pace\n"
        await pilot.press("minus", "minus")
        assert user_file.read_text() == "# mine\nspeed = 4  # a good pace\n"
    assert app_from_command_line().board.speed == 4


async def test_starting_the_game_writes_nothing(user_file):
    user_file.parent.mkdir()
    user_file.write_text('theme = "nord"\n')
    before = user_file.stat()
    app = app_from_command_line("--speed", "16")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "nord"
    after = user_file.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


async def test_with_config_read_only_changes_last_for_the_session_only(user_file):
    user_file.parent.mkdir()
    user_file.write_text('theme = "nord"\nspeed = 8\n')
    app = app_from_command_line("--config-read-only")
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "nord"
        await pilot.press("plus")
        app.theme = "dracula"
        await pilot.pause()
        assert app.board.speed == 16 and app.theme == "dracula"
    assert user_file.read_text() == 'theme = "nord"\nspeed = 8\n'


async def test_a_broken_file_is_one_notification_naming_file_line_and_key_and_stays_untouched(user_file):
    user_file.parent.mkdir()
    broken = b'names = ["Ann", "Bob"]\nspeed = 9999\ncolour = "red"\n'
    user_file.write_bytes(broken)
    app = app_from_command_line()
    said = notices(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PreferencesNotice))
        assert app.board.names == ("Ann", "Bob") and app.board.speed == 4  # the good value used, the default for the bad
        [speed, colour] = app.screen.problems
        assert speed.startswith(f"{user_file}, line 2: speed must be from 0.5 to 1000")
        assert colour.startswith(f"{user_file}, line 3: unknown key 'colour'")
        await pilot.press("plus")  # a change the player makes is not written into the broken file
        [(message, options)] = said
        assert "not saved" in options["title"] and "war-tui config --check" in message
        await pilot.press("plus")
        assert len(said) == 1  # said once
        await pilot.press("escape")
        assert app.screen is app.board
    assert user_file.read_bytes() == broken


BROKEN = b'speed = 9999\ncolour = "red"\nseed = 3\nwar_cards = 2\n'
"""Four problems, each a few lines long with the file's path: more than a toast holds at 80x24."""
SCROLL_GLYPHS = "▀▄█▌▐▁▂▃▅▆▇▔▏▎▍▋▊▉╸╺━┃│#|-"
"""The dialog's frame and its scroll bar (box drawing or ASCII), left out when its text is read."""


def without_frame(text: str) -> str:
    """``text``'s words run together: no spaces, line breaks, frame or scroll bar (a long path wraps)."""
    return "".join(char for char in text if not char.isspace() and char not in SCROLL_GLYPHS)


def dialog_text(app: WarApp) -> str:
    """What the notice's dialog shows (the board's edges beside it left out), its words run together."""
    region = app.screen.query_one("#prefs-dialog").region
    rows = screen_rows(app)[region.y:region.bottom]
    return without_frame("".join(row.ljust(region.right)[region.x:region.right] for row in rows))


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
async def test_a_broken_files_notice_shows_its_title_and_every_problem_at_small_sizes(user_file, size):
    user_file.parent.mkdir()
    user_file.write_bytes(BROKEN)
    app = app_from_command_line()
    async with app.run_test(size=size, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PreferencesNotice))
        await pilot.pause()
        problems = app.settings.config_problems
        assert len(problems) == 4
        assert NOTICE_TITLE in screen_text(app)
        views = [dialog_text(app)]
        for _ in range(60):  # a line a press, up to the end (past it is harmless)
            if without_frame(AT_THE_END) in views[-1] or without_frame(MORE_BELOW) not in views[-1]:
                break
            await pilot.press("down")
            await pilot.pause()
            views.append(dialog_text(app))
        for problem in problems:  # each one whole on the screen at some point
            assert any(without_frame(problem) in view for view in views), (problem, screen_text(app))
        await pilot.press("escape")
        assert app.screen is app.board


def test_a_broken_files_notice_snapshot(snap_compare):
    problems = tuple(
        f"/home/ann/.config/war-tui/config.toml, {problem}" for problem in (
            "line 2: speed must be from 0.5 to 1000 battles per second, or 'max', not 9999; the default is used",
            "line 3: unknown key 'colour' (the keys are names, speed, auto, screensaver, pause-on-war, time-limit,"
            " two-players, ascii, theme, deck, line, terse, pace, announce, war-cards, gather, max-battles)",
            "line 4: 'seed' is a flag, not a preference: a seed deals the same game at every start; give --seed"
            " for the run you want to replay",
        )
    )
    assert snap_compare(make_app(config_problems=problems), terminal_size=(80, 24))
