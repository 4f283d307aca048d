"""The option table declares each setting once: its flag, its key, its served variable and its default agree.

A flag, a preferences key and a served variable are each generated from one ``Option``; these tests hold
every place that reads them to the table, so a second declaration that drifts from it fails here.
"""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from war_tui.cli import build_parser
from war_tui.core.rules import Rules
from war_tui.settings import served
from war_tui.settings.options import PLAY, PREFERENCE_OPTIONS, RULES, SERVED_OPTIONS, read_served, served_environment
from war_tui.settings.play import PlaySettings
from war_tui.settings.preferences import KEYS, NOT_KEYS, read_config

FLAGS = [option for option in PLAY if option.flag]


def parsed(*argv: str) -> argparse.Namespace | None:
    """The game's flags as the command line parses them; None when it refuses them (exit 2)."""
    try:
        return build_parser().parse_args(list(argv))
    except SystemExit as exc:
        assert exc.code == 2
        return None


def test_every_flag_of_the_table_is_a_flag_of_the_game_and_there_are_no_others(capsys):
    dests = set(vars(build_parser().parse_args([]))) - {"command", "top_parser"}
    assert dests == {option.name for option in FLAGS}
    for option in PLAY:
        if not option.flag:
            assert parsed(option.flag_name) is None, f"{option.flag_name} is a served variable, not a flag"


def test_every_visible_flag_is_a_key_or_says_why_not_and_never_both():
    for option in FLAGS:
        if option.hidden:
            assert option.key is None and not option.per_run, option.name
        else:
            assert (option.key is None) == bool(option.per_run), option.name
    assert list(KEYS) == [option.key_name for option in PREFERENCE_OPTIONS]
    assert set(NOT_KEYS) == {option.key_name for option in FLAGS if option.per_run}
    assert not set(KEYS) & set(NOT_KEYS)


def test_every_served_variable_is_one_option_and_reads_back_what_the_server_writes():
    variables = [option.variable for option in SERVED_OPTIONS]
    assert len(variables) == len(set(variables))
    told = {"served": True, "top_speed": 60.0, "notice": "Welcome.", "session_minutes": 2.5,
            "player": "key:SHA256:abc", "table_fd": 9, "table_mode": "watch", "leaderboard": False,
            "line_input": "lines", "error_fd": 11, "accessible": True, "ssh_at": "-p 2222 192.0.2.7",
            "web_at": "https://war.example.org", "replay": "12@40", "export": "12 --format cast"}
    assert set(told) == {option.name for option in SERVED_OPTIONS}
    assert read_served(served_environment(**told)) == told
    settings = PlaySettings(**read_served(served_environment(**told)))
    assert {name: getattr(settings, name) for name in told} == told


def test_every_variable_a_served_game_reads_is_declared_in_the_table():
    named = {value for name, value in vars(served).items() if name.endswith("_VARIABLE")}
    assert named == {option.variable for option in SERVED_OPTIONS}


@pytest.mark.parametrize("variable, text", [
    ("WAR_TUI_LINE", "bytes"), ("WAR_TUI_ERROR_FD", "2"), ("WAR_TUI_ERROR_FD", "x"),
])
def test_a_served_variable_the_server_never_sets_is_refused_naming_it(variable, text):
    with pytest.raises(ValueError, match=variable):
        read_served({"WAR_TUI_SERVED": "1", variable: text})


def test_every_setting_of_the_table_is_a_field_of_the_settings_with_its_default():
    fields = {field.name: field for field in dataclasses.fields(PlaySettings)}
    for option in PLAY:
        if option.setting:
            assert option.name in fields, option.name
            assert fields[option.name].default == option.default, option.name
    rules = Rules()
    assert {option.name: option.default for option in RULES} == {
        "war_cards": rules.war_cards, "gather": rules.gather, "max_battles": rules.max_battles,
    }


def test_with_neither_flag_nor_file_each_preference_has_its_tables_default(own_config_folder):
    from war_tui.commands.play import settings_from_args

    settings = settings_from_args(build_parser().parse_args([]))
    for option in PREFERENCE_OPTIONS:
        if option.setting:
            assert getattr(settings, option.name) == option.default, option.name
    assert settings.rules == Rules(**{option.name: option.default for option in RULES})


RANGED = [option for option in PREFERENCE_OPTIONS if option.high is not None]


@pytest.mark.parametrize("option", RANGED, ids=[option.name for option in RANGED])
def test_a_preference_key_and_its_flag_share_one_range(option, tmp_path):
    whole = isinstance(option.default, int) and not isinstance(option.default, bool)
    step = 1 if whole else option.high / 10
    low = option.low if option.low else step  # a range open at 0 (minutes) starts just above it
    inside = [low, option.high]
    outside = [option.high + step] + ([option.low - step] if option.low else [0])
    path = tmp_path / "config.toml"
    for value in inside + outside:
        text = str(int(value)) if whole else repr(float(value))
        flag = parsed("--no-config", option.flag_name, text)
        path.write_text(f"{option.key_name} = {text}\n")
        read = read_config(path)
        said = f"{option.flag_name} {text}"
        if value in inside:
            assert flag is not None and read.problems == (), said
            assert getattr(flag, option.name) == read.values[option.key_name], said
        else:
            assert flag is None and len(read.problems) == 1, said


def test_the_command_line_uses_only_argparse_public_api():
    import re
    from pathlib import Path

    import war_tui

    root = Path(war_tui.__file__).parent
    private = re.compile(r"argparse\._\w|\._(?:option_string_actions|name_parser_map|actions|registries)\b")
    found = [f"{path.relative_to(root)}:{number}" for path in sorted(root.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if private.search(line)]
    assert found == []
