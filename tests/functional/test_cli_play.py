"""``war-tui`` with no command: flags are checked before any screen opens; ``game`` never loads Textual."""

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_main

from war_tui.cli import build_parser, main
from war_tui.commands.play import settings_from_args
from war_tui.core.rules import Gather
from war_tui.presentation.speed import MAX


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--speed", "0.1"], "speed must be from 0.5"),
        (["--speed", "fast"], "battles per second"),
        (["--seed", "-3"], "seed"),
        (["--seed", "x"], "seed must be a whole number"),
        (["--time-limit", "0"], "--time-limit must be more than 0"),
        (["--time-limit", "soon"], "--time-limit must be minutes"),
        (["--names", "Ann", "ann"], "different names"),
        (["--names", "", "Bob"], "non-blank"),
        (["--names", "A" * 17, "Bob"], "wider than 16 columns"),
        (["--names", "山田太郎山田太郎山", "Bob"], "wider than 16 columns"),
        (["--names", "Ann"], "--names"),
        (["--war-cards", "9"], "--war-cards must be from 1 to 3"),
        (["--gather", "sideways"], "unknown gather order"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2_before_any_screen(argv, words, capsys):
    code, _, err = run_main(argv, capsys)
    assert code == 2
    assert words in err and err.count("\n") == 1 and err.startswith("war-tui")


def test_good_flags_become_play_settings():
    args = build_parser().parse_args(
        ["--seed", "12", "--auto", "--speed", "max", "--pause-on-war", "--time-limit", "2.5",
         "--names", "Ann", "Bob", "--ascii", "--war-cards", "2", "--gather", "laid", "--screensaver"]
    )
    settings = settings_from_args(args)
    assert settings.seed == 12 and settings.auto and settings.speed == MAX and settings.pause_on_war
    assert settings.time_limit == 2.5 and settings.names == ("Ann", "Bob") and settings.ascii
    assert settings.rules.war_cards == 2 and settings.rules.gather is Gather.LAID and settings.screensaver


def test_the_headless_game_command_does_not_load_textual():
    code = (
        "import sys, io, contextlib\n"
        "from war_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['game', '--seed', '3'])\n"
        "print('textual' in sys.modules, 'rich' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"


def test_the_stylesheets_ship_as_package_data():
    from importlib.resources import files

    styles = files("war_tui.styles")
    names = {item.name for item in styles.iterdir()}
    assert {"app.tcss", "screens.tcss"} <= names
    from war_tui.ui.app import WarApp

    for path in WarApp.CSS_PATH:
        assert Path(path).is_file()


def test_every_package_directory_is_listed_for_the_wheel():
    import tomllib

    root = Path(__file__).resolve().parents[2]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.parent.relative_to(root).parts)
        for path in (root / "war_tui").rglob("__init__.py")
    }
    assert found <= listed


@pytest.mark.parametrize(
    "packets, words",
    [
        (["--p1", "AS KD"], "explicit packets need both --p1 and --p2"),
        (["--p1", "AS", "--p2", "KD", "--seed", "3"], "give either --seed or the packets --p1 and --p2, not both"),
        (["--p1", "AS AS", "--p2", "KD"], "AS appears more than once"),
        (["--p1", "AS ZZ", "--p2", "KD"], "'ZZ' has no rank from 2-10, J, Q, K, A"),
        (["--p1", "", "--p2", "KD"], "player 1's packet is empty"),
    ],
)
def test_hand_made_packets_on_screen_are_checked_as_war_tui_game_checks_them(packets, words, capsys):
    """Same notation, same checks, same words: the full-screen game and war-tui game share the parsing."""
    assert main(["game", *packets]) == 2
    game_err = capsys.readouterr().err
    assert main(["--no-config", *packets]) == 2  # before any screen opens
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("war-tui: ")
    assert err.removeprefix("war-tui: ") == game_err.removeprefix("war-tui game: ")
    assert words in err


def test_hand_made_packets_become_the_first_deal():
    from war_tui.core.cards import parse_cards

    settings = settings_from_args(build_parser().parse_args(["--no-config", "--p1", "10h as", "--p2", "2♣"]))
    assert settings.packets == (tuple(parse_cards("TH AS")), tuple(parse_cards("2C"))) and settings.seed is None
