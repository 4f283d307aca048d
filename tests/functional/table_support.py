"""Shared tables in a test: a Registry and a Link per connection in the test process, pumped as serve-ssh pumps them.

``TableServer`` stands in for the SSH server: each ``connect`` makes a
socketpair, joins (or watches, or shows the lobby to) a ``Link`` on the
server's end, and gives the game process's end to a ``WarApp`` exactly as
serve-ssh passes it down (an inherited descriptor). Bytes go both ways through
the test's own event loop; the registry's timers run as serve-ssh runs them
(``run_timers``). Other people at the table can be plain members (``seat``),
whose requests a test makes directly.
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import replace

from support.deals import PLAIN as PLAIN  # seat 1 wins a plain battle, then a war

from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.settings.play import PlaySettings
from war_tui.tables import Link, Member, Registry, RemoteGame, TableOptions, run_timers
from war_tui.ui.app import WarApp
from war_tui.ui.table_connection import LocalHost, SocketHost

LONG_SEED = 7


def dealing(p1: str, p2: str):
    return lambda: Game(tuple(parse_cards(p1)), tuple(parse_cards(p2)))


class Sink:
    """A member's sink that keeps what it is told (someone at the table who is not a screen)."""

    def __init__(self) -> None:
        self.updates: list = []

    def __call__(self, update) -> None:
        self.updates.append(update)


class TableServer:
    """A registry whose connections are socketpairs; create it inside the test's running loop.

    ``with TableServer(...) as server:`` closes it at the end of the block.
    """

    def __init__(
        self, deal=None, *, max_tables: int = 16, options: TableOptions | None = None, clock=time.monotonic,
        seats_per_visitor: int = 4,
    ) -> None:
        self.registry = Registry(
            clock=clock, max_tables=max_tables, options=options, seed_source=lambda: LONG_SEED,
            deal=(lambda name: deal()) if deal is not None else None, seats_per_visitor=seats_per_visitor,
        )
        self.loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()
        self.timers = self.loop.create_task(run_timers(self.registry, self.wake))
        self.links: list[Link] = []
        self._socks: dict[int, socket.socket] = {}

    def connect(
        self, user: str, *, table: str | None = None, watch: bool = False, identity: str | None = None
    ) -> tuple[int, Link]:
        """A connection for ``user`` (who is ``identity``, as a door names them): joined to ``table`` (or watching
        it), or in the lobby with no table.

        Returns the game process's descriptor (for ``WAR_TUI_TABLE_FD``) and the server's link.
        """
        server_end, game_end = socket.socketpair()
        server_end.setblocking(False)
        link = Link(self.registry, user, identity=identity)

        def flush_soon() -> None:
            self.loop.call_soon(self._flush, link, server_end)

        link.on_output = flush_soon
        self.links.append(link)
        self._socks[id(link)] = server_end
        if table is not None:
            link.join(table, watch)
        else:
            link.watch_lobby()
        self.loop.add_reader(server_end.fileno(), self._read, link, server_end)
        self._flush(link, server_end)
        return game_end.detach(), link

    def seat(
        self, table: str, user: str, *, watch: bool = False, identity: str | None = None
    ) -> tuple[Member, Sink]:
        """Someone at ``table`` who is not a screen (who is ``identity``): the test makes their requests."""
        sink = Sink()
        member = self.registry.join(table, user, sink, watch=watch, identity=identity)
        self.wake.set()
        return member, sink

    def hang_up(self, link: Link) -> None:
        """The server drops this connection (its socket closes)."""
        sock = self._socks.pop(id(link), None)
        if sock is None:
            return
        self.loop.remove_reader(sock.fileno())
        link.close()
        sock.close()

    def __enter__(self) -> TableServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.timers.cancel()
        for link in list(self.links):
            if id(link) in self._socks:
                self.hang_up(link)

    def _read(self, link: Link, sock: socket.socket) -> None:
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            if id(link) in self._socks:
                self.hang_up(link)
            return
        link.receive(data)
        self.wake.set()
        self._flush(link, sock)

    def _flush(self, link: Link, sock: socket.socket) -> None:
        if id(link) not in self._socks:
            return
        data = link.take()
        if data:
            sock.setblocking(True)
            try:
                sock.sendall(data)
            finally:
                sock.setblocking(False)
        if link.finished:  # closed and all said: serve-ssh hangs up then
            self.hang_up(link)


SHOWN_WHOLE = PlaySettings(war_step=0.0, result_hold=0.0)
"""Wars shown whole and results answering at once, so each pair of flips is one battle on screen
(the war laid step by step has its own tests, at a solo game's board, which a table shares)."""


def table_app(
    fd: int, mode: str = "play", settings: PlaySettings | None = None, clock=lambda: 0.0, **changes
) -> WarApp:
    """The game process's app at a table, as ``war-tui`` builds it from serve-ssh's variables."""
    settings = replace(settings or SHOWN_WHOLE, served=True, table_fd=fd, table_mode=mode, **changes)
    host = SocketHost(fd, RemoteGame(), mode=mode)
    app = WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=clock, table=host)
    host.on_closed = app.table_closed
    return app


def ann_and_bob(server: TableServer, **changes) -> tuple[WarApp, Member, Sink]:
    """ann's screen at oak (seat 1), bob a member in seat 2 (his updates in the sink)."""
    fd, _ = server.connect("ann", table="oak")
    bob, sink = server.seat("oak", "bob")
    return table_app(fd, **changes), bob, sink


def two_player_app(deal=None, settings: PlaySettings | None = None, **changes) -> WarApp:
    """``war-tui --two-players`` on a known deal."""
    settings = replace(settings or SHOWN_WHOLE, two_players=True, **changes)
    host = LocalHost(settings.names, deal=deal, options=TableOptions(rules=settings.rules),
                     seed_source=lambda: LONG_SEED)
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, table=host)


# ------------------------------------------------------------------ screens for snapshots and screenshots


class DirectHost:
    """A connection straight to a registry in this process, no socket: the same updates, deterministic frames.

    For the snapshot tests and README screenshots; the pilot tests go through a real socket (``TableServer``).
    """

    def __init__(
        self, registry: Registry, user: str, table: str | None = None, *, watch: bool = False, joined: bool = False
    ) -> None:
        self.registry = registry
        self.user = user
        self.game = RemoteGame(self.send)
        self.member: Member | None = None
        self._table, self._watch = table, watch
        if joined:
            self.join_now()

    def join_now(self) -> None:
        assert self._table is not None
        self.member = self.registry.join(self._table, self.user, self.game.handle, watch=self._watch)
        self._table = None

    def start(self, loop) -> None:
        if self.member is not None:
            return
        if self._table is not None:
            self.member = self.registry.join(self._table, self.user, self.game.handle, watch=self._watch)
        else:
            self.registry.watch_lobby(self.game.handle)

    def send(self, request) -> None:
        from war_tui.tables import Join

        if isinstance(request, Join):
            self.member = self.registry.join(request.table, self.user, self.game.handle, watch=request.watch)
        elif self.member is not None:
            self.member.request(request)

    def close(self) -> None:
        if self.member is not None:
            self.member.leave()


def busy_registry(ann_host: DirectHost | None = None, bob_host: DirectHost | None = None) -> Registry:
    """Table oak: ann and bob 12 battles into seed 7's game, bob said "good game", ann flipped for the next and
    asks for auto-play; elm waits; pine is over.

    With ``ann_host`` (``bob_host``), ann (bob) is that screen's connection from the start.
    """
    from war_tui.tables import FakeClock

    registry = Registry(clock=FakeClock(), seed_source=lambda: LONG_SEED)
    if ann_host is not None:
        ann_host.registry = registry
        ann_host.join_now()
        ann = ann_host.member
    else:
        ann = registry.join("oak", "ann", Sink())
    if bob_host is not None:
        bob_host.registry = registry
        bob_host.join_now()
        bob = bob_host.member
    else:
        bob = registry.join("oak", "bob", Sink())
    assert ann is not None and bob is not None
    for _ in range(12):
        ann.flip()
        bob.flip()
    bob.table.emote(bob, 0)
    ann.flip()
    ann.set_auto(True, 4)
    registry.join("oak", "zoe", Sink(), watch=True)
    registry.join("elm", "cid", Sink())
    dee, eli = registry.join("pine", "dee", Sink()), registry.join("pine", "eli", Sink())
    pine = registry.table("pine")
    assert pine is not None
    while not pine.game.over:
        dee.flip()
        eli.flip()
    return registry


def direct_app(host: DirectHost, mode: str = "play") -> WarApp:
    settings = PlaySettings(served=True, table_fd=-1, table_mode=mode)
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, table=host)


def player_view() -> WarApp:
    """Table oak on ann's screen: she has flipped, the table waits for bob."""
    host = DirectHost(None, "ann", "oak")  # type: ignore[arg-type]  # busy_registry gives it its registry
    busy_registry(host)
    return direct_app(host)


def other_player_view() -> WarApp:
    """Table oak on bob's screen: ann has flipped and asks for auto-play."""
    host = DirectHost(None, "bob", "oak")  # type: ignore[arg-type]  # busy_registry gives it its registry
    busy_registry(bob_host=host)
    return direct_app(host)


def spectator_view() -> WarApp:
    return direct_app(DirectHost(busy_registry(), "eve", "oak", watch=True), mode="watch")


def lobby_view() -> WarApp:
    return direct_app(DirectHost(busy_registry(), "eve"), mode="lobby")


TREES = ("alder", "ash", "aspen", "beech", "birch", "cedar", "elm", "fir", "hazel", "holly", "larch", "lime",
         "maple", "oak", "yew")


def long_lobby_view() -> WarApp:
    """15 tables, more than 80x24 shows: every third has both seats taken and some battles played, the rest a
    seat open; a few have spectators."""
    from war_tui.tables import FakeClock

    registry = Registry(clock=FakeClock(), seed_source=lambda: LONG_SEED)
    for i, tree in enumerate(TREES):
        first = registry.join(tree, f"player-{i + 1}", Sink())
        if i % 3 == 0:
            second = registry.join(tree, f"guest-{i + 1}", Sink())
            for _ in range(i):
                first.flip()
                second.flip()
        for n in range(i % 4 == 1):
            registry.join(tree, f"watcher-{i}-{n}", Sink(), watch=True)
    return direct_app(DirectHost(registry, "eve"), mode="lobby")


def two_players_view() -> WarApp:
    return two_player_app(lambda: Game.deal(LONG_SEED), names=("Ann", "Bob"))


TABLE_SCREEN_STATES = {
    "table-player": ((100, 30), player_view, ()),
    "table-other-player": ((100, 30), other_player_view, ()),
    "table-spectator": ((100, 30), spectator_view, ()),
    "lobby": ((100, 30), lobby_view, ()),
    "lobby-long": ((80, 24), long_lobby_view, ("down",) * 9),
    "two-players": ((80, 24), two_players_view, ("f", "j", "f", "j", "f")),
}
"""(size, app factory, keys) of the shared-table screens the snapshot tests and README screenshots show."""
