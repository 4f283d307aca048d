"""Shared pieces for the serve-ssh tests: keys, an in-process server, a server process, readers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh
from support.waiting import START
from support.waiting import TIMEOUT as TIMEOUT  # the tests' one bound on a wait
from support.waiting import until as until

from war_tui.ssh.keys import AuthorizedKeys
from war_tui.ssh.server import ServerConfig, SshServer

if TYPE_CHECKING:
    from war_tui.serving.pty_process import PtyProcess

PRELOAD_VARIABLE = "WAR_TUI_TEST_PRELOAD"
"""The serve-ssh suite runs with games forked from a preloaded parent, and again (tests/conftest.py's
``no-preload`` variant, which sets this to 0) with games started afresh (``--no-preload``). The stand-in
game is forked too: the parent runs any Python script; it loads the real game (``--warm``) only when it
serves the real game."""


def preloading() -> bool:
    """Whether this test's servers fork their games from a preloaded parent."""
    return os.environ.get(PRELOAD_VARIABLE, "1") != "0"


PRELOAD_ARGV = (sys.executable, "-m", "war_tui.preload")
FAKE_GAME = Path(__file__).with_name("fake_game.py")
FAKE_ARGV = (sys.executable, str(FAKE_GAME))
FAKE_TABLE_ARGV = (sys.executable, str(FAKE_GAME.with_name("fake_table.py")))  # prints what its table tells it
SERVED_NICENESS = ServerConfig.game_nice
"""How far below the server serve-ssh starts its games unless told (``--game-nice``); the tests' servers
start them beside it."""
SSH_OPTIONS = (
    "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
    "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
)


@dataclass
class ClientKey:
    key: asyncssh.SSHKey
    path: Path

    @property
    def public_line(self) -> str:
        return self.key.export_public_key().decode()


def make_key(directory: Path, name: str) -> ClientKey:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path = directory / name
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return ClientKey(key, path)


@dataclass
class InProcessServer:
    server: SshServer
    logs: list[str] = field(default_factory=list)
    people: list = field(default_factory=list)
    """The clients a test seats here (each with its ``conn``): they hang up when the server stops at the end of an
    ``async with`` block."""

    @property
    def port(self) -> int:
        return self.server.port

    async def __aenter__(self) -> InProcessServer:
        return self

    async def __aexit__(self, *exc) -> None:
        for person in self.people:
            person.conn.close()
        await self.server.stop()


def refuse_if_marked_no_server() -> None:
    """A test marked ``no_server`` is left out of the --no-preload pass: it may not start a server."""
    assert os.environ.get("WAR_TUI_TEST_NO_SERVER") != "1", "this test starts a server: take off its no_server mark"


async def start_server(
    tmp_path: Path,
    allowed: list[ClientKey] | None,
    argv: tuple[str, ...] = FAKE_ARGV,
    **options,
) -> InProcessServer:
    """A server in the test's event loop on an ephemeral port; ``allowed`` None means --public.

    ``async with await start_server(...) as srv:`` stops it at the end of the block.
    """
    refuse_if_marked_no_server()
    authorized = None
    if allowed is not None:
        keys_file = tmp_path / "authorized_keys"
        keys_file.write_text("".join(k.public_line for k in allowed))
        authorized = AuthorizedKeys(keys_file)
    logs: list[str] = []
    # The real game, forked from a parent that loaded it, as serve-ssh's is.
    warm = ("--warm",) if argv[1:2] == ("-c",) else ()
    options.setdefault("preload_argv", (*PRELOAD_ARGV, *warm) if preloading() else None)
    # Games at the server's priority, not settled below it: beside the busy suite they would crawl.
    options.setdefault("game_nice", 0)
    # Each spectator a game of its own, unless the test shares renderers (fanout=True, serve-ssh's own default).
    options.setdefault("fanout", False)
    config = ServerConfig(
        host_key=options.pop("host_key", None) or asyncssh.generate_private_key("ssh-ed25519"),
        session_argv=argv,
        authorized_keys=authorized,
        port=0,
        **options,
    )
    server = SshServer(config, log=logs.append)
    await server.start()
    parent = server.game_parent
    if parent is not None:
        await until(lambda: parent.ready)  # every game of the test is forked from it
        logs.remove(next(line for line in logs if line.startswith("game parent ready (pid")))  # logs as --no-preload
    return InProcessServer(server, logs)


async def connect(port: int, key: ClientKey | None, **options) -> asyncssh.SSHClientConnection:
    # Keyless --public takes keyboard-interactive, which asyncssh tries with a password.
    settings = {
        "username": "player", "known_hosts": None, "client_keys": [key.key] if key else [],
        "agent_path": None, "password": None if key else "", **options,
    }
    return await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **settings), TIMEOUT)


async def open_game(conn: asyncssh.SSHClientConnection, size=(80, 24), term="xterm-256color", **options):
    """A session on a pty of ``size`` (columns, rows), its output as bytes."""
    return await conn.create_process(term_type=term, term_size=size, encoding=None, **options)


async def ready_game(conn: asyncssh.SSHClientConnection, size=(80, 24), **options):
    """A session of the stand-in game read up to its READY line; with it, the bytearray of what it wrote so far."""
    game = await open_game(conn, size, **options)
    seen = bytearray()
    await read_until(game.stdout, "READY", seen)
    return game, seen


async def read_until(stream: asyncssh.SSHReader, pattern: str, seen: bytearray | None = None) -> str:
    """Read the session's output until ``pattern`` (a regex) matches; returns everything read so far."""
    buffer = seen if seen is not None else bytearray()
    regex = re.compile(pattern)

    async def reader() -> str:
        while not regex.search(buffer.decode(errors="replace")):
            chunk = await stream.read(4096)
            if not chunk:
                raise AssertionError(f"output ended before {pattern!r}: {buffer.decode(errors='replace')!r}")
            buffer.extend(chunk)
        return buffer.decode(errors="replace")

    try:
        return await asyncio.wait_for(reader(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"no {pattern!r} in {buffer.decode(errors='replace')!r}") from None


def game_pid(text: str) -> int:
    match = re.search(r"PID (\d+)", text)
    assert match, text
    return int(match.group(1))


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting to be reaped is not running
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


async def wait_gone(pid: int, timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


class ServerProcess:
    """``war-tui serve-ssh`` as a real process, its stderr collected line by line."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, game_nice: str | None = "0") -> None:
        """``game_nice``: games at the server's priority, as start_server's (None: serve-ssh's default)."""
        refuse_if_marked_no_server()
        preload = () if preloading() or "--no-preload" in args else ("--no-preload",)
        nice = ("--game-nice", game_nice) if game_nice is not None else ()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "war_tui", "serve-ssh", *preload, *nice, *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, env=env,
        )
        self.lines: list[str] = []
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        assert self.process.stderr is not None  # started with stderr=PIPE
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))
            if "listening on" in line:
                self._listening.set()
        self._listening.set()

    def wait_listening(self) -> int:
        assert self._listening.wait(START), self.lines
        for line in self.lines:
            match = re.search(r"listening on \S+:(\d+):", line)
            if match:
                return int(match.group(1))
        raise AssertionError(f"server did not start: {self.lines}")

    def stop(self, sig: int = 15) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            code = self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._thread.join(TIMEOUT)
        return code

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class PtyClient:
    """A client program (OpenSSH's ``ssh``) on a pty of its own, as if typed into a terminal."""

    def __init__(self) -> None:
        self.output = bytearray()
        self._more = asyncio.Event()
        self.process: PtyProcess | None = None

    async def start(self, argv: list[str], env: dict[str, str], size: tuple[int, int]) -> PtyClient:
        from war_tui.serving.pty_process import PtyProcess

        self.process = await PtyProcess.start(argv, env, size, self._on_output)
        return self

    def _on_output(self, data: bytes) -> None:
        self.output.extend(data)
        self._more.set()

    @property
    def running(self) -> PtyProcess:
        assert self.process is not None, "the client did not start"
        return self.process

    @property
    def text(self) -> str:
        return self.output.decode(errors="replace")

    async def expect(self, pattern: str) -> str:
        regex = re.compile(pattern)

        async def watch() -> str:
            while not regex.search(self.text):
                self._more.clear()
                if self.running.returncode is not None and not regex.search(self.text):
                    await self.running.wait(drain_timeout=TIMEOUT)  # its last output, read to the end
                    if not regex.search(self.text):
                        raise AssertionError(f"client ended before {pattern!r}: {self.text!r}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._more.wait(), 0.2)
            return self.text

        try:
            return await asyncio.wait_for(watch(), TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"no {pattern!r} in {self.text!r}") from None

    def type(self, keys: bytes) -> None:
        self.running.write(keys)

    async def wait(self) -> int:
        return await asyncio.wait_for(self.running.wait(), TIMEOUT)

    async def close(self) -> None:
        if self.process is not None:
            await self.process.end(grace=1.0)

    async def __aenter__(self) -> PtyClient:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


class Seat:
    """One SSH client on a pty, running one table command; ``expect`` reads its screen until a pattern."""

    def __init__(self, conn, process) -> None:
        self.conn = conn
        self.process = process
        self.seen = bytearray()

    @property
    def text(self) -> str:
        return self.seen.decode(errors="replace")

    async def expect(self, pattern: str) -> re.Match:
        text = await read_until(self.process.stdout, pattern, self.seen)
        return list(re.finditer(pattern, text))[-1]

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    async def finish(self) -> int | None:
        """Read the screen to its end, then the exit status."""
        async def rest() -> None:
            while chunk := await self.process.stdout.read(4096):
                self.seen.extend(chunk)

        await asyncio.wait_for(rest(), TIMEOUT)
        result = await asyncio.wait_for(self.process.wait(), TIMEOUT)
        return result.exit_status

    async def leave(self) -> None:
        """Hang up, and wait until the connection is closed."""
        self.conn.close()
        await asyncio.wait_for(self.conn.wait_closed(), TIMEOUT)
