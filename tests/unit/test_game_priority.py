"""A game's session group gets the game's nice value after its start-up boost (Linux autogroup scheduling)."""

from __future__ import annotations

import asyncio
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
    monkeypatch.setattr(priority, "BOOST_CPU", 0.0)  # as if its first board were drawn
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


async def test_a_game_waiting_for_its_table_keeps_the_servers_weight_until_the_table_answers(monkeypatch):
    """A table being taken over from a node that died answers a newcomer's game only seconds later (its owner's
    lease runs out, then the store restores it): the game draws its first board then, and draws it with the
    server's weight, its boost running from the table's first word rather than from its own start."""
    monkeypatch.setattr(priority, "START_BOOST", 0.3)
    monkeypatch.setattr(priority, "BOOST_CPU", 0.0)  # as if its first board were drawn
    monkeypatch.setattr(priority, "TABLE_WAIT_MOST", 3600.0)  # a table that never answers: not this test's
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    process = await PtyProcess.start(sleeper, dict(os.environ), (80, 24), lambda data: None, niceness=10,
                                     settled_nice=priority.TABLE_NICE, waits_for_table=True)
    assert process is not None
    try:
        await asyncio.sleep(3 * priority.START_BOOST)  # on the loop, past any boost that ran from the start
        assert group_nice(process.pid) == 0, "the game settled before its table answered"
        process.table_reached()
        assert await until(lambda: group_nice(process.pid) == priority.TABLE_NICE == 5)
    finally:
        await process.end(grace=0.5)


async def test_a_game_keeps_the_servers_weight_until_it_has_spent_its_first_boards_cpu(monkeypatch):
    """On a loaded machine a game's first board takes seconds of the clock for a fraction of one of CPU: its group
    settles once the game has had that CPU, not at a fixed time after its start, when it would draw the rest of its
    first board at a settled game's weight."""
    monkeypatch.setattr(priority, "START_BOOST", 0.3)
    monkeypatch.setattr(priority, "BOOST_MOST", 3600.0)  # the bound on a boost: not this test's
    # Idle until it reads a line, then busy: a game waiting for the machine, then drawing its board.
    drawer = [sys.executable, "-c", "import sys, time; sys.stdin.readline(); end = time.monotonic() + 60\n"
              "while time.monotonic() < end: pass"]
    process = await PtyProcess.start(drawer, dict(os.environ), (80, 24), lambda data: None, niceness=10)
    assert process is not None
    try:
        await asyncio.sleep(3 * priority.START_BOOST)  # on the loop, past the boost's seconds
        assert group_nice(process.pid) == 0, "the game settled before it had its first board's CPU"
        process.write(b"draw\r")
        assert await until(lambda: group_nice(process.pid) == priority.SETTLED_NICE == 19)
        assert priority.cpu_seconds(process.pid) >= priority.BOOST_CPU
    finally:
        await process.end(grace=0.5)
