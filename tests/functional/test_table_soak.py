"""The soak in short, as CI can run it: tables played through both doors at once, every screen ends on its
table's last battle once the flips stop (``benchmarks/table_soak.py``; its figures are in docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "table_soak.py"


@pytest.mark.app
@pytest.mark.server_side
def test_every_screen_ends_on_its_tables_last_battle_once_the_flips_stop():
    # Both doors' players and spectators at two tables flip at random for 6 s; each screen then has two
    # minutes to show its table's last battle.
    done = subprocess.run(
        [sys.executable, str(SOAK), "--tables", "2", "--seconds", "6", "--settle", "120", "--seed", "29"],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )
    assert "every screen on its table's last battle: yes" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
