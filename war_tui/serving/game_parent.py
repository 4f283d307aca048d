"""The preloaded game parent as the server sees it: started, watched, restarted, asked to fork games.

The parent is another program (``python -m war_tui.preload``: it imports the game, which this package
never does); the server talks to it over one SOCK_SEQPACKET unix socket only. A request is a Python
command line, the game's environment, limits and descriptor numbers in JSON, with the descriptors
attached (SCM_RIGHTS); the answer is ``pid N`` or ``error WHY``, in the order of the requests; ``exit
PID STATUS`` comes when the parent reaps a game. The game is the parent's child, not the server's: its
status comes from the parent, and its process group is the server's to signal as before.

When the parent dies it is started again (after 1 s, then up to 30 s between tries); meanwhile
``fork`` answers None and the session starts its game the old way. Games the dead parent had forked go
on; the server sees each end through a pidfd, its status unknown (reported as 0: a crash report in the
pipe still counts as a crash).
"""

from __future__ import annotations

import array
import asyncio
import collections
import contextlib
import json
import os
import signal
import socket
from collections.abc import Callable, Mapping, Sequence

READY = b"ready"
REPLY_LIMIT = 256
REQUEST_LIMIT = 64 * 1024
"""As ``war_tui.preload.REQUEST_LIMIT``: a larger request is not sent, the game starts the old way."""
FORK_TIMEOUT = 5.0
"""A parent that does not answer a request within this is taken for dead (and killed, and restarted)."""
PARENT_DIED = "the game parent died"
RESTART_FIRST = 1.0
RESTART_MOST = 30.0
FIRST_START_WAIT = 10.0
"""Seconds a starting server waits for its parent's first load before it says it listens (about 1 s idle)."""


class ForkedGame:
    """A game forked by the parent: its pid, and its exit status once the parent (or a pidfd) says it ended."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()
        self._pidfd: int | None = None

    def ended(self, status: int) -> None:
        if self.returncode is None:
            self.returncode = status
            self._ended.set()
        self._unwatch()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode

    def watch_orphan(self) -> None:
        """Its parent died: learn of its end from a pidfd; the status is unknown (0)."""
        if self.returncode is not None:
            return
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except (ProcessLookupError, OSError):
            self.ended(0)
            return
        asyncio.get_running_loop().add_reader(self._pidfd, self.ended, 0)

    def _unwatch(self) -> None:
        if self._pidfd is not None:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


class GameParent:
    """One preloaded parent process: ``start`` it, ``fork`` games from it, ``stop`` it at the end."""

    def __init__(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: str, log: Callable[[str], None]
    ) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.cwd = cwd
        self.log = log
        self.ready = False
        self.pid: int | None = None
        self.starts = 0
        self._process: asyncio.subprocess.Process | None = None
        self._sock: socket.socket | None = None
        self._replies: collections.deque[asyncio.Future[ForkedGame | str]] = collections.deque()
        """One per request sent, in order: the game forked, or why not."""
        self._games: dict[int, ForkedGame] = {}
        self._restart: asyncio.TimerHandle | None = None
        self._backoff = RESTART_FIRST
        self._stopped = False
        self._fallback_noted = False
        self._watcher: asyncio.Task[None] | None = None
        self._started_at = 0.0
        self._first_start_over = asyncio.Event()
        """The first start ended: the parent is ready, or it failed (and said so)."""

    # -- the parent's life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the parent; it is ready (and ``fork`` uses it) once it has loaded the game."""
        if self._stopped:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.argv, str(theirs.fileno()), pass_fds=(theirs.fileno(),), env=self.env, cwd=self.cwd,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, start_new_session=True,
            )
        except OSError as exc:
            ours.close()
            self.log(f"game parent did not start ({exc}); games start the old way")
            self._first_start_over.set()
            self._schedule_restart()
            return
        finally:
            theirs.close()
        if self._stopped:  # stopped while it was starting
            ours.close()  # the parent reads the end of its socket and exits
            return
        self.starts += 1
        self._started_at = asyncio.get_running_loop().time()
        self.pid = self._process.pid
        ours.setblocking(False)
        self._sock = ours
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable)
        self._watcher = asyncio.ensure_future(self._watch(self._process, ours))

    async def first_start(self, timeout: float = FIRST_START_WAIT) -> bool:
        """Wait, at most ``timeout``, until the first start is over; whether the parent is ready.

        A parent that failed said so; one still loading at the deadline is said here. Either way games
        start the old way until it is ready.
        """
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first_start_over.wait(), timeout)
        if not self._first_start_over.is_set():
            self._first_start_over.set()
            self._fallback_noted = True
            self.log(f"game parent not ready after {timeout:g} s: games start the old way until it is")
        return self.ready

    async def _watch(self, process: asyncio.subprocess.Process, sock: socket.socket) -> None:
        status = await process.wait()
        if self._sock is sock:
            self._died(f"exit status {status}" if status >= 0 else f"killed by signal {-status}")

    def _readable(self) -> None:
        sock = self._sock
        while sock is not None and sock is self._sock:
            try:
                message = sock.recv(REPLY_LIMIT)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                message = b""
            if not message:
                self._socket_closed(sock)
                return
            self._message(message)

    def _message(self, message: bytes) -> None:
        try:
            self._understood(message)
        except ValueError:  # a number that is none: the parent is not what it should be
            self._died(f"said something unexpected ({message[:40]!r})")

    def _understood(self, message: bytes) -> None:
        if message == READY:
            self.ready = True
            self._backoff = RESTART_FIRST
            again = " again" if self.starts > 1 else ""
            took = asyncio.get_running_loop().time() - self._started_at
            self.log(f"game parent ready{again} (pid {self.pid}, {took:.1f} s to load): games are forked from it")
            self._fallback_noted = False
            self._first_start_over.set()
            return
        words = message.split()
        if words[:1] == [b"exit"] and len(words) == 3:
            game = self._games.pop(int(words[1]), None)
            if game is not None:
                game.ended(int(words[2]))
            return
        if words[:1] in ([b"pid"], [b"error"]) and self._replies:
            future = self._replies.popleft()
            if words[0] == b"pid" and len(words) == 2:
                # Known at once: its exit may be in the very next message.
                game = self._games[int(words[1])] = ForkedGame(int(words[1]))
                if future.done():  # given up on: its pty is closed, so it ends by itself
                    return
                future.set_result(game)
            elif not future.done():
                future.set_result(message[6:].decode(errors="replace"))
            return
        self._died(f"said something unexpected ({message[:40]!r})")

    def _socket_closed(self, sock: socket.socket) -> None:
        """The parent is ending: no more games from it; its exit status (``_watch``) says how it ended."""
        self.ready = False
        asyncio.get_running_loop().remove_reader(sock.fileno())
        process = self._process

        def kill_if_still_there() -> None:
            if self._sock is sock:
                self._died("closed its socket")

        if process is not None:
            asyncio.get_running_loop().call_later(2.0, kill_if_still_there)

    def _died(self, why: str) -> None:
        """The parent is gone (or no longer to be trusted): games start the old way until a new one is ready."""
        sock, self._sock = self._sock, None
        self.ready = False
        if sock is not None:
            asyncio.get_running_loop().remove_reader(sock.fileno())  # a no-op when it was removed already
            sock.close()
        self._kill()
        while self._replies:
            future = self._replies.popleft()
            if not future.done():
                future.set_result(PARENT_DIED)
        orphans = list(self._games.values())
        self._games.clear()
        for game in orphans:
            game.watch_orphan()
        self._first_start_over.set()
        if self._stopped:
            return
        left = f"; {len(orphans)} of its games go on, their exit statuses unknown" if orphans else ""
        self.log(f"game parent (pid {self.pid}) {why}{left}; games start the old way until it is restarted")
        self._fallback_noted = True
        self._schedule_restart()

    def _kill(self) -> None:
        # os.kill, not process.kill(): that reaps a parent that already ended, behind asyncio's back.
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)

    def _schedule_restart(self) -> None:
        if self._stopped or self._restart is not None:
            return
        delay, self._backoff = self._backoff, min(self._backoff * 2, RESTART_MOST)
        self._restart = asyncio.get_running_loop().call_later(delay, self._restart_now)

    def _restart_now(self) -> None:
        self._restart = None
        asyncio.ensure_future(self.start())

    async def stop(self) -> None:
        """End the parent (its games are the sessions' to end) and stop restarting it."""
        self._stopped = True
        if self._restart is not None:
            self._restart.cancel()
            self._restart = None
        process = self._process
        self._died("stopped")
        if process is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 2.0)
        if self._watcher is not None:
            await asyncio.gather(self._watcher, return_exceptions=True)

    # -- games ----------------------------------------------------------------------------------------

    async def fork(
        self, command: Sequence[str], env: Mapping[str, str], cwd: str, memory_limit: int, niceness: int,
        fds: Sequence[int], numbers: Sequence[int],
    ) -> ForkedGame | None:
        """A game forked from the parent, running ``python COMMAND`` on ``fds`` (the pty's slave end first,
        on 0, 1 and 2; the others at ``numbers``); None when the parent cannot fork it now."""
        sock = self._sock
        if not self.ready or sock is None:
            if not self._fallback_noted:
                self._fallback_noted = True
                self.log("game parent not ready: games start the old way until it is")
            return None
        request = json.dumps({
            "argv": list(command), "env": dict(env), "cwd": cwd, "memory_limit": memory_limit,
            "niceness": niceness, "fds": [0, *numbers],
        }).encode()
        if len(request) > REQUEST_LIMIT:
            return None
        future: asyncio.Future[ForkedGame | str] = asyncio.get_running_loop().create_future()
        try:
            sock.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds).tobytes())])
        except (BlockingIOError, InterruptedError):
            return None  # its socket is full: it is behind; this game starts the old way
        except OSError as exc:
            self._died(f"stopped taking requests ({exc.strerror})")
            return None
        self._replies.append(future)
        try:
            answer = await asyncio.wait_for(asyncio.shield(future), FORK_TIMEOUT)
        except TimeoutError:
            if self._sock is sock:
                self._died(f"did not answer within {FORK_TIMEOUT:g} s")
            return None
        if isinstance(answer, str):
            if answer != PARENT_DIED:
                self.log(f"game parent could not fork a game: {answer[:100]}")
            return None
        return answer
