"""The game launcher every door uses: start a game on its own pty, wait for it, log how it ended.

What a door says to its player at the end is in ``goodbyes``; how it says it (an SSH channel, a
websocket) is the door's own.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..settings.served import ERROR_FD_VARIABLE
from .crash import TRACEBACK, crash_summary, describe_status, loggable, report_lines
from .environment import home_directory
from .house import House
from .log_format import LogLine
from .priority import settled_nice
from .pty_process import PtyProcess, run_until_stopped

__all__ = ["MAX_ERROR_LINES", "GameEnd", "log_end", "run_until_stopped", "start_game"]

MAX_ERROR_LINES = 200
"""Lines of a game's crash report that reach the server's log at ``--log-level debug``."""


async def start_game(
    house: House,
    env: Mapping[str, str],
    size: tuple[int, int],
    on_output: Callable[[bytes], None],
    *,
    table: socket.socket | None = None,
    line: str | None = None,
    cwd: str | None = None,
) -> PtyProcess:
    """Start the served game, forked from the preloaded parent when one is ready, else afresh.

    Started in HOME, as a login would (never where the server was started), within the server's
    limits. ``table``: the game's end of its table socket, which it inherits; a game at a table settles
    at a higher CPU priority than a solo game (``priority.settled_nice``), its start-up boost running once
    ``PtyProcess.table_reached`` (its table socket's ``when_written``). Raises whatever kept a game
    from starting.
    """
    config = house.config
    for parent in (house.game_parent, None):
        process = await PtyProcess.start(
            config.session_argv, env, size, on_output, cwd=cwd or home_directory(env),
            memory_limit=config.game_memory_mb * 1024 * 1024, niceness=config.game_nice,
            settled_nice=settled_nice(table is not None), waits_for_table=table is not None,
            input_limit=config.input_limit, errors_to=ERROR_FD_VARIABLE,
            pass_fds=() if table is None else (table.fileno(),), parent=parent, line=line,
        )
        if process is not None:
            house.processes.add(process)
            return process
    raise RuntimeError("the game was neither forked nor started")  # started afresh, a game starts or raises


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: its status, what it wrote to its crash-report pipe, and whether it was stopped."""

    status: int
    errors: bytes
    stopped: bool = False
    """Ended from outside (a limit, the client gone, a shutdown): never a crash, whatever its status."""

    @property
    def crashed(self) -> bool:
        """It did not end as a game ends: killed, or failed with a report, or a traceback at all."""
        if self.stopped:
            return False
        return self.status < 0 or (self.status != 0 and bool(self.errors)) or TRACEBACK in self.errors

    @property
    def out_of_memory(self) -> bool:
        return self.crashed and b"MemoryError" in self.errors

    def words(self) -> str:
        """The end for a log line: ``exit status 0``, ``killed by SIGKILL, crashed``."""
        suffix = (", out of memory" if self.out_of_memory else ", crashed") if self.crashed else ""
        return describe_status(self.status) + suffix


def log_end(house: House, label: str, end: GameEnd) -> None:
    """A game's crash report goes to the server's log, never to the player.

    A crash is one line, where and what, counted with the other floods so that games crashing on
    purpose cannot fill the log; the whole report is written only at ``--log-level debug``.
    """
    lines = report_lines(end.errors)
    if end.crashed:
        house.flood_log(LogLine(
            f"game of {label} crashed ({describe_status(end.status)}): {crash_summary(lines)}", "game_crashed",
            level="error", address=label, end=describe_status(end.status),
        ), "game crash lines")
    if not lines or not house.config.debug:
        return
    house.log(f"game of {label} reported an error ({len(end.errors):,} bytes):")
    for line in lines[:MAX_ERROR_LINES]:
        house.log(f"  | {loggable(line)}")
    if len(lines) > MAX_ERROR_LINES:
        house.log(f"  | ... {len(lines) - MAX_ERROR_LINES:,} more lines")
