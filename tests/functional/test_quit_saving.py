"""Quitting while another program holds the statistics file locked loses no finished game."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from cli_helpers import war_tui_on_pty
from support.locks import locked
from support.present import present

from war_tui.stats import StatsStore
from war_tui.stats.recovery import recovery_path

pytestmark = [pytest.mark.app, pytest.mark.terminal]  # see pyproject.toml's markers

TIMEOUT = 60
GAMES = 2  # more than one: every game finished while locked is kept
BETWEEN_GAMES = 3.0
"""Seconds between games: a war laid step by step, then the second in which a result ignores the keys."""


def play_and_quit(db: Path, when_saving=None) -> tuple[int, str]:
    """``war-tui`` on a pty: GAMES one-battle games by hand (space plays, space deals), then q;
    ``when_saving()`` is called once the screen says it is saving. Returns the exit status and
    everything written to the terminal."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    step, left, next_at = "start", GAMES - 1, 0.0

    def play(seen: bytes) -> bytes:
        nonlocal step, left, next_at
        now = time.monotonic()
        if step == "start" and b"Battle" in seen:
            step, next_at = "playing", now + BETWEEN_GAMES
            return b" "  # the first game's one battle
        if step == "playing" and now >= next_at:
            if left:
                left, next_at = left - 1, now + BETWEEN_GAMES
                return b"  "  # deal again, play its battle
            step = "quit"
            return b"q"
        if step == "quit" and b"Saving" in seen:
            if when_saving is not None:
                when_saving()
            step = "saving"
        return b""

    args = ["--seed", "1", "--max-battles", "1", "--stats-db", str(db)]
    return war_tui_on_pty(args, env, TIMEOUT, play)


def test_games_finished_while_the_file_is_locked_are_all_found_after_quitting(tmp_path: Path):
    db = tmp_path / "stats.sqlite3"
    StatsStore.open(db)
    with locked(db):  # another program, holding the file across the whole quit
        code, screen = play_and_quit(db)
    kept = recovery_path(db)
    assert f"Saving {GAMES} finished games" in screen  # said on screen while it tries
    assert code != 0  # not a silent success
    assert "stayed locked" in screen and str(kept) in screen.replace("\r\n", "")
    assert kept.exists()

    store = StatsStore.open(db)  # the next run imports them
    assert present(store.totals()).games == GAMES
    assert not kept.exists()


def test_a_lock_let_go_during_the_quit_saves_the_games_there_and_then(tmp_path: Path):
    db = tmp_path / "stats.sqlite3"
    StatsStore.open(db)
    with locked(db) as holder:
        code, screen = play_and_quit(db, when_saving=holder.rollback)  # let go while it tries
    assert code == 0, screen[-500:]
    assert not recovery_path(db).exists()
    assert present(StatsStore.open(db).totals()).games == GAMES
