"""Flags before a command belong to the full-screen game: a command refuses them rather than drop them."""

import json

import pytest
from cli_helpers import run_main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--seed", "5", "game"], "put --seed after the command: war-tui game --seed"),
        (["--war-cards", "2", "simulate", "--games", "5", "--seed", "1"],
         "put --war-cards after the command: war-tui simulate --war-cards"),
        (["--seed", "5", "--gather", "laid", "game", "--json"], "put --seed and --gather after the command"),
        (["--auto", "game"], "--auto is for the full-screen game only"),
        (["--names", "Ann", "Bob", "simulate", "--games", "5"], "--names is for the full-screen game only"),
        (["--no-stats", "stats"], "--no-stats is for the full-screen game only"),
    ],
)
def test_a_play_flag_before_a_command_is_one_line_and_exit_2(argv, words, capsys):
    code, out, err = run_main(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("war-tui"), err
    assert words in err


def test_the_same_flags_after_the_command_are_honoured(capsys):
    code, out, _ = run_main(["game", "--seed", "5", "--war-cards", "2", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["seed"] == 5 and json.loads(out)["rules"]["war_cards"] == 2


def test_stats_db_before_stats_still_works(tmp_path, capsys):
    db = tmp_path / "s.sqlite3"
    code, out, err = run_main(["--stats-db", str(db), "stats", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["db"] == str(db)


def test_a_third_name_gets_a_clear_message(capsys):
    code, out, err = run_main(["--names", "A", "B", "C"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "--names takes exactly two names" in err and "'C'" in err
    assert "invalid choice" not in err
