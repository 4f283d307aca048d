"""systemd's Type=notify: a real serve-ssh tells a datagram socket it is ready, how busy it is, that it is alive
and that it stops, as systemd reads them; and says nothing where systemd did not ask."""

from __future__ import annotations

import os
import signal
import socket
import sys
import time

import pytest
from ssh_support import FAKE_GAME, TIMEOUT, ServerProcess, connect, ready_game

from war_tui.serving.systemd import Notifier, socket_address, watchdog_seconds


class Systemd:
    """The manager's end of NOTIFY_SOCKET: every datagram, as its lines."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        address = socket_address(name)
        assert address is not None
        self.socket.bind(address)
        self.socket.settimeout(TIMEOUT)
        self.messages: list[list[str]] = []

    def until(self, line: str) -> list[str]:
        """Read datagrams until one holds ``line`` (exactly, or as its start with ``...=``); that message."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = self.socket.recv(4096).decode().split("\n")
            self.messages.append(message)
            if any(part == line or (line.endswith("=") and part.startswith(line)) for part in message):
                return message
        raise AssertionError(f"no {line} in {self.messages}")


@pytest.fixture(params=["path", "abstract"])
def systemd(request, tmp_path):
    name = str(tmp_path / "notify") if request.param == "path" else f"@war-tui-test-{os.getpid()}-{time.time_ns()}"
    manager = Systemd(name)
    yield manager
    manager.socket.close()


@pytest.mark.long_wait  # a server process's start-up and shutdown; each state waited for
async def test_serve_ssh_says_ready_its_status_watchdog_and_stopping(tmp_path, systemd):
    env = {**os.environ, "NOTIFY_SOCKET": systemd.name, "WATCHDOG_USEC": "1000000"}
    with ServerProcess("--port", "0", "--public", "--no-preload", "--host-key", str(tmp_path / "key"),
                       "--session-command", f"{sys.executable} {FAKE_GAME}", env=env) as server:
        ready = systemd.until("READY=1")
        port = server.wait_listening()  # READY comes once the doors listen, never before
        assert "STATUS=serving 0 games at 0 tables and solo" in ready, ready
        conn = await connect(port, None)
        game, _ = await ready_game(conn)
        deadline = time.monotonic() + TIMEOUT
        while not any("STATUS=serving 1 game at 0 tables and solo" in message for message in systemd.messages):
            assert time.monotonic() < deadline, systemd.messages
            systemd.until("STATUS=")
        assert any("WATCHDOG=1" in message for message in systemd.messages), systemd.messages
        server.process.send_signal(signal.SIGTERM)
        stopping = systemd.until("STOPPING=1")
        assert "STATUS=stopping: ending the games" in stopping
        assert server.stop() == 0
        conn.close()


def test_the_notify_socket_is_a_path_or_an_abstract_name():
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@/org/freedesktop/systemd1/notify/1") == b"\0/org/freedesktop/systemd1/notify/1"
    assert socket_address("") is None and socket_address("@") is None and socket_address("vsock:2:1234") is None


def test_the_watchdog_pings_at_half_its_period_and_only_for_its_process():
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000"}, 7) == 15.0
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"}, 7) == 15.0
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"}, 7) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "0"}, 7) is None and watchdog_seconds({}, 7) is None


def test_without_notify_socket_nothing_is_sent():
    assert Notifier.from_environment(lambda: "x", {}) is None


def test_a_manager_that_is_gone_costs_the_server_nothing(tmp_path):
    notifier = Notifier(str(tmp_path / "gone"), None, lambda: "serving")
    assert notifier.send("READY=1") is False
