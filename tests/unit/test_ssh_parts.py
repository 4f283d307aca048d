"""The SSH server's small decisions: who knocks too often, what the game's environment holds."""

from __future__ import annotations

from war_tui.ssh.limits import AttemptLimiter
from war_tui.ssh.pty_process import clamp_size
from war_tui.ssh.session import DEFAULT_TERM, describe_minutes, describe_status, session_environment


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_attempts_are_counted_per_address_over_one_minute():
    clock = Clock()
    limiter = AttemptLimiter(3, clock=clock)
    counts = [limiter.attempt("10.0.0.1") for _ in range(4)]
    assert [limiter.allowed(c) for c in counts] == [True, True, True, False]
    assert limiter.allowed(limiter.attempt("10.0.0.2"))  # another address is not held back
    clock.now += 60
    assert limiter.allowed(limiter.attempt("10.0.0.1"))  # a minute later it may knock again


def test_a_flood_from_one_address_keeps_bounded_memory_and_stays_refused():
    limiter = AttemptLimiter(3, clock=Clock())
    counts = [limiter.attempt("10.0.0.1") for _ in range(1000)]
    assert counts[-1] == 7 and not limiter.allowed(counts[-1])


def test_the_game_gets_a_small_clean_environment(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "x")
    client = {"COLORTERM": "truecolor", "LD_PRELOAD": "/tmp/evil.so", "COLUMNS": "10", "NO_COLOR": "1"}
    env = session_environment("screen-256color", client)
    assert env["TERM"] == "screen-256color"
    assert env["LANG"] == env["LC_CTYPE"] == "C.UTF-8"
    assert env["COLORTERM"] == "truecolor" and env["NO_COLOR"] == "1"
    assert not set(env) & {"COLUMNS", "LINES", "LD_PRELOAD", "AWS_SECRET_ACCESS_KEY"}
    assert "HOME" in env and "PATH" in env


def test_the_session_limit_is_passed_to_the_game_and_only_by_the_server():
    from war_tui.settings import SESSION_MINUTES_VARIABLE

    assert session_environment("xterm", {}, 90.0)[SESSION_MINUTES_VARIABLE] == "1.5"
    assert SESSION_MINUTES_VARIABLE not in session_environment("xterm", {SESSION_MINUTES_VARIABLE: "1"})


def test_a_strange_terminal_name_is_not_passed_on():
    assert session_environment("../../etc/passwd", {})["TERM"] == DEFAULT_TERM
    assert session_environment("", {})["TERM"] == DEFAULT_TERM
    assert session_environment("xterm", {"COLORTERM": "yes please"}).get("COLORTERM") is None


def test_window_sizes_are_sane():
    assert clamp_size(0, 0) == (80, 24)
    assert clamp_size(120, 40) == (120, 40)
    assert clamp_size(10**6, 10**6) == (9999, 9999)


def test_statuses_and_limits_read_well():
    assert describe_status(3) == "exit status 3"
    assert describe_status(-1) == "killed by SIGHUP"
    assert describe_minutes(60) == "1 minute" and describe_minutes(1800) == "30 minutes"
    assert describe_minutes(90) == "1.5 minutes"
