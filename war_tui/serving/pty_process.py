"""A program on its own pseudo-terminal, started the way a login session starts it.

The child is a session leader (``setsid``) whose controlling terminal is the pty, so the kernel delivers
SIGWINCH when the window size changes and SIGHUP when the terminal goes away, and the whole process
group can be ended at once. Pure asyncio and ``os``: nothing here knows about SSH.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from .priority import SETTLED_NICE, GroupNice

if TYPE_CHECKING:
    from .game_parent import GameParent

# Runs in the child between fork and the program: make the pty on fd 0 the controlling terminal, set
# the limits (address space, niceness), then exec. A tiny interpreter (-I -S: no site, no user paths)
# rather than subprocess's preexec_fn, which is unsafe in a process with threads (asyncio's child
# watcher and executor threads). Arguments: memory limit in bytes (0: none), niceness, program...
CTTY_LAUNCHER = (
    "import fcntl, os, resource, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "limit, niceness = int(sys.argv[1]), int(sys.argv[2])\n"
    "if limit:\n"
    "    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
    "if niceness:\n"
    "    os.nice(niceness)\n"
    "try:\n"
    "    os.execvp(sys.argv[3], sys.argv[3:])\n"
    "except OSError as exc:\n"
    "    sys.stderr.write(f'cannot start {sys.argv[3]}: {exc.strerror}\\r\\n')\n"
    "    os._exit(127)\n"
)

INPUT_LIMIT = 64 * 1024
"""Keys held for a game that does not take them fast enough; past this ``write`` says the input overflowed."""
READ_CHUNK = 64 * 1024
ERROR_LIMIT = 64 * 1024
"""What is kept of a game's crash report (its start: where it went wrong)."""
MAX_COLUMNS = 500
MAX_ROWS = 200
"""The largest window a game gets: more than real terminals have, and a bounded screen to draw."""
# termios in Python 3.11 lacks IUTF8; the flag's value is the same on Linux and macOS.
IUTF8 = getattr(termios, "IUTF8", 0x4000 if sys.platform in ("linux", "darwin") else 0)


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A usable window size: clients may report 0 (unknown) or absurd values."""
    cols = cols if cols > 0 else 80
    rows = rows if rows > 0 else 24
    return min(cols, MAX_COLUMNS), min(rows, MAX_ROWS)


def set_window_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class GameProcess(Protocol):
    """A game's process as the pty needs it: an asyncio subprocess, or a game forked by the parent."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


class PtyProcess:
    """One program on one pty: output goes to ``on_output``, ``write`` types keys, ``end`` hangs up.

    With ``errors`` the program also gets a pipe for its crash reports (its number in
    ``ERROR_FD_VARIABLE``); what it writes there is kept, up to ``ERROR_LIMIT``, in ``error_output``.
    """

    def __init__(
        self,
        process: GameProcess,
        master: int,
        on_output: Callable[[bytes], None],
        input_limit: int,
        errors: int | None,
        niceness: int = 0,
        settled_nice: int = SETTLED_NICE,
        waits_for_table: bool = False,
    ) -> None:
        self._process = process
        self._master = master
        self._loop = asyncio.get_running_loop()
        self._on_output = on_output
        self._input = bytearray()
        self.input_limit = input_limit
        self._errors = errors
        self.error_output = bytearray()
        if errors is not None:
            self._loop.add_reader(errors, self._errors_ready)
        self._reading = False
        self._output_paused = False
        self._output_done = asyncio.Event()
        self._closed = False
        # A game started below the server (``niceness``) settles its session group too (see ``priority``).
        self._group_nice = GroupNice(process.pid, settled_nice, waiting=waits_for_table) if niceness else None
        self.resume_output()

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        on_output: Callable[[bytes], None],
        cwd: str | None = None,
        *,
        memory_limit: int = 0,
        niceness: int = 0,
        settled_nice: int = SETTLED_NICE,
        waits_for_table: bool = False,
        input_limit: int = INPUT_LIMIT,
        errors_to: str | None = None,
        pass_fds: Sequence[int] = (),
        parent: GameParent | None = None,
        line: str | None = None,
    ) -> PtyProcess | None:
        """Start ``argv``; ``errors_to`` names the variable that tells it the fd of its crash-report pipe.

        ``pass_fds``: more file descriptors the program inherits, at the same numbers (a table's socket).
        With ``parent`` (a Python program only: ``argv`` is ``sys.executable`` and its arguments) the game
        is forked from the preloaded parent instead; None when the parent cannot fork it now.
        ``line``: a game in the line mode, "keys" (the client has a terminal) or "lines" (it has none).
        ``settled_nice``: where its session group settles once started below the server (see ``priority``);
        ``waits_for_table``: its start-up boost runs from ``table_reached``, not from its start.
        """
        master, slave = os.openpty()
        errors = error_end = None
        env = dict(env)
        try:
            cols, rows = clamp_size(*size)
            set_window_size(master, cols, rows)
            attrs = termios.tcgetattr(slave)
            attrs[0] |= IUTF8  # the locale is UTF-8: erase whole characters in cooked mode
            if line is not None:
                # Keys are never echoed back, not even those typed before the game reads them.
                attrs[3] &= ~(termios.ECHO | termios.ICANON)
            if line == "lines":
                # A client with no terminal gets the text as written: "\n", not "\r\n", and its bytes
                # are keys, never signals.
                attrs[1] &= ~termios.OPOST
                attrs[3] &= ~termios.ISIG
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            os.set_blocking(master, False)
            if errors_to is not None:
                errors, error_end = os.pipe()
                os.set_blocking(errors, False)
                env[errors_to] = str(error_end)
            kept = (*pass_fds, *(() if error_end is None else (error_end,)))
            process: GameProcess | None
            if parent is not None:
                process = await parent.fork(
                    argv[1:], env, cwd or "/", memory_limit, niceness, (slave, *kept), kept,
                )
            else:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-I", "-S", "-c", CTTY_LAUNCHER, str(memory_limit), str(niceness), *argv,
                    stdin=slave, stdout=slave, stderr=slave,
                    env=env, cwd=cwd, start_new_session=True, close_fds=True, pass_fds=kept,
                )
        except BaseException:
            os.close(master)
            if errors is not None:
                os.close(errors)
            raise
        finally:
            # Only the child keeps the slave open, so reading the master ends (EIO) when the child is gone.
            os.close(slave)
            if error_end is not None:
                os.close(error_end)
        if process is None:
            os.close(master)
            if errors is not None:
                os.close(errors)
            return None
        return cls(process, master, on_output, input_limit, errors, niceness, settled_nice, waits_for_table)

    @staticmethod
    def forkable(argv: Sequence[str]) -> bool:
        """Whether the preloaded parent can run ``argv``: this Python, with ``-c CODE`` or a script."""
        return len(argv) >= 2 and argv[0] == sys.executable and (argv[1] == "-c" or not argv[1].startswith("-"))

    @property
    def pid(self) -> int:
        return self._process.pid

    def table_reached(self) -> None:
        """Its table's first word was written to it: the start-up boost runs from now (``waits_for_table``)."""
        if self._group_nice is not None:
            self._group_nice.begin()

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    # -- output: the program's screen -------------------------------------------------------------------

    def pause_output(self) -> None:
        """The client is behind: stop reading, so the program blocks on a full pty instead of us buffering."""
        self._output_paused = True
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def resume_output(self) -> None:
        self._output_paused = False
        if not self._reading and not self._output_done.is_set() and not self._closed:
            self._loop.add_reader(self._master, self._read_ready)
            self._reading = True

    def _read_ready(self) -> None:
        try:
            data = os.read(self._master, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            if exc.errno != errno.EIO:  # EIO is how Linux says every slave fd is closed
                raise
            data = b""
        if data:
            self._on_output(data)
            return
        self.pause_output()
        self._output_done.set()

    def _errors_ready(self) -> bool:
        """Take what the crash-report pipe holds; False once there is nothing more to read now."""
        if self._errors is None:
            return False
        try:
            data = os.read(self._errors, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        if not data:
            self._close_errors()
            return False
        room = ERROR_LIMIT - len(self.error_output)
        if room > 0:
            self.error_output += data[:room]
        return True

    def _close_errors(self) -> None:
        if self._errors is not None:
            self._loop.remove_reader(self._errors)
            os.close(self._errors)
            self._errors = None

    # -- input: keys from the client --------------------------------------------------------------------

    @property
    def input_held(self) -> int:
        """Bytes of keys waiting for the program to take them."""
        return len(self._input)

    def write(self, data: bytes) -> bool:
        """Type ``data``; False (and nothing of it kept) if it would hold more than ``input_limit`` bytes.

        The bound holds whatever the client does: the keys wait here, not in the SSH layer, whose
        flow control a client can defeat.
        """
        if self._closed or self._output_done.is_set():
            return True
        if self._input:
            if len(self._input) + len(data) > self.input_limit:
                return False
            self._input += data
            return True
        try:
            written = os.write(self._master, data)
        except (BlockingIOError, InterruptedError):
            written = 0
        except OSError:
            return True  # the program is gone; its end is reported by wait()
        if written < len(data):
            if len(data) - written > self.input_limit:
                return False
            self._input += data[written:]
            self._loop.add_writer(self._master, self._write_ready)
        return True

    def _write_ready(self) -> None:
        try:
            written = os.write(self._master, self._input)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            written = len(self._input)
        del self._input[:written]
        if not self._input:
            self._loop.remove_writer(self._master)

    # -- window size --------------------------------------------------------------------------------------

    def resize(self, cols: int, rows: int) -> None:
        """Set the pty's size; the kernel sends SIGWINCH to the program's foreground group."""
        if not self._closed:
            set_window_size(self._master, *clamp_size(cols, rows))

    # -- the end ------------------------------------------------------------------------------------------

    async def wait(self, drain_timeout: float = 1.0) -> int:
        """The program's exit status (negative: killed by that signal), once its last output is read."""
        returncode = await self._process.wait()
        # Output still in the pty is part of the game (its goodbye, the terminal restored). A grandchild
        # holding the pty open must not keep the session alive, hence the timeout.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._output_done.wait(), drain_timeout)
        self._kill_group(signal.SIGKILL)
        while self._errors_ready():  # its last words are in the pipe already
            pass
        return returncode

    async def end(self, grace: float = 2.0) -> int:
        """Hang up like a closed terminal (SIGHUP to the group), then SIGKILL what is left after ``grace``."""
        if self._process.returncode is None:
            self._kill_group(signal.SIGHUP)
            self._kill_group(signal.SIGCONT)  # a stopped program cannot act on SIGHUP
            try:
                await asyncio.wait_for(asyncio.shield(self._process.wait()), grace)
            except TimeoutError:
                self._kill_group(signal.SIGKILL)
        returncode = await self._process.wait()
        self._kill_group(signal.SIGKILL)  # anything the program left behind in its group
        while self._errors_ready():
            pass
        self.close()
        return returncode

    def _kill_group(self, sig: int) -> None:
        # The group id is the leader's pid; Linux does not reuse it while any member lives.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, sig)

    def close(self) -> None:
        if self._closed:
            return
        if self._group_nice is not None:
            self._group_nice.cancel()
        self.pause_output()
        if self._input:
            self._loop.remove_writer(self._master)
            self._input.clear()
        self._closed = True
        os.close(self._master)
        self._close_errors()


async def run_until_stopped(
    process: PtyProcess, stopping: asyncio.Event, time_limit: float, on_time_up: Callable[[], None]
) -> int | None:
    """Wait for the game to end by itself (its exit status) or for ``stopping`` to be set (None).

    With ``time_limit`` (seconds; 0: none), ``on_time_up`` is called once it has passed: the door says
    why and sets ``stopping``. Any door runs its game this way; what it says at the end is its own.
    """
    timer = asyncio.get_running_loop().call_later(time_limit, on_time_up) if time_limit else None
    waiting = asyncio.ensure_future(process.wait())
    stopped = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({waiting, stopped}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        waiting.cancel()
        raise
    finally:
        if timer is not None:
            timer.cancel()
        stopped.cancel()
    if waiting.done():
        return waiting.result()
    waiting.cancel()
    return None
