"""Run ``war-tui`` as a user would: a separate process, its exit status and both streams."""

from __future__ import annotations

import os
import subprocess
import sys


def war_tui(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "war_tui", *args],
        capture_output=True, text=True, timeout=timeout, env=env,
    )
