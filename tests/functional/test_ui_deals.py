"""Deals chosen on purpose: hand-made packets on screen (--p1/--p2), and replays from the statistics screen."""

from __future__ import annotations

from dataclasses import replace

import pytest
from war_ui_support import drawn, until

from war_tui.cli import build_parser
from war_tui.commands.play import settings_from_args
from war_tui.core.rules import Result
from war_tui.ui.app import WarApp
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.status import StatusLine
from war_tui.ui.screens.game_over import GameOverScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)


def app_from_command_line(*argv: str) -> WarApp:
    settings = settings_from_args(build_parser().parse_args(["--no-config", *argv]))
    return WarApp(replace(settings, war_step=0.0, result_hold=0.0), environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)


async def test_hand_made_packets_from_the_command_line_are_played_on_screen():
    app = app_from_command_line("--p1", "7c 2C a♥", "--p2", "7H 10d 3S", "--names", "Ann", "Bob")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "hand-made deal" in drawn(app.query_one(StatusLine))
        assert app.controller.game.counts == (3, 3) and app.controller.game.seed is None
        await pilot.press("space")
        await pilot.pause()
        pile = drawn(app.query_one(Pile))
        assert "7♣" in pile and "7♥" in pile and "A♥" in pile and "3♠" in pile
        assert "Ann takes 6 cards after a war" in pile
        assert isinstance(app.screen, GameOverScreen) and app.controller.game.result is Result.P1


# ---------------------------------------------------------------- the mouse, as a bonus


async def test_clicking_a_packet_or_the_pile_flips():
    from war_ui_support import make_app

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#packet-p1")
        await pilot.pause()
        assert app.controller.game.battles == 1
        await pilot.click("#packet-p2")
        await pilot.click("#pile")
        await pilot.pause()
        assert app.controller.game.battles == 3
        await pilot.click("#log")  # anywhere else: nothing
        await pilot.pause()
        assert app.controller.game.battles == 3


async def test_the_wheel_scrolls_the_help():
    from textual import events
    from textual.containers import VerticalScroll
    from war_ui_support import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        dialog = app.screen.query_one("#help-dialog", VerticalScroll)
        assert dialog.max_scroll_y > 0 and dialog.scroll_y == 0
        for _ in range(3):
            dialog.post_message(events.MouseScrollDown(dialog, 1, 1, 0, 1, 0, False, False, False))
        await until(pilot, lambda: dialog.scroll_y > 0)
