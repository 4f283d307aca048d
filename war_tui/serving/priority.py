"""A game's share of the CPU against the server and the other games, where the kernel shares it by session.

Linux with autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``, on by default in many
distributions' kernels) shares the CPU between sessions first, and every game leads a session of its
own (its pty is its controlling terminal): the nice value a game gives itself then weighs only
against itself, and thirty busy games would each weigh as much as the server. So the server sets the
nice value of each game's session group (``/proc/PID/autogroup``, see sched(7)) to ``SETTLED_NICE``
once the game has had ``START_BOOST`` seconds and ``BOOST_CPU`` of CPU (a game at a table: from its table's
first word, which a takeover may hold back for seconds): a newcomer draws its first board with the server's weight (1,024 to a settled
solo game's 15), then plays below the server and every newcomer. Every game at a
table (a player's, a spectator's own, the spectators' renderer) settles at ``TABLE_NICE`` instead, alike:
the people pressing keys are never starved by the people watching. Where there is no such file (autogroup built out, another system) the game's own nice
value is all there is, and nothing here happens. The kernel takes one unprivileged change a tenth of a
second, machine-wide: a refused one (EAGAIN) is tried again, a few times.
"""

from __future__ import annotations

import asyncio
import errno
import math
import os

START_BOOST = 2.0
"""Seconds a game runs with the server's weight before its group settles (``settled_nice``)."""
SETTLED_NICE = 19
"""Where a solo game settles, the lowest weight (15): what it needs is a frame a battle, which waits for nobody, so
thirty on auto-play together weigh less than a newcomer's start."""
TABLE_NICE = 5
"""Where every game at a table settles (weight 335): a player's game, a spectator's own and the spectators' renderer
alike. Each draws the same table at the table's pace, and a table waits for its players' keys, so a player's
game never weighs less than the renderer drawing the same battles for the people watching. It keeps up beside
busy solo games (15 each) and busy loops of other sessions (1,024 a session), and stays below the server and a
newcomer's start (1,024)."""
TABLE_WAIT_MOST = 60.0
"""Seconds a game at a table keeps the server's weight while it waits for its table's first word (a table being
taken over from a node that died, then restored) before its boost runs: a table that never answers settles it
anyway."""
BOOST_CPU = 0.4
"""Seconds of CPU a game spends with the server's weight at least (within ``BOOST_MOST``): a little more than a
forked game at a table spends up to its first board (a solo game 150 ms, performance.md)."""
BOOST_MOST = 8.0
"""Seconds a boost lasts at most, however little CPU the game had meanwhile."""
CPU_LOOK = 0.25
"""Seconds between looks at a game's CPU once ``START_BOOST`` is over and its boost goes on."""
RETRY_AFTER = 0.15
RETRIES = 20
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""Clock ticks a second, the unit of ``/proc/PID/stat``'s CPU times."""


def settled_nice(at_table: bool) -> int:
    """Where a game's session group settles after its start-up boost: ``TABLE_NICE`` for a game at a table (it has
    a table socket: a seat, the lobby, a spectator's game or a renderer), ``SETTLED_NICE`` for a solo game."""
    return TABLE_NICE if at_table else SETTLED_NICE


def set_group_nice(pid: int, niceness: int) -> int:
    """Give the session group of ``pid`` the nice value ``niceness``: 0 if done, else the errno."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as group:
            group.write(str(niceness))
    except OSError as exc:
        return exc.errno or errno.EIO
    return 0


def group_nice(pid: int) -> int | None:
    """The nice value of the session group of ``pid``; None where the kernel keeps none (or it is gone)."""
    try:
        with open(f"/proc/{pid}/autogroup") as group:
            return int(group.read().rsplit("nice", 1)[1])
    except (OSError, ValueError, IndexError):
        return None


def cpu_seconds(pid: int) -> float:
    """The CPU ``pid`` has used, user and system (``/proc/PID/stat``); infinite where it cannot be read (gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, ValueError, IndexError):
        return math.inf


class GroupNice:
    """Settles a game's group at ``settled`` after its start-up boost, on the running loop; ``cancel`` when it ends.

    The boost lasts ``START_BOOST`` seconds and, past them, until the game has spent ``BOOST_CPU`` seconds of CPU
    (``BOOST_MOST`` seconds at most): a loaded machine stretches a first board's CPU over seconds, and the board is
    still drawn with the server's weight. ``waiting``: a game at a table, whose first board needs its table's first
    word (``begin``); the boost runs from then, not from its start, so a game whose table took seconds to reach (a
    takeover) draws its first board with that weight too. The group's nice value is only ever raised: a boost
    cannot be given back later."""

    def __init__(self, pid: int, settled: int = SETTLED_NICE, *, waiting: bool = False) -> None:
        self.pid = pid
        self.settled = settled
        self._left = RETRIES
        self._loop = asyncio.get_running_loop()
        self._since: float | None = None if waiting else self._loop.time()
        """When the boost began (None: waiting for the table's first word)."""
        self._settling = False
        self._handle: asyncio.TimerHandle | None = self._loop.call_later(
            TABLE_WAIT_MOST if waiting else START_BOOST, self._settle)

    def begin(self) -> None:
        """The game has its table's first word: its boost runs from now (once; nothing after it settled)."""
        if self._since is not None or self._settling:
            return
        self._since = self._loop.time()
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._loop.call_later(START_BOOST, self._settle)

    def _settle(self) -> None:
        """The boost's time is up: settle, unless the game has not yet spent its first board's CPU (within limits)."""
        self._handle = None
        since = self._since
        if since is not None and self._loop.time() - since < BOOST_MOST and cpu_seconds(self.pid) < BOOST_CPU:
            self._handle = self._loop.call_later(CPU_LOOK, self._settle)
            return
        self._settling = True
        self._set()

    def _set(self) -> None:
        self._handle = None
        if set_group_nice(self.pid, self.settled) == errno.EAGAIN and self._left > 0:
            self._left -= 1
            self._handle = self._loop.call_later(RETRY_AFTER, self._set)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
