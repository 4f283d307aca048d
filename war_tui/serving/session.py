"""One client's game, whichever door it came through: the story both doors tell, over a small ``Door``.

As asyncssh's chat server reads each client top to bottom in one coroutine, ``Session.play`` tells a game's
story in order: its table socket, its start (or the line that says it did not), the wait, its end (the game's
own, or one from outside and its goodbye), the log line, the close. What only a door knows (an SSH channel and
its flow control, a websocket and its messages) stays behind ``Door``: keys read, bytes written, a window size,
a close with a status.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Protocol

from ..settings.served import EXPORT_VARIABLE, LINE_VARIABLE, REPLAY_VARIABLE
from .commands import Way
from .crash import describe_status
from .goodbyes import GAME_FAILED, STOP_STATUSES, TERMINAL_RESET, crash_goodbye
from .house import House
from .launcher import GameEnd, log_end, start_game
from .pty_process import PtyProcess, run_until_stopped
from .tables.place import TablePlace


class Door(Protocol):
    """One client's wire as its game's story uses it; everything else of the door's stays its own."""

    exit_status: str
    """How the session went, for the door's disconnect line ("playing", "exit status 0", ...)."""

    @property
    def label(self) -> str:
        """The client in the log: its address and port."""
        ...

    @property
    def size(self) -> tuple[int, int]:
        """The window size the client asked for last."""
        ...

    def read_keys(self, process: PtyProcess) -> None:
        """The game is up: from now on the client's keys and window sizes go to it."""

    def write(self, data: bytes) -> None:
        """Bytes for the client's screen: the game's, or a terminal reset."""

    def say(self, message: str) -> None:
        """One line of words for the player, on a line of its own."""

    def goodbye(self, reason: str) -> str | None:
        """What the player reads when their game was ended from outside for ``reason``; None: nothing."""

    def drop_screen(self) -> None:
        """What the door still holds of the game's screen goes unsent: the game was ended, its goodbye is next."""

    def refused(self, what: str, detail: str | None = None) -> None:
        """The client or its game broke a bound (``what``: "input flood", "table protocol", ...): counted as the
        door counts its refusals; ``detail``, if any, is logged."""

    def log(self, line: str) -> None: ...

    async def close(self, status: int) -> None:
        """The story is over: close the client's wire with the game's exit status (negative: the signal that
        ended it), once what was written reached it or the door gave up waiting."""


class Session:
    """One client's game from its table socket to its close, told the same through every door (``play``).

    ``stop`` ends it from outside (a limit, the client gone, a bound broken, a shutdown): the first reason wins,
    the game's screen is no longer passed on, its seat is free at once, and ``play`` says goodbye. The door is
    ``play``'s to use while it runs, never kept: a door that holds its session makes no cycle with it.
    """

    def __init__(self, house: House, way: Way, table: TablePlace | None = None) -> None:
        self.house = house
        self.way = way
        self.table = table
        """Its place at the tables (or the lobby); None for a solo game."""
        self.process: PtyProcess | None = None
        self.stop_reason: str | None = None
        self.stopping = asyncio.Event()
        self.deadline = 0.0
        """The loop's time by which a session ended from outside has said its goodbye (the server's grace)."""

    async def play(self, door: Door, env: dict[str, str]) -> None:
        """The game's story through ``door``: its table socket and start, the wait, its end and goodbye, the log,
        the close."""
        try:
            process = await self._start(door, env)
            if process is None:
                return
            limit = self.house.config.session_seconds or 0.0  # 0: no limit
            status = await run_until_stopped(process, self.stopping, limit, lambda: self.stop("time limit"))
            if status is not None:
                await self._game_over(door, process, status)
            else:
                await self._end_stopped_game(door, process)
        finally:
            self.leave_table()
            if self.process is not None:
                self.process.close()

    async def _start(self, door: Door, env: dict[str, str]) -> PtyProcess | None:
        """The game on its own pty, the client's keys and sizes flowing to it; None (the client told, the wire
        closed) if it did not start."""
        table = self.table
        theirs = table.socket_for_game(env, partial(self._table_finished, door)) if table is not None else None
        if table is not None and theirs is None:  # its table's link closed: no solo game in its place
            door.exit_status = "table closed"
            self.reset_terminal(door)
            door.say(table.last_words())
            await door.close(0)
            return None
        line = env[LINE_VARIABLE] if self.way.line else None
        if self.way.replay is not None:
            env = {**env, REPLAY_VARIABLE: self.way.replay.words()}
        if self.way.export is not None:
            env = {**env, EXPORT_VARIABLE: self.way.export.words()}
        try:
            process = await start_game(self.house, env, door.size, partial(self._output, door), table=theirs, line=line)
        except Exception as exc:  # noqa: BLE001 - whatever it was, the player gets a message, not a hang
            door.log(f"game did not start for {door.label}: {exc}")
            door.exit_status = "not started"
            door.say(GAME_FAILED)
            self.leave_table()
            await door.close(1)
            return None
        finally:
            if theirs is not None:
                theirs.close()  # the game holds it now: its end of the table is its own
        self.process = process
        if table is not None and table.socket is not None:
            table.socket.when_written(process.table_reached)
        door.exit_status = "playing"
        door.read_keys(process)
        return process

    async def _game_over(self, door: Door, process: PtyProcess, status: int) -> None:
        """The game ended by itself: its status is the client's; a crash is told, never shown."""
        self.leave_table()
        end = GameEnd(status, bytes(process.error_output))
        door.exit_status = end.words()
        log_end(self.house, door.label, end)
        if end.crashed:
            self.reset_terminal(door)
            door.say(crash_goodbye(end.errors, self.house.config))
        await door.close(status)

    async def _end_stopped_game(self, door: Door, process: PtyProcess) -> None:
        """The game was ended from outside: the player is told why, the game hung up, then the close."""
        reason = self.stop_reason
        self.say_goodbye(door)
        status = await process.end()
        self.leave_table()
        log_end(self.house, door.label, GameEnd(status, bytes(process.error_output), stopped=True))
        door.exit_status = f"{describe_status(status)}, {reason}"
        await door.close(STOP_STATUSES.get(reason or "", status))

    # -- from outside ---------------------------------------------------------------------------------------

    def stop(self, reason: str) -> None:
        """End the game from outside; the first reason wins.

        From now on the game's output is read and dropped: the player's next bytes are the terminal reset and a
        goodbye, not a backlog of frames nobody will see.
        """
        if self.stop_reason is None:
            self.stop_reason = reason
            self.deadline = asyncio.get_running_loop().time() + self.house.config.shutdown_grace
        if self.process is not None:
            self.process.resume_output()  # keep the pty drained, so the game is not blocked while it ends
        if self.table is not None and not self.table.link.closed:
            self.leave_table()  # the seat is free at once; a link the server closed still says goodbye
        self.stopping.set()

    def broke(self, door: Door, what: str, detail: str | None = None) -> None:
        """The client or its game broke a bound (``what``): ``door`` counts it, unless the game was ending anyway,
        and the game ends for it."""
        if self.stop_reason is None:
            door.refused(what, detail)
        self.stop(what)

    def say_goodbye(self, door: Door) -> None:
        """What the player reads when the session was ended from outside: the game's last frames go, its terminal
        is reset, then why."""
        door.drop_screen()
        self.reset_terminal(door)
        message = door.goodbye(self.stop_reason or "")
        if message is not None:
            door.say(message)

    # -- tables and the screen ------------------------------------------------------------------------------

    def _table_finished(self, door: Door) -> None:
        """The link closed and said all it had to: if it gave up on the game (garbage, not a goodbye), end it."""
        table = self.table
        if table is not None and table.gave_up is not None and self.stop_reason is None:
            self.broke(door, "table protocol", f"table link closed: {table.gave_up}")

    def leave_table(self) -> None:
        """Leave the table (or the lobby) and let go of the socket; safe to call twice."""
        if self.table is not None:
            self.table.leave()

    def _output(self, door: Door, data: bytes) -> None:
        if self.stop_reason is None:
            door.write(data)

    def reset_terminal(self, door: Door) -> None:
        """Undo what a full-screen game may have left on the client's terminal; the line mode sends plain text
        only, and so does its goodbye."""
        if not self.way.line:
            door.write(TERMINAL_RESET)
