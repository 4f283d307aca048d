"""Every command of ``war-tui``, named by its parser, runs on a terminal as a shell starts it (a pty that is
its controlling terminal: progress bars and colours on, ctrl-c a signal) and ends cleanly on ctrl-c, once or
twice in quick succession: exit status 0 or 130, no traceback on screen, no process of it left behind.

A command added to the parser fails here until ``HOW_EACH_RUNS`` says how it runs and what shows it does."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import war_tui_in_a_shell

from war_tui.cli import build_parser

# A whole run on a busy machine, then its processes' exit: only a hang takes it.
TIMEOUT = 90
CTRL_C = b"\x03"
APART = 0.02  # seconds at least between two ctrl-c: quick, yet two signals rather than one
GAME = "the game"
GAME_FILE = Path(__file__).parent / "data" / "replay_game.json"  # seed 0: 56 battles  # war-tui with no command: the full-screen game


@dataclass(frozen=True)
class HowItRuns:
    args: tuple[str, ...]
    running: str  # on screen once it runs (for a command done at once: once it has run)


# Five cards whose battles come round again: a line a battle until it is stopped.
ENDLESS = ("--p1", "2C 3C 5C", "--p2", "4C 6C", "--max-battles", "1000000000")
HOW_EACH_RUNS = {
    GAME: HowItRuns(("--seed", "1", "--auto"), "Battle"),
    "game": HowItRuns((*ENDLESS, "--trace"), '{"n": 1,'),
    "simulate": HowItRuns(("--games", "100000000", "--seed", "1", "--jobs", "2"), "simulating"),  # its bar
    "stats": HowItRuns((), "No games recorded yet"),
    "replay": HowItRuns(("--file", str(GAME_FILE)), "battle 1 of 56"),  # the scrubber's line
    "export": HowItRuns(("--file", str(GAME_FILE), "--format", "text"), "battle 56 of 56: "),
    "config": HowItRuns(("--check",), "ok: there is no preferences file"),
    # Servers on 127.0.0.1 and free ports; nobody connects while they are up.
    "serve-ssh": HowItRuns(("--port", "0", "--public"), "listening on 127.0.0.1:"),
    "serve": HowItRuns(("--ssh", "0", "--web", "0", "--public"), "in a browser"),
}


def in_a_shell(command: str, ctrl_c: int) -> tuple[int, str, bool]:
    """``command`` on a terminal of its own; once it shows it runs, ctrl-c typed ``ctrl_c`` times.
    The exit status, what it wrote, and whether a process of it was left behind."""
    how = HOW_EACH_RUNS.get(command)
    if how is None:
        pytest.fail(f"war-tui {command} is not in HOW_EACH_RUNS: say how it runs on a terminal and what shows it")
    argv = [*([] if command == GAME else [command]), *how.args]
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    env.pop("NO_COLOR", None)
    typed: list[float] = []

    def ctrl_c_once_it_runs(seen: bytes) -> bytes:
        runs = how.running.encode() in seen
        if runs and len(typed) < ctrl_c and (not typed or time.monotonic() - typed[-1] >= APART):
            typed.append(time.monotonic())
            return CTRL_C
        return b""

    code, text, left_behind = war_tui_in_a_shell(argv, env, TIMEOUT, ctrl_c_once_it_runs)
    assert how.running in text, text[-3000:]
    return code, text, left_behind


def ended_cleanly(code: int, text: str, left_behind: bool) -> None:
    # Done, 130, or killed by SIGINT as Python shuts down (a shell says 130 for both).
    assert code in (0, 130, -signal.SIGINT), text[-3000:]
    for sign in ("Traceback", "Exception ignored", "Error:"):
        assert sign not in text, text[-3000:]
    assert not left_behind


@pytest.mark.long_wait  # a whole run of each command, then its exit; bounded by TIMEOUT
@pytest.mark.parametrize("ctrl_c", [1, 2], ids=["ctrl-c", "ctrl-c-twice"])
@pytest.mark.parametrize("command", build_parser().commands)
def test_every_command_runs_on_a_terminal_and_ends_cleanly_on_ctrl_c(command, ctrl_c):
    ended_cleanly(*in_a_shell(command, ctrl_c))


@pytest.mark.app
@pytest.mark.terminal
@pytest.mark.long_wait  # a whole run of each command, then its exit; bounded by TIMEOUT
@pytest.mark.parametrize("ctrl_c", [1, 2], ids=["ctrl-c", "ctrl-c-twice"])
def test_the_full_screen_game_runs_on_a_terminal_and_ends_cleanly_on_ctrl_c(ctrl_c):
    ended_cleanly(*in_a_shell(GAME, ctrl_c))


def test_every_command_of_the_parser_says_how_it_runs_on_a_terminal():
    assert set(build_parser().commands) | {GAME} == set(HOW_EACH_RUNS)
