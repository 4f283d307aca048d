"""Run ``war-tui`` as a user would: its exit status and what it writes, in this process, in another, or on a pty."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable

from war_tui.cli import main
from war_tui.serving.pty_process import CTTY_LAUNCHER


def run_main(argv: list[str], capsys) -> tuple[int, str, str]:
    """``war-tui ARGV`` in this process: the exit status (returned or raised as SystemExit), stdout, stderr."""
    try:
        code = main(argv)
    except SystemExit as exc:  # as the shell sees it: None is 0, a message is 1
        code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
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
    code, text, _ = _on_pty([sys.executable, "-m", "war_tui", *args], env, timeout, react)
    return code, text


def war_tui_in_a_shell(
    args: list[str], env: dict[str, str], timeout: float, react: Callable[[bytes], bytes] | None = None
) -> tuple[int, str, bool]:
    """``war_tui_on_pty``, with the pty as its controlling terminal too, as a shell starts it: a ctrl-c
    typed (``b"\\x03"``) while the terminal is not in raw mode is SIGINT to its process group. Returns the
    exit status, everything it wrote, and whether a process of its session (a worker, say) was still there
    ``timeout`` seconds after it exited."""
    # serve-ssh's launcher makes the pty the controlling terminal between fork and exec.
    launcher = [sys.executable, "-I", "-S", "-c", CTTY_LAUNCHER, "0", "0"]
    code, text, pid = _on_pty([*launcher, sys.executable, "-m", "war_tui", *args], env, timeout, react)
    return code, text, not session_ended(pid, timeout)


def session_ended(pid: int, timeout: float) -> bool:
    """Whether every process of the group (or session) led by ``pid`` is gone within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _on_pty(
    argv: list[str], env: dict[str, str], timeout: float, react: Callable[[bytes], bytes] | None
) -> tuple[int, str, int]:
    """``argv`` in a session of its own on a new pty: its exit status, what it wrote, its pid."""
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
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
    return code, seen.decode(errors="replace"), proc.pid
