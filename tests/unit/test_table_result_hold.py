"""At a table the result holds against a held key as it does solo (issue 40): the keys that deal again (space,
enter, r; a line-mode player's enter and r) ask the table to deal only once the keys have paused for half a second
after the game ended, however long they are held. Both players' screens, or a line-mode player's, on one table."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from support.controllers import SHOWN_WHOLE, Board, FakeApp, Host
from support.deals import FIVE_PLAIN
from support.tables import Recorder, dealing, make_table

from war_tui.line.keys import Command
from war_tui.line.table import TableLine
from war_tui.tables import RemoteGame
from war_tui.ui.controllers.table import TableController

HELD = replace(SHOWN_WHOLE, result_hold=0.5)
REPEAT = 0.03
"""Seconds between a held key's repeats."""


def two_screens(table, clock) -> list[TableController]:
    controllers = []
    for name in ("ann", "bob"):
        game = RemoteGame(clock=clock)
        game.send = table.join(name, game.handle).request
        controllers.append(TableController(Board(), FakeApp(), HELD, Host(game), clock=clock))

    async def start() -> None:
        for controller in controllers:
            controller.start()

    asyncio.run(start())
    return controllers


def test_two_players_holding_space_through_the_last_battle_keep_the_result_until_they_let_go():
    table, clock = make_table(dealing(*FIVE_PLAIN))
    ann, bob = two_screens(table, clock)
    repeats = 0
    while repeats < 100:  # both hold space: through the game's five battles, then three seconds more
        clock.advance(REPEAT)
        ann.flip()
        bob.flip()
        repeats += table.game.over
    assert table.game_number == 1 and ann.board.result is not None and bob.board.result is not None
    assert not any(seat.restart for seat in table.state().seats), "a held space asked nobody to deal again"
    clock.advance(0.5)  # both let go for the whole hold
    ann.flip()
    assert table.state().seats[0].restart and table.game_number == 1
    bob.flip()
    assert table.game_number == 2


def test_a_held_r_keeps_the_result_too_and_lets_go_once_the_keys_pause():
    table, clock = make_table(dealing(*FIVE_PLAIN))
    ann, bob = two_screens(table, clock)
    bob.restart()  # bob asks to stop the game and deal again; ann's r, held, agrees once
    ann.restart()
    assert table.game_number == 2
    while not table.game.over:
        for member in table.members:
            table.flip(member)
    for _ in range(40):
        clock.advance(REPEAT)
        ann.restart()
        bob.restart()
    assert table.game_number == 2 and not any(seat.restart for seat in table.state().seats)
    clock.advance(0.5)
    ann.restart()
    bob.restart()
    assert table.game_number == 3


def test_a_line_mode_players_held_enter_keeps_the_result_until_it_is_let_go():
    table, clock = make_table(dealing(*FIVE_PLAIN))
    game = RemoteGame(clock=clock)
    line = TableLine(game, clock=clock)
    game.send = table.join("ann", game.handle).request
    bob = table.join("bob", Recorder())
    while not table.game.over:
        clock.advance(REPEAT)
        line.command(Command.FLIP)  # enter held: ann flips each battle
        table.flip(bob)
    bob.restart()  # bob asked to deal again at once
    for _ in range(100):
        clock.advance(REPEAT)
        line.command(Command.FLIP)
        line.command(Command.RESTART)
    assert table.game_number == 1 and not table.state().seats[0].restart
    clock.advance(0.5)
    line.command(Command.FLIP)
    assert table.game_number == 2
