"""Every flag of the game that makes sense as a preference is a key of the file; the others say why not (item 16)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from war_tui.cli import build_parser
from war_tui.commands.play import settings_from_args
from war_tui.settings.preferences import KEYS, NOT_KEYS


@pytest.fixture
def write(own_config_folder):
    path = own_config_folder / "war-tui" / "config.toml"
    path.parent.mkdir()
    return lambda text: path.write_text(text)


def settings(*argv: str):
    return settings_from_args(build_parser().parse_args(list(argv)))


def test_auto_screensaver_time_limit_and_two_players_are_keys(write):
    write("auto = true\nscreensaver = true\ntime-limit = 3\n")
    s = settings()
    assert s.auto and s.screensaver and s.time_limit == 3 and not s.config_problems
    write("two-players = true\ntime-limit = 3\nscreensaver = true\n")
    s = settings()
    assert s.two_players and not s.screensaver and s.time_limit is None, "a solo game's habits stay out of a table"


@pytest.mark.parametrize("key", ["seed = 5", "p1 = \"AS\"", "stats-db = \"x\"", "config = \"y\""])
def test_a_flag_that_is_not_a_preference_says_why(write, key):
    write(key + "\n")
    (problem,) = settings().config_problems
    name = key.split(" =")[0]
    assert f"'{name}' is a flag, not a preference: " in problem and "unknown key" not in problem


def test_every_flag_of_the_game_is_a_key_or_says_why_not():
    flags = {flag[2:] for flag in re.findall(r"(?<![\w-])--[a-z0-9][a-z0-9-]*", build_parser().format_help())}
    flags -= {"help", "version", "no-pause-on-war", "no-ascii"}
    assert flags == set(KEYS) | set(NOT_KEYS)


def test_the_line_modes_keys_are_read_before_it_decides_and_hold_to_its_ranges(write):
    from war_tui.commands.play import with_line_preferences
    from war_tui.settings.options import ANNOUNCE, MAX_PACE, MIN_PACE
    from war_tui.settings.preferences import LINE_ANNOUNCE, LINE_PACE

    assert LINE_PACE == (MIN_PACE, MAX_PACE) and LINE_ANNOUNCE == ANNOUNCE
    write('line = true\nterse = true\npace = 1.5\nannounce = "wars"\n')
    chosen = with_line_preferences(build_parser().parse_args([]))
    assert (chosen.line, chosen.terse, chosen.pace, chosen.announce) == (True, True, 1.5, "wars")
    given = with_line_preferences(build_parser().parse_args(["--pace", "4", "--announce", "all"]))
    assert (given.pace, given.announce) == (4.0, "all")
    assert not settings().config_problems


def test_the_readme_and_the_docs_name_every_key():
    root = Path(__file__).resolve().parents[2]
    playing = (root / "docs" / "playing.md").read_text()
    section = playing[playing.index("## Preferences in depth"):]
    for key in KEYS:
        assert re.search(rf"`{re.escape(key)}`", section), key
    for key in NOT_KEYS:
        assert f"`{key}`" in section, key


# ---------------------------------------------------------------- item 2: serve-ssh's game flags and tables


def test_serve_ssh_refuses_two_players_at_start_up_in_one_line(tmp_path):
    import subprocess
    import sys

    argv = [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--host-key", str(tmp_path / "hk"), "--port", "0",
            "--", "--two-players"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("serve-ssh started with -- --two-players instead of refusing it")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "--two-players is for two people at one keyboard" in done.stderr
    assert not (tmp_path / "hk").exists()


@pytest.mark.parametrize("mode", ["play", "watch", "lobby"])
def test_a_table_or_lobby_session_leaves_the_solo_game_flags_out(mode):
    environ = {"WAR_TUI_SERVED": "1", "WAR_TUI_TABLE_FD": "9", "WAR_TUI_TABLE_MODE": mode}
    args = build_parser().parse_args(["--no-config", "--screensaver", "--time-limit", "3", "--seed", "5", "--auto"])
    s = settings_from_args(args, environ)
    assert s.table_mode == mode and not s.screensaver and s.time_limit is None and s.seed is None and not s.auto
    solo = settings_from_args(args, {"WAR_TUI_SERVED": "1"})
    assert solo.screensaver and solo.time_limit == 3 and solo.seed == 5  # the kiosk's solo sessions keep them
