"""The replay in the line mode: each line typed answered in one sentence, "battle 12 of 340: ..."."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from war_tui.core.rules import Rules
from war_tui.line.replay import ReplayLine
from war_tui.stats.replay import Replay

GAME_FILE = Path(__file__).parents[1] / "functional" / "data" / "replay_game.json"  # seed 0: 56 battles


def test_each_key_says_the_battle_it_moves_to():
    replay = Replay(0, Rules())
    line = ReplayLine(replay, ("Ann", "Bob"))
    assert line.answer("").startswith("battle 1 of 56: Bob's jack of diamonds beats Ann's two of spades.")
    assert line.answer("n").startswith("battle 2 of 56: ")
    assert line.answer("p").startswith("battle 1 of 56: ")
    first_war = replay.war_battles[0]
    assert line.answer("]").startswith(f"battle {first_war} of 56: ") and "war!" in line.answer(str(first_war))
    assert line.answer("[") == "No war before this battle."
    assert line.answer("g 30").startswith("battle 30 of 56: ")
    assert line.answer("end").startswith("battle 56 of 56: ") and "Ann has 0, Bob has 52." in line.answer("56")
    assert line.answer("").startswith("That was the last battle. Game over: Bob wins")
    assert line.answer("home").startswith("battle 1 of 56: ")


def test_bad_lines_are_refused_in_one_line_and_never_echoed():
    line = ReplayLine(Replay(0, Rules()), ("Ann", "Bob"))
    assert line.answer("999") == "There is no battle 999: this game has 1 to 56."
    assert line.answer("g 0") == "There is no battle 0: this game has 1 to 56."
    for typed in ("\x1b[2J", "x" * 500, "g ٣", "-3"):
        answer = line.answer(typed)
        assert answer.startswith("That is not a command.") and typed not in answer
    assert line.answer("q") == "Replay over." and line.done


def test_replay_without_a_terminal_is_the_line_mode():
    done = subprocess.run(
        [sys.executable, "-m", "war_tui", "replay", "--file", str(GAME_FILE)], input="\n]\nq\n",
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Replay of seed 0, standard rules, 56 battles.")
    assert lines[1].startswith("battle 1 of 56: ") and lines[2].startswith("battle 2 of 56: ")
    assert lines[3].startswith("battle 18 of 56: Tens tie: war!") and lines[-1] == "Replay over."
