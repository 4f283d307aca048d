"""One SSH session channel as one coroutine per client: what it asked, the way it plays, its game, its end.

asyncssh calls a session's methods as the client asks (a pty, a command, keys, a window size, flow
control); here each one only notes what was asked or hands it on (``ClientInput``, ``WindowSizes``,
``SharedView``, an event), and ``GameSession.run`` reads the client's story top to bottom, as
asyncssh's chat server reads its client's lines: the way it plays (or its refusal), a shared rendering to
watch, then its game, whose story every door tells alike (``serving.session.Session``, this channel its
``Door``). Who the client is and whether it may play at all (the caps, its key) the connection decided
before any channel opened (``server.Connection``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import dataclass
from typing import Protocol

import asyncssh

from ..serving.commands import (
    CommandRefused,
    GameRefused,
    TableCommand,
    TableMode,
    Way,
    parse_command,
    way_to_play,
)
from ..serving.crash import describe_status
from ..serving.environment import TERM_PATTERN, game_environment
from ..serving.goodbyes import SHUTTING_DOWN, STOP_STATUSES, goodbye
from ..serving.house import House
from ..serving.log_format import LogLine, place_fields
from ..serving.pty_process import PtyProcess, clamp_size
from ..serving.session import Session
from ..serving.tables.place import join_table
from ..settings.served import accessible
from ..tables import Member, TableRefused
from ..tables.link import MAX_QUEUED_BYTES
from .client_input import ClientInput
from .env_requests import ClientEnvironment, forget_environment
from .fanout import LOBBY, FanoutHub
from .shared_view import SharedView
from .window_sizes import WindowSizes

REFUSE_COMMAND = (
    "war-tui: this server only plays War and runs no commands; connect without one to play, "
    "with 'table NAME', 'watch NAME' or 'tables' to share a table, with 'tv' for the live table most worth"
    " watching, or with 'line' for plain sentences."
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


class GameSession(asyncssh.SSHServerSession):
    """The game for one channel, from pty request to exit status (``run``); ends it when the client leaves.

    To its game's story (``story``) it is the ``Door``: the channel's keys, bytes, window size and exit status.
    """

    def __init__(self, link: Client) -> None:
        self._link = link
        self._chan: asyncssh.SSHServerChannel | None = None
        self.environment = ClientEnvironment(link.refused)
        """The few ``env`` requests kept for the game (see ``env_requests``)."""
        self._asked = Asked()
        self._input = ClientInput()
        self._sizes = WindowSizes()
        self.story = Session(link.server, Way(line=False, table=None))
        """The game's story, told as the web door tells it; its way and table are set once the client's are known."""
        self._playing = False
        """A game was started for this session (it was not refused)."""
        self._view: SharedView | None = None
        """This spectator's stay at a shared rendering, once it watched one (see ``fanout``)."""
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
        self.task = self._link.server.track(self.run())

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
        if self.story.process is not None and self.story.stop_reason is None:
            self.story.process.pause_output()

    def resume_writing(self) -> None:
        self._drained.set()
        if self._view is not None:
            self._view.caught_up()
        if self.story.process is not None:
            self.story.process.resume_output()

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

    async def run(self) -> None:
        """The client's story in order: the way it plays (or its refusal), a shared rendering to watch, or its
        game, told as every door tells it (``Session.play``): its end, its exit status, a goodbye when it was
        ended from outside."""
        if self._gone.is_set():  # left before its story began: the connection has nothing else to offer
            self._link.game_closed()
            return
        way = self._way_to_play()
        if isinstance(way, Refusal):
            self._input.drop()
            self._link.refused(way.what)
            self.say(way.message, stderr=True)
            self._exit(1)
            return
        self.story.way, self._playing = way, True
        if way.line:
            self._input.line_early(self._flooded)
        else:
            self._input.drop()
        config = self._link.server.config
        exempt = config.idle_exempt_screensaver and self.story.table is None  # a screensaver by the operator's intent
        if config.idle_seconds and not exempt:
            self._input.end_when_idle(config.idle_seconds, lambda: self.stop("idle"))
        try:
            env = self._game_environment()
            if self._shares_rendering() and await self._watch_shared(env):
                return
            await self.story.play(self, env)
        finally:
            self.story.leave_table()

    def _way_to_play(self) -> Way | Refusal:
        """Solo, at a table, in the line mode; or why not, as the client is told it."""
        asked = self._asked
        if asked.subsystem is not None:
            return Refusal(f"subsystem {asked.subsystem[:32]!r}", refuse_subsystem(asked.subsystem))
        try:
            parsed = parse_command(asked.command) if asked.command is not None else None
        except CommandRefused as refusal:
            return Refusal("game id" if isinstance(refusal, GameRefused) else "table name", f"war-tui: {refusal}")
        if asked.command is not None and parsed is None:
            return Refusal("command", REFUSE_COMMAND)
        # ACCESSIBLE=1 from the client: the line mode, as the line command gives it.
        way = way_to_play(parsed, line=accessible(self.environment.variables))
        if asked.term is None and not way.line:
            return Refusal("no terminal", REFUSE_NO_PTY)
        if not self._link.begin_game():
            return Refusal("second session", REFUSE_SECOND_GAME)
        if way.table is not None:
            return self._join_table(way.table) or way
        return way

    def _join_table(self, command: TableCommand) -> Refusal | None:
        """Sit at, watch, or open the lobby, as the command says; the refusal, if any."""
        server, client = self._link.server, self._link
        try:
            place = join_table(server.tables, client.user or "", client.identity, client.address_key, command)
        except TableRefused as refusal:
            return Refusal("table", f"war-tui: {refusal}")
        place.link.on_join = self._visited
        self.story.table = place
        self._link.table = where = place.where
        server.log(LogLine(f"{self._link.label}: {where} [{self._link.identity}]", "place", address=self._link.label,
                           identity=self._link.identity, **place_fields(where)))
        return None

    def _game_environment(self) -> dict[str, str]:
        """The game's environment: the client's terminal and the few variables kept, who plays, what the server
        tells it. In the line mode keys come one at a time with a terminal; without one (ssh -T), whole lines."""
        term = self._asked.term
        line_input = ("keys" if term is not None else "lines") if self.story.way.line else None
        notice = NO_AGENT if self._link.agent_refused else None
        return game_environment(self._link.server.config, term, self.environment.variables, line_input=line_input,
                                identity=self._link.identity, notice=notice, ssh_at=self._reached_at())

    def _reached_at(self) -> str | None:
        """ssh's arguments for the address and port this client reached: the game's links name them."""
        conn = getattr(self._link, "conn", None)
        reached = conn.get_extra_info("sockname") if conn is not None else None
        if not reached:
            return None
        host, port = str(reached[0]), int(reached[1])
        return host if port == 22 else f"-p {port} {host}"

    # -- a spectator served from a shared rendering ---------------------------------------------------

    def _shares_rendering(self) -> bool:
        """A spectator at a table (who came to watch), or someone in the lobby, on a server that fans renderers out.

        Never in line mode: a line session reads lines, not a screen. Never for someone who came to sit and
        watches: the table tells them why (both seats taken, a seat kept, the seats their address holds), which
        a shared screen would not show.
        """
        table = self.story.table
        if self.story.way.line or self._link.server.fanout is None or table is None or table.link.closed:
            return False
        link = table.link
        if table.mode is TableMode.LOBBY:
            return link.member is None
        return table.mode is TableMode.WATCH and link.member is not None and link.member.watching

    def _render_place(self) -> str | None:
        """The table this session's renderer shows, or the lobby's key; None once it is neither."""
        table = self.story.table
        if table is None:
            return None
        link = table.link
        if table.mode is TableMode.LOBBY:
            return LOBBY if link.member is None else None
        return link.member.table.name if link.member is not None else None

    async def _watch_shared(self, env: dict[str, str]) -> bool:
        """Watch the table's (or the lobby's) shared rendering until the session ends (True) or needs a game of its own (False)."""
        hub, table, chan = self._link.server.fanout, self.story.table, self._chan
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
            outcome = await view.until_done(self.story.stopping)
        finally:
            if timer is not None:
                timer.cancel()
        self._leave_shared()
        reason = self.story.stop_reason
        if reason is not None:
            self.story.say_goodbye(self)
            self.story.leave_table()
            self._link.exit_status = f"watched, {reason}"
            await self.close(STOP_STATUSES.get(reason, 0))
            return True
        if outcome is not None and outcome[0] == "ended":
            status = outcome[1]
            assert isinstance(status, int)
            self.story.leave_table()
            self._link.exit_status = f"watched, {describe_status(status)}"
            await self.close(status)
            return True
        return False  # a key, or no renderer: a game of its own

    def _leave_shared(self) -> None:
        """Stop watching the shared rendering; the link and channel are as a game of this session's own needs them."""
        if self._view is not None:
            self._view.leave()
        self._sizes.hold()
        if self.story.table is not None:
            self.story.table.link.max_queued = MAX_QUEUED_BYTES
        if self._chan is not None and not self._gone.is_set():
            self._chan.set_write_buffer_limits(high=0, low=0)

    # -- the end ------------------------------------------------------------------------------------------

    def stop(self, reason: str) -> None:
        """End the game from outside (client gone, time limit, shutdown); the first reason wins (``Session.stop``)."""
        self._input.idle_off()
        self.story.stop(reason)

    def _flooded(self) -> None:
        self._input.idle_off()
        self.story.broke(self, "input flood")

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
        remaining = self.story.deadline - asyncio.get_running_loop().time()
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

    @property
    def table_drained(self) -> bool:
        """The game has read all its table link said (true when there is no table)."""
        return self.story.table is None or self.story.table.told

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
        if self.story.way.line:
            return "line"
        return "solo" if self.story.table is None else self.story.table.kind

    @property
    def idle_seconds(self) -> float:
        """Seconds since the client last sent a key (since the game started, if it never did)."""
        return self._input.idle_seconds

    # -- the door its game's story goes through (``serving.session.Door``) ---------------------------------

    @property
    def label(self) -> str:
        return self._link.label

    @property
    def exit_status(self) -> str:
        """How the session went, as the connection's disconnect line says it."""
        return self._link.exit_status

    @exit_status.setter
    def exit_status(self, words: str) -> None:
        self._link.exit_status = words

    @property
    def size(self) -> tuple[int, int]:
        return self._sizes.wanted

    def read_keys(self, process: PtyProcess) -> None:
        """The game is up: keys (those that waited first) and window sizes go to it; a client that is behind
        holds it back from the start."""
        self._input.to_game(process, self._flooded)
        self._sizes.show(self._sizes.wanted, lambda size: process.resize(*size), catch_up=True)
        if self._output_paused and self.story.stop_reason is None:
            process.pause_output()

    def write(self, data: bytes) -> None:
        self._send(data)
        self._input.first_output()

    def say(self, message: str, stderr: bool = False) -> None:
        """One line for the player; ``stderr``: on the channel's error stream when it has no terminal."""
        ending = "\r\n" if self._asked.term is not None else "\n"
        self._send((message + ending).encode(), stderr=stderr and self._asked.term is None)

    def goodbye(self, reason: str) -> str | None:
        config = self._link.server.config
        return goodbye(reason, config, config.idle_seconds) or SHUTTING_DOWN

    def drop_screen(self) -> None:
        """Nothing to drop: the channel takes output only when empty, the rest waits in the game's pty."""

    def refused(self, what: str, detail: str | None = None) -> None:
        self._link.refused(what)
        if detail is not None:
            self.log(f"{self._link.label}: {detail}")

    def log(self, line: str) -> None:
        self._link.server.log(line)

    async def close(self, status: int) -> None:
        """The exit status, or the signal that ended the game; after a goodbye, once the client has read it."""
        if self.story.stop_reason is None:
            self._report(status)
        elif not self._gone.is_set():
            await self._goodbye(status)

    # -- what the client is sent ------------------------------------------------------------------------

    def _send(self, data: bytes, stderr: bool = False) -> None:
        """Write to the client, unless it is gone or closing (a client may close at any moment)."""
        if self._gone.is_set() or self._chan is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionError):
            if stderr:
                self._chan.write_stderr(data)
            else:
                self._chan.write(data)

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
        story = self.story
        if story.process is not None:
            story.process.close()
            story.process = None
        if self._view is not None:
            self._view.leave()
            self._view = None
        if story.table is not None and story.table.socket is not None:
            story.table.socket.close()
        story.table = None
        self.task = None
