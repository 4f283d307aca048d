"""The preferences file: read, written one key at a time, and never harmed when it is broken."""

from __future__ import annotations

import os

import pytest

from war_tui.cli import build_parser
from war_tui.commands.config import theme_names
from war_tui.commands.play import PREFERENCE_DEFAULTS
from war_tui.core.rules import Gather
from war_tui.presentation.speed import MAX
from war_tui.settings.preferences import KEYS, Preferences, default_path, key_for, read_config, write_preferences

GOOD = """\
# my table
names = ["Ann", "Bob"]  # the usual two
speed = 8
pause-on-war = true
ascii = false
theme = "nord"
deck = "four-colour"
war-cards = 3
gather = "random"
max-battles = 5000
"""


@pytest.fixture
def config(tmp_path):
    return tmp_path / "config.toml"


def test_the_default_file_is_in_the_user_config_folder(own_config_folder):
    assert default_path() == own_config_folder / "war-tui" / "config.toml"


def test_a_good_file_gives_every_value_and_no_problem(config):
    config.write_text(GOOD)
    read = read_config(config, themes=theme_names())
    assert read.found and read.problems == ()
    assert read.values == {
        "names": ("Ann", "Bob"), "speed": 8.0, "pause-on-war": True, "ascii": False, "theme": "nord",
        "deck": "four-colour", "war-cards": 3, "gather": Gather.RANDOM, "max-battles": 5000,
    }


def test_a_missing_file_is_no_problem(config):
    read = read_config(config)
    assert not read.found and read.values == {} and read.problems == ()


def test_every_key_of_the_file_has_a_default_in_the_game():
    from war_tui.commands.play import LINE_KEYS  # the line mode's keys, read before it decides whether to run

    assert {key_for(name) for name in PREFERENCE_DEFAULTS} | set(LINE_KEYS) == set(KEYS)


def test_a_syntax_error_names_the_file_line_and_column_and_every_default_is_used(config):
    config.write_text('speed = 8\ntheme = "nord\n')
    read = read_config(config)
    assert read.values == {}
    [problem] = read.problems
    assert problem.startswith(f"{config}, line 2, column ") and "not valid TOML" in problem


def test_an_unknown_key_is_named_with_its_line_and_the_rest_is_used(config):
    config.write_text('speed = 8\n\nsped = 16\n')
    read = read_config(config)
    assert read.values == {"speed": 8.0}
    assert read.problems == (f"{config}, line 3: unknown key 'sped' (did you mean 'speed'?)",)


def test_a_table_is_an_unknown_key_at_its_header(config):
    config.write_text('speed = 8\n[rules]\nwar-cards = 2\n')
    [problem] = read_config(config).problems
    assert problem.startswith(f"{config}, line 2: unknown key 'rules'")


@pytest.mark.parametrize(
    "line, words",
    [
        ('names = ["Ann"]', "names must be two names"),
        ('names = "Ann"', "names must be two names"),
        ('names = ["Ann", "ann"]', "names: the two players need different names"),
        ('names = ["Ann", "   "]', "non-blank"),
        ('names = ["Ann", "AAAAAAAAAAAAAAAAA"]', "wider than 16 columns"),
        ("speed = 0.1", "speed must be from 0.5 to 1000"),
        ('speed = "fast"', "speed must be battles per second"),
        ("speed = inf", "speed must be from 0.5"),
        ("speed = true", "speed must be battles per second"),
        ('pause-on-war = "yes"', 'pause-on-war must be true or false, not "yes"'),
        ("ascii = 1", "ascii must be true or false, not 1"),
        ('theme = "nrod"', "theme: there is no theme called 'nrod' (did you mean 'nord'?)"),
        ("theme = 3", "theme must be a theme's name, not 3"),
        ('deck = "three-colour"', 'deck must be two-colour or four-colour, not "three-colour"'),
        ("deck = 4", "deck must be two-colour or four-colour, not 4"),
        ("war-cards = 7", "war-cards must be from 1 to 3, not 7"),
        ("war-cards = 2.0", "war-cards must be a whole number, not 2.0"),
        ('gather = "sideways"', "gather: unknown gather order 'sideways'"),
        ("max-battles = 0", "max-battles must be at least 1, not 0"),
        ("max-battles = false", "max-battles must be a whole number, not false"),
    ],
)
def test_a_bad_value_is_named_with_its_line_and_key_and_its_default_used(config, line, words):
    config.write_text(f"# preferences\n{line}\n")
    read = read_config(config, themes=theme_names())
    assert read.values == {}
    [problem] = read.problems
    assert problem.startswith(f"{config}, line 2: ")
    assert words in problem and problem.endswith("the default is used")


@pytest.mark.parametrize(
    "key, values",
    [
        ("war-cards", [0, 1, 3, 4, -1]),
        ("max-battles", [0, 1, 10_000, 10**12]),
        ("speed", [0.4, 0.5, 4, 1000, 1000.5, "max", "MAX", "4"]),
        ("gather", ["winner-first", "LAID", "random", "sideways", ""]),
        ("deck", ["two-colour", "four-colour", "Four-Color", "three-colour", ""]),
    ],
)
def test_the_file_and_the_flag_accept_exactly_the_same_values(config, key, values):
    import tomli_w

    seen = set()
    for value in values:
        config.write_text(tomli_w.dumps({key: value}))
        file_ok = not read_config(config).problems
        try:
            build_parser().parse_args([f"--{key}", str(value)])
            flag_ok = True
        except SystemExit:
            flag_ok = False
        assert file_ok == flag_ok, (key, value)
        seen.add(flag_ok)
    assert seen == {True, False}  # each key's list holds both kinds


def test_a_file_that_is_not_utf8_is_named_with_its_line(config):
    config.write_bytes(b'speed = 8\ntheme = "\xff"\n')
    [problem] = read_config(config).problems
    assert problem.startswith(f"{config}, line 2: not UTF-8")


def test_a_huge_file_is_not_read(config):
    config.write_text("# " + "x" * 100_000 + "\n")
    [problem] = read_config(config).problems
    assert "larger than 64 KiB" in problem


def test_a_folder_in_place_of_the_file_is_a_problem_not_a_crash(config):
    config.mkdir()
    [problem] = read_config(config).problems
    assert str(config) in problem and "not a regular file" in problem


# ------------------------------------------------------------------ writing


def test_saving_changes_one_key_and_keeps_the_rest_byte_for_byte(config):
    config.write_text(GOOD)
    assert write_preferences(config, {"speed": 32, "theme": "dracula"}) is None
    expected = GOOD.replace("speed = 8", "speed = 32").replace('theme = "nord"', 'theme = "dracula"')
    assert config.read_text() == expected


def test_saving_keeps_a_comment_after_the_value(config):
    config.write_text('theme = "a#b"   # picked in the palette\nspeed = 4\n')
    write_preferences(config, {"theme": "nord"})
    assert config.read_text() == 'theme = "nord"   # picked in the palette\nspeed = 4\n'


def test_saving_a_key_the_file_lacks_adds_it_at_the_end(config):
    config.write_text("speed = 8")  # no newline at the end
    write_preferences(config, {"theme": "nord"})
    assert config.read_text() == 'speed = 8\ntheme = "nord"\n'


def test_saving_makes_the_folder_and_the_file(tmp_path):
    config = tmp_path / "deeper" / "war-tui" / "config.toml"
    write_preferences(config, {"speed": "max"})
    assert config.read_text() == 'speed = "max"\n'
    assert read_config(config).values == {"speed": MAX}
    assert os.listdir(config.parent) == ["config.toml"]  # the temporary file is gone


def test_saving_through_a_symbolic_link_keeps_the_link(tmp_path, config):
    real = tmp_path / "dotfiles" / "war-tui.toml"
    real.parent.mkdir()
    real.write_text("speed = 8\n")
    config.symlink_to(real)
    write_preferences(config, {"speed": 16})
    assert config.is_symlink() and real.read_text() == "speed = 16\n"


@pytest.mark.parametrize(
    "broken",
    ['speed = 8\ntheme = "nord\n', "speed = 8\nsped = 16\n", "speed = 8\nwar-cards = 9\n", b"speed = \xff\n"],
)
def test_a_file_with_problems_is_left_byte_for_byte_unchanged(config, broken):
    data = broken if isinstance(broken, bytes) else broken.encode()
    config.write_bytes(data)
    preferences = Preferences(config, {"speed": 4.0, "theme": None})
    problem = preferences.save(speed=16.0)
    assert problem is not None and str(config) in problem and "war-tui config --check" in problem
    assert preferences.save(theme="nord") is None  # said once a session
    assert config.read_bytes() == data
    assert os.listdir(config.parent) == ["config.toml"]


def test_preferences_write_only_what_changed(config):
    preferences = Preferences(config, {"speed": 4.0, "theme": "nord"})
    preferences.save(speed=4.0, theme="nord")
    assert not config.exists()
    preferences.save(speed=MAX)
    assert config.read_text() == 'speed = "max"\n'
    preferences.save(speed=0.5)
    assert config.read_text() == "speed = 0.5\n"


def test_a_file_that_cannot_be_written_is_said_once_and_leaves_nothing_behind(config, monkeypatch):
    import errno

    def read_only(*_args):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "replace", read_only)
    config.write_text("speed = 8\n")
    preferences = Preferences(config, {"speed": 8.0})
    problem = preferences.save(speed=16.0)
    assert problem == f"{config}: preferences cannot be saved (Read-only file system)"
    assert preferences.save(speed=32.0) is None
    assert config.read_text() == "speed = 8\n" and os.listdir(config.parent) == ["config.toml"]


def test_the_theme_and_deck_flags():
    from war_tui.commands.common import UsageError
    from war_tui.commands.play import settings_from_args

    def settings(*flags):
        return settings_from_args(build_parser().parse_args([*flags, "--no-config"]), themes=theme_names())

    chosen = settings("--theme", "high-contrast", "--deck", "four-color")
    assert chosen.theme == "high-contrast" and chosen.deck == "four-colour"
    assert settings().deck == "two-colour" and settings().theme is None
    with pytest.raises(UsageError, match="no theme called 'hihg-contrast' \\(did you mean 'high-contrast'\\?\\)"):
        settings("--theme", "hihg-contrast")
