"""war-tui replay in the line mode on a terminal: single keys, not echoed; space plays and pauses, + and -
set the speed; plain text out, one sentence a line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import war_tui_on_pty

TIMEOUT = 60
GAME_FILE = Path(__file__).parent / "data" / "replay_game.json"  # seed 0: 56 battles


@pytest.mark.app
@pytest.mark.terminal
def test_space_plays_plus_speeds_up_and_space_pauses_in_plain_lines():
    env = {**os.environ, "TERM": "xterm-256color"}
    sent: list[bytes] = []

    def react(seen: bytes) -> bytes:
        steps = (
            (b"battle 1 of 56: ", b" +++"),  # play, then 2x, 4x, 8x
            (b"battle 4 of 56: ", b" "),  # pause, once playing has said three more battles
            (b"Paused at battle", b"\x1b[Dg20\r"),  # the left arrow, then battle 20
            (b"battle 20 of 56: ", b"q"),
        )
        for done, (wait_for, keys) in enumerate(steps):
            if len(sent) == done and wait_for in seen:
                sent.append(keys)
                return keys
        return b""

    code, text = war_tui_on_pty(["replay", "--line", "--file", str(GAME_FILE)], env, TIMEOUT, react)
    assert code == 0, text
    data = text.replace("\r\n", "\n").encode()
    assert all(b >= 0x20 or b == 0x0A for b in data) and 0x7F not in data, text  # no escape or control byte
    lines = data.decode().splitlines()
    assert lines[0].startswith("Replay of seed 0, standard rules, 56 battles.")
    assert lines[1].startswith("battle 1 of 56: ")
    assert lines[2:6] == [
        "Playing at 1x, a battle every 3 seconds; space pauses.",
        "Speed 2x: a battle every 1.5 seconds.",
        "Speed 4x: a battle every 0.75 seconds.",
        "Speed 8x: a battle every 0.375 seconds.",
    ]
    played = [line for line in lines[6:] if line.startswith("battle ")]
    paused = next(n for n, line in enumerate(lines) if line.startswith("Paused at battle"))
    numbers = [int(line.split()[1]) for line in lines[6:paused]]
    assert numbers == list(range(2, 2 + len(numbers))) and len(numbers) >= 3  # one battle after another
    assert lines[paused] == f"Paused at battle {numbers[-1]} of 56."
    assert lines[paused + 1].startswith(f"battle {numbers[-1] - 1} of 56: ")  # the left arrow
    assert lines[paused + 2].startswith("battle 20 of 56: ") and played
    assert lines[-1] == "Replay over." and "q" not in lines and "g20" not in text  # keys are not echoed
