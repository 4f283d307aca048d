"""The CPU priority the game launcher gives a game: at a table, whoever it draws for, above a solo game."""

from __future__ import annotations

import asyncio
import os
import socket
from types import SimpleNamespace

import pytest

from war_tui.serving import launcher, priority
from war_tui.serving.config import GameConfig
from war_tui.serving.pty_process import PtyProcess


class Started(Exception):
    """Raised by the stand-in for starting a game once it has what the launcher gave it."""


def settled_by_launcher(monkeypatch, *, at_table: bool) -> int:
    """The nice value ``start_game`` gives a game's session group once it settles."""
    given: list[int] = []

    async def start(cls, *args, settled_nice: int, **kwargs):
        given.append(settled_nice)
        raise Started

    monkeypatch.setattr(PtyProcess, "start", classmethod(start))
    house = SimpleNamespace(config=GameConfig(session_argv=["war-tui"]), game_parent=None)
    ours, theirs = socket.socketpair()
    try:
        with pytest.raises(Started):
            asyncio.run(launcher.start_game(
                house, dict(os.environ), (80, 24), lambda data: None, table=theirs if at_table else None,
            ))
    finally:
        ours.close()
        theirs.close()
    return given[0]


def test_a_players_game_settles_no_lower_than_the_renderer_of_their_table_and_above_solo_games(monkeypatch):
    """Issue 40: players' games settled at nice 19 and the spectators' renderer at 5, so under load the people
    watching a table saw it in step while its players' screens froze and their keys acted late. Every game at a
    table (a seat's, the renderer's, which starts the same way) settles at one value, above solo games'."""
    at_table = settled_by_launcher(monkeypatch, at_table=True)
    solo = settled_by_launcher(monkeypatch, at_table=False)
    assert (at_table, solo) == (5, 19)  # weights 335 and 15 (sched(7)); the renderer's was 335
    assert (at_table, solo) == (priority.TABLE_NICE, priority.SETTLED_NICE)
