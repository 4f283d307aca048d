"""One SSH session channel: the game on a pty when a terminal was asked for, a short refusal otherwise."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import re
import signal
from typing import Any, Protocol

import asyncssh

from ..serving.commands import CommandRefused, LineCommand, TableCommand, TableMode, parse_command
from ..serving.crash import describe_status
from ..serving.environment import (
    PERSONAL_VARIABLES,
    TERM_PATTERN,
    home_directory,
    served_variables,
    session_environment,
)
from ..serving.goodbyes import (
    GAME_FAILED,
    SHUTTING_DOWN,
    STOP_STATUSES,
    TERMINAL_RESET,
    crash_goodbye,
    goodbye,
)
from ..serving.house import House
from ..serving.launcher import GameEnd, log_end, start_game
from ..serving.pty_process import PtyProcess, clamp_size, run_until_stopped
from ..serving.table_place import TablePlace, take_place
from ..settings.options import served_environment
from ..settings.served import LINE_VARIABLE, accessible
from ..tables import Member, TableRefused
from ..tables.link import MAX_QUEUED_BYTES
from .env_requests import ClientEnvironment, forget_environment
from .fanout import LOBBY, FanoutHub, Watcher

REFUSE_COMMAND = (
    "war-tui: this server only plays War and runs no commands; connect without one to play, "
    "with 'table NAME', 'watch NAME' or 'tables' to share a table, or with 'line' for plain sentences."
)
REFUSE_NO_PTY = (
    "war-tui: War needs a terminal; connect from a terminal (ssh -t) to play, or ask for plain sentences"
    " that need none: ssh -T HOST line."
)
REFUSE_SECOND_GAME = "war-tui: one game per connection; open another connection to play another game."
NO_AGENT = "Agent forwarding is not offered here; playing without it."  # shown by the game, on its board
RESIZE_INTERVAL = 0.25
"""Seconds between window-size changes passed to a game: at most 4 a second, the latest size of each."""
RESIZE_SETTLE = 0.1
"""Seconds a new size waits before the game gets it: a size that comes back to the one on show within
this window (or within the interval after the last resize) costs the game no redraw at all."""
RESIZE_BURST = 8
RESIZE_PER_SECOND = 0.25
"""A game redraws for 8 resizes at up to 4 a second (a window dragged about), then for one every 4 s
while the sizes keep coming: a redraw at 500x200 costs a game about 0.17 s of CPU, so a storm of
sizes costs it 4% of a core, not 70%."""
# Reports a terminal sends by itself (mouse, focus): keys of nobody's, never a reason to leave a shared view.
TERMINAL_REPORT = re.compile(rb"\x1b\[(?:<[0-9;]*[Mm]|M[\s\S]{3}|[IO])")


def refuse_subsystem(name: str) -> str:
    shown = name if TERM_PATTERN.fullmatch(name) else "requested"
    return f"war-tui: this server only plays War; the {shown} subsystem is not offered."


class SshHouse(House, Protocol):
    """The game server as an SSH session sees it: the shared house, and the spectators' shared renderers."""

    @property
    def fanout(self) -> FanoutHub | None: ...


class Client(Protocol):
    """The connection a session belongs to, as the session sees it: who it is, and what it says back."""

    @property
    def server(self) -> SshHouse: ...

    user: str | None
    identity: str | None
    address_key: str
    label: str
    table: str | None
    exit_status: str
    agent_refused: bool
    left: asyncio.Event

    def refused(self, what: str) -> None: ...

    def begin_game(self) -> bool: ...

    def game_started(self, pid: int) -> None: ...

    def game_closed(self) -> None: ...

    def close(self) -> None: ...


class GameSession(asyncssh.SSHServerSession):
    """The game for one channel, from pty request to exit status; ends the game when the client leaves."""

    def __init__(self, link: Client) -> None:
        self._link = link
        self._chan: asyncssh.SSHServerChannel | None = None
        self.environment = ClientEnvironment(link.refused)
        """The few ``env`` requests kept for the game (see ``env_requests``)."""
        self._term: str | None = None
        self._size = (80, 24)
        self._shown_size: tuple[int, int] | None = None
        """The size the game was last given; None until it starts."""
        self._resize_timer: asyncio.TimerHandle | None = None
        self._last_resize = float("-inf")
        self._resize_tokens = float(RESIZE_BURST)
        # Keys reach the game as UTF-8, whatever the client's terminal sends: a byte that is not (é from a
        # Latin-1 terminal) becomes U+FFFD. At most 3 bytes of an unfinished character wait here.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._last_input = 0.0
        self._idle_timer: asyncio.TimerHandle | None = None
        self._flooded = False
        self._refusal: tuple[str, str] | None = None
        self._process: PtyProcess | None = None
        self._output_paused = False
        self._forwarding = True
        self._stop_reason: str | None = None
        self._stop_deadline = 0.0
        self._stopping = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._gone = asyncio.Event()
        self._closed = False
        self._played = False
        self._table_command: TableCommand | None = None
        self._early = bytearray()
        """What a line-mode client sent before its game started: given to the game once it is up."""
        self._line = False
        """The ``line`` command: the game in plain sentences, which needs no terminal."""
        self._table: TablePlace | None = None
        self._watcher: Watcher | None = None
        """This spectator's place at a shared renderer, while it watches one (see ``fanout``)."""
        self._pending_keys = b""
        self._render_env: dict[str, str] = {}
        self._render_cwd = "/"
        """The key that took a spectator out of the shared rendering, for its own game once that draws."""
        self._saying_goodbye = False
        self.task: asyncio.Task[None] | None = None

    # -- what the client asks for -----------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self._chan = chan
        # Game output waits in the pty, not in the server: the channel is refilled only once all it held
        # went out, so at most one pty read of game output can stand between a player and a goodbye.
        chan.set_write_buffer_limits(high=0, low=0)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes) -> bool:
        self._term = term_type
        self._size = clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # A table command, or accepted only to say why nothing runs (a refused request gives the client
        # no message of ours).
        try:
            parsed = parse_command(command)
        except CommandRefused as refusal:
            self._refusal = ("table name", f"war-tui: {refusal}")
            return True
        self._line = isinstance(parsed, LineCommand)
        self._table_command = parsed.table if isinstance(parsed, LineCommand) else parsed
        if parsed is None:
            self._refusal = ("command", REFUSE_COMMAND)
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self._refusal = (f"subsystem {subsystem[:32]!r}", refuse_subsystem(subsystem))
        return True

    def session_started(self) -> None:
        self.environment.close()  # the game's environment is decided now; later requests are refused
        if self._refusal is None and accessible(self.environment.variables):
            self._line = True  # ACCESSIBLE=1 from the client: the line mode, as the line command gives it
        if self._refusal is None and self._term is None and not self._line:
            self._refusal = ("no terminal", REFUSE_NO_PTY)
        if self._refusal is None and not self._link.begin_game():
            self._refusal = ("second session", REFUSE_SECOND_GAME)
        if self._refusal is None and self._table_command is not None:
            self._refusal = self._join_table(self._table_command)
        if self._refusal is not None:
            what, message = self._refusal
            self._link.refused(what)
            self._say(message, stderr=True)
            self._exit(1)
            return
        self._played = True
        self._last_input = asyncio.get_running_loop().time()
        self._arm_idle_timer()
        self.task = self._link.server.track(self._play())

    def _join_table(self, command: TableCommand) -> tuple[str, str] | None:
        """Sit at, watch, or open the lobby, as the command says; the refusal, if any, for the log and the client."""
        server = self._link.server
        link = server.tables.link(self._link.user or "", self._link.identity, self._link.address_key)
        try:
            where = take_place(link, command)
        except TableRefused as refusal:
            return ("table", f"war-tui: {refusal}")
        server.tables.wake()
        link.on_join = self._visited
        self._table = TablePlace(link, command.mode, server.tables.wake)
        self._link.table = where
        server.log(f"{self._link.label}: {where} [{self._link.identity}]")
        return None

    def _visited(self, table: str, member: Member) -> None:
        """A table chosen in the lobby: the log says which, and the session's end names it."""
        seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
        self._link.table = where = f"table {table} {seat} as {member.name} (from the lobby)"
        self._link.server.log(f"{self._link.label}: {where} [{self._link.identity}]")

    def _table_finished(self) -> None:
        """The link closed and said all it had to: if it gave up on the game (garbage, not a goodbye), end it."""
        table = self._table
        if table is not None and table.gave_up is not None and self._stop_reason is None:
            self._link.refused("table protocol")
            self._link.server.log(f"{self._link.label}: table link closed: {table.gave_up}")
            self.stop("table protocol")

    @property
    def table_told(self) -> bool:
        """The game has read all its table link said (true when there is no table)."""
        return self._table is None or self._table.told

    def _close_table(self) -> None:
        """Leave the table (or the lobby) and let go of the socket; safe to call twice."""
        if self._table is not None:
            self._table.leave()

    # -- while the game runs ----------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype) -> None:
        # Never pause_reading: asyncssh keeps reopening the window while paused, so the bound is ours.
        self._last_input = asyncio.get_running_loop().time()
        if self._watcher is not None:
            keys = TERMINAL_REPORT.sub(b"", self._decoder.decode(data).encode())
            if keys:
                self._pending_keys = (self._pending_keys + keys)[: self._link.server.config.input_limit]
                self._watcher.leave("key")
            return
        if self._flooded:
            return
        if self._process is None:
            if self._line and self._played:
                # Lines piped in (ssh -T HOST line < moves) come at once, before the game is up: they wait
                # for it, within the same cap as keys the game is slow to take.
                self._early.extend(data)
                if len(self._early) > self._link.server.config.input_limit:
                    self._early.clear()
                    self._flooded = True
                    self._link.refused("input flood")
                    self.stop("input flood")
            return
        keys = self._decoder.decode(data).encode()
        if not keys:
            return
        if not self._process.write(keys):
            self._flooded = True
            self._link.refused("input flood")
            self.stop("input flood")

    def eof_received(self) -> bool:
        if self._line and self._term is None:
            self.data_received(b"\x04", None)  # the line mode reads it as the end of the input (ssh -T HOST line < moves)
        return True  # the client sends no more keys; the game goes on until it quits or the client leaves

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = clamp_size(width, height)
        if self._resize_timer is None and self._size != self._shown_size and not self._closed:
            # The game gets the size on show when the window closes, whatever came between.
            loop = asyncio.get_running_loop()
            now = loop.time()
            tokens = self._tokens_at(now)
            wait = max(RESIZE_SETTLE, self._last_resize + RESIZE_INTERVAL - now, (1 - tokens) / RESIZE_PER_SECOND)
            self._resize_timer = loop.call_later(wait, self._resize)

    def _tokens_at(self, now: float) -> float:
        """Resizes the game may take now: refilled at RESIZE_PER_SECOND since the last, up to RESIZE_BURST."""
        return min(RESIZE_BURST, self._resize_tokens + (now - self._last_resize) * RESIZE_PER_SECOND)

    def _resize(self) -> None:
        """Give the game the latest size, unless it is the one on show (a size that came back: no redraw)."""
        self._resize_timer = None
        if (self._process is not None or self._watcher is not None) and not self._closed and self._size != self._shown_size:
            now = asyncio.get_running_loop().time()
            self._resize_tokens = max(0.0, self._tokens_at(now) - 1)
            self._last_resize = now
            self._shown_size = self._size
            if self._watcher is not None:
                self._move_watcher()
            elif self._process is not None:
                self._process.resize(*self._size)

    def signal_received(self, signal: str) -> None:
        self._link.refused("signal")  # clients do not get to signal the game

    def break_received(self, msec: int) -> bool:
        self._link.refused("break")
        return False

    # -- idle sessions ----------------------------------------------------------------------------------

    def _arm_idle_timer(self) -> None:
        """End the session once it sent no keys for ``idle_seconds``; one timer, moved only when it fires."""
        config = self._link.server.config
        if not config.idle_seconds or self._closed or self._idle_exempt():
            return
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_at(self._last_input + config.idle_seconds, self._idle_check)

    def _idle_exempt(self) -> bool:
        """A solo game the operator starts on auto-play is a screensaver by intent, if the operator says so."""
        return self._link.server.config.idle_exempt_screensaver and self._table is None

    def _idle_check(self) -> None:
        self._idle_timer = None
        if self._closed or self._stop_reason is not None:
            return
        idle = self._link.server.config.idle_seconds
        if idle and self.idle_seconds >= idle:
            self.stop("idle")
        else:
            self._arm_idle_timer()

    @property
    def played(self) -> bool:
        """A game was started for this session (it was not refused)."""
        return self._played

    @property
    def idle_seconds(self) -> float:
        """Seconds since the client last sent a key (since the game started, if it never did)."""
        return asyncio.get_running_loop().time() - self._last_input

    def pause_writing(self) -> None:
        self._output_paused = True
        self._drained.clear()
        if self._process is not None and self._forwarding:
            self._process.pause_output()

    def resume_writing(self) -> None:
        self._output_paused = False
        self._drained.set()
        if self._watcher is not None:
            self._watcher.caught_up()
        if self._process is not None:
            self._process.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._cancel_timers()
        self._drained.set()
        self._gone.set()
        self.stop("client left")
        if self._played and not self._saying_goodbye:
            self._link.game_closed()

    def _cancel_timers(self) -> None:
        for timer in (self._resize_timer, self._idle_timer):
            if timer is not None:
                timer.cancel()
        self._resize_timer = self._idle_timer = None

    def release(self) -> None:
        """The connection is gone and its game over: let go of everything that points back at this session.

        The channel, the game's pty, the table socket and the timers each refer to this session; without
        this, the whole connection would wait for the cycle collector before its memory is freed.
        """
        self._cancel_timers()
        self.environment.release()
        if self._chan is not None:
            forget_environment(self._chan)
            self._chan = None
        if self._process is not None:
            self._process.close()
            self._process = None
        self._stop_watching()
        if self._table is not None and self._table.socket is not None:
            self._table.socket.close()
        self._table = None
        self.task = None

    def stop(self, reason: str) -> None:
        """End the game from outside (client gone, time limit, shutdown); the first reason wins.

        From now on the game's output is read and dropped: the player's next bytes are the terminal
        reset and a goodbye, not a backlog of frames nobody will see.
        """
        if self._stop_reason is None:
            self._stop_reason = reason
            self._stop_deadline = asyncio.get_running_loop().time() + self._link.server.config.shutdown_grace
        self._forwarding = False
        if self._process is not None:
            self._process.resume_output()  # keep the pty drained, so the game is not blocked while it ends
        if self._table is not None and not self._table.link.closed:
            self._close_table()  # the seat is free at once; a link the server closed still says goodbye
        self._stopping.set()

    # -- the game's life --------------------------------------------------------------------------------

    def _say(self, message: str, stderr: bool = False) -> None:
        ending = "\r\n" if self._term is not None else "\n"
        self._send((message + ending).encode(), stderr=stderr and self._term is None)

    def _send(self, data: bytes, stderr: bool = False) -> None:
        """Write to the client, unless it is gone or closing (a client may close at any moment)."""
        if self._closed or self._chan is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionError):
            if stderr:
                self._chan.write_stderr(data)
            else:
                self._chan.write(data)

    def _reset_terminal(self) -> None:
        """Undo what a full-screen game may have left on the client's terminal; the line mode sends plain text
        only, and so does its goodbye."""
        if not self._line:
            self._send(TERMINAL_RESET)

    def _exit(self, status: int) -> None:
        if not self._closed and self._chan is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                self._chan.exit(status)

    def _write_output(self, data: bytes) -> None:
        if self._forwarding:
            self._send(data)
        if self._pending_keys and self._process is not None:
            # The game has started drawing, so its terminal is raw: the key that brought it is read as a key.
            keys, self._pending_keys = self._pending_keys, b""
            self._type_keys(keys)

    def _type_keys(self, keys: bytes) -> None:
        """Keys (already UTF-8) for the game, within its input bound."""
        if self._process is not None and not self._flooded and not self._process.write(keys):
            self._flooded = True
            self._link.refused("input flood")
            self.stop("input flood")

    async def _play(self) -> None:
        try:
            await self._run_game()
        finally:
            self._close_table()

    async def _run_game(self) -> None:  # noqa: C901 - a game's life from start to goodbye, in order
        server = self._link.server
        config = server.config
        env = session_environment(self._term, self.environment.variables, config.session_seconds)
        env.update(served_variables(
            config.max_speed, NO_AGENT if self._link.agent_refused else None, leaderboard=config.leaderboard
        ))
        line_input = None
        if self._line:
            # With a terminal the keys come one at a time; without one (ssh -T) the client sends whole lines.
            line_input = "keys" if self._term is not None else "lines"
            env[LINE_VARIABLE] = line_input
            if self._term is None:
                env["TERM"] = "dumb"
        if self._link.identity is not None:
            env.update(served_environment(player=self._link.identity))
        if self._shares_rendering() and await self._watch_shared(env):
            return
        theirs = self._table.socket_for_game(env, self._table_finished) if self._table is not None else None
        start_size = clamp_size(*self._size)
        try:
            process = await start_game(server, env, start_size, self._write_output, table=theirs, line=line_input)
        except Exception as exc:  # noqa: BLE001 - whatever it was, the player gets a message, not a hang
            server.log(f"game did not start for {self._link.label}: {exc}")
            self._link.exit_status = "not started"
            self._say(GAME_FAILED)
            self._exit(1)
            return
        finally:
            if theirs is not None:
                theirs.close()  # the game holds it now: its end of the table is its own
        self._process = process
        self._shown_size = start_size
        self._link.game_started(process.pid)
        if self._early:
            early, self._early = bytes(self._early), bytearray()
            self.data_received(early, None)
        if self._resize_timer is None:
            self._resize()  # the client may have resized while the game was starting
        if self._output_paused and self._forwarding:
            process.pause_output()
        limit = server.config.session_seconds or 0.0  # 0: no limit
        status = await run_until_stopped(process, self._stopping, limit, lambda: self.stop("time limit"))
        if status is not None:
            self._close_table()
            end = GameEnd(status, bytes(process.error_output))
            process.close()
            self._link.exit_status = end.words()
            log_end(server, self._link.label, end)
            if end.crashed:
                # It did not end as a game ends (a limit, a crash): the player is told, never shown why.
                self._reset_terminal()
                self._say(crash_goodbye(end.errors, config))
            self._report(status)
            return
        reason = self._say_why_stopped()
        status = await process.end()
        self._close_table()
        log_end(server, self._link.label, GameEnd(status, bytes(process.error_output), stopped=True))
        self._link.exit_status = f"{describe_status(status)}, {reason}"
        if self._closed:
            return
        await self._goodbye(STOP_STATUSES.get(reason or "", status))

    def _say_why_stopped(self) -> str | None:
        """The terminal reset and the goodbye for a session ended from outside; the reason."""
        config = self._link.server.config
        reason = self._stop_reason
        self._reset_terminal()
        self._say(goodbye(reason, config, config.idle_seconds) or SHUTTING_DOWN)
        return reason

    # -- a spectator served from a shared rendering ---------------------------------------------------

    def _shares_rendering(self) -> bool:
        """A spectator at a table, or someone in the lobby, on a server that fans renderers out.

        Never in line mode: a line session reads lines, not a screen.
        """
        table = self._table
        if self._line or self._link.server.fanout is None or table is None or table.link.closed:
            return False
        link = table.link
        if table.mode is TableMode.LOBBY:
            return link.member is None
        return link.member is not None and link.member.watching

    def _render_place(self) -> str | None:
        """The table this session's renderer shows, or the lobby's key; None once it is neither."""
        if self._table is None:
            return None
        link = self._table.link
        if self._table.mode is TableMode.LOBBY:
            return LOBBY if link.member is None else None
        return link.member.table.name if link.member is not None else None

    async def _watch_shared(self, env: dict[str, str]) -> bool:
        """Watch the table's (or the lobby's) shared rendering until the session ends (True) or needs a game of its own (False)."""
        hub = self._link.server.fanout
        table, chan, place = self._table, self._chan, self._render_place()
        assert hub is not None and table is not None and place is not None and chan is not None
        link = table.link
        watcher = Watcher(self._send, chan.get_write_buffer_size, hub.backlog)
        size = clamp_size(*self._size)
        # Nobody reads this link while the renderer shows the table: it keeps nothing, and is sent a
        # fresh snapshot once a game of this spectator's own reads it.
        link.max_queued = 0
        chan.set_write_buffer_limits(high=hub.backlog, low=0)
        # The renderer draws for everyone: nothing of this one connection's (identity, time left, notices).
        self._render_env = {name: value for name, value in env.items() if name not in PERSONAL_VARIABLES}
        self._render_cwd = home_directory(env)
        self._watcher = watcher  # before its first repaint: that may already fill the channel
        if not hub.attach(watcher, place, self._render_env, size, self._render_cwd):
            self._leave_shared()
            return False
        self._shown_size = size
        self._link.exit_status = "watching"
        limit = self._link.server.config.session_seconds or 0.0
        timer = asyncio.get_running_loop().call_later(limit, self.stop, "time limit") if limit else None
        stopping = asyncio.ensure_future(self._stopping.wait())
        outcome: tuple[str, object] | None = None
        try:
            while (current := self._watcher) is not None:
                either: set[asyncio.Future[Any]] = {current.outcome, stopping}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                if stopping.done():
                    break
                if current.outcome.result()[0] != "moved":  # moved: the watcher of the new size goes on
                    outcome = current.outcome.result()
                    break
        finally:
            stopping.cancel()
            if timer is not None:
                timer.cancel()
        self._leave_shared()
        if self._stop_reason is not None:
            reason = self._say_why_stopped()
            self._close_table()
            self._link.exit_status = f"watched, {reason}"
            if not self._closed:
                await self._goodbye(STOP_STATUSES.get(reason or "", 0))
            return True
        if outcome is not None and outcome[0] == "ended":
            status = outcome[1]
            assert isinstance(status, int)
            self._close_table()
            self._link.exit_status = f"watched, {describe_status(status)}"
            self._report(status)
            return True
        return False  # a key, or no renderer: a game of its own

    def _move_watcher(self) -> None:
        """A spectator's new window size: the renderer of that size shows it (or a game of its own)."""
        hub, watcher, place = self._link.server.fanout, self._watcher, self._render_place()
        if hub is None or watcher is None or place is None:
            return
        hub.detach(watcher)
        moved = Watcher(self._send, watcher.buffered, hub.backlog)
        self._watcher = moved
        moved.behind = self._output_paused  # painted once the channel is empty again
        if not hub.attach(moved, place, self._render_env, self._size, self._render_cwd):
            moved.leave("alone")
        watcher.leave("moved")

    def _leave_shared(self) -> None:
        """Stop watching the shared rendering; the link and channel are as a game of this session's own needs them."""
        self._stop_watching()
        if self._table is not None:
            self._table.link.max_queued = MAX_QUEUED_BYTES
        if self._chan is not None and not self._closed:
            self._chan.set_write_buffer_limits(high=0, low=0)

    def _stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        hub = self._link.server.fanout
        if watcher is not None and hub is not None:
            hub.detach(watcher)

    async def _goodbye(self, status: int) -> None:
        """Let the reset and goodbye reach the player, then close; a client that stalls is let go at the deadline.

        The exit status (and with it the channel close) goes only once the goodbye left the server. The
        client answers the close once it has everything, and then leaves by itself (ssh exits): cutting
        the connection earlier could drop a goodbye the client holds but has not shown yet.
        """
        self._saying_goodbye = True
        delivered = await self._until(self._drained)
        if delivered:
            self._report(status)
            delivered = await self._until(self._gone)
        if delivered:
            await self._until(self._link.left)
        else:
            self._link.server.log(f"{self._link.label} did not read its goodbye in time; dropping the connection")
        self._link.close()

    async def _until(self, event: asyncio.Event) -> bool:
        remaining = self._stop_deadline - asyncio.get_running_loop().time()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(remaining, 0.0))
        return event.is_set()

    def _report(self, status: int) -> None:
        if self._closed or self._chan is None:
            return
        if status >= 0:
            self._exit(status & 0xFF)
            return
        try:
            name = signal.Signals(-status).name.removeprefix("SIG")
        except ValueError:
            name = str(-status)
        with contextlib.suppress(BrokenPipeError, ConnectionError):
            self._chan.exit_with_signal(name)
