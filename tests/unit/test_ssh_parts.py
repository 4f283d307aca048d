"""The SSH server's small decisions: who knocks too often, what the game's environment holds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from war_tui.commands.common import UsageError
from war_tui.commands.play import served_settings
from war_tui.serving.crash import describe_status
from war_tui.serving.environment import DEFAULT_TERM, served_variables, session_environment
from war_tui.serving.goodbyes import describe_minutes
from war_tui.serving.limits import AttemptLimiter, FloodLog, address_key
from war_tui.serving.pty_process import clamp_size
from war_tui.ssh.keys import key_options, parse_expiry
from war_tui.ssh.session import GameSession


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
    assert "ACCESSIBLE" not in env
    assert session_environment("xterm", {"ACCESSIBLE": "yes"})["ACCESSIBLE"] == "1"
    assert "ACCESSIBLE" not in session_environment("xterm", {"ACCESSIBLE": "0"})


@pytest.mark.parametrize(
    "client, locale",
    [
        ({}, {"LANG": "C.UTF-8", "LC_CTYPE": "C.UTF-8"}),  # nothing sent: the server's default
        ({"LANG": "de_DE.UTF-8"}, {"LANG": "C.UTF-8", "LC_CTYPE": "C.UTF-8"}),
        ({"LANG": "C"}, {"LC_ALL": "C", "PYTHONUTF8": "1"}),
        ({"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"}, {"LC_ALL": "C", "PYTHONUTF8": "1"}),
        ({"LC_CTYPE": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"}, {"LC_ALL": "C", "PYTHONUTF8": "1"}),
        ({"LC_MESSAGES": "C", "LANG": "en_US.UTF-8"}, {"LANG": "C.UTF-8", "LC_CTYPE": "C.UTF-8"}),
    ],
)
def test_the_games_locale_is_utf8_unless_the_one_the_client_sends_is_not(client, locale):
    env = session_environment("xterm", client)
    assert {name: env[name] for name in ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONUTF8") if name in env} == locale


def test_the_session_limit_is_passed_to_the_game_and_only_by_the_server():
    from war_tui.settings.served import SESSION_MINUTES_VARIABLE

    assert session_environment("xterm", {}, 90.0)[SESSION_MINUTES_VARIABLE] == "1.5"
    assert SESSION_MINUTES_VARIABLE not in session_environment("xterm", {SESSION_MINUTES_VARIABLE: "1"})


def test_a_strange_terminal_name_is_not_passed_on():
    assert session_environment("../../etc/passwd", {})["TERM"] == DEFAULT_TERM
    assert session_environment("", {})["TERM"] == DEFAULT_TERM
    assert session_environment("xterm", {"COLORTERM": "yes please"}).get("COLORTERM") is None


def test_window_sizes_are_sane():
    assert clamp_size(0, 0) == (80, 24)
    assert clamp_size(120, 40) == (120, 40)
    assert clamp_size(10**6, 10**6) == (500, 200)
    assert clamp_size(65535, 65535) == (500, 200)


def test_statuses_and_limits_read_well():
    assert describe_status(3) == "exit status 3"
    assert describe_status(-1) == "killed by SIGHUP"
    assert describe_minutes(60) == "1 minute" and describe_minutes(1800) == "30 minutes"
    assert describe_minutes(90) == "1.5 minutes"


def test_the_attempt_table_stays_bounded_however_many_addresses_knock():
    clock = Clock()
    limiter = AttemptLimiter(3, clock=clock, max_addresses=1000)
    for i in range(50_000):
        limiter.attempt(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}")
    assert len(limiter) == 1000
    assert limiter.attempt("10.0.0.1") == 1  # forgotten long ago: counted afresh
    clock.now += 61
    limiter.attempt("192.0.2.1")
    assert len(limiter) == 1  # a quiet minute later only the newcomer is remembered


def test_an_ipv6_network_counts_as_one_address():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") == "192.0.2.7"


def test_a_flood_of_log_lines_becomes_one_summary_a_second():
    clock, lines = Clock(), []
    flood = FloodLog(lines.append, burst=3, clock=clock)
    for i in range(1000):
        flood(f"disconnect {i}", "connections")
    flood.flush()
    assert lines == ["disconnect 0", "disconnect 1", "disconnect 2", "flood: held back 997 connections in the last second"]
    clock.now += 1
    flood("next")
    flood.flush()
    assert lines[-1] == "next"


def test_key_options_are_read_as_openssh_reads_them():
    assert key_options("ssh-ed25519 AAAA comment") == {}
    assert key_options('command="echo a, b",no-pty,from="10.0.0.1" ssh-ed25519 AAAA') == {
        "command": "echo a, b", "no-pty": None, "from": "10.0.0.1",
    }
    assert key_options("RESTRICT ssh-ed25519 AAAA") == {"restrict": None}


def test_expiry_times_are_read_like_openssh():
    assert parse_expiry("20200101Z") == datetime(2020, 1, 1, tzinfo=UTC)
    assert parse_expiry("202001021530Z") == datetime(2020, 1, 2, 15, 30, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_expiry("tomorrow")


class _Link:
    server = None

    def refused(self, what):
        pass


class _ClosedChannel:
    """A channel whose client has just closed it: asyncssh raises until it tells the session."""

    def write(self, data):
        raise BrokenPipeError("Channel not open for sending")

    write_stderr = write

    def exit(self, status):
        raise BrokenPipeError("Channel not open for sending")


def test_output_for_a_channel_the_client_just_closed_is_dropped_not_raised():
    session = GameSession(_Link())
    session._chan = _ClosedChannel()
    session._asked.term = "xterm"
    session.write(b"a frame")  # the game drew while the client's close was on its way
    session.say("goodbye")
    session._report(0)


def test_a_served_game_knows_its_top_speed_and_notice_from_the_server_only():
    env = session_environment("xterm", {"WAR_TUI_SERVED": "1", "WAR_TUI_TOP_SPEED": "1000"})
    assert "WAR_TUI_SERVED" not in env and "WAR_TUI_TOP_SPEED" not in env  # a client cannot set them
    served = served_settings(served_variables(60, "Agent forwarding is not offered here."))
    player = served.pop("player")
    assert served == {
        "served": True, "top_speed": 60.0, "notice": "Agent forwarding is not offered here.", "session_minutes": None,
        "leaderboard": True,
        "line_input": None, "error_fd": None, "accessible": False, "ssh_at": None, "web_at": None, "replay": None,
        "export": None,
    }
    assert served_settings(served_variables(60, None, leaderboard=False))["leaderboard"] is False
    for bad in ("", "yes", "2"):
        with pytest.raises(UsageError, match="WAR_TUI_LEADERBOARD must be 0 or 1"):
            served_settings({"WAR_TUI_SERVED": "1", "WAR_TUI_LEADERBOARD": bad})
    assert isinstance(player, str) and player.startswith("session:")  # told no identity: this session's own
    assert served_settings({}) == {}


def test_a_served_game_takes_the_players_identity_from_the_server():
    from war_tui.commands.common import UsageError
    from war_tui.commands.play import served_settings

    told = served_settings({"WAR_TUI_SERVED": "1", "WAR_TUI_PLAYER_ID": "key:SHA256:abc"})
    assert told["player"] == "key:SHA256:abc"
    first, second = (served_settings({"WAR_TUI_SERVED": "1"})["player"] for _ in range(2))
    assert first != second  # two sessions told nothing share nothing
    assert "player" not in served_settings({"WAR_TUI_PLAYER_ID": "key:SHA256:abc"})  # not served: ignored
    for bad in ("", "x" * 257, "key:\x1b[2J", "key:é"):
        with pytest.raises(UsageError):
            served_settings({"WAR_TUI_SERVED": "1", "WAR_TUI_PLAYER_ID": bad})
