"""How far a screen is behind its table (``war_tui_screen_behind_seconds``): the age of the oldest update its game
has not read, from the moment it reached the connection's link; nothing once the game has read everything."""

from __future__ import annotations

import asyncio
import socket

from war_tui.core.engine import Game
from war_tui.serving.counts import Histogram
from war_tui.serving.tables.socket import MARK_GRAIN, MAX_MARKS, TableSocket
from war_tui.tables import FakeClock, Link, Registry


def drain(sock: socket.socket) -> int:
    """Read what is there, as a game does; how many bytes."""
    sock.setblocking(False)
    read = 0
    while True:
        try:
            chunk = sock.recv(65536)
        except BlockingIOError:
            return read
        read += len(chunk)


async def test_a_screen_is_behind_by_the_age_of_what_its_game_has_not_read_and_not_at_all_once_it_has():
    registry = Registry(clock=FakeClock(), deal=lambda name: Game.deal(7))
    ann, bob = Link(registry, "ann"), Link(registry, "bob")
    ann.join("oak")
    bob.join("oak")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    screens: set[TableSocket] = set()
    pipe = TableSocket(ours, ann, screens=screens)
    try:
        assert screens == {pipe}
        await asyncio.sleep(0.05)  # the snapshot on joining goes out on the loop's next turns
        assert drain(theirs) > 0
        assert pipe.behind() == 0
        for _ in range(3):  # battles the game does not read
            for link in (ann, bob):
                assert link.member is not None
                link.member.flip()
            bob.take()
        await asyncio.sleep(0.05)
        first = pipe.behind()
        assert first > 0
        await asyncio.sleep(0.1)
        assert pipe.behind() > first  # the same updates, older
        assert drain(theirs) > 0
        assert pipe.behind() == 0
    finally:
        pipe.close()
        theirs.close()
    assert not screens and pipe.behind() == 0


async def test_past_its_marks_a_screen_is_said_to_be_further_behind_never_less():
    registry = Registry(clock=FakeClock(), deal=lambda name: Game.deal(7))
    ann, bob = Link(registry, "ann"), Link(registry, "bob")
    ann.join("oak")
    bob.join("oak")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pipe = TableSocket(ours, ann)
    try:
        await asyncio.sleep(0.05)
        drain(theirs)
        await asyncio.sleep(0.05)
        loop = asyncio.get_running_loop()
        first_seen = None
        for _ in range(MAX_MARKS + 50):  # pieces of output the game does not read
            for link in (ann, bob):
                assert link.member is not None
                if link.member.table.game.over:
                    link.member.restart()
                else:
                    link.member.flip()
            bob.take()
            await asyncio.sleep(MARK_GRAIN)  # each piece a mark of its own
            first_seen = first_seen or loop.time()  # the first piece reached the link before this
        assert first_seen is not None
        at_least = loop.time() - first_seen  # the first piece reached the link before first_seen
        assert pipe.behind() >= at_least
        while not pipe.delivered:
            drain(theirs)
            await asyncio.sleep(0.01)
        assert pipe.behind() == 0
    finally:
        pipe.close()
        theirs.close()


def test_a_histogram_counts_each_observation_in_its_bucket_and_the_ones_above():
    histogram = Histogram((0.1, 1.0))
    for seconds in (0.05, 0.1, 0.5, 3.0):
        histogram.observe(seconds)
    assert histogram.cumulative() == [("0.1", 2), ("1.0", 3), ("+Inf", 4)]
    assert histogram.count == 4 and histogram.sum == 3.65
