"""The replay in the line mode: each line typed answered in one sentence, "battle 12 of 340: ..."."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from war_tui.core.rules import Rules
from war_tui.line.replay import ReplayKeys, ReplayLine
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


def test_space_plays_a_battle_at_each_turn_and_plus_minus_set_the_speed_from_1x_to_8x():
    line = ReplayLine(Replay(0, Rules()), ("Ann", "Bob"), pace=3.0)
    line.answer("", 0.0)
    assert line.due() is None
    assert line.answer(" ", 0.0) == "Playing at 1x, a battle every 3 seconds; space pauses."
    assert line.due() == 3.0
    assert [said[:16] for said in line.tick(3.0)] == ["battle 2 of 56: "]
    assert line.answer("+", 3.5) == "Speed 2x: a battle every 1.5 seconds." and line.due() == 5.0
    assert line.answer("faster", 3.5) == "Speed 4x: a battle every 0.75 seconds."
    assert line.answer("+", 3.5) == "Speed 8x: a battle every 0.375 seconds."
    assert line.answer("+", 3.5) == "Speed 8x: a battle every 0.375 seconds."  # 8x is the fastest
    assert line.answer("g 30", 4.0).startswith("battle 30 of 56: ") and line.due() == 4.375  # plays on from there
    assert line.tick(4.375)[0].startswith("battle 31 of 56: ")
    assert line.answer("space", 5.0) == "Paused at battle 31 of 56." and line.due() is None
    assert line.tick(9.0) == []
    for _ in range(4):
        line.answer("-", 9.0)
    assert line.speed == 1


def test_playing_says_the_end_after_the_last_battle_and_stops_then_starts_again_from_the_first():
    line = ReplayLine(Replay(0, Rules()), ("Ann", "Bob"), pace=1.0)
    line.answer("55")
    line.answer(" ", 0.0)
    last, end = line.tick(1.0)
    assert last.startswith("battle 56 of 56: ") and end.startswith("That was the last battle. Game over: Bob wins")
    assert not line.playing and line.due() is None
    line.answer(" ", 2.0)
    assert line.tick(3.0)[0].startswith("battle 1 of 56: ")


def test_single_keys_and_lines_become_the_replays_words():
    keys = ReplayKeys(lines=False)
    assert keys.feed("\x1b[C\x1b[D\x1bOC\x1b[H\x1b[4~") == ["n", "p", "n", "home", "end"]
    assert keys.feed("l]h[ +=-_?q") == ["l", "]", "h", "[", " ", "+", "=", "-", "_", "?", "q"]
    assert keys.feed("g12\r") == ["g 12"] and keys.feed("120\n") == ["g 120"]
    assert keys.feed("g1\x7f2\r\n") == ["g 2"]  # backspace edits the number
    assert keys.feed("g12\x1bl") == ["l"]  # escape forgets it
    assert keys.feed("\r\n") == ["n"] and keys.feed("\x03") == ["q"]
    lines = ReplayKeys(lines=True)
    assert lines.feed("g 30\r\n\nab\x7fc\n") == ["g 30", "", "ac"]
    assert lines.feed("end") == [] and lines.end() == ["end"]
