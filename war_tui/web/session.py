"""One browser tab's game: a websocket on one side, the game on its own pty on the other.

The game is the one an SSH player gets; only the wire differs. The terminal page sends keys and
``"COLS ROWS"`` sizes and gets the screen's bytes; the plain-text page runs the line mode (as
``ssh -T HOST line``), a sentence a message each way. Every bound the browser could push on is ours:
message size and rate, keys held, and output held for a slow reader (past it the pty is not read).
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

from ..serving.commands import TableCommand
from ..serving.crash import describe_status
from ..serving.environment import served_variables, session_environment
from ..serving.goodbyes import GAME_FAILED, TERMINAL_RESET, crash_goodbye, goodbye
from ..serving.house import House
from ..serving.launcher import GameEnd, log_end, start_game
from ..serving.pty_process import PtyProcess, clamp_size, run_until_stopped
from ..serving.tables.place import TablePlace, take_place
from ..settings.options import served_environment
from ..settings.served import PLAYER_ID_VARIABLE
from ..tables import TableRefused
from .config import WebConfig
from .line_text import SentenceCutter, typed_line


class Door(Protocol):
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
"""The ends of a game that are refusals of what the browser sent, as the server counts them."""
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
    """The game of one websocket, from the table join to the goodbye; ends the game when the tab goes."""

    def __init__(self, door: Door, ws: web.WebSocketResponse, visitor: Visitor,
                 command: TableCommand | None, size: tuple[int, int], *, line: bool = False) -> None:
        self.door = door
        self.line = line
        """The plain-text page: the game in the line mode, sentences out and typed lines in."""
        self._sentences = SentenceCutter() if line else None
        self.ws = ws
        self.visitor = visitor
        self.command = command
        self._size = clamp_size(*size) if not line else (80, 24)
        self._shown_size = self._size
        self._resize_timer: asyncio.TimerHandle | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._rate = MessageRate(door.config.messages_per_second)
        self._process: PtyProcess | None = None
        self._out = bytearray()
        self._out_ready = asyncio.Event()
        self._sending = False
        self._early = bytearray()
        """Lines the plain-text page typed before the game was up: given to it once it is."""
        self._forwarding = True
        self._paused = False
        self._stop_reason: str | None = None
        self._stopping = asyncio.Event()
        self._table: TablePlace | None = None
        self.last_input = asyncio.get_running_loop().time()
        self._idle_timer: asyncio.TimerHandle | None = None
        self.exit_status = "no game"
        self.where: str | None = None
        self.backlog_peak = 0
        """The most screen bytes held for this browser at once (for the tests and the log)."""

    # -- the table --------------------------------------------------------------------------------------

    def join_table(self) -> str | None:
        """Sit at, watch, or open the lobby, as the URL says; the refusal for the player, if any."""
        command = self.command
        if command is None:
            return None
        tables = self.door.server.tables
        link = tables.link(self.visitor.name, self.visitor.identity, self.visitor.address_key)
        try:
            self.where = take_place(link, command)
        except TableRefused as refusal:
            return f"war-tui: {refusal}"
        tables.wake()
        self._table = TablePlace(link, command.mode, tables)
        return None

    def _table_finished(self) -> None:
        """The link closed and said all it had to: if it gave up on the game (garbage, not a goodbye), end it."""
        table = self._table
        if table is not None and table.gave_up is not None and self._stop_reason is None:
            self.door.log(f"{self.visitor.label}: web table link closed: {table.gave_up}")
            self.stop("table protocol")

    def _close_table(self) -> None:
        if self._table is not None:
            self._note_place()
            self._table.leave()

    def _note_place(self) -> None:
        """Where the player is at the table as they leave it (a spectator may have sat since), for the log."""
        member = self._table.link.member if self._table is not None else None
        if member is not None and member.table.name is not None:
            seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
            self.where = f"table {member.table.name} {seat} as {member.name}"

    # -- screen bytes out -------------------------------------------------------------------------------

    def _on_output(self, data: bytes) -> None:
        if not self._forwarding:
            return
        self._out += data
        self.backlog_peak = max(self.backlog_peak, len(self._out))
        if len(self._out) >= self.door.config.backlog_bytes and self._process is not None and not self._paused:
            self._paused = True
            self._process.pause_output()  # the game blocks on its full pty; we hold no more
        self._out_ready.set()

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
            if self._paused and self._process is not None and self._forwarding:
                self._paused = False
                self._process.resume_output()

    async def _flush_screen(self, timeout: float) -> None:
        """Let what is held reach the browser (a goodbye), at most ``timeout`` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self._out or self._sending) and not self.ws.closed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    # -- keys and sizes in ------------------------------------------------------------------------------

    async def _read_browser(self) -> None:
        async for message in self.ws:
            if not self._rate.take():  # every message counts: pings and pongs too
                self.stop("message rate")
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
        if not keys or self._process is None or self._stop_reason is not None:
            return
        if not self._process.write(keys):
            self.stop("input flood")

    def _typed(self, text: str) -> None:
        """A line from the plain-text page: to the game as one printable line, whatever the page sent.

        Lines typed while the game starts wait for it, within the bound of keys the game is slow to take.
        """
        self.last_input = asyncio.get_running_loop().time()
        if self._stop_reason is not None:
            return
        if self._process is None:
            self._early += typed_line(text)
            if len(self._early) > self.door.server.config.input_limit:
                self._early.clear()
                self.stop("input flood")
            return
        if not self._process.write(typed_line(text)):
            self.stop("input flood")

    def _size_message(self, text: str) -> None:
        found = SIZE_MESSAGE.fullmatch(text)
        if found is None:
            return  # not ours: ignored, as a terminal ignores a sequence it does not know
        self._size = clamp_size(int(found[1]), int(found[2]))
        if self._resize_timer is None and self._size != self._shown_size:
            self._resize_timer = asyncio.get_running_loop().call_later(RESIZE_SETTLE, self._resize)

    def _resize(self) -> None:
        self._resize_timer = None
        if self._process is not None and self._stop_reason is None and self._size != self._shown_size:
            self._shown_size = self._size
            self._process.resize(*self._size)

    # -- idle -------------------------------------------------------------------------------------------

    def _arm_idle_timer(self) -> None:
        idle = self.door.config.idle_seconds
        if idle and self._stop_reason is None:
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
        return "solo" if self._table is None else self._table.kind

    def stop(self, reason: str) -> None:
        """End the game from outside; the first reason wins. From now on its screen is read and dropped."""
        if self._stop_reason is None:
            self._stop_reason = reason
            refusal = REFUSALS.get(reason)
            if refusal is not None:
                self.door.server.counts.refused(refusal)
        self._forwarding = False
        if self._process is not None:
            self._process.resume_output()
        if self._table is not None and not self._table.link.closed:
            self._close_table()
        self._stopping.set()

    def _say(self, message: str) -> None:
        # On the plain-text page a message starts its own line, even mid-sentence.
        self._out += (("\n" if self.line else "") + message + "\r\n").encode()
        self._out_ready.set()

    def _reset_terminal(self) -> None:
        """Undo what a full-screen game may have left on the page's terminal; the plain-text page has none."""
        if not self.line:
            self._out += TERMINAL_RESET

    async def run(self) -> None:
        """Play until the game ends or the tab goes; never raises for anything the browser does."""
        sender = asyncio.ensure_future(self._send_screen())
        reader = asyncio.ensure_future(self._read_browser())
        try:
            await self._play()
        finally:
            reader.cancel()
            self._close_table()
            await self._flush_screen(self.door.config.shutdown_grace)
            sender.cancel()
            if self._sentences is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    for sentence in self._sentences.end():
                        await self.ws.send_str(sentence)
            for timer in (self._resize_timer, self._idle_timer):
                if timer is not None:
                    timer.cancel()
            if self._process is not None:
                self._process.close()
            self._table = None
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.close(code=CLOSE_GOODBYE if self._stop_reason != "message rate" else CLOSE_POLICY,
                                    message=b"game over")

    async def _play(self) -> None:  # noqa: C901 - a browser game's life from start to goodbye, in order
        server = self.door.server
        config = server.config
        env = session_environment(TERM, {"COLORTERM": "truecolor"}, config.session_seconds)
        env.update(served_variables(config.max_speed, None, leaderboard=config.leaderboard))
        if self.line:  # as for ssh -T HOST line: whole lines in, plain lines out, no terminal to draw on
            env.update(served_environment(line_input="lines"))
            env["TERM"] = "dumb"
            env.pop("COLORTERM", None)
        env[PLAYER_ID_VARIABLE] = self.visitor.identity
        theirs = self._table.socket_for_game(env, self._table_finished) if self._table is not None else None
        if self._table is not None and theirs is None:  # its table's link closed: no solo game in its place
            self.exit_status = "table closed"
            self._reset_terminal()
            self._say(self._table.last_words())
            return
        try:
            process = await start_game(
                server, env, self._size, self._on_output, table=theirs, line="lines" if self.line else None,
            )
        except Exception as exc:  # noqa: BLE001 - whatever it was, the player gets a message, not a hang
            self.door.log(f"game did not start for {self.visitor.label}: {exc}")
            self.exit_status = "not started"
            self._say(GAME_FAILED)
            return
        finally:
            if theirs is not None:
                theirs.close()
        self._process = process
        if self._stop_reason is not None:  # the tab went while the game started
            process.resume_output()
        elif self._early:
            early, self._early = bytes(self._early), bytearray()
            if not process.write(early):
                self.stop("input flood")
        self._arm_idle_timer()
        if self._size != self._shown_size:
            self._resize()
        limit = config.session_seconds or 0.0
        status = await run_until_stopped(process, self._stopping, limit, lambda: self.stop("time limit"))
        if status is not None:
            self._close_table()
            end = GameEnd(status, bytes(process.error_output))
            self.exit_status = end.words()
            log_end(server, self.visitor.label, end)
            if end.crashed:
                self._reset_terminal()
                self._say(crash_goodbye(end.errors, config))
            return
        reason = self._stop_reason
        if not self.line:  # the game's last frames go (sentences stay): the goodbye is next
            self._out.clear()
        self._reset_terminal()
        if reason == "message rate":
            self._say(TOO_FAST.format(rate=self.door.config.messages_per_second))
        elif (message := goodbye(reason, config, self.door.config.idle_seconds)) is not None:
            self._say(message)
        status = await process.end()
        self._close_table()
        log_end(server, self.visitor.label, GameEnd(status, bytes(process.error_output), stopped=True))
        self.exit_status = f"{describe_status(status)}, {reason}"
