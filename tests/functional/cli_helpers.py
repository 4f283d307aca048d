"""Run ``war-tui`` as a user would: its exit status and what it writes, in this process, in another, or on a pty."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable

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


def war_tui_on_pty(
    args: list[str], env: dict[str, str], timeout: float, react: Callable[[bytes], bytes] | None = None
) -> tuple[int, str]:
    """``war-tui ARGS`` with a pty as its stdin, stdout and stderr, as in a terminal.

    While it runs, ``react(everything written so far)`` is asked after each read (or 0.1 s of quiet)
    for keys to type (``b""`` for none). Returns the exit status and everything it wrote, once it has
    exited and its output is read to the end.
    """
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "war_tui", *args], stdin=slave, stdout=slave, stderr=slave,
        env=env, start_new_session=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            if proc.poll() is None:
                if react is not None and (keys := react(seen)):
                    os.write(master, keys)
            elif not ready:
                break
        code = proc.wait(timeout=max(1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return code, seen.decode(errors="replace")
