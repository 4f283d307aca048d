"""One browser tab's game: a websocket on one side, the game on its own pty on the other.

The game is the one an SSH player gets, and its story is told the same (``serving.session.Session``, the
websocket its ``Door``); only the wire differs. The terminal page sends keys and ``"COLS ROWS"`` sizes and
gets the screen's bytes; the plain-text page runs the line mode (as ``ssh -T HOST line``), a sentence a
message each way. Every bound the browser could push on is ours: message size and rate, keys held, and
output held for a slow reader (past it the pty is not read).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from aiohttp import WSMsgType, web

from ..serving.commands import Way
from ..serving.environment import game_environment
from ..serving.goodbyes import goodbye
from ..serving.house import House
from ..serving.pty_process import PtyProcess, clamp_size
from ..serving.session import Session
from ..serving.tables.place import join_table
from ..tables import TableRefused
from .config import WebConfig
from .line_text import SentenceCutter, typed_line


class WebHouse(Protocol):
    """The web door as one of its sessions sees it: the game server, the door's own limits, its log."""

    @property
    def server(self) -> House: ...

    @property
    def config(self) -> WebConfig: ...

    def log(self, line: str) -> None: ...


TERM = "xterm-256color"
SIZE_MESSAGE = re.compile(r"(\d{1,4}) (\d{1,4})")
RESIZE_SETTLE = 0.1
"""Seconds a new size waits, so a window dragged about costs the game one redraw, not one per step."""
TOO_FAST = "war-tui: more messages arrived than a game takes ({rate} a second); the game was ended."
REFUSALS = {"input flood": "flood", "message rate": "flood", "table protocol": "bad_input"}
"""The ends of a game that are refusals of what the browser sent, as the server counts them (``counts``)."""
CLOSE_GOODBYE = 1000
CLOSE_POLICY = 1008
"""The websocket close codes: a game over (the reason is the goodbye), or a bound the browser broke."""


@dataclass(frozen=True)
class Visitor:
    """Who opened the websocket: where from, the display name chosen on the page, the cookie's identity."""

    address: str
    address_key: str
    label: str
    name: str
    identity: str
    origin: str | None = None
    """The door's origin as this browser named it (``https://war.example.org``): the game's links use it."""


class MessageRate:
    """A token bucket: ``rate`` messages a second on average, twice that in a burst."""

    def __init__(self, rate: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._tokens = 2.0 * rate
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(2.0 * self.rate, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class WebSession:
    """The game of one websocket, from the table join to the goodbye; ends the game when the tab goes.

    To its game's story (``story``) it is the ``Door``: the websocket's keys, bytes, window size and close.
    """

    def __init__(self, door: WebHouse, ws: web.WebSocketResponse, visitor: Visitor, way: Way,
                 size: tuple[int, int]) -> None:
        self.door = door
        self.line = way.line
        """The plain-text page: the game in the line mode, sentences out and typed lines in."""
        self.story = Session(door.server, way)
        self._sentences = SentenceCutter() if self.line else None
        self.ws = ws
        self.visitor = visitor
        self._size = clamp_size(*size) if not self.line else (80, 24)
        self._shown_size = self._size
        self._resize_timer: asyncio.TimerHandle | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._rate = MessageRate(door.config.messages_per_second)
        self._out = bytearray()
        self._out_ready = asyncio.Event()
        self._sending = False
        self._early = bytearray()
        """Lines the plain-text page typed before the game was up: given to it once it is."""
        self._paused = False
        self._sender: asyncio.Future[None] | None = None
        self._reader: asyncio.Future[None] | None = None
        self._closed = False
        self.last_input = asyncio.get_running_loop().time()
        self._idle_timer: asyncio.TimerHandle | None = None
        self.exit_status = "no game"
        self.backlog_peak = 0
        """The most screen bytes held for this browser at once (for the tests and the log)."""

    # -- the table --------------------------------------------------------------------------------------

    def join_table(self) -> str | None:
        """Sit at, watch, or open the lobby, as the URL says; the refusal for the player, if any."""
        command = self.story.way.table
        if command is None:
            return None
        visitor = self.visitor
        try:
            self.story.table = join_table(self.door.server.tables, visitor.name, visitor.identity, visitor.address_key,
                                          command)
        except TableRefused as refusal:
            return f"war-tui: {refusal}"
        return None

    @property
    def where(self) -> str | None:
        """Where the player is at the tables, for the log: as they joined, and as they left (a spectator may have
        sat since)."""
        return self.story.table.where if self.story.table is not None else None

    # -- screen bytes out -------------------------------------------------------------------------------

    async def _send_screen(self) -> None:
        """Send what the game wrote, as it comes; awaiting each send is the slow reader's back-pressure."""
        while True:
            await self._out_ready.wait()
            self._out_ready.clear()
            if not self._out:
                continue
            chunk = bytes(self._out)
            self._out.clear()
            self._sending = True  # until the chunk is out: a sentence after a sentence, or a goodbye
            try:
                if self._sentences is None:
                    await self.ws.send_bytes(chunk)
                else:
                    for sentence in self._sentences.feed(chunk):
                        await self.ws.send_str(sentence)
            except (ConnectionError, RuntimeError):
                self.stop("client left")
                return
            finally:
                self._sending = False
            process = self.story.process
            if self._paused and process is not None and self.story.stop_reason is None:
                self._paused = False
                process.resume_output()

    async def _flush_screen(self, timeout: float) -> None:
        """Let what is held reach the browser (a goodbye), at most ``timeout`` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self._out or self._sending) and not self.ws.closed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    # -- keys and sizes in ------------------------------------------------------------------------------

    async def _read_browser(self) -> None:
        async for message in self.ws:
            if not self._rate.take():  # every message counts: pings and pongs too
                self.story.broke(self, "message rate")
                return
            if message.type is WSMsgType.PING:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.pong(message.data)
            elif message.type is WSMsgType.PONG:
                pass  # an answer to our heartbeat: aiohttp has noted the traffic
            elif message.type is WSMsgType.TEXT and self.line:
                self._typed(message.data)
            elif message.type is WSMsgType.BINARY:
                if not self.line:  # the plain-text page types lines: bytes are not its keys
                    self._keys(message.data)
            elif message.type is WSMsgType.TEXT:
                self._size_message(message.data)
            else:
                break
        self.stop("client left")

    def _keys(self, data: bytes) -> None:
        self.last_input = asyncio.get_running_loop().time()
        keys = self._decoder.decode(data).encode()
        process = self.story.process
        if not keys or process is None or self.story.stop_reason is not None:
            return
        if not process.write(keys):
            self.story.broke(self, "input flood")

    def _typed(self, text: str) -> None:
        """A line from the plain-text page: to the game as one printable line, whatever the page sent.

        Lines typed while the game starts wait for it, within the bound of keys the game is slow to take.
        """
        self.last_input = asyncio.get_running_loop().time()
        process = self.story.process
        if self.story.stop_reason is not None:
            return
        if process is None:
            self._early += typed_line(text)
            if len(self._early) > self.door.server.config.input_limit:
                self._early.clear()
                self.story.broke(self, "input flood")
            return
        if not process.write(typed_line(text)):
            self.story.broke(self, "input flood")

    def _size_message(self, text: str) -> None:
        found = SIZE_MESSAGE.fullmatch(text)
        if found is None:
            return  # not ours: ignored, as a terminal ignores a sequence it does not know
        self._size = clamp_size(int(found[1]), int(found[2]))
        if self._resize_timer is None and self._size != self._shown_size:
            self._resize_timer = asyncio.get_running_loop().call_later(RESIZE_SETTLE, self._resize)

    def _resize(self) -> None:
        self._resize_timer = None
        process = self.story.process
        if process is not None and self.story.stop_reason is None and self._size != self._shown_size:
            self._shown_size = self._size
            process.resize(*self._size)

    # -- idle -------------------------------------------------------------------------------------------

    def _arm_idle_timer(self) -> None:
        idle = self.door.config.idle_seconds
        if idle and self.story.stop_reason is None:
            self._idle_timer = asyncio.get_running_loop().call_at(self.last_input + idle, self._idle_check)

    def _idle_check(self) -> None:
        self._idle_timer = None
        idle = self.door.config.idle_seconds or 0
        if asyncio.get_running_loop().time() - self.last_input >= idle:
            self.stop("idle")
        else:
            self._arm_idle_timer()

    # -- the game's life --------------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """What the session is now (``counts.SESSION_KINDS``)."""
        if self.line:
            return "line"
        return "solo" if self.story.table is None else self.story.table.kind

    def stop(self, reason: str) -> None:
        """End the game from outside; the first reason wins (``Session.stop``)."""
        self.story.stop(reason)

    async def run(self) -> None:
        """Play until the game ends or the tab goes; never raises for anything the browser does."""
        self._sender = asyncio.ensure_future(self._send_screen())
        self._reader = asyncio.ensure_future(self._read_browser())
        env = game_environment(
            self.door.server.config, TERM, {} if self.line else {"COLORTERM": "truecolor"},
            line_input="lines" if self.line else None, identity=self.visitor.identity, web_at=self.visitor.origin,
        )  # the plain-text page, as ssh -T HOST line: whole lines in, plain lines out, no terminal to draw on
        try:
            await self.story.play(self, env)
        finally:
            self.story.leave_table()
            await self.close(0)  # if the story could not: the websocket closes all the same
            for timer in (self._resize_timer, self._idle_timer):
                if timer is not None:
                    timer.cancel()
            if self.story.process is not None:
                self.story.process.close()

    # -- the door its game's story goes through (``serving.session.Door``) ---------------------------------

    @property
    def label(self) -> str:
        return self.visitor.label

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def read_keys(self, process: PtyProcess) -> None:
        """The game is up: the lines typed meanwhile go first, then whatever comes; the idle timer starts, and
        a size that came meanwhile is given."""
        if self._early and self.story.stop_reason is None:
            early, self._early = bytes(self._early), bytearray()
            if not process.write(early):
                self.story.broke(self, "input flood")
        self._arm_idle_timer()
        if self._size != self._shown_size:
            self._resize()

    def write(self, data: bytes) -> None:
        """Held for the browser; past the backlog the game's pty is no longer read, so the game waits."""
        self._out += data
        self.backlog_peak = max(self.backlog_peak, len(self._out))
        process = self.story.process
        if len(self._out) >= self.door.config.backlog_bytes and process is not None and not self._paused \
                and self.story.stop_reason is None:
            self._paused = True
            process.pause_output()  # the game blocks on its full pty; we hold no more
        self._out_ready.set()

    def say(self, message: str) -> None:
        # On the plain-text page a message starts its own line, even mid-sentence.
        self._out += (("\n" if self.line else "") + message + "\r\n").encode()
        self._out_ready.set()

    def goodbye(self, reason: str) -> str | None:
        if reason == "message rate":
            return TOO_FAST.format(rate=self.door.config.messages_per_second)
        return goodbye(reason, self.door.server.config, self.door.config.idle_seconds)

    def drop_screen(self) -> None:
        """The game's last frames go (sentences stay): the goodbye is next."""
        if not self.line:
            self._out.clear()

    def refused(self, what: str, detail: str | None = None) -> None:
        refusal = REFUSALS.get(what)
        if refusal is not None:
            self.door.server.counts.refused(refusal)
        if detail is not None:
            self.log(f"{self.visitor.label}: web {detail}")

    def log(self, line: str) -> None:
        self.door.log(line)

    async def close(self, status: int) -> None:
        """What is held reaches the browser (within the grace period), then the websocket closes: a goodbye, or
        the policy code for a browser that sent too fast. A websocket's close carries no exit status."""
        if self._closed:
            return
        self._closed = True
        if self._reader is not None:
            self._reader.cancel()
        await self._flush_screen(self.door.config.shutdown_grace)
        if self._sender is not None:
            self._sender.cancel()
        if self._sentences is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                for sentence in self._sentences.end():
                    await self.ws.send_str(sentence)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=CLOSE_GOODBYE if self.story.stop_reason != "message rate" else CLOSE_POLICY,
                                message=b"game over")
