"""Where the statistics file may be: not through a dangling link; read-only files and folders are read."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from war_tui.cli import main
from war_tui.core.engine import Game
from war_tui.stats import GameRecord, StatsStore


def test_a_dangling_link_is_refused_and_nothing_is_created_at_its_target(tmp_path: Path, capsys):
    target = tmp_path / "elsewhere" / "stats.sqlite3"
    target.parent.mkdir()
    link = tmp_path / "stats.sqlite3"
    link.symlink_to(target)
    store = StatsStore.open(link)
    assert not store.enabled
    assert store.disabled_reason == f"{link} is a link to {target}, which does not exist; it was left untouched"
    assert not target.exists() and not list(target.parent.iterdir())
    assert main(["stats", "--stats-db", str(link)]) == 2
    assert "is a link to" in capsys.readouterr().err
    assert not target.exists()


def test_a_link_to_a_real_file_is_followed(tmp_path: Path):
    target = tmp_path / "real.sqlite3"
    StatsStore.open(target)
    link = tmp_path / "stats.sqlite3"
    link.symlink_to(target)
    assert StatsStore.open(link).enabled


# ------------------------------------------------------------------ read-only files and folders

GAMES = 3


def _without_permission_override() -> None:
    """In the child: root keeps its uid but loses the capabilities that ignore file permissions
    (tests run as root, for whom chmod would stop nothing)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP: gone from the bounding set at exec
            os._exit(77)


def as_a_plain_user(code: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        preexec_fn=_without_permission_override,
    )
    if done.returncode == 77:
        pytest.skip("cannot drop root's permission override here")
    return done


@pytest.fixture
def shelf(tmp_path: Path) -> Iterator[Path]:
    """A folder holding a statistics file with GAMES games, and no -wal or -shm beside it."""
    folder = tmp_path / "shelf"
    folder.mkdir()
    store = StatsStore.open(folder / "stats.sqlite3")
    for seed in range(GAMES):
        game = Game.deal(seed)
        game.play()
        assert store.record(GameRecord.from_game(game, seconds=1.0))
    assert sorted(p.name for p in folder.iterdir()) == ["stats.sqlite3"]
    yield folder
    folder.chmod(0o755)


def _cannot_write(path: Path) -> bool:
    done = as_a_plain_user(f"open({str(path)!r}, 'ab')")
    return done.returncode != 0


def _cannot_create_in(folder: Path) -> bool:
    done = as_a_plain_user(f"open({str(folder / 'new')!r}, 'wb')")
    return done.returncode != 0


READ_BOTH = """
import json, sys
from war_tui.cli import main
from war_tui.stats import StatsStore
store = StatsStore.open({path!r})  # as the game opens it
summary = store.summary()
print(json.dumps([store.enabled, store.readable, store.disabled_reason, summary and summary.totals.games]))
sys.exit(main(["stats", "--json", "--stats-db", {path!r}]))
"""


@pytest.mark.parametrize("what", ["file", "folder", "both"])
def test_read_only_statistics_show_every_game_and_leave_nothing_behind(shelf: Path, what: str):
    db = shelf / "stats.sqlite3"
    if what in ("file", "both"):
        db.chmod(0o444)
    if what in ("folder", "both"):
        shelf.chmod(0o555)
    # the child really is held to the permissions
    assert _cannot_write(db) if what == "file" else _cannot_create_in(shelf)
    done = as_a_plain_user(READ_BOTH.format(path=str(db)))
    assert done.returncode == 0, done.stderr
    store_line, stats_line = done.stdout.splitlines()
    enabled, readable, reason, games = json.loads(store_line)
    assert not enabled and readable and games == GAMES
    assert "read-only" in reason
    assert json.loads(stats_line)["games"] == GAMES
    assert sorted(p.name for p in shelf.iterdir()) == ["stats.sqlite3"]  # no -wal, no -shm left
