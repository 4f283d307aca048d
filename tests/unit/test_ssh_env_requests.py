"""The env requests a session keeps, the server's memory ceiling, and the asyncssh hook they rely on."""

from __future__ import annotations

import asyncssh

from war_tui.serving.limits import MemoryWatch, OncePer, resident_mb
from war_tui.ssh.env_requests import ASYNCSSH_ENV_HANDLER, MAX_KEPT, MAX_VALUE, ClientEnvironment, env_hook_missing


def test_asyncssh_still_looks_up_env_requests_by_the_name_the_server_replaces():
    # asyncssh has no public hook for env requests: this catches a renamed one.
    assert callable(getattr(asyncssh.SSHServerChannel, ASYNCSSH_ENV_HANDLER, None))
    assert env_hook_missing() is None


def test_an_asyncssh_without_the_hook_is_named_in_one_log_line(monkeypatch):
    monkeypatch.delattr(asyncssh.SSHServerChannel, ASYNCSSH_ENV_HANDLER)
    line = env_hook_missing()
    assert line is not None and "env requests are not bounded" in line and "\n" not in line


def test_only_short_variables_a_game_reads_are_kept_and_every_other_is_counted():
    refused: list[str] = []
    env = ClientEnvironment(refused.append)
    assert env.offer(b"COLORTERM", b"truecolor")
    assert env.offer(b"LC_ALL", b"de_DE.UTF-8")
    assert env.offer(b"LANG", b"en_US.UTF-8")
    assert env.offer(b"LC_TERMINAL_VERSION", b"3.5.0")
    assert env.offer(b"ACCESSIBLE", b"1")  # the line mode, asked for as locally
    assert not env.offer(b"ACCESSIBLE", b"1" * (MAX_VALUE + 1))
    assert not env.offer(b"LD_PRELOAD", b"/tmp/x.so")
    assert not env.offer(b"LANG", b"x" * (MAX_VALUE + 1))
    assert not env.offer(b"NO_COLOR", b"\x1b[2J")
    assert not env.offer(b"LC_\xff", b"1")
    assert env.variables == {
        "COLORTERM": "truecolor", "LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8", "LC_TERMINAL_VERSION": "3.5.0",
        "ACCESSIBLE": "1",
    }
    assert refused == ["environment"] * 5


def test_the_variables_kept_are_few_and_none_once_the_game_started():
    refused: list[str] = []
    env = ClientEnvironment(refused.append)
    names = [f"LC_{chr(65 + i)}" for i in range(MAX_KEPT + 4)]
    kept = [env.offer(name.encode(), b"C") for name in names]
    assert kept == [True] * MAX_KEPT + [False] * 4
    assert env.offer(names[0].encode(), b"POSIX")  # the same one again replaces it
    env.close()
    assert not env.offer(b"COLORTERM", b"24bit")
    assert len(env.variables) == MAX_KEPT and len(refused) == 5


def test_once_per_second_and_the_memory_watch_read_at_most_every_interval():
    now = [0.0]
    once = OncePer(1.0, clock=lambda: now[0])
    assert once.ready() and not once.ready()
    now[0] = 1.0
    assert once.ready()
    reads = []
    watch = MemoryWatch(100, interval=0.25, clock=lambda: now[0], read=lambda: reads.append(1) or 150.0)
    assert watch.over() and watch.over() and len(reads) == 1
    now[0] = 1.3
    assert watch.over() and len(reads) == 2 and watch.last_mb == 150.0
    assert (resident_mb() or 1) > 0
