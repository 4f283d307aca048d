"""The preferences file from the command line: flags override it, ``--config`` / ``--no-config``, ``war-tui config``."""

from __future__ import annotations

import pytest
from cli_helpers import run_main, war_tui

from war_tui.cli import build_parser
from war_tui.commands.play import settings_from_args
from war_tui.core.rules import Gather
from war_tui.presentation.speed import DEFAULT_SPEED, MAX

FILE = """\
names = ["Ann", "Bob"]
speed = 16
pause-on-war = true
ascii = true
theme = "nord"
war-cards = 2
gather = "laid"
max-battles = 500
"""


@pytest.fixture
def user_file(own_config_folder):
    path = own_config_folder / "war-tui" / "config.toml"
    path.parent.mkdir()
    path.write_text(FILE)
    return path


def settings(*argv: str):
    return settings_from_args(build_parser().parse_args(list(argv)))


def test_the_game_starts_with_the_files_preferences(user_file):
    s = settings()
    assert s.names == ("Ann", "Bob") and s.speed == 16 and s.pause_on_war and s.ascii and s.theme == "nord"
    assert (s.rules.war_cards, s.rules.gather, s.rules.max_battles) == (2, Gather.LAID, 500)
    assert s.config_problems == () and s.preferences is not None and s.preferences.path == user_file


def test_flags_given_override_the_file_even_when_they_say_the_default(user_file):
    s = settings(
        "--speed", "4", "--no-pause-on-war", "--no-ascii", "--names", "Cy", "Di",
        "--war-cards", "1", "--gather", "winner-first", "--max-battles", "10000",
    )
    assert s.speed == DEFAULT_SPEED and not s.pause_on_war and not s.ascii and s.names == ("Cy", "Di")
    assert (s.rules.war_cards, s.rules.gather, s.rules.max_battles) == (1, Gather.WINNER_FIRST, 10_000)
    assert s.theme == "nord"  # no flag for it: the file's


def test_flags_not_given_leave_the_files_values(user_file):
    s = settings("--speed", "max")
    assert s.speed == MAX and s.names == ("Ann", "Bob") and s.rules.war_cards == 2


def test_no_config_neither_reads_nor_saves(user_file):
    s = settings("--no-config")
    assert s.names == ("Player 1", "Player 2") and s.speed == DEFAULT_SPEED and s.theme is None
    assert s.rules.war_cards == 1 and s.preferences is None


def test_config_read_only_reads_but_saves_nothing(user_file):
    s = settings("--config-read-only")
    assert s.names == ("Ann", "Bob") and s.preferences is None


def test_config_path_reads_that_file(tmp_path, user_file):
    other = tmp_path / "kiosk.toml"
    other.write_text('names = ["Eve", "Fay"]\n')
    s = settings("--config", str(other))
    assert s.names == ("Eve", "Fay") and s.speed == DEFAULT_SPEED and s.preferences.path == other


def test_a_file_with_problems_still_plays_with_the_defaults_for_what_was_wrong(user_file):
    user_file.write_text('speed = 9999\nnames = ["Ann", "Bob"]\n')
    s = settings()
    assert s.speed == DEFAULT_SPEED and s.names == ("Ann", "Bob")
    [problem] = s.config_problems
    assert problem.startswith(f"{user_file}, line 1: speed must be")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--config", "/no/such/war-tui.toml"], "--config: there is no file at /no/such/war-tui.toml"),
        (["--config", ""], "--config needs a file's path"),
        (["--config", "x.toml", "--no-config"], "not allowed with argument --config"),
    ],
)
def test_bad_config_flags_are_one_line_and_exit_2(argv, words, capsys):
    code, _, err = run_main(argv, capsys)
    assert code == 2
    assert words in err and err.count("\n") == 1 and err.startswith("war-tui")


# ------------------------------------------------------------ war-tui config


def test_config_path_prints_where_the_file_is(own_config_folder, tmp_path):
    done = war_tui("config", "--path")
    assert done.returncode == 0 and done.stdout == f"{own_config_folder / 'war-tui' / 'config.toml'}\n"
    elsewhere = tmp_path / "elsewhere.toml"
    assert war_tui("config", "--path", "--config", str(elsewhere)).stdout == f"{elsewhere}\n"


def test_config_check_says_ok_for_a_good_file_and_for_none(user_file):
    done = war_tui("config", "--check")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"ok: {user_file}\n", "")
    user_file.unlink()
    done = war_tui("config", "--check")
    assert done.returncode == 0 and done.stdout.startswith("ok: there is no preferences file at")


def test_config_check_reports_each_problem_on_stderr_with_exit_2_and_leaves_the_file(user_file):
    broken = 'speed = 8\nsped = 16\nwar-cards = 9\ntheme = "nrod"\n'
    user_file.write_text(broken)
    done = war_tui("config", "--check")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"war-tui config: {user_file}, line 2: unknown key 'sped' (did you mean 'speed'?)",
        f"war-tui config: {user_file}, line 3: war-cards must be from 1 to 3, not 9; the default is used",
        f"war-tui config: {user_file}, line 4: theme: there is no theme called 'nrod' (did you mean 'nord'?);"
        " the default is used",
    ]
    assert user_file.read_text() == broken


def test_config_check_names_a_syntax_error_by_line(user_file):
    user_file.write_text("speed = 8\nnames = [\n")
    done = war_tui("config", "--check")
    assert done.returncode == 2
    assert f"{user_file}, line 3: not valid TOML (invalid value at the end of the file)" in done.stderr


def test_config_check_of_a_missing_named_file_is_one_line_and_exit_2(tmp_path):
    done = war_tui("config", "--check", "--config", str(tmp_path / "none.toml"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "there is no file at" in done.stderr


def test_config_needs_check_or_path():
    done = war_tui("config")
    assert done.returncode == 2 and "--check" in done.stderr and done.stderr.count("\n") == 1


def test_the_readmes_example_file_has_no_problems(tmp_path):
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    example = re.search(r"```toml\n(.*?)```", readme[readme.index("## Preferences"):], re.S)[1]
    path = tmp_path / "example.toml"
    path.write_text(example)
    done = war_tui("config", "--check", "--config", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"ok: {path}\n", "")
