"""Big terminals: from 120x40 up the cards are drawn big and the table grows; below, the board is as it was."""

from __future__ import annotations

import pytest
from war_ui_support import WAR_PACKETS, drawn, make_app

from war_tui.core.cards import parse_card
from war_tui.presentation.cards_art import BIG_CARD_HEIGHT, BIG_CARD_WIDTH, big_card_back, big_card_face
from war_tui.presentation.glyphs import ASCII, UNICODE
from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.pile import Pile

pytestmark = pytest.mark.app  # see pyproject.toml's markers


def test_a_big_card_shows_rank_and_suit_in_both_corners_and_a_large_face():
    face = big_card_face(parse_card("TH"), UNICODE)
    assert [len(row) for row in face] == [BIG_CARD_WIDTH] * BIG_CARD_HEIGHT
    assert face[1] == "│10♥    │" and face[-2] == "│    10♥│" and face[3] == "│   ♥   │"
    assert big_card_face(parse_card("TH"), UNICODE, overlapped=True)[1].startswith("│T♥")
    assert big_card_face(parse_card("AS"), ASCII)[1] == "|AS     |"
    assert all(len(row) == BIG_CARD_WIDTH for row in big_card_back(ASCII))


@pytest.mark.parametrize("size, big", [((120, 40), True), ((200, 60), True), ((119, 40), False), ((160, 39), False)])
async def test_big_cards_from_120_by_40_up(size, big):
    app = make_app(packets=WAR_PACKETS)
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        await pilot.pause()
        pile = drawn(app.query_one(Pile))
        assert ("│   ♣   │" in pile) is big  # the big card's suit in the middle of its face
        assert ("│5♣ │" in pile) is not big
        assert "takes 10 cards" in pile
        packet = drawn(app.query_one("#packet-p1"))
        assert (packet.count("▒▒▒▒▒▒▒") >= 5) is big


async def test_the_log_does_not_swallow_a_big_screen():
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        table, log = app.query_one("#table"), app.query_one(BattleLog)
        assert table.region.height > log.region.height  # the table grows with the screen
        assert table.region.height >= 2 * BIG_CARD_HEIGHT + 4
