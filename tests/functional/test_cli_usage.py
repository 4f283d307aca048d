"""Bad input gets one clear line on stderr and exit status 2; --help and --version work everywhere."""

import pytest
from cli_helpers import run_main, war_tui

from war_tui.cli import build_parser

BAD_INPUT = [
    # (arguments, words the one line must contain)
    (["game", "--p1", "AS ZZ", "--p2", "KD"], "ZZ"),  # unknown card
    (["game", "--p1", "AS 1H", "--p2", "KD"], "1H"),
    (["game", "--p1", "AS KD", "--p2", "as"], "AS appears more than once"),  # duplicate across packets
    (["game", "--p1", "AS AS", "--p2", "KD"], "AS appears more than once"),
    (["game", "--p1", "", "--p2", "KD"], "packet is empty"),
    (["game", "--p1", " , ", "--p2", "KD"], "packet is empty"),
    (["game", "--p1", "AS"], "both --p1 and --p2"),
    (["game", "--seed", "3", "--p1", "AS", "--p2", "KD"], "not both"),
    (["game", "--seed", "x"], "seed must be a whole number"),
    (["game", "--seed", "1.5"], "seed must be a whole number"),
    (["game", "--seed", "-1"], "seed must be from 0"),
    (["game", "--gather", "shuffle"], "unknown gather order 'shuffle'"),
    (["game", "--war-cards", "7"], "--war-cards must be from 1 to 3, not 7"),
    (["game", "--war-cards", "0"], "--war-cards"),
    (["game", "--war-cards", "two"], "--war-cards"),
    (["game", "--max-battles", "0"], "--max-battles"),
    (["game", "--frobnicate"], "unrecognized arguments"),
    (["simulate", "--games", "0"], "--games must be at least 1, not 0"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", "many"], "--games must be a whole number"),
    (["simulate", "--games", "1e3"], "--games must be a whole number"),
    (["simulate"], "--games"),
    (["simulate", "--games", "5", "--jobs", "0"], "--jobs must be at least 1, not 0"),
    (["simulate", "--games", "5", "--jobs", "two"], "--jobs must be a whole number"),
    (["simulate", "--games", "5", "--seed", "abc"], "seed must be a whole number"),
    (["simulate", "--games", "5", "--gather", "nope"], "unknown gather order"),
    (["simulate", "--games", "5", "--war-cards", "7"], "--war-cards must be from 1 to 3"),
    (["no-such-command"], "invalid choice"),
]


def one_clear_line(code: int, out: str, err: str, words: str) -> None:
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert words in lines[0]
    assert lines[0].startswith("war-tui")
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "words"), BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_clear_line_and_exit_2(args, words, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # as in a terminal of 100 columns, like war_tui() below
    one_clear_line(*run_main(args, capsys), words)


# war-tui itself and each command its parser has.
EVERY_COMMAND = [[], *([command] for command in build_parser().commands)]


@pytest.mark.parametrize(("args", "words"), [BAD_INPUT[0], BAD_INPUT[-1]], ids=["game", "command"])
def test_bad_input_to_the_command_itself_is_one_clear_line_and_exit_2(args, words):
    """The same, from ``war-tui`` as a process (its exit status, all it writes): one of each kind suffices."""
    done = war_tui(*args)
    one_clear_line(done.returncode, done.stdout, done.stderr, words)


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda words: " ".join(words) or "war-tui")
def test_help_works_on_every_command(command):
    done = war_tui(*command, "--help")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: war-tui")


def test_help_lists_the_commands_and_the_house_rules():
    assert "simulate" in war_tui("--help").stdout and "game" in war_tui("--help").stdout
    for command in ("game", "simulate"):
        text = war_tui(command, "--help").stdout
        for flag in ("--war-cards", "--gather", "--max-battles", "--seed", "--json"):
            assert flag in text


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda words: " ".join(words) or "war-tui")
def test_version_works_on_every_command(command):
    from war_tui import __version__

    done = war_tui(*command, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"war-tui {__version__}"


def test_simulate_refuses_more_games_than_its_stated_bound():
    done = war_tui("simulate", "--games", "99999999999999999999")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "--games must be at most 1,000,000,000, not 99999999999999999999" in lines[0]
    assert "1,000,000,000" in war_tui("simulate", "--help").stdout


REPEATED_FLAG = [
    (["--time-limit", "0"], "war-tui: --time-limit must be more than 0"),
    (["--speed", "fast"], "war-tui: --speed must be battles per second"),
    (["--seed", "x"], "war-tui: --seed must be a whole number, not 'x'"),
    (["game", "--war-cards", "7"], "war-tui game: --war-cards must be from 1 to 3, not 7"),
    (["game", "--seed", "-1"], "war-tui game: --seed must be from 0"),
    (["simulate", "--games", "0"], "war-tui simulate: --games must be at least 1, not 0"),
    (["simulate", "--games", "5", "--jobs", "x"], "war-tui simulate: --jobs must be a whole number"),
]


@pytest.mark.parametrize(("args", "start"), REPEATED_FLAG, ids=[" ".join(a) for a, _ in REPEATED_FLAG])
def test_a_bad_value_names_its_flag_once(args, start):
    done = war_tui(*args)
    assert done.returncode == 2
    assert done.stderr.startswith(start), done.stderr
    assert "argument" not in done.stderr


def test_version_is_the_installed_packages():
    from importlib.metadata import version

    assert war_tui("--version").stdout == f"war-tui {version('war-tui')}\n"


def test_version_from_a_source_tree_without_metadata_is_its_pyproject(monkeypatch):
    import importlib.metadata
    import tomllib
    from pathlib import Path

    import war_tui
    from war_tui.version import version

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    pyproject = Path(war_tui.__file__).resolve().parents[1] / "pyproject.toml"
    assert version() == tomllib.loads(pyproject.read_text())["project"]["version"]
