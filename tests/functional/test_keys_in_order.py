"""Keys typed into an input apply in the order they were typed, however many arrive in one read.

A paste, a fast typist or a slow link hands the game several keys in one read: each burst here is one
write to the game's pty (or pipe), backspaces (7F) and cursor keys (ESC [ D) among the letters. The
pilot test posts a read's keys at once, as Textual's driver hands them over.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from typing import Any

import pytest
from cli_helpers import war_tui_on_pty
from support.glass import Glass
from textual import events
from textual.command import CommandPalette
from textual.widgets import Input
from war_ui_support import make_app, until

from war_tui.line.player import KEYS_LINE

TIMEOUT = 90
GIVE_UP = 10
"""Seconds a burst's text is waited for (a few milliseconds' work) before what shows is taken as final."""
SIZE = (100, 30)
LEFT = "\x1b[D"
BACK = "\x7f"
CLEAR = "\x05\x15"  # ctrl+e, ctrl+u: the input's "to the end", then "delete everything left of the cursor"
PLACEHOLDER = "Search for commands"
BURSTS = [
    # (what is typed in one write, what the input then holds)
    (f"abc{BACK * 3}hel", "hel"),
    (f"abc{BACK}hel", "abhel"),
    (f"abc{LEFT}{LEFT}X", "aXbc"),
    (f"xyz{LEFT}{BACK}{BACK}Q", "Qz"),
]
MY_TABLE = "My Table!"


def searched(text: str) -> str | None:
    """What the palette's search line holds (None: no palette on show)."""
    found = re.search(r"^ *(?:🔎|>) (.*?)[ ▎▏│]*$", text, re.M)
    return None if found is None else found.group(1)


def typed_in_the_palette(steps: list[tuple[str, str]]) -> list[tuple[str, str | None]]:
    """``war-tui`` on a pty: ctrl+p opens the palette; each burst is written at once, then the search line
    is read once it shows the text the burst should leave (or until the game is given up on). Returns, for
    each burst, what was expected and the search line last seen."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(SIZE[0]), "LINES": str(SIZE[1])}
    glass = Glass(SIZE)
    seen: list[tuple[str, str | None]] = []
    state: dict[str, Any] = {"step": -1, "since": time.monotonic(), "sent": False}

    def react(written: bytes) -> bytes:
        glass.catch_up(written)
        text = glass.text
        step = state["step"]
        if step == -1:
            if "Battle" in text and not state["sent"]:
                state["sent"] = True
                return b"\x10"  # ctrl+p
            if PLACEHOLDER in text:
                state.update(step=0, sent=False)
            return b""
        if step >= len(steps):
            return b""
        burst, expected = steps[step]
        if not state["sent"]:
            if PLACEHOLDER not in text:  # the last burst is still being cleared
                return b""
            state.update(sent=True, since=time.monotonic())
            return burst.encode()
        holds = searched(text)
        if holds == expected or time.monotonic() - state["since"] > GIVE_UP:
            seen.append((expected, holds))
            state.update(step=step + 1, sent=False)
            return (CLEAR if step + 1 < len(steps) else "\x1b").encode()  # empty it, or close it
        return b""

    def quit_after(written: bytes) -> bytes:
        keys = react(written)
        if state["step"] >= len(steps) and not keys:
            glass.catch_up(written)
            return b"q" if searched(glass.text) is None else b""
        return keys

    code, _ = war_tui_on_pty(["--seed", "1", "--no-stats"], env, TIMEOUT, quit_after)
    assert code == 0
    return seen


@pytest.mark.app  # see pyproject.toml's markers
@pytest.mark.terminal
def test_bursts_with_backspaces_and_cursor_keys_in_the_palette_apply_in_order():
    seen = typed_in_the_palette(BURSTS)
    assert [held for _, held in seen] == [expected for _, expected in BURSTS]


def test_the_line_modes_lines_sent_with_their_edits_in_one_write_are_the_lines_they_make():
    typed = f"fl{BACK}{BACK}score\nqxit{LEFT}{LEFT}{BACK}u\n".encode()  # "score", then "quit"
    done = subprocess.run(
        [sys.executable, "-m", "war_tui", "--line", "--seed", "3", "--no-stats"], input=typed,
        capture_output=True, timeout=TIMEOUT,
    )
    said = done.stdout.decode().splitlines()
    assert said[-2:] == ["Battle 0, no wars so far. You have 26, they have 26.", "Goodbye."], said


@pytest.mark.app  # see pyproject.toml's markers
@pytest.mark.terminal
def test_the_line_modes_single_keys_take_an_arrow_as_one_key():
    env = {**os.environ, "TERM": "xterm-256color"}
    sent: list[bytes] = []

    def react(seen: bytes) -> bytes:
        if not sent and KEYS_LINE.encode() in seen:
            sent.append(f"{LEFT}s".encode())  # an arrow, then s for the score, in one write
            return sent[-1]
        if len(sent) == 1 and b"so far" in seen:
            sent.append(b"q")
            return sent[-1]
        return b""

    code, text = war_tui_on_pty(["--line", "--seed", "3", "--no-stats"], env, TIMEOUT, react)
    said = text.replace("\r\n", "\n").splitlines()
    assert code == 0, text
    assert said.count(KEYS_LINE) == 2, said  # the opening's, then the arrow's: one key, not three
    assert said[-2:] == ["Battle 0, no wars so far. You have 26, they have 26.", "Goodbye."], said


@pytest.mark.app  # see pyproject.toml's markers
@pytest.mark.parametrize("keys, expected", [
    ("a b c backspace backspace backspace h e l", "hel"),
    ("a b c left left X", "aXbc"),
    ("x y z home delete end backspace Q", "yQ"),
])
async def test_keys_posted_at_once_reach_the_palettes_input_in_order(keys, expected):
    """As the driver hands a read's keys over: all posted before the app handles the first."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: CommandPalette.is_open(app) and isinstance(app.focused, Input))
        box = app.screen.query_one(Input)  # the keys go where a person's would: to the focused search box
        for key in keys.split():
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await until(pilot, lambda: box.value == expected)
        # Let the palette's searches end first (one still running finds its list gone); a search the next key
        # cancelled has ended too, which wait_for_complete would raise as WorkerCancelled.
        await until(pilot, lambda: all(worker.is_finished for worker in app.workers))
        await pilot.press("escape")
        await until(pilot, lambda: not CommandPalette.is_open(app))
