"""ctrl+l draws the whole screen again over whatever garbled the terminal, in the game run on a terminal here
(a solo game, two players at one keyboard), with the fast path's shadow of the terminal and without it.
Over SSH (a table's players, spectators, the lobby): test_serve_ssh_redraw.py."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import pytest
from cli_helpers import war_tui_on_pty
from redraw_support import CTRL_L, garble, mended
from support.glass import Glass

pytestmark = [pytest.mark.app, pytest.mark.terminal]

TIMEOUT = 60
SIZE = (80, 24)
SETTLED = 1.0
"""Seconds with nothing written before the next step: the first frames (the screen's size settling) are drawn
whole, and junk written meanwhile would go with them, ctrl+l or not."""
REDRAWN_WITHIN = 20.0
"""Seconds a redraw may take on a busy machine; a screen still garbled then is not redrawn at all."""


@dataclass
class Steps:
    """Where the run is: the board, the screen over it, the junk and ctrl+l, done; and the screens seen."""

    step: str = "board"
    at: float = 0.0
    before: list[str] = field(default_factory=list)
    after: list[str] | None = None


def redrawn(args: list[str], overlay: bytes = b"", shown_by: str = "") -> tuple[list[str], list[str]]:
    """``war-tui ARGS`` on a terminal: once its board is up (and ``overlay`` typed, ``shown_by`` on show), junk over
    the screen, then ctrl+l. The screen before the junk, and once ctrl+l mended it (or the time was up)."""
    glass = Glass(SIZE)
    quiet_since = time.monotonic()
    run = Steps()

    def react(seen: bytes) -> bytes:
        nonlocal quiet_since
        if len(seen) > len(glass.raw):
            quiet_since = time.monotonic()
        shown = glass.catch_up(seen)
        if time.monotonic() - quiet_since < SETTLED:
            return b""
        if run.step == "board" and any("Battle" in row for row in shown) and "Quit" in shown[-1]:
            run.step = "overlay"
            return overlay
        if run.step == "overlay" and shown_by in "\n".join(shown):
            run.step, run.before, run.at = "redraw", shown, time.monotonic()
            garble(glass)
            return CTRL_L
        if run.step == "redraw" and (mended(run.before, shown) or time.monotonic() - run.at > REDRAWN_WITHIN):
            run.step, run.after = "done", shown
            return b"q"
        return b""

    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "COLUMNS": "80", "LINES": "24"}
    war_tui_on_pty(["--no-config", "--no-stats", "--seed", "1", *args], env, TIMEOUT, react)
    assert run.after is not None, f"the game ended at step {run.step}"
    return run.before, run.after


def test_ctrl_l_draws_a_solo_games_garbled_screen_whole_again():
    before, after = redrawn([])
    assert mended(before, after), "\n".join(after)
    assert after == before  # nothing moved meanwhile: every cell is the game's again


def test_ctrl_l_draws_the_screen_whole_again_under_the_help_a_modal_screen():
    before, after = redrawn([], overlay=b"?", shown_by="How War is played")
    assert mended(before, after), "\n".join(after)
    assert "How War is played" in "\n".join(after)


def test_ctrl_l_draws_two_players_garbled_screen_whole_again():
    before, after = redrawn(["--two-players"])
    assert mended(before, after), "\n".join(after)
