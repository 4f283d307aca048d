"""The solo controller's answers to held keys and speed keys (issue 21), with the stand-ins of test_controllers."""

from __future__ import annotations

from dataclasses import replace

from support.controllers import SHOWN_WHOLE, Board, FakeApp
from support.deals import WAR_PACKETS

from war_tui.ui.controllers.solo import SoloController


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def solo_on(clock: Clock, **changes) -> tuple[SoloController, Board, FakeApp]:
    settings = replace(SHOWN_WHOLE, **changes)
    board, shell = Board(auto=settings.auto, speed=min(settings.speed, settings.top_speed)), FakeApp()
    controller = SoloController(board, shell, settings, clock=clock, new_seed=lambda: 1001)
    controller.start()
    return controller, board, shell


def test_a_result_holds_while_the_keys_keep_coming_and_lets_go_once_they_pause():
    clock = Clock()
    controller, _board, _shell = solo_on(clock, packets=WAR_PACKETS, result_hold=0.5)
    controller.flip()
    controller.flip()
    first = controller.game
    assert first.over
    for _ in range(40):  # a held space bar for 1.2 s: each repeat comes before the hold has run out
        clock.now += 0.03
        controller.flip()
        controller.restart()
        controller.auto()
        assert controller.game is first
    clock.now += 0.5  # the keys paused for the whole hold
    controller.flip()
    assert controller.game is not first and controller.game_number == 2
