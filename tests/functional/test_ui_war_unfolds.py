"""A war laid step by step on the pile: the tie, the face-down cards, then the deciding cards.

Waiting is by polling for what a person would see; steps are real (a few tenths of a second).
"""

from __future__ import annotations

import pytest
from war_ui_support import WAR_PACKETS, drawn, frame, make_app, notices, until

from war_tui.core.cards import parse_cards
from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.card_bar import CardBar
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.status import StatusLine
from war_tui.ui.components.trend import CountTrend
from war_tui.ui.screens.game_over import GameOverScreen

pytestmark = [pytest.mark.app, pytest.mark.serial]  # see pyproject.toml's markers

SIZE = (100, 30)
STEP = 0.3

# Battle 1 of WAR_PACKETS: 7♣ ties 7♥, 3♣ / 2♦ down, 9♠ ties 9♦, 4♣ / 4♦ down, 5♣ beats 3♠.
DECIDING = ("5♣", "3♠")
# One war that ends the game: 7 v 7, 2 and 3 down, 5♣ beats 4♦ and player 1 holds all six cards.
LAST_BATTLE_WAR = (tuple(parse_cards("7C 2C 5C")), tuple(parse_cards("7H 3D 4D")))


def board_before_the_war(app) -> dict[str, object]:
    """What tells a battle's outcome away from the pile: counts, the bar, the sparkline and the log."""
    return {
        "packets": [p.subtitle for p in app.query(Packet)],
        "bar": drawn(app.query_one(CardBar)),
        "trend": list(app.query_one(CountTrend).history.samples),
        "log": list(app.query_one(BattleLog).lines),
    }


async def test_a_flipped_war_is_laid_in_steps_and_the_board_tells_the_outcome_only_at_the_end():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = board_before_the_war(app)
        pile = app.query_one(Pile)
        await pilot.press("space")
        await pilot.pause()
        on_pile = drawn(pile)
        assert "7♣" in on_pile and "7♥" in on_pile and "7♣ ties 7♥" in on_pile
        assert "▒" not in on_pile and "takes" not in on_pile
        assert frame(pile)[1].endswith("━ WAR! ━┛")
        assert board_before_the_war(app) == before  # nothing gives the result away yet
        await until(pilot, lambda: "▒▒▒" in drawn(pile))
        assert "9♠" not in drawn(pile) and DECIDING[0] not in drawn(pile)
        await until(pilot, lambda: "9♠ ties 9♦" in drawn(pile))
        assert frame(pile)[1].endswith("━ DOUBLE WAR! ━┛")
        assert board_before_the_war(app) == before
        await until(pilot, lambda: "Alice takes 10 cards after a double war" in drawn(pile))
        assert all(label in drawn(pile) for label in DECIDING)
        await pilot.pause()
        after = board_before_the_war(app)
        assert after["packets"][1] == "1 card" and after["log"] != before["log"] and after["bar"] != before["bar"]
        assert len(after["trend"]) == len(before["trend"]) + 1
        assert app.controller.game.battles == 1


async def test_a_key_shows_the_rest_of_the_war_at_once():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), war_step=5.0)
    async with app.run_test(size=SIZE) as pilot:
        pile = app.query_one(Pile)
        await pilot.press("space")
        await pilot.pause()
        assert "7♣ ties 7♥" in drawn(pile)
        await pilot.press("space")  # a flip key only finishes the war on the table...
        await pilot.pause()
        assert "Alice takes 10 cards" in drawn(pile) and app.controller.game.battles == 1
        assert app.query_one("#packet-p2", Packet).subtitle == "1 card"
        await pilot.press("space")  # ...the next one plays the next battle
        await pilot.pause()
        assert app.controller.game.battles == 2


async def test_any_other_key_also_shows_the_rest_and_does_its_own_job():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), war_step=5.0)
    async with app.run_test(size=SIZE) as pilot:
        pile = app.query_one(Pile)
        await pilot.press("space")
        await pilot.pause()
        assert "takes" not in drawn(pile)
        await pilot.press("w")
        await pilot.pause()
        assert app.board.pause_on_war and "Alice takes 10 cards" in drawn(pile)


async def test_stop_at_wars_stops_at_the_tie_before_the_deciding_cards_are_on_screen():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), speed=16.0, auto=True, pause_on_war=True, war_step=STEP)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        before = board_before_the_war(app)
        await until(pilot, lambda: not app.board.auto)
        await pilot.pause(2 * STEP)  # stopped: nothing more is laid by itself
        pile = app.query_one(Pile)
        screen = app.export_screenshot()
        assert "7♣ ties 7♥" in drawn(pile) and "▒" not in drawn(pile)
        assert "5♣" not in screen and "3♠" not in screen and "takes" not in screen
        assert board_before_the_war(app) == before
        assert any(message.startswith("War! space lays the war cards") for message in said)
        await pilot.press("space")  # lays the war, step by step
        await pilot.pause()
        assert "▒▒▒" in drawn(pile) and "5♣" not in drawn(pile)
        await until(pilot, lambda: "Alice takes 10 cards" in drawn(pile))
        assert not app.board.auto and app.controller.game.battles == 1


async def test_while_a_war_is_laid_the_status_line_names_the_battle_on_the_pile():
    """The pile's title and the status line name one battle: the war's, from its tie on (not "Battle 0")."""
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), speed=16.0, auto=True, pause_on_war=True, war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.board.auto)
        pile, status = app.query_one(Pile), app.query_one(StatusLine)
        assert frame(pile)[0].startswith("┏━ Battle 1 ━")
        assert "Battle 1 · Wars 1 ·" in drawn(status), drawn(status)  # the war on show is counted, its outcome not told
        await pilot.press("space")
        await until(pilot, lambda: "Alice takes 10 cards" in drawn(pile))
        await pilot.pause()
        assert "Battle 1 · Wars 2 ·" in drawn(status), drawn(status)


async def test_a_resumes_auto_play_from_a_war_it_stopped_at():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), speed=16.0, auto=True, pause_on_war=True, war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.board.auto)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.controller.game.battles == 2


async def test_auto_play_at_2_per_second_lays_a_war_in_steps_and_faster_shows_it_whole():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), speed=2.0, auto=True, war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        pile = app.query_one(Pile)
        await until(pilot, lambda: app.controller.game.battles == 1)
        assert "ties" in drawn(pile) and "takes" not in drawn(pile)
        await until(pilot, lambda: "Alice takes 10 cards" in drawn(pile))
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), speed=4.0, auto=True, war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        pile = app.query_one(Pile)
        await until(pilot, lambda: app.controller.game.battles >= 1)
        await pilot.pause()
        assert "Alice takes 10 cards" in drawn(pile) or app.controller.game.battles == 2


async def test_a_game_ended_by_a_war_shows_its_result_once_the_deciding_cards_turn():
    app = make_app(packets=LAST_BATTLE_WAR, war_step=STEP)
    async with app.run_test(size=SIZE) as pilot:
        pile = app.query_one(Pile)
        await pilot.press("space")
        await pilot.pause()
        assert app.controller.game.over and not isinstance(app.screen, GameOverScreen)
        assert app.board.tally.total() == 0  # the status line's tally would tell it
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert "Player 1 takes 6 cards after a war" in drawn(pile)
        assert app.board.tally.total() == 1
