"""One SSH session channel as one coroutine per client: what it asked, the way it plays, its game, its end.

asyncssh calls a session's methods as the client asks (a pty, a command, keys, a window size, flow
control); here each one only notes what was asked or hands it on (``ClientInput``, ``WindowSizes``,
``SharedView``, an event), and ``GameSession.story`` reads the client's story top to bottom, as
asyncssh's chat server reads its client's lines. Who the client is and whether it may play at all (the caps, its key)
the connection decided before any channel opened (``server.Connection``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import dataclass
from typing import Protocol

import asyncssh

from ..serving.commands import CommandRefused, LineCommand, TableCommand, TableMode, parse_command
from ..serving.crash import describe_status
from ..serving.environment import (
    TERM_PATTERN,
    served_variables,
    session_environment,
)
from ..serving.goodbyes import GAME_FAILED, SHUTTING_DOWN, STOP_STATUSES, TERMINAL_RESET, crash_goodbye, goodbye
from ..serving.house import House
from ..serving.launcher import GameEnd, log_end, start_game
from ..serving.log_format import LogLine, place_fields
from ..serving.pty_process import PtyProcess, clamp_size, run_until_stopped
from ..serving.tables.place import TablePlace, take_place
from ..settings.options import served_environment
from ..settings.served import LINE_VARIABLE, accessible
from ..tables import Member, TableRefused
from ..tables.link import MAX_QUEUED_BYTES
from .client_input import ClientInput
from .env_requests import ClientEnvironment, forget_environment
from .fanout import LOBBY, FanoutHub
from .shared_view import SharedView
from .window_sizes import WindowSizes

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


@dataclass
class Asked:
    """What the client asked for before its session started, in whatever order asyncssh passed it on."""

    term: str | None = None
    command: str | None = None
    subsystem: str | None = None


@dataclass(frozen=True)
class Refusal:
    """Why a session gets no game: one line for the client, exit status 1."""

    what: str
    """For the connection's log line."""
    message: str
    """For the client, one line."""


@dataclass(frozen=True)
class Way:
    """The way a client plays: solo, at a table (or its lobby), in the line mode or on the full screen."""

    line: bool
    table: TableCommand | None


class GameSession(asyncssh.SSHServerSession):
    """The game for one channel, from pty request to exit status (``story``); ends it when the client leaves."""

    def __init__(self, link: Client) -> None:
        self._link = link
        self._chan: asyncssh.SSHServerChannel | None = None
        self.environment = ClientEnvironment(link.refused)
        """The few ``env`` requests kept for the game (see ``env_requests``)."""
        self._asked = Asked()
        self._input = ClientInput()
        self._sizes = WindowSizes()
        self._way = Way(line=False, table=None)
        self._playing = False
        """A game was started for this session (it was not refused)."""
        self._table: TablePlace | None = None
        self._process: PtyProcess | None = None
        self._view: SharedView | None = None
        """This spectator's stay at a shared rendering, once it watched one (see ``fanout``)."""
        self._stop_reason: str | None = None
        self._stop_deadline = 0.0
        self._stopping = asyncio.Event()
        self._drained = asyncio.Event()
        """Set while the channel takes output (asyncssh's flow control); what it held has gone out."""
        self._drained.set()
        self._gone = asyncio.Event()
        self._goodbye_pending = False
        """The goodbye waits for the client to close: its leaving the channel is no reason to close first."""
        self.task: asyncio.Task[None] | None = None

    # -- asyncssh's callbacks: each notes what the client asked, or hands it on --------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self._chan = chan
        # Output waits in the pty: the channel refills only when empty, so at most one pty read of
        # output stands between a player and a goodbye.
        chan.set_write_buffer_limits(high=0, low=0)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes) -> bool:
        self._asked.term = term_type
        self._sizes.wanted = clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._asked.command = command  # accepted even when refused, to say why (a refused request says nothing)
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self._asked.subsystem = subsystem
        return True

    def session_started(self) -> None:
        self.environment.close()  # the game's environment is decided now; later requests are refused
        self.task = self._link.server.track(self.story())

    def data_received(self, data: bytes, datatype) -> None:
        self._input.feed(data)

    def eof_received(self) -> bool:
        if self._asked.term is None:
            self._input.feed(b"\x04")  # the line mode reads it as the end of the input (ssh -T HOST line < moves)
        return True  # no more keys; the game goes on until it quits or the client leaves

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._sizes.offer(width, height)

    def signal_received(self, signal: str) -> None:
        self._link.refused("signal")  # clients do not get to signal the game

    def break_received(self, msec: int) -> bool:
        self._link.refused("break")
        return False

    def pause_writing(self) -> None:
        self._drained.clear()
        if self._process is not None and self._stop_reason is None:
            self._process.pause_output()

    def resume_writing(self) -> None:
        self._drained.set()
        if self._view is not None:
            self._view.caught_up()
        if self._process is not None:
            self._process.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone.set()
        self._sizes.close()
        self._drained.set()
        self.stop("client left")
        if self._playing and not self._goodbye_pending:
            self._link.game_closed()

    @property
    def _output_paused(self) -> bool:
        """The client is behind: the game's output waits in its pty, a spectator's stream is not copied."""
        return not self._drained.is_set()

    # -- the story ------------------------------------------------------------------------------------------

    async def story(self) -> None:
        """The client's story in order: the way it plays (or its refusal), its game (or a shared rendering
        to watch), and the end: its exit status, and a goodbye when it was ended from outside."""
        if self._gone.is_set():  # left before its story began: the connection has nothing else to offer
            self._link.game_closed()
            return
        way = self._way_to_play()
        if isinstance(way, Refusal):
            self._input.drop()
            self._link.refused(way.what)
            self._say(way.message, stderr=True)
            self._exit(1)
            return
        self._way, self._playing = way, True
        if way.line:
            self._input.line_early(self._flooded)
        else:
            self._input.drop()
        config = self._link.server.config
        exempt = config.idle_exempt_screensaver and self._table is None  # a screensaver by the operator's intent
        if config.idle_seconds and not exempt:
            self._input.end_when_idle(config.idle_seconds, lambda: self.stop("idle"))
        try:
            env = self._game_environment()
            if self._shares_rendering() and await self._watch_shared(env):
                return
            process = await self._start_game(env)
            if process is None:
                return
            limit = config.session_seconds or 0.0  # 0: no limit
            status = await run_until_stopped(process, self._stopping, limit, lambda: self.stop("time limit"))
            if status is not None:
                self._game_over(process, status)
            else:
                await self._end_stopped_game(process)
        finally:
            self._leave_table()

    def _way_to_play(self) -> Way | Refusal:
        """Solo, at a table, in the line mode; or why not, as the client is told it."""
        asked = self._asked
        if asked.subsystem is not None:
            return Refusal(f"subsystem {asked.subsystem[:32]!r}", refuse_subsystem(asked.subsystem))
        try:
            parsed = parse_command(asked.command) if asked.command is not None else None
        except CommandRefused as refusal:
            return Refusal("table name", f"war-tui: {refusal}")
        if asked.command is not None and parsed is None:
            return Refusal("command", REFUSE_COMMAND)
        table = parsed.table if isinstance(parsed, LineCommand) else parsed
        # ACCESSIBLE=1 from the client: the line mode, as the line command gives it.
        way = Way(line=isinstance(parsed, LineCommand) or accessible(self.environment.variables), table=table)
        if asked.term is None and not way.line:
            return Refusal("no terminal", REFUSE_NO_PTY)
        if not self._link.begin_game():
            return Refusal("second session", REFUSE_SECOND_GAME)
        if table is not None:
            return self._join_table(table) or way
        return way

    def _join_table(self, command: TableCommand) -> Refusal | None:
        """Sit at, watch, or open the lobby, as the command says; the refusal, if any."""
        server = self._link.server
        link = server.tables.link(self._link.user or "", self._link.identity, self._link.address_key)
        try:
            where = take_place(link, command)
        except TableRefused as refusal:
            return Refusal("table", f"war-tui: {refusal}")
        server.tables.wake()
        link.on_join = self._visited
        self._table = TablePlace(link, command.mode, server.tables)
        self._link.table = where
        server.log(LogLine(f"{self._link.label}: {where} [{self._link.identity}]", "place", address=self._link.label,
                           identity=self._link.identity, **place_fields(where)))
        return None

    def _game_environment(self) -> dict[str, str]:
        """The game's environment: the client's terminal and the few variables kept, and what the server tells it."""
        config, term = self._link.server.config, self._asked.term
        env = session_environment(term, self.environment.variables, config.session_seconds)
        env.update(served_variables(
            config.max_speed, NO_AGENT if self._link.agent_refused else None, leaderboard=config.leaderboard
        ))
        if self._way.line:
            # With a terminal keys come one at a time; without one (ssh -T), whole lines.
            env[LINE_VARIABLE] = "keys" if term is not None else "lines"
            if term is None:
                env["TERM"] = "dumb"
        if self._link.identity is not None:
            env.update(served_environment(player=self._link.identity))
        return env

    async def _start_game(self, env: dict[str, str]) -> PtyProcess | None:
        """The game on its own pty, keys and sizes flowing to it; None (the client told) if it did not start."""
        server = self._link.server
        theirs = self._table.socket_for_game(env, self._table_finished) if self._table is not None else None
        if self._table is not None and theirs is None:  # its table's link closed (a spectator's key came late)
            self._link.exit_status = "table closed"
            self._reset_terminal()
            self._say(self._table.last_words())
            self._exit(0)
            return None
        size = self._sizes.wanted
        line = env[LINE_VARIABLE] if self._way.line else None
        try:
            process = await start_game(server, env, size, self._write_output, table=theirs, line=line)
        except Exception as exc:  # noqa: BLE001 - whatever it was, the player gets a message, not a hang
            server.log(f"game did not start for {self._link.label}: {exc}")
            self._link.exit_status = "not started"
            self._say(GAME_FAILED)
            self._exit(1)
            return None
        finally:
            if theirs is not None:
                theirs.close()  # the game holds it now: its end of the table is its own
        self._process = process
        self._link.game_started(process.pid)
        self._input.to_game(process, self._flooded)
        self._sizes.show(size, lambda size: process.resize(*size), catch_up=True)
        if self._output_paused and self._stop_reason is None:
            process.pause_output()
        return process

    def _game_over(self, process: PtyProcess, status: int) -> None:
        """The game ended by itself: its status is the client's; a crash is told, never shown."""
        server = self._link.server
        self._leave_table()
        end = GameEnd(status, bytes(process.error_output))
        process.close()
        self._link.exit_status = end.words()
        log_end(server, self._link.label, end)
        if end.crashed:
            # Not a game's own end (a limit, a crash): the player is told, never shown why.
            self._reset_terminal()
            self._say(crash_goodbye(end.errors, server.config))
        self._report(status)

    async def _end_stopped_game(self, process: PtyProcess) -> None:
        """The game was ended from outside: the player is told why, the game hung up, then the goodbye."""
        reason = self._say_why_stopped()
        status = await process.end()
        self._leave_table()
        log_end(self._link.server, self._link.label, GameEnd(status, bytes(process.error_output), stopped=True))
        self._link.exit_status = f"{describe_status(status)}, {reason}"
        if not self._gone.is_set():
            await self._goodbye(STOP_STATUSES.get(reason or "", status))

    # -- a spectator served from a shared rendering ---------------------------------------------------

    def _shares_rendering(self) -> bool:
        """A spectator at a table (who came to watch), or someone in the lobby, on a server that fans renderers out.

        Never in line mode: a line session reads lines, not a screen. Never for someone who came to sit and
        watches: the table tells them why (both seats taken, a seat kept, the seats their address holds), which
        a shared screen would not show.
        """
        table = self._table
        if self._way.line or self._link.server.fanout is None or table is None or table.link.closed:
            return False
        link = table.link
        if table.mode is TableMode.LOBBY:
            return link.member is None
        return table.mode is TableMode.WATCH and link.member is not None and link.member.watching

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
        hub, table, chan = self._link.server.fanout, self._table, self._chan
        assert hub is not None and table is not None and chan is not None
        # Unread while the renderer shows the table: it queues nothing, and gets a fresh snapshot
        # once this spectator's own game reads it.
        table.link.max_queued = 0
        chan.set_write_buffer_limits(high=hub.backlog, low=0)
        view = self._view = SharedView(hub, self._render_place, env, self._send, chan.get_write_buffer_size, self._input)
        size = self._sizes.wanted
        if not view.attach(size):
            self._leave_shared()
            return False
        self._sizes.show(size, lambda size: view.move(size, behind=self._output_paused))
        self._link.exit_status = "watching"
        limit = self._link.server.config.session_seconds or 0.0
        timer = asyncio.get_running_loop().call_later(limit, self.stop, "time limit") if limit else None
        try:
            outcome = await view.until_done(self._stopping)
        finally:
            if timer is not None:
                timer.cancel()
        self._leave_shared()
        if self._stop_reason is not None:
            reason = self._say_why_stopped()
            self._leave_table()
            self._link.exit_status = f"watched, {reason}"
            if not self._gone.is_set():
                await self._goodbye(STOP_STATUSES.get(reason or "", 0))
            return True
        if outcome is not None and outcome[0] == "ended":
            status = outcome[1]
            assert isinstance(status, int)
            self._leave_table()
            self._link.exit_status = f"watched, {describe_status(status)}"
            self._report(status)
            return True
        return False  # a key, or no renderer: a game of its own

    def _leave_shared(self) -> None:
        """Stop watching the shared rendering; the link and channel are as a game of this session's own needs them."""
        if self._view is not None:
            self._view.leave()
        self._sizes.hold()
        if self._table is not None:
            self._table.link.max_queued = MAX_QUEUED_BYTES
        if self._chan is not None and not self._gone.is_set():
            self._chan.set_write_buffer_limits(high=0, low=0)

    # -- the end ------------------------------------------------------------------------------------------

    def stop(self, reason: str) -> None:
        """End the game from outside (client gone, time limit, shutdown); the first reason wins.

        From now on the game's output is read and dropped: the player's next bytes are the terminal
        reset and a goodbye, not a backlog of frames nobody will see.
        """
        self._input.idle_off()
        if self._stop_reason is None:
            self._stop_reason = reason
            self._stop_deadline = asyncio.get_running_loop().time() + self._link.server.config.shutdown_grace
        if self._process is not None:
            self._process.resume_output()  # keep the pty drained, so the game is not blocked while it ends
        if self._table is not None and not self._table.link.closed:
            self._leave_table()  # the seat is free at once; a link the server closed still says goodbye
        self._stopping.set()

    def _flooded(self) -> None:
        self._link.refused("input flood")
        self.stop("input flood")

    def _say_why_stopped(self) -> str | None:
        """The terminal reset and the goodbye for a session ended from outside; the reason."""
        config = self._link.server.config
        reason = self._stop_reason
        self._reset_terminal()
        self._say(goodbye(reason, config, config.idle_seconds) or SHUTTING_DOWN)
        return reason

    async def _goodbye(self, status: int) -> None:
        """Let the reset and goodbye reach the player, then close; a client that stalls is let go at the deadline.

        The exit status (and with it the channel close) goes only once the goodbye left the server. The
        client answers the close once it has everything, and then leaves by itself (ssh exits): cutting
        the connection earlier could drop a goodbye the client holds but has not shown yet.
        """
        self._goodbye_pending = True
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

    # -- tables ---------------------------------------------------------------------------------------------

    def _visited(self, table: str, member: Member, how: str) -> None:
        """The connection reached a table (chosen in the lobby, reached through the cluster, moved here): the log
        says where and how, and the session's end names it."""
        seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
        self._link.table = where = f"table {table} {seat} as {member.name}" + (f" ({how})" if how else "")
        self._link.server.log(LogLine(f"{self._link.label}: {where} [{self._link.identity}]", "place",
                                      address=self._link.label, identity=self._link.identity, name=member.name,
                                      how=how or None, **place_fields(where)))

    def _table_finished(self) -> None:
        """The link closed and said all it had to: if it gave up on the game (garbage, not a goodbye), end it."""
        table = self._table
        if table is not None and table.gave_up is not None and self._stop_reason is None:
            self._link.refused("table protocol")
            self._link.server.log(f"{self._link.label}: table link closed: {table.gave_up}")
            self.stop("table protocol")

    @property
    def table_drained(self) -> bool:
        """The game has read all its table link said (true when there is no table)."""
        return self._table is None or self._table.told

    def _leave_table(self) -> None:
        """Leave the table (or the lobby) and let go of the socket; safe to call twice."""
        if self._table is not None:
            self._table.leave()

    # -- what the server asks of a session --------------------------------------------------------------

    @property
    def played(self) -> bool:
        """A game was started for this session (it was not refused)."""
        return self._playing

    @property
    def kind(self) -> str | None:
        """What the session is now (``counts.SESSION_KINDS``); None until a game or a shared screen is its."""
        if not self._playing:
            return None
        if self._way.line:
            return "line"
        return "solo" if self._table is None else self._table.kind

    @property
    def idle_seconds(self) -> float:
        """Seconds since the client last sent a key (since the game started, if it never did)."""
        return self._input.idle_seconds

    # -- what the client is sent ------------------------------------------------------------------------

    def _write_output(self, data: bytes) -> None:
        if self._stop_reason is None:
            self._send(data)
        self._input.first_output()

    def _say(self, message: str, stderr: bool = False) -> None:
        ending = "\r\n" if self._asked.term is not None else "\n"
        self._send((message + ending).encode(), stderr=stderr and self._asked.term is None)

    def _send(self, data: bytes, stderr: bool = False) -> None:
        """Write to the client, unless it is gone or closing (a client may close at any moment)."""
        if self._gone.is_set() or self._chan is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionError):
            if stderr:
                self._chan.write_stderr(data)
            else:
                self._chan.write(data)

    def _reset_terminal(self) -> None:
        """Undo what a full-screen game may have left on the client's terminal; the line mode sends plain text
        only, and so does its goodbye."""
        if not self._way.line:
            self._send(TERMINAL_RESET)

    def _exit(self, status: int) -> None:
        if not self._gone.is_set() and self._chan is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                self._chan.exit(status)

    def _report(self, status: int) -> None:
        """The game's exit status as the client's: a number, or the signal that ended it."""
        if status >= 0:
            self._exit(status & 0xFF)
            return
        try:
            name = signal.Signals(-status).name.removeprefix("SIG")
        except ValueError:
            name = str(-status)
        if not self._gone.is_set() and self._chan is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                self._chan.exit_with_signal(name)

    def release(self) -> None:
        """The connection is gone and its game over: let go of everything that points back at this session.

        The channel, the game's pty, the table socket and the timers each refer to this session; without
        this, the whole connection would wait for the cycle collector before its memory is freed.
        """
        self._sizes.close()
        self._input.release()
        self.environment.release()
        if self._chan is not None:
            forget_environment(self._chan)
            self._chan = None
        if self._process is not None:
            self._process.close()
            self._process = None
        if self._view is not None:
            self._view.leave()
            self._view = None
        if self._table is not None and self._table.socket is not None:
            self._table.socket.close()
        self._table = None
        self.task = None
