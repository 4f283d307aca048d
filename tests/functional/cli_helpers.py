"""Run ``war-tui`` as a user would: its exit status and both streams, in this process or in a separate one."""

from __future__ import annotations

import os
import subprocess
import sys

from war_tui.cli import main


def run_main(argv: list[str], capsys) -> tuple[int, str, str]:
    """``war-tui ARGV`` in this process: the exit status (returned or raised as SystemExit), stdout, stderr."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def war_tui(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "war_tui", *args],
        capture_output=True, text=True, timeout=timeout, env=env,
    )
