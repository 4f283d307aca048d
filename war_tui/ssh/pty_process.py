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

# Runs in the child between fork and the program: make the pty on fd 0 the controlling terminal, then
# exec. A tiny interpreter (-I -S: no site, no user paths) rather than subprocess's preexec_fn, which is
# unsafe in a process with threads (asyncio's child watcher and executor threads).
CTTY_LAUNCHER = (
    "import fcntl, os, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "try:\n"
    "    os.execvp(sys.argv[1], sys.argv[1:])\n"
    "except OSError as exc:\n"
    "    sys.stderr.write(f'cannot start {sys.argv[1]}: {exc.strerror}\\r\\n')\n"
    "    os._exit(127)\n"
)

# Keys waiting for a game that does not read them: past this the SSH channel stops reading the client.
INPUT_HIGH_WATER = 64 * 1024
INPUT_LOW_WATER = 16 * 1024
READ_CHUNK = 64 * 1024
MAX_DIMENSION = 9999
# termios in Python 3.11 lacks IUTF8; the flag's value is the same on Linux and macOS.
IUTF8 = getattr(termios, "IUTF8", 0x4000 if sys.platform in ("linux", "darwin") else 0)


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A usable window size: clients may report 0 (unknown) or absurd values."""
    cols = cols if cols > 0 else 80
    rows = rows if rows > 0 else 24
    return min(cols, MAX_DIMENSION), min(rows, MAX_DIMENSION)


def set_window_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtyProcess:
    """One program on one pty: output goes to ``on_output``, ``write`` types keys, ``end`` hangs up."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        master: int,
        on_output: Callable[[bytes], None],
        on_input_pressure: Callable[[bool], None] | None,
    ) -> None:
        self._process = process
        self._master = master
        self._loop = asyncio.get_running_loop()
        self._on_output = on_output
        self._on_input_pressure = on_input_pressure or (lambda paused: None)
        self._input = bytearray()
        self._input_paused = False
        self._reading = False
        self._output_paused = False
        self._output_done = asyncio.Event()
        self._closed = False
        self.resume_output()

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        on_output: Callable[[bytes], None],
        on_input_pressure: Callable[[bool], None] | None = None,
        cwd: str | None = None,
    ) -> PtyProcess:
        master, slave = os.openpty()
        try:
            cols, rows = clamp_size(*size)
            set_window_size(master, cols, rows)
            attrs = termios.tcgetattr(slave)
            attrs[0] |= IUTF8  # the locale is UTF-8: erase whole characters in cooked mode
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            os.set_blocking(master, False)
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-I", "-S", "-c", CTTY_LAUNCHER, *argv,
                stdin=slave, stdout=slave, stderr=slave,
                env=dict(env), cwd=cwd, start_new_session=True, close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            # Only the child keeps the slave open, so reading the master ends (EIO) when the child is gone.
            os.close(slave)
        return cls(process, master, on_output, on_input_pressure)

    @property
    def pid(self) -> int:
        return self._process.pid

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

    # -- input: keys from the client --------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self._closed or self._output_done.is_set():
            return
        if self._input:
            self._input += data
        else:
            try:
                written = os.write(self._master, data)
            except (BlockingIOError, InterruptedError):
                written = 0
            except OSError:
                return  # the program is gone; its end is reported by wait()
            if written < len(data):
                self._input += data[written:]
                self._loop.add_writer(self._master, self._write_ready)
        self._check_input_pressure()

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
        self._check_input_pressure()

    def _check_input_pressure(self) -> None:
        if not self._input_paused and len(self._input) > INPUT_HIGH_WATER:
            self._input_paused = True
            self._on_input_pressure(True)
        elif self._input_paused and len(self._input) <= INPUT_LOW_WATER:
            self._input_paused = False
            self._on_input_pressure(False)

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
        self.close()
        return returncode

    def _kill_group(self, sig: int) -> None:
        # The group id is the leader's pid; Linux does not reuse it while any member lives.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, sig)

    def close(self) -> None:
        if self._closed:
            return
        self.pause_output()
        if self._input:
            self._loop.remove_writer(self._master)
            self._input.clear()
        self._closed = True
        os.close(self._master)
