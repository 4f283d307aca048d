"""Input that used to be taken silently: an empty path, a flag given twice, a file that is not ours,
a play flag after a command. Each is one clear line on stderr and exit status 2."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_helpers import run_main

from war_tui.commands import play


@pytest.fixture(autouse=True)
def no_screen(monkeypatch):
    """Bad input must be refused before any screen: here, reaching the game fails the test at once."""

    def started(args):
        raise AssertionError("the full-screen game started")

    monkeypatch.setattr(play, "run", started)


def one_line(code, out, err, words):
    assert code == 2 and out == "", (code, out)
    assert err.count("\n") == 1 and err.startswith("war-tui"), err
    assert words in err, err
    assert "unrecognized arguments" not in err


@pytest.mark.parametrize(
    "argv",
    [["--stats-db", ""], ["--stats-db", "", "stats"], ["stats", "--stats-db", ""], ["stats", "--stats-db", "  "]],
)
def test_an_empty_statistics_path_is_refused(argv, capsys):
    one_line(*run_main(argv, capsys), "--stats-db must be a path, not empty")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--seed", "1", "--seed", "2"], "--seed given twice"),
        (["--auto", "--auto"], "--auto given twice"),
        (["--names", "A", "B", "--names", "C", "D"], "--names given twice"),
        (["game", "--seed", "1", "--seed", "2"], "--seed given twice"),
        (["game", "--json", "--json"], "--json given twice"),
        (["simulate", "--games", "5", "--games", "6"], "--games given twice"),
        (["stats", "--recent", "1", "--recent", "2"], "--recent given twice"),
        (["stats", "--stats-db", "A", "--stats-db", "B"], "--stats-db given twice"),
        (["--stats-db", "A", "stats", "--stats-db", "B"], "--stats-db given twice"),
        (["--stats-db", "A", "stats", "--stats-db", "A"], "--stats-db given twice"),
        (["serve-ssh", "--port", "0", "--port", "1"], "--port given twice"),
    ],
)
def test_a_flag_given_twice_is_refused(argv, words, capsys):
    one_line(*run_main(argv, capsys), words)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["game", "--seed", "1", "--ascii"], "--ascii is for the full-screen game only (war-tui --ascii, with no command), not for game"),
        (["--ascii", "game", "--seed", "1"], "--ascii is for the full-screen game only (war-tui --ascii, with no command), not for game"),
        (["simulate", "--games", "5", "--names", "A", "B"], "--names is for the full-screen game only"),
        (["stats", "--no-stats"], "--no-stats is for the full-screen game only"),
        (["game", "--time-limit=5"], "--time-limit is for the full-screen game only"),
    ],
)
def test_a_play_flag_after_a_command_gets_the_same_words_as_before_it(argv, words, capsys):
    one_line(*run_main(argv, capsys), words)


def test_an_unknown_flag_is_still_named(capsys):
    code, out, err = run_main(["game", "--frobnicate"], capsys)
    assert code == 2 and "unrecognized arguments: --frobnicate" in err


@pytest.mark.parametrize("target", ["/proc/self/status", "/dev/null"])
def test_a_file_that_is_not_a_database_is_not_a_statistics_file(target, capsys):
    one_line(*run_main(["stats", "--stats-db", target], capsys), "is not a statistics file")


def test_text_and_a_foreign_database_are_not_statistics_files(tmp_path: Path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("hello\n" * 200)
    one_line(*run_main(["stats", "--stats-db", str(text)], capsys), "is not a statistics file")
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    one_line(*run_main(["stats", "--stats-db", str(foreign)], capsys), "is not a statistics file")
