"""Every number a flag takes has a range, checked before anything runs: one line on stderr, exit status 2."""

from __future__ import annotations

import pytest
from cli_helpers import run_main

from war_tui.commands.simulate import default_jobs

HUGE = "9" * 5000  # longer than Python turns into an int by default


OUT_OF_RANGE = [
    (["--max-battles", "9223372036854775808", "--auto", "--speed", "max", "--seed", "42"],
     "--max-battles must be at most 1,000,000,000"),
    (["game", "--max-battles", "9223372036854775808"], "--max-battles must be at most"),
    (["simulate", "--games", "5", "--max-battles", "10000000000"], "--max-battles must be at most"),
    (["stats", "--recent", "99999999999999999999"], "--recent must be at most 1,000,000"),
    (["simulate", "--games", "5", "--jobs", str(4 * default_jobs() + 1)], "--jobs must be at most"),
    (["simulate", "--games", "5", "--jobs", "100000"], "--jobs must be at most"),
    (["simulate", "--games", HUGE], "--games must be at most"),
    (["--seed", HUGE], "seed must be from 0 to"),
    (["game", "--seed", "9223372036854775808"], "seed must be from 0 to 9223372036854775807"),
    (["--time-limit", "nan"], "--time-limit must be more than 0"),
    (["--time-limit", "inf"], "--time-limit must be more than 0"),
    (["--time-limit", "1e400"], "--time-limit must be more than 0"),
    (["--speed", "nan"], "speed must be from"),
    (["--speed", "inf"], "speed must be from"),
    (["--speed=-inf"], "speed must be from"),
    (["serve-ssh", "--max-sessions", "99999999999999999999"], "--max-sessions must be at most"),
    (["serve-ssh", "--max-attempts-per-minute", "99999999999999999999"], "--max-attempts-per-minute must be at most"),
    (["serve-ssh", "--max-session-minutes", "nan"], "--max-session-minutes must be more than 0"),
    (["serve-ssh", "--port", "99999999999999999999"], "port must be from 0 to 65535"),
]


@pytest.mark.parametrize(("argv", "words"), OUT_OF_RANGE, ids=[" ".join(a)[:60] for a, _ in OUT_OF_RANGE])
def test_a_number_out_of_range_is_one_short_line_and_exit_2(argv, words, capsys):
    code, out, err = run_main(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("war-tui"), err[:300]
    assert words in err
    assert len(err) < 200  # a pasted wall of digits is not echoed back whole


@pytest.mark.parametrize(
    ("command", "flag", "range_words"),
    [
        ([], "--max-battles", "1 to 1,000,000,000"),
        ([], "--seed", "0 to 9223372036854775807"),
        ([], "--war-cards", "1-3"),
        ([], "--speed", "0.5 to 1000"),
        ([], "--time-limit", "at most 10,080"),
        (["game"], "--seed", "0 to 9223372036854775807"),
        (["game"], "--max-battles", "1 to 1,000,000,000"),
        (["simulate"], "--games", "1 to 1,000,000,000"),
        (["simulate"], "--jobs", f"1 to {4 * default_jobs()}"),
        (["stats"], "--recent", "to 1,000,000"),
    ],
)
def test_each_number_flag_says_its_range_in_help(command, flag, range_words, capsys):
    code, out, _ = run_main([*command, "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())  # argparse wraps help over lines
    start = text.index(flag + " ", text.index("options:"))  # its line in the list, not the usage
    assert range_words in text[start : start + 260], text[start : start + 260]
