"""The server's settings are declared once, by their flags: a server started with no flags runs on the config's
defaults, and every flag reaches its field, in the field's own units."""

from __future__ import annotations

import dataclasses

import pytest

from war_tui.cli import build_parser
from war_tui.serving.config import GAME_OPTIONS, GameConfig
from war_tui.settings.options import OPTION, from_flags
from war_tui.ssh.server import ServerConfig
from war_tui.web.config import WebConfig
from war_tui.web.http_guard import GuardConfig


def serve_ssh(*flags: str) -> GameConfig:
    """The config ``serve-ssh`` builds from these flags (the fields no flag declares at their defaults)."""
    args = build_parser().parse_args(["serve-ssh", *flags])
    return GameConfig(session_argv=("war-tui",), **from_flags(GameConfig, args))


def test_a_server_started_with_no_flags_runs_on_the_configs_defaults():
    assert serve_ssh() == GameConfig(session_argv=("war-tui",))
    for command, config in (("serve-ssh", ServerConfig), ("serve", WebConfig), ("serve", GuardConfig)):
        values = from_flags(config, build_parser().parse_args([command]))
        defaults = {field.name: field.default for field in dataclasses.fields(config) if field.name in values}
        assert values == defaults, config
    assert ServerConfig.fanout and ServerConfig.spectator_backlog == 128 * 1024  # the SSH door's, in bytes
    assert WebConfig.idle_seconds == 30 * 60 and WebConfig.hosts == ()  # the web door's, in seconds


def test_each_flag_reaches_its_field_in_the_fields_units():
    config = serve_ssh(
        "--max-sessions", "7", "--max-attempts-per-minute", "9", "--game-nice", "3", "--seat-timeout", "12.5",
        "--max-session-minutes", "2", "--idle-minutes", "0", "--no-leaderboard", "--log-level", "debug",
        "--max-tables-per-address", "2", "--max-seats-per-address", "3",
    )
    assert (config.max_sessions, config.max_attempts_per_minute, config.game_nice, config.seat_timeout) == (7, 9, 3, 12.5)
    assert (config.max_tables_per_address, config.max_seats_per_address) == (2, 3)
    assert config.session_seconds == 120 and config.idle_seconds is None  # minutes as seconds; 0: never
    assert config.leaderboard is False and config.debug is True


def test_every_setting_a_flag_declares_is_in_serve_ssh_help(capsys):
    declared = [field for field in dataclasses.fields(GameConfig) if OPTION in field.metadata]
    assert len(declared) == len(GAME_OPTIONS) == 18
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve-ssh", "--help"])
    shown = capsys.readouterr().out
    assert all(option.flag_name in shown for option in GAME_OPTIONS.values())
