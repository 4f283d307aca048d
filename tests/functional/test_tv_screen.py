"""War TV on screen: its keys (n, q, ?) and its states (no table, a table on show, that table's game ending).

The server side is a real Registry pumped over a socketpair (``table_support.TableServer``), the viewer's link
War TV's own (``serving.tables.tv.TvLink``), as serve-ssh gives it to a ``tv`` session.
"""

from __future__ import annotations

import socket

import pytest
from support.board_text import seats
from table_support import TableServer, table_app
from war_ui_support import footer_text, until

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.serving.tables.tv import TvLink
from war_tui.tables import Link, Member, TableOptions
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.tv_waiting import TvWaitingScreen

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # pilot tests of a screen

SIZE = (100, 30)
BATTLES = 3


def capped_server(battles: int = BATTLES) -> TableServer:
    """Tables whose games end at their ``battles``-th battle (the third, unless told)."""
    rules = Rules(max_battles=battles)
    return TableServer(lambda: Game.deal(21, rules), options=TableOptions(rules=rules))


class TvConnection:
    """A War TV connection to ``server``'s tables, pumped as serve-ssh pumps it: ``fd`` is the game's end."""

    def __init__(self, server: TableServer) -> None:
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        self.sock, self.loop, self.server = ours, server.loop, server
        self.tv = TvLink(lambda: Link(server.registry, "viewer"), server.registry.lobby, wake=server.wake.set)
        self.tv.on_output = self._soon
        self.tv.start()
        self.loop.add_reader(ours.fileno(), self._read)
        self.fd = theirs.detach()

    def _soon(self) -> None:
        self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        data = self.tv.take()
        if data and self.sock.fileno() >= 0:
            self.sock.setblocking(True)
            try:
                self.sock.sendall(data)
            finally:
                self.sock.setblocking(False)

    def _read(self) -> None:
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return
        if not data:
            self.close()
            return
        self.tv.receive(data)
        self.server.wake.set()
        self._flush()

    def close(self) -> None:
        if self.sock.fileno() >= 0:
            self.loop.remove_reader(self.sock.fileno())
            self.sock.close()
        self.tv.close()


CONNECTIONS: list[TvConnection] = []


def on_tv(server: TableServer) -> tuple[int, TvLink]:
    """A War TV connection to ``server``: the game's descriptor, and the server's link."""
    connection = TvConnection(server)
    CONNECTIONS.append(connection)
    return connection.fd, connection.tv


def playing(server: TableServer, table: str, battles: int = 1) -> tuple[Member, Member]:
    """Two people at ``table`` (the test flips for them), ``battles`` played: a live table."""
    ann, _ = server.seat(table, f"{table}-1")
    bob, _ = server.seat(table, f"{table}-2")
    for _ in range(battles):
        ann.flip()
        bob.flip()
    server.wake.set()
    return ann, bob


def waiting_says(app) -> str:
    """What the no-table screen says ("" while it is not on show)."""
    screen = app.screen
    if not isinstance(screen, TvWaitingScreen) or not screen.query("#tv-waiting"):
        return ""
    return str(screen.query_one("#tv-waiting").render())


@pytest.fixture
async def server():
    with capped_server() as server:
        try:
            yield server
        finally:
            while CONNECTIONS:
                CONNECTIONS.pop().close()


async def test_with_no_table_tv_says_so_then_tunes_in_and_q_leaves(server):
    fd, _ = on_tv(server)
    app = table_app(fd, mode="tv")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "No table is playing now" in waiting_says(app))
        playing(server, "oak")
        await until(pilot, lambda: "Table oak" in seats(app))
        assert not isinstance(app.screen, TvWaitingScreen)
        assert "1 spectator" in seats(app) and "on War TV" in seats(app)  # which table, how many watch it
        assert "n Next table" in footer_text(app)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)


async def test_n_skips_to_the_next_table_and_help_says_what_tv_shows(server):
    playing(server, "oak")
    playing(server, "elm")
    fd, tv = on_tv(server)
    app = table_app(fd, mode="tv")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: tv.table is not None and f"Table {tv.table}" in seats(app))
        first = tv.table
        other = "elm" if first == "oak" else "oak"
        await pilot.press("n")
        await until(pilot, lambda: f"Table {other}" in seats(app))
        assert server.registry.table(first).watching == 0 and server.registry.table(other).watching == 1
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        keys = dict(app.screen.keys)
        assert "next table" in keys["n"] and keys["q"] == "leave War TV" and "t" not in keys


async def test_tv_moves_on_when_the_game_on_show_ends_and_waits_when_none_is_left(server):
    oak = playing(server, "oak")
    fd, tv = on_tv(server)
    app = table_app(fd, mode="tv")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Table oak" in seats(app))
        elm = playing(server, "elm")
        for _ in range(BATTLES - 1):  # oak's game to its end
            oak[0].flip()
            oak[1].flip()
        server.wake.set()
        await until(pilot, lambda: "Table elm" in seats(app))  # on to the table still playing
        for _ in range(BATTLES - 1):  # elm's too: none is left
            elm[0].flip()
            elm[1].flip()
        server.wake.set()
        await until(pilot, lambda: "No table is playing now" in waiting_says(app))
        oak[0].restart()
        oak[1].restart()  # oak deals again, and plays a battle: War TV tunes in again
        oak[0].flip()
        oak[1].flip()
        server.wake.set()
        await until(pilot, lambda: not isinstance(app.screen, TvWaitingScreen) and "Table oak" in seats(app))
