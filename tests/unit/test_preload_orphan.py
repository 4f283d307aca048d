"""The game parent whose server died before it was ready (kill -9) leaves quietly: no traceback in the log."""

from __future__ import annotations

import socket
import subprocess
import sys


def test_a_game_parent_whose_server_is_gone_exits_without_a_traceback():
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.close()  # the server is gone before the parent says it is ready
    with theirs:
        result = subprocess.run(
            [sys.executable, "-m", "war_tui.preload", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), capture_output=True, text=True, timeout=60,
        )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0
