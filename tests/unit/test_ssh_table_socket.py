"""The server's end of a game's table socket: a game that stops reading, or floods, costs the server a bound."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from war_tui.core.engine import Game
from war_tui.serving.tables.socket import READ_BURST, READ_CHUNK, READ_RATE, TableSocket
from war_tui.tables import EventBatch, FakeClock, Flip, Link, ProtocolError, Registry, Resync, Snapshot, encode
from war_tui.tables.protocol import update_reader

SMALL_QUEUE = 8 * 1024


def small_socket_pair() -> tuple[socket.socket, socket.socket]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    for sock in (ours, theirs):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return ours, theirs


def ann_at_oak() -> tuple[Registry, Link]:
    """A registry dealing seed 7 on a clock that stands still, and ann's link, joined to table oak."""
    registry = Registry(clock=FakeClock(), deal=lambda name: Game.deal(7))
    link = Link(registry, "ann")
    link.join("oak")
    return registry, link


def play(ann: Link, bob: Link, battles: int) -> None:
    """Both players flip ``battles`` times (dealing again when a game ends), their own links read at once."""
    for _ in range(battles):
        for link in (ann, bob):
            member = link.member
            assert member is not None
            if member.table.game.over:
                member.restart()
            else:
                member.flip()
            link.take()


def drain(sock: socket.socket) -> bytes:
    sock.setblocking(False)
    data = bytearray()
    while True:
        try:
            chunk = sock.recv(65536)
        except BlockingIOError:
            return bytes(data)
        if not chunk:
            return bytes(data)
        data += chunk


async def test_a_game_that_stops_reading_never_slows_the_table_and_is_resynchronised():
    registry = Registry(clock=FakeClock(), deal=lambda name: Game.deal(7))
    ann, bob = Link(registry, "ann"), Link(registry, "bob")
    ann.join("oak")
    bob.join("oak")
    watcher = Link(registry, "cy", max_queued=SMALL_QUEUE)
    watcher.join("oak", watch=True)
    ours, theirs = small_socket_pair()
    pipe = TableSocket(ours, watcher)
    table = registry.table("oak")
    assert table is not None
    try:
        most_held = 0
        for _ in range(40):  # 2,000 battles while the spectator's game reads nothing
            play(ann, bob, 50)
            await asyncio.sleep(0)
            most_held = max(most_held, pipe.held + watcher.queued)
        assert table.game_number > 1 or table.game.battles > 0
        assert watcher.resyncs > 0
        # What the server holds for it never passed one queue and one write of it.
        assert most_held <= 2 * SMALL_QUEUE + 4096

        # The game reads again: whole lines, the last snapshot the table as it is.
        received = drain(theirs)
        for _ in range(50):
            await asyncio.sleep(0)
            received += drain(theirs)
        updates = update_reader().feed(received)
        assert received.endswith(b"\n")
        assert not any(isinstance(u, ProtocolError) for u in updates)
        snapshots = [u for u in updates if isinstance(u, Snapshot)]
        assert snapshots and snapshots[-1].you.name == "cy"
        assert snapshots[-1].state.game == table.game_number and snapshots[-1].battles == table.game.battles
        play(ann, bob, 1)
        await asyncio.sleep(0)
        later = update_reader().feed(drain(theirs))
        assert any(isinstance(u, EventBatch) for u in later)  # and it follows every battle again
    finally:
        pipe.close()
        theirs.close()


async def test_a_game_that_floods_its_socket_is_read_at_a_bounded_rate():
    _, link = ann_at_oak()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    theirs.setblocking(False)
    pipe = TableSocket(ours, link)
    loop = asyncio.get_running_loop()
    started = loop.time()
    line = encode(Flip())
    sent = 0
    try:
        # Until the game has sent far more than the server takes (not a fixed time).
        while sent <= 4 * READ_BURST and loop.time() - started < 20:
            with contextlib.suppress(BlockingIOError):
                sent += theirs.send(line * 1000)
            await asyncio.sleep(0.001)
        elapsed = loop.time() - started
        assert sent > 4 * READ_BURST
        assert pipe.bytes_in <= READ_BURST + READ_RATE * elapsed + READ_CHUNK
        assert link.dropped_requests > 0 and not link.closed  # valid requests past the rate: dropped, not fatal
    finally:
        pipe.close()
        theirs.close()


async def test_a_game_that_closes_its_end_leaves_the_table():
    registry, link = ann_at_oak()
    finished = asyncio.Event()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pipe = TableSocket(ours, link, on_finished=finished.set)
    try:
        theirs.close()
        await asyncio.wait_for(finished.wait(), 2.0)
        table = registry.table("oak")
        assert link.closed and table is not None and not table.members
    finally:
        pipe.close()


async def test_a_snapshot_the_game_asks_for_too_soon_is_sent_once_it_is_due():
    """A screen that saw a gap asks for a snapshot, maybe too soon after the last: it gets it once the link's
    gap has passed, with nothing else happening at the table."""
    clock = FakeClock()
    registry = Registry(clock=clock, deal=lambda name: Game.deal(7))
    link = Link(registry, "ann", clock=clock)
    link.join("oak")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    theirs.setblocking(False)
    pipe = TableSocket(ours, link)
    reader = update_reader()
    snapshots = 0

    async def until_snapshots(count: int) -> None:
        nonlocal snapshots
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while snapshots < count:
            assert loop.time() < deadline, f"{snapshots} snapshots"
            await asyncio.sleep(0.01)
            snapshots += sum(isinstance(m, Snapshot) for m in reader.feed(drain(theirs)))

    try:
        await until_snapshots(1)  # on joining
        theirs.send(encode(Resync()))
        await until_snapshots(2)
        theirs.send(encode(Resync()))  # on the link's clock, no time since the last: deferred
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while link.next_deadline() is None:
            assert loop.time() < deadline
            await asyncio.sleep(0.01)
        clock.advance(1.0)
        await until_snapshots(3)
    finally:
        pipe.close()
        theirs.close()
