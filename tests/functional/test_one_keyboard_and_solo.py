"""Two players at one keyboard and the solo game: the defects of issue 21 a player met at one keyboard.

Each test names the item it covers.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from war_ui_support import WAR_PACKETS, drawn, notices, until

from war_tui.core.cards import parse_cards
from war_tui.settings.play import PlaySettings
from war_tui.ui.app import WarApp
from war_tui.ui.components.packet import Packet

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)
SHOWN_WHOLE = PlaySettings(war_step=0.0, result_hold=0.0)


def two_players(**changes) -> WarApp:
    """``war-tui --two-players`` as the command line builds it (the app makes its own table)."""
    settings = replace(SHOWN_WHOLE, two_players=True, **changes)
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, new_seed=lambda: 1234)


# ---------------------------------------------------------------- item 4: --p1/--p2 at two players


async def test_two_players_deal_the_hand_made_packets_first():
    app = two_players(packets=WAR_PACKETS, names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        assert app.board.deal.counts == (6, 6)
        await pilot.press("f", "j")
        await until(pilot, lambda: app.board.battle is not None)
        assert app.board.battle.wars == 2  # WAR_PACKETS opens on a double war
        assert app.query_one("#packet-p1", Packet).count == 11
