"""Spectators served from one rendering: one game process per table, screen size and terminal kind.

The renderer watches the table as an uncounted member; the server copies its output to each spectator
and keeps its screen (``ScreenCopy``) for newcomers. A spectator is never waited for: past ``backlog``
bytes it gets nothing until its buffer empties, then the whole screen afresh. A spectator's key starts a
game of its own. See docs/ssh.md, "Spectators served from one rendering".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..serving.commands import TableMode
from ..serving.config import SPECTATOR_BACKLOG
from ..serving.house import House
from ..serving.launcher import start_game
from ..serving.pty_process import PtyProcess
from ..serving.tables.place import game_socket
from ..serving.tables.socket import TableSocket
from ..tables import TableRefused
from .screen_copy import ScreenCopy

MAX_SPECTATORS_PER_RENDERER = 1000
"""As many as a table takes (``--max-spectators`` is at most 1,000): every spectator of one size may share."""
RENDERER_NAME = "spectators"
KIND_VARIABLES = ("TERM", "COLORTERM", "NO_COLOR", "LC_ALL")
"""What of a game's environment decides how it draws (``LC_ALL``: set to C for a client whose locale is not
UTF-8, so ASCII): spectators alike in these may share a renderer."""


LOBBY = ""
"""The ``RenderKey.table`` of the lobby: everyone browsing it at one size and kind shares a renderer too."""


@dataclass(frozen=True)
class RenderKey:
    table: str
    size: tuple[int, int]
    kind: tuple[tuple[str, str], ...]


def terminal_kind(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((name, env[name]) for name in KIND_VARIABLES if name in env)


class Watcher:
    """One spectator's place at a renderer: what is copied to it, and when it is painted afresh.

    ``write`` sends to the spectator and ``buffered`` says what its channel holds. The stream is
    copied while the channel holds at most ``backlog`` bytes beyond the last repaint; past that the
    spectator is behind, and the session calls ``caught_up()`` once its channel is empty (asyncssh's
    write limits), which paints the whole screen afresh. ``outcome`` is resolved once the session must
    leave the shared rendering: ``("key", None)``, ``("ended", status)`` (the renderer's game ended: the
    table or the server closed), ``("alone", None)`` (no renderer serves it) or ``("moved", None)``.
    """

    def __init__(self, write: Callable[[bytes], None], buffered: Callable[[], int], backlog: int) -> None:
        self._write = write
        self.buffered = buffered
        self.backlog = backlog
        self.renderer: Renderer | None = None
        self.painted = False
        self.behind = False
        self.allowance = backlog
        """What the channel may hold when the stream is copied: the backlog and the last repaint."""
        self.repaints = 0
        self.peak = 0
        """The most bytes the spectator's channel held right after the stream was copied to it."""
        self.outcome: asyncio.Future[tuple[str, object]] = asyncio.get_running_loop().create_future()

    def paint(self) -> None:
        renderer = self.renderer
        if renderer is None or not renderer.screen.drawn or self.behind:
            return
        repaint = renderer.screen.repaint()
        renderer.repaints += 1
        self.painted = True
        self.repaints += 1
        self.allowance = self.backlog + len(repaint)
        self._write(repaint)

    def stream(self, data: bytes) -> None:
        if not self.painted or self.behind:
            return
        if self.buffered() > self.allowance:
            self.behind = True
            if self.renderer is not None:
                self.renderer.hub.resyncs += 1
            return
        self._write(data)
        self.peak = max(self.peak, self.buffered())

    def caught_up(self) -> None:
        """The spectator's channel is empty: one that fell behind gets the whole screen afresh."""
        if self.behind:
            self.behind = False
            self.paint()

    def leave(self, outcome: str, value: object = None) -> None:
        if not self.outcome.done():
            self.outcome.set_result((outcome, value))


class Renderer:
    """One game process watching one table at one size and kind, drawn for every watcher of it."""

    def __init__(self, hub: FanoutHub, key: RenderKey, env: Mapping[str, str], cwd: str) -> None:
        self.hub = hub
        self.key = key
        self.watchers: dict[Watcher, None] = {}
        self.screen = ScreenCopy(*key.size, truecolor=env.get("COLORTERM") in ("truecolor", "24bit"))
        self._env = dict(env)
        self._cwd = cwd
        self._closing = asyncio.Event()
        self.repaints = 0
        self.process: PtyProcess | None = None
        self.task = hub.server.track(self._run())

    @property
    def where(self) -> str:
        return "lobby" if self.key.table == LOBBY else f"table {self.key.table}"

    def add(self, watcher: Watcher) -> None:
        self.watchers[watcher] = None
        watcher.renderer = self
        watcher.paint()

    def remove(self, watcher: Watcher) -> None:
        self.watchers.pop(watcher, None)
        watcher.renderer = None
        if not self.watchers:
            self.close()

    def close(self) -> None:
        self._closing.set()
        self.hub.forget(self)

    def _output(self, data: bytes) -> None:
        if self.screen.drawn:
            # Stream first: only newcomers and laggards need the screen copy (painted later).
            for watcher in tuple(self.watchers):
                watcher.stream(data)
            self.screen.feed(data)
            return
        self.screen.feed(data)
        if self.screen.drawn:
            for watcher in tuple(self.watchers):
                watcher.paint()

    def _end_all(self, outcome: str, value: object = None) -> None:
        for watcher in tuple(self.watchers):
            watcher.leave(outcome, value)

    async def _run(self) -> None:
        server = self.hub.server
        link = server.tables.link(RENDERER_NAME)
        table_socket: TableSocket | None = None
        try:
            try:
                if self.key.table == LOBBY:
                    link.watch_lobby()
                else:
                    link.join(self.key.table, watch=True, counted=False)
            except TableRefused:
                self._end_all("alone")
                return
            mode = TableMode.LOBBY if self.key.table == LOBBY else TableMode.WATCH
            env = dict(self._env)
            table_socket, theirs = game_socket(link, mode, env, server.tables)
            try:
                process = await start_game(server, env, self.key.size, self._output, table=theirs, cwd=self._cwd)
            except Exception as exc:  # noqa: BLE001 - its spectators get games of their own instead
                server.log(f"{self.where}: renderer did not start: {exc}")
                self._end_all("alone")
                return
            finally:
                theirs.close()
            self.process = process
            table_socket.when_written(process.table_reached)
            self.hub.started += 1
            server.log(
                f"{self.where}: renderer {self.key.size[0]}x{self.key.size[1]} started (pid {process.pid})"
            )
            waiting = asyncio.ensure_future(process.wait())
            closing = asyncio.ensure_future(self._closing.wait())
            try:
                await asyncio.wait({waiting, closing}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closing.cancel()
            if waiting.done():
                status = waiting.result()
                if status != 0 or process.error_output:
                    server.log(f"{self.where}: renderer ended ({status}); its spectators play on alone")
                    self._end_all("alone")
                else:
                    self._end_all("ended", status)
                process.close()
            else:
                waiting.cancel()
                await process.end()
        finally:
            self.hub.forget(self)
            if self.process is not None:
                self.hub.server.log(
                    f"{self.where}: renderer {self.key.size[0]}x{self.key.size[1]} ended; "
                    f"{self.repaints} repaints for arrivals and spectators who fell behind"
                )
            if table_socket is not None:
                table_socket.close()
            link.close()
            server.tables.wake()


class FanoutHub:
    """The server's renderers, by table, size and kind; every bound on them is here."""

    def __init__(self, server: House, renderers_per_table: int, backlog: int = SPECTATOR_BACKLOG) -> None:
        self.server = server
        self.renderers_per_table = renderers_per_table
        self.backlog = backlog
        self.renderers: dict[RenderKey, Renderer] = {}
        self.resyncs = 0
        """Spectators who fell behind and were painted afresh."""
        self.started = 0

    def attach(self, watcher: Watcher, table: str, env: Mapping[str, str], size: tuple[int, int], cwd: str) -> bool:
        """Seat ``watcher`` at the renderer for its table, size and kind, starting one; False: past the caps."""
        key = RenderKey(table, size, terminal_kind(env))
        renderer = self.renderers.get(key)
        if renderer is not None and len(renderer.watchers) >= MAX_SPECTATORS_PER_RENDERER:
            return False
        if renderer is None:
            if sum(1 for k in self.renderers if k.table == table) >= self.renderers_per_table:
                return False
            renderer = self.renderers[key] = Renderer(self, key, env, cwd)
        renderer.add(watcher)
        return True

    def detach(self, watcher: Watcher) -> None:
        if watcher.renderer is not None:
            watcher.renderer.remove(watcher)

    def forget(self, renderer: Renderer) -> None:
        if self.renderers.get(renderer.key) is renderer:
            del self.renderers[renderer.key]

    def table_renderers(self, table: str) -> int:
        return sum(1 for k in self.renderers if k.table == table)

    async def close(self) -> None:
        """End every renderer (the server is stopping), and wait for them."""
        renderers = list(self.renderers.values())
        for renderer in renderers:
            renderer.close()
        for renderer in renderers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(renderer.task), 5.0)
