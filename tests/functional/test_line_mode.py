"""``war-tui --line`` as a blind player uses it: from a pipe, on a terminal, on auto-play; nothing but plain text."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_helpers import war_tui_on_pty

TIMEOUT = 60
RANKS = dict(zip("23456789TJQKA", ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]))
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def words(card: str) -> str:
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def plain_text(data: bytes) -> bool:
    """Only printable text and newlines: no escape byte, no other control byte, no cursor movement."""
    return all(b >= 0x20 or b == 0x0A for b in data) and 0x7F not in data


def line_mode(*args: str, keys: bytes, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "war_tui", *args], input=keys, capture_output=True, timeout=TIMEOUT,
        env={**os.environ, **(env or {})},
    )


def trace(seed: int) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "war_tui", "game", "--seed", str(seed), "--trace"],
                          capture_output=True, text=True, timeout=TIMEOUT, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_a_whole_game_by_enter_from_a_pipe_agrees_with_the_engine():
    battles = trace(3)
    done = line_mode("--line", "--seed", "3", keys=b"\n" * len(battles) + b"q\n")
    assert done.returncode == 0, done.stderr
    assert plain_text(done.stdout)
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "War, seed 3, standard rules." and lines[1] == "You have 26, they have 26."
    told = [line for line in lines if " beats " in line]
    assert len(told) == len(battles)
    for battle, line in zip(battles, told):
        mine, theirs = battle["p1_cards"][-1], battle["p2_cards"][-1]
        if battle["winner"] == "p1":
            assert f"Your {words(mine)} beats their {words(theirs)}." in line
        else:
            assert f"Their {words(theirs)} beats your {words(mine)}." in line
        assert line.endswith(f"You have {battle['p1_count']}, they have {battle['p2_count']}.")
        assert line.count(" tie: ") == battle["wars"]
    assert any(line.startswith("Game over: ") for line in lines)
    assert lines[-1] == "Goodbye."


def test_enter_after_the_game_deals_and_the_next_enter_plays():
    battles = trace(3)
    done = line_mode("--line", "--seed", "3", keys=b"\n" * len(battles) + b"\n" + b"score\n" + b"\nq\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    dealt = next(i for i, line in enumerate(lines) if line.startswith("New game, seed "))
    assert lines[dealt].endswith(". You have 26, they have 26.")
    assert lines[dealt + 1] == "Battle 0, no wars so far. You have 26, they have 26."  # nothing played yet
    assert " beats " in lines[dealt + 2] or " tie" in lines[dealt + 2]  # the next enter plays battle 1
    assert lines[-1] == "Goodbye."


def test_a_war_is_said_with_its_depth_and_deciding_cards():
    done = line_mode("--line", "--p1", "7C 2C 7S 2H 3S", "--p2", "7H 3D 7D 4D 5S", keys=b"\n")
    lines = done.stdout.decode().splitlines()
    assert (
        "Sevens tie: war! Sevens tie: double war! Their five of spades beats your three of spades."
        " They take 10 cards. You have 0, they have 10."
    ) in lines
    assert "Game over: they win, you ran out of cards. 1 battle, 2 wars." in lines
    assert lines[-1] == "The input ended. Goodbye."


def test_terse_words():
    done = line_mode("--line", "--terse", "--p1", "KH 2C", "--p2", "3S 4D", keys=b"\n")
    assert "Your king beats three. 3 to 1." in done.stdout.decode().splitlines()


def test_lines_of_words_and_the_score():
    done = line_mode("--line", "--seed", "3", keys=b"flip\nscore\nhelp\nwhat\nq\n")
    lines = done.stdout.decode().splitlines()
    assert "Battle 1, no wars so far. You have 27, they have 25." in lines
    assert any(line.startswith("Each flip plays one battle") for line in lines)
    assert lines[-1] == "Goodbye."


def test_accessible_chooses_the_line_mode():
    done = line_mode("--seed", "3", keys=b"q\n", env={"ACCESSIBLE": "1"})
    assert done.returncode == 0 and done.stdout.decode().splitlines()[0] == "War, seed 3, standard rules."


def test_full_screen_flags_are_refused_in_one_line():
    done = line_mode("--line", "--two-players", keys=b"")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and "--two-players" in done.stderr.decode()
    done = line_mode("--line", "--pace", "0.1", keys=b"")
    assert done.returncode == 2 and "--pace" in done.stderr.decode()


@pytest.mark.long_wait  # a battle every 0.5 s to the end; what is said does not depend on the pace
def test_auto_play_announces_each_battle_then_the_end():
    done = line_mode("--line", "--auto", "--pace", "0.5", "--p1", "AC KC QC", "--p2", "2D 3D 4D", keys=b"")
    assert done.returncode == 0
    assert plain_text(done.stdout)
    lines = done.stdout.decode().splitlines()
    assert "Auto-play on: one battle every 0.5 seconds. Press a to stop." in lines
    assert [line for line in lines if " beats " in line] == [
        "Your ace of clubs beats their two of diamonds. You have 4, they have 2.",
        "Your king of clubs beats their three of diamonds. You have 5, they have 1.",
        "Your queen of clubs beats their four of diamonds. You have 6, they have 0.",
    ]
    assert "Game over: you win, they ran out of cards. 3 battles, no wars." in lines


@pytest.mark.app
@pytest.mark.terminal
def test_on_a_terminal_keys_are_single_and_not_echoed():
    env = {**os.environ, "TERM": "xterm-256color"}
    sent = []

    def react(seen: bytes) -> bytes:
        if b"Keys:" in seen and not sent:
            sent.append(1)
            return b"\r"
        if b"beats" in seen and len(sent) == 1:
            sent.append(1)
            return b"s"
        if b"so far" in seen and len(sent) == 2:
            sent.append(1)
            return b"q"
        return b""

    code, text = war_tui_on_pty(["--line", "--seed", "3", "--no-stats"], env, TIMEOUT, react)
    assert code == 0, text
    data = text.replace("\r\n", "\n").encode()
    assert plain_text(data), text
    lines = data.decode().splitlines()
    assert lines[:2] == ["War, seed 3, standard rules.", "You have 26, they have 26."]
    assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in lines
    assert "Battle 1, no wars so far. You have 27, they have 25." in lines
    assert lines[-1] == "Goodbye." and "s" not in lines and "q" not in lines  # keys are not echoed


def test_a_finished_game_is_recorded_in_the_statistics(tmp_path):
    db = tmp_path / "stats.sqlite3"
    done = line_mode("--line", "--p1", "7C 2C 5C", "--p2", "7H 3D 4D", "--stats-db", str(db), keys=b"\n")
    assert done.returncode == 0, done.stderr
    shown = subprocess.run([sys.executable, "-m", "war_tui", "stats", "--stats-db", str(db), "--json"],
                           capture_output=True, text=True, timeout=TIMEOUT, check=True)
    data = json.loads(shown.stdout)
    assert data["games"] == 1 and data["results"]["p1"]["count"] == 1, data


@pytest.mark.app
@pytest.mark.terminal
def test_line_flags_on_the_full_screen_ask_for_line():
    env = {**os.environ, "TERM": "xterm-256color"}
    code, text = war_tui_on_pty(["--terse", "--seed", "3"], env, TIMEOUT)
    assert code == 2 and "--terse is for the line mode: add --line" in text and "\x1b" not in text


@pytest.mark.long_wait  # a battle every 0.5 s to the end; what is said does not depend on the pace
def test_auto_play_announcing_wars_says_wars_every_tenth_battle_and_the_end():
    from war_tui.core.cards import parse_cards
    from war_tui.core.engine import Game
    from war_tui.core.events import BattleWon

    p1, p2 = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AD", "2H 3H QH 4H 5H 6H 7H 8H 9H TH JH 2D"
    game = Game(parse_cards(p1), parse_cards(p2))
    won: list[BattleWon] = []
    game.subscribe(lambda e: won.append(e) if isinstance(e, BattleWon) else None)
    game.play()
    expected = [e.battle for e in won if e.wars or e.battle % 10 == 0 or e.battle == game.battles]
    assert len(expected) < len(won) / 3  # most battles are kept quiet

    done = line_mode("--line", "--auto", "--announce", "wars", "--pace", "0.5", "--p1", p1, "--p2", p2, keys=b"")
    assert done.returncode == 0 and plain_text(done.stdout)
    lines = done.stdout.decode().splitlines()
    said = [int(line.split(".")[0].removeprefix("Battle ")) for line in lines if line.startswith("Battle ")]
    assert said == expected, lines
    wars = [line for line in lines if "war!" in line]
    assert [int(line.split(".")[0].removeprefix("Battle ")) for line in wars] == [e.battle for e in won if e.wars]
    assert any("Game over: you win, they could not finish a war." in line for line in lines)
