"""How a game process reaches its table: a socket to the SSH server, or a table of its own (``--two-players``).

Either way the screen follows a ``RemoteGame`` and its keys become requests; no Textual here. ``SocketHost``
reads the server's socket only when readable and writes through a bounded buffer, so the screen never
blocks; it ends on a closed socket or a refused line with one sentence (``on_closed``), and survives an
update that fails to show (a bare loop callback would lose the exception). ``LocalHost`` drives a
``two_player_table`` in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from ..core.engine import Game
from ..serving.tables.client import TableClient
from ..settings.served import TableMode
from ..stats.records import GameRecord
from ..tables import (
    Auto,
    Member,
    Notice,
    NoticeCode,
    ProtocolError,
    RemoteGame,
    Request,
    Restart,
    TableOptions,
    Update,
    WarStop,
    WatchLobby,
    run_timers,
    two_player_table,
)

MAX_FAILED_UPDATES = 8
"""Updates this game may fail to show (each mended by a fresh snapshot) before it says it cannot show the table."""

Closed = Callable[[str], None]
"""Called once, with a sentence saying why the table is gone."""


class SocketHost:
    """The game process's end of the server's socket for this connection, read and written by the loop."""

    def __init__(self, fd: int, game: RemoteGame, on_closed: Closed | None = None, *, mode: str = "play") -> None:
        self.fd = fd
        self.game = game
        self.mode = mode
        self.on_closed = on_closed
        self.closed = False
        self.failed_updates = 0
        """Updates whose showing raised: the read goes on with the rest, and asks for a fresh snapshot."""
        self._client: TableClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writing = False
        game.send = self.send

    @property
    def dropped(self) -> int:
        """Requests dropped because the socket would not take them."""
        return self._client.dropped if self._client is not None else 0

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the socket from now on; in the lobby, ask for it (harmless when the server already sent it)."""
        try:
            client = TableClient(self.fd)
        except OSError:
            self._end("the game could not reach its table (no connection to the server)")
            return
        self._client, self._loop = client, loop
        loop.add_reader(client.fileno(), self._readable)
        if self.mode == TableMode.LOBBY:
            self.send(WatchLobby())

    def send(self, request: Request) -> None:
        if self.closed or self._client is None:
            return
        if self._client.queue(request):
            self._flush()

    def close(self) -> None:
        """Stop reading and writing and close the socket (quitting: the server sees the connection end)."""
        if self.closed:
            return
        self.closed = True
        client, self._client = self._client, None
        if client is not None and self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(client.fileno())
                if self._writing:
                    self._loop.remove_writer(client.fileno())
        if client is not None:
            client.close()

    # ------------------------------------------------------------------ inside

    def _readable(self) -> None:
        """Everything waiting on the socket, applied as one backlog (``RemoteGame.backlog``): a screen that fell
        behind shows the newest state in one frame. A line the game cannot read ends it, after what came before."""
        client = self._client
        if client is None:
            return
        items = client.receive()
        if items is None:
            self._end("the connection to the table closed")
            return
        updates: list[Update] = []
        refused: ProtocolError | None = None
        for item in items:
            if isinstance(item, ProtocolError):
                refused = item
                break
            updates.append(item)
        self._apply(updates, client.unread)
        if refused is not None:
            self._end(f"the server sent something this game cannot read ({refused})")

    def _apply(self, updates: list[Update], unread: bool) -> None:
        failed: Exception | None = None
        try:
            with self.game.backlog(updates, unread=unread) as plan:
                for update, tell in plan:
                    try:
                        self.game.handle(update, tell)
                    except Exception as error:  # noqa: BLE001 - any failure to show an update: the table's state mends it
                        failed = self._failed(error)
                    if isinstance(update, Notice) and update.code is NoticeCode.CLOSING:
                        self._end(update.text)  # the server says the table (or the server) is closing: nothing follows
                    if self.closed:
                        return
        except Exception as error:  # noqa: BLE001 - drawing the newest state failed: as an update that failed
            failed = self._failed(error)
        if failed is not None and not self.closed:
            self.game.resync()  # a fresh snapshot redraws what the failed update would have shown

    def _failed(self, error: Exception) -> Exception:
        """An update failed to show: counted; past ``MAX_FAILED_UPDATES`` the game says it cannot show its table."""
        self.failed_updates += 1
        if self.failed_updates > MAX_FAILED_UPDATES:
            self._end(f"this game could not show its table ({type(error).__name__})")
        return error

    def _flush(self) -> None:
        client = self._client
        if client is None:
            return
        if not client.flush():
            self._end("the connection to the table closed")
            return
        want_writer = client.unsent
        if want_writer != self._writing and self._loop is not None:
            if want_writer:
                self._loop.add_writer(client.fileno(), self._flush)
            else:
                self._loop.remove_writer(client.fileno())
            self._writing = want_writer

    def _end(self, reason: str) -> None:
        if self.closed:
            return
        self.close()
        if self.on_closed is not None:
            self.on_closed(reason)


class LocalHost:
    """Both seats at this keyboard: ``players[i]`` carries player ``i + 1``'s keys to the table."""

    def __init__(
        self,
        names: tuple[str, str],
        *,
        options: TableOptions | None = None,
        seed_source: Callable[[], int] | None = None,
        on_record: Callable[[GameRecord], None] | None = None,
        deal: Callable[[], Game] | None = None,
    ) -> None:
        self.local = two_player_table(names, options=options, seed_source=seed_source, on_record=on_record, deal=deal)
        self.game = self.local.game
        self.players: tuple[Member, Member] = self.local.players
        self.closed = False
        self._wake: asyncio.Event | None = None
        self._timers: asyncio.Task[None] | None = None
        self.game.send = self.send

    def send(self, request: Request) -> None:
        """The keyboard's request: stopping at wars is both players' (they share the keyboard), the rest seat 1's."""
        if isinstance(request, WarStop):
            for player in self.players:
                player.request(request)
            self._after(None)
        else:
            self._after(self.players[0].request(request))

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._wake = asyncio.Event()
        self._timers = loop.create_task(run_timers(self.local.table, self._wake))

    def flip(self, seat: int) -> None:
        self._after(self.players[seat].flip())

    def restart(self, seat: int) -> None:
        self._after(self.players[seat].request(Restart()))

    def set_auto(self, on: bool, speed: float) -> None:
        """Both players at one keyboard want the same: auto-play on or off, at ``speed``."""
        for player in self.players:
            player.request(Auto(on, speed))
        self._after(None)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._timers is not None:
            self._timers.cancel()

    def _after(self, _result: object) -> None:
        """A request may bring a deadline closer (auto-play starting, an idle seat): the timers look again."""
        if self._wake is not None:
            self._wake.set()

