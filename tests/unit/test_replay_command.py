"""``replay GAME_ID[@BATTLE]`` as both doors read it: the SSH command and the web page's path."""

from __future__ import annotations

import pytest

from war_tui.serving.commands import CommandRefused, ReplayCommand, parse_command, way_to_play
from war_tui.web.server import place_command


def test_an_id_and_a_battle_become_a_replay_way():
    assert parse_command("replay 12") == ReplayCommand(12, None)
    assert parse_command("replay 12@40") == ReplayCommand(12, 40)
    assert place_command("/replay/12@40") == ReplayCommand(12, 40)
    way = way_to_play(ReplayCommand(12, 40))
    assert way.replay == ReplayCommand(12, 40) and way.table is None and not way.line
    assert way_to_play(ReplayCommand(12), line=True).line
    assert ReplayCommand(12, 40).words() == "12@40" and ReplayCommand(12).words() == "12"


@pytest.mark.parametrize("bad", [
    "replay", "replay 1 2", "replay 0", "replay -1", "replay x", "replay 1@", "replay 1@0", "replay @3",
    "replay 1@1000001", "replay 9223372036854775808", "replay ١٢", "replay 1@2@3", "replay [red]1",
])
def test_a_malformed_replay_is_refused_without_echoing_it(bad):
    with pytest.raises(CommandRefused) as refused:
        parse_command(bad)
    said = str(refused.value)
    assert said.endswith(": ssh -t HOST replay GAME_ID or replay GAME_ID@BATTLE")
    assert said.split(":")[0] in ("'replay' takes one game", "a game's id is a whole number from 1 to 9223372036854775807",
                                  "a battle is a whole number from 1 to 1,000,000 after the '@'")  # never what was sent


@pytest.mark.parametrize("path", ["/replay", "/replay/1/2", "/line/replay/1", "/replay/x"])
def test_a_bad_replay_page_is_refused(path):
    with pytest.raises(CommandRefused):
        place_command(path)
