"""A game's share of the CPU against the server and the other games, where the kernel shares it by session.

Linux with autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``, on by default in many
distributions' kernels) shares the CPU between sessions first, and every game leads a session of its
own (its pty is its controlling terminal): the nice value a game gives itself then weighs only
against itself, and thirty busy games would each weigh as much as the server. So the server sets the
nice value of each game's session group (``/proc/PID/autogroup``, see sched(7)) to ``SETTLED_NICE``
once the game has had ``START_BOOST`` seconds: a newcomer draws its first board with the server's
weight (1,024 to a settled game's 15), then plays below the server and every newcomer, and alike with
every other game. Where there is no such file (autogroup built out, another system) the game's own nice
value is all there is, and nothing here happens. The kernel takes one unprivileged change a tenth of a
second, machine-wide: a refused one (EAGAIN) is tried again, a few times.
"""

from __future__ import annotations

import asyncio
import errno

START_BOOST = 2.0
"""Seconds a game runs with the server's weight before its group gets ``SETTLED_NICE``."""
SETTLED_NICE = 19
"""The lowest weight: what a settled game needs is a frame a battle, which waits for nobody's start."""
RENDERER_NICE = 5
"""Where a spectators' renderer settles (weight 335): it draws for every spectator of its size at the table,
so it keeps up beside busy games (15 each) and stays below the server and a newcomer's start (1,024)."""
RETRY_AFTER = 0.15
RETRIES = 20


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


class GroupNice:
    """Settles a game's group at ``settled`` after its start-up boost, on the running loop; ``cancel`` when it ends."""

    def __init__(self, pid: int, settled: int = SETTLED_NICE) -> None:
        self.pid = pid
        self.settled = settled
        self._left = RETRIES
        self._loop = asyncio.get_running_loop()
        self._handle: asyncio.TimerHandle | None = self._loop.call_later(START_BOOST, self._set)

    def _set(self) -> None:
        self._handle = None
        if set_group_nice(self.pid, self.settled) == errno.EAGAIN and self._left > 0:
            self._left -= 1
            self._handle = self._loop.call_later(RETRY_AFTER, self._set)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
