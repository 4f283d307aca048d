"""Bytes that are not UTF-8 (é typed on a Latin-1 terminal) are input like any other, never the end of the game."""

from __future__ import annotations

import os
import re
import time

import pytest
from cli_helpers import war_tui_on_pty

pytestmark = [pytest.mark.app, pytest.mark.terminal]  # see pyproject.toml's markers

TIMEOUT = 30
HELP_TEXT = "this help, open and close"  # a line of the help screen, drawn only once "?" is read
_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def text_of(written: bytes) -> str:
    return _ESCAPE.sub(b"", written).decode(errors="replace")


def typed_after_bad_bytes(fast_path: str) -> tuple[int, str]:
    """``war-tui`` on a pty: once the board is up, E9 61 (Latin-1 "é", then "a"), then "?" for the help,
    then "q". Returns the exit status and everything it wrote."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30", "WAR_TUI_FASTPATH": fast_path}
    step, next_at = "start", 0.0

    def react(seen: bytes) -> bytes:
        nonlocal step, next_at
        now = time.monotonic()
        if step == "start" and b"\x1b[?1049h" in seen and b"Battle" in seen:
            step, next_at = "bad", now + 0.5
            return b"\xe9a"
        if step == "bad" and now >= next_at:
            step = "help"
            return b"?"
        if step == "help" and HELP_TEXT in text_of(seen):
            step = "quit"
            return b"q"
        return b""

    return war_tui_on_pty(["--seed", "1", "--no-stats"], env, TIMEOUT, react)


@pytest.mark.parametrize("fast_path", ["1", "0"], ids=["fast-path", "public-api"])
def test_invalid_utf8_keeps_the_game_running_and_the_next_key_works(fast_path):
    code, written = typed_after_bad_bytes(fast_path)
    assert "Traceback" not in written and "UnicodeDecodeError" not in written, written[-3000:]
    assert HELP_TEXT in text_of(written.encode())  # "?" after the bad bytes opened the help
    assert code == 0  # and "q" quit as usual
