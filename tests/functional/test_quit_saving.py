"""Quitting while another program holds the statistics file locked loses no finished game."""

from __future__ import annotations

import os
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from war_tui.stats import StatsStore
from war_tui.stats.recovery import recovery_path

TIMEOUT = 60
GAMES = 4
BETWEEN_GAMES = 3.0
"""Seconds between games: a war laid step by step, then the second in which a result ignores the keys."""


def play_and_quit(db: Path, when_saving=None) -> tuple[int, str]:
    """``war-tui`` on a pty: GAMES one-battle games by hand (space plays, space deals), then q;
    ``when_saving()`` is called once the screen says it is saving. Returns the exit status and
    everything written to the terminal."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "--seed", "1", "--max-battles", "1", "--stats-db", str(db)],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    step = "start"
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
            now = time.monotonic()
            if step == "start" and b"Battle" in seen:
                os.write(master, b" ")  # the first game's one battle
                step, left, next_at = "playing", GAMES - 1, now + BETWEEN_GAMES
            elif step == "playing" and now >= next_at:
                if left:
                    os.write(master, b"  ")  # deal again, play its battle
                    left, next_at = left - 1, now + BETWEEN_GAMES
                else:
                    os.write(master, b"q")
                    step = "quit"
            elif step == "quit" and b"Saving" in seen:
                if when_saving is not None:
                    when_saving()
                step = "saving"
        while True:  # what is left, until the child closes its end
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        code = proc.wait(timeout=max(1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return code, seen.decode(errors="replace")


def test_games_finished_while_the_file_is_locked_are_all_found_after_quitting(tmp_path: Path):
    db = tmp_path / "stats.sqlite3"
    StatsStore.open(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program, holding the file across the whole quit
    try:
        code, screen = play_and_quit(db)
    finally:
        holder.rollback()
        holder.close()
    kept = recovery_path(db)
    assert f"Saving {GAMES} finished games" in screen  # said on screen while it tries
    assert code != 0  # not a silent success
    assert "stayed locked" in screen and str(kept) in screen.replace("\r\n", "")
    assert kept.exists()

    store = StatsStore.open(db)  # the next run imports them
    assert store.totals().games == GAMES
    assert not kept.exists()


def test_a_lock_let_go_during_the_quit_saves_the_games_there_and_then(tmp_path: Path):
    db = tmp_path / "stats.sqlite3"
    StatsStore.open(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, screen = play_and_quit(db, when_saving=holder.rollback)  # let go while it tries
    finally:
        holder.close()
    assert code == 0, screen[-500:]
    assert not recovery_path(db).exists()
    assert StatsStore.open(db).totals().games == GAMES
