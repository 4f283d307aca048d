"""A game's end of its table's socket: an update the screen fails to show costs neither the rest of its
read nor the screen's truth (a fresh snapshot mends it)."""

from __future__ import annotations

import asyncio
import socket

from support.deals import EIGHT_PLAIN
from support.tables import Recorder, dealing, make_table

from war_tui.tables import RemoteGame, Resync, Snapshot, TableState
from war_tui.tables.protocol import decode_request, encode_shared, encode_snapshot
from war_tui.ui.table_connection import SocketHost


def lines_of(updates) -> bytes:
    return b"".join(encode_snapshot(u) if isinstance(u, Snapshot) else encode_shared(u) for u in updates)


async def test_an_update_the_screen_fails_to_show_keeps_the_rest_of_its_read_and_asks_for_a_snapshot():
    table, _clock = make_table(dealing(*EIGHT_PLAIN))
    ann_sink = Recorder()
    ann = table.join("ann", ann_sink, identity="key:ann")
    bob = table.join("bob", Recorder(), identity="key:bob")
    ann.flip()
    bob.flip()  # battle 1: ann's sink holds her snapshot, the states and the battle, in the table's order
    last = max(getattr(u, "seq", 0) for u in ann_sink.updates)

    server, client = socket.socketpair()
    game = RemoteGame()
    failures: list[object] = []

    def fails_once(update) -> None:
        if isinstance(update, TableState) and not failures:
            failures.append(update)
            raise RuntimeError("a widget that was not there")

    game.watch(fails_once)
    host = SocketHost(client.detach(), game)
    host.start(asyncio.get_running_loop())
    try:
        server.sendall(lines_of(ann_sink.updates))  # all in one read
        for _ in range(200):
            if game.seq == last:
                break
            await asyncio.sleep(0.01)
        assert failures, "the listener never failed: the test proves nothing"
        assert game.seq == last and game.battles == 1  # the updates after the failed one were shown
        server.settimeout(10)
        asked = [decode_request(line) for line in server.recv(4096).splitlines(keepends=True)]
        assert any(isinstance(request, Resync) for request in asked), asked
        assert not host.closed
    finally:
        host.close()
        server.close()
