"""A game's session group gets the game's nice value after its start-up boost (Linux autogroup scheduling)."""

from __future__ import annotations

import os
import sys

import pytest
from support.waiting import until

from war_tui.serving import priority
from war_tui.serving.priority import group_nice
from war_tui.serving.pty_process import PtyProcess

pytestmark = pytest.mark.skipif(group_nice(os.getpid()) is None, reason="the kernel keeps no session groups")


async def test_a_game_starts_with_the_servers_weight_then_its_group_plays_below_every_newcomer(monkeypatch):
    monkeypatch.setattr(priority, "START_BOOST", 0.3)  # a short boost: the same path
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    own = group_nice(os.getpid())
    process = await PtyProcess.start(sleeper, dict(os.environ), (80, 24), lambda data: None, niceness=10)
    assert process is not None
    try:
        assert group_nice(process.pid) == 0  # its own session: its own group, at the server's weight
        assert await until(lambda: group_nice(process.pid) == priority.SETTLED_NICE == 19)
        assert group_nice(os.getpid()) == own  # the server's own group is left alone
    finally:
        await process.end(grace=0.5)
