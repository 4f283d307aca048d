"""One plural helper counts every word a person reads: "1 game of War", never "1 games" (issue 21, item 16)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from support.tables import Recorder

from war_tui.core.plural import counted, plural
from war_tui.core.rules import Rules
from war_tui.tables import FakeClock, Registry, TableRefused


def test_plural_and_counted():
    assert plural(1, "battle") == "1 battle" and plural(2048, "battle") == "2,048 battles"
    assert plural(0, "war") == "0 wars" and plural(0.5, "minute") == "0.5 minutes" and plural(1.0, "minute") == "1 minute"
    assert plural(2, "match", "matches") == "2 matches"
    assert counted(1, "table", "is", "are") == "1 table is" and counted(3, "table", "is", "are") == "3 tables are"


def test_the_rules_say_one_battle_and_one_card():
    assert Rules(max_battles=1).describe() == "cap 1 battle"
    assert Rules(war_cards=2, max_battles=2).describe() == "2 cards down per war, cap 2 battles"


def test_a_full_server_of_one_table_says_1_table_is_open():
    registry = Registry(clock=FakeClock(), seed_source=lambda: 1, max_tables=1)
    registry.join("a", "ann", Recorder())
    with pytest.raises(TableRefused, match="the server is full: 1 table is open;"):
        registry.join("b", "bob", Recorder())


def test_simulate_one_game_says_1_game_of_war_and_1_battle():
    out = subprocess.run(
        [sys.executable, "-m", "war_tui", "simulate", "--games", "1", "--seed", "1", "--max-battles", "1"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "1 game of War" in out and not re.search(r"(?<![\d,.])1 games", out)
    assert "Longest game: 1 battle " in out and "cap 1 battle" in out and not re.search(r"(?<![\d,.])1 battles", out)
