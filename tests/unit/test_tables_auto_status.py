"""Both players' status lines say the table's auto-play, whatever keys they press (issue 40).

A property test over sequences of keys (a, space, r, w, n, + and -) from two players at one table, time passing and
games played to their end: after each, both screens' status lines (their real wording, ``status_pieces``) name
the table's auto-play as its seats have it: on at the slower speed, "from the next deal" at game over, or off. The
line under the seats shows a request for it while only one player asks, and no game stands still with both
players wanting auto-play and nothing due.
"""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.controllers import SHOWN_WHOLE, Board, FakeApp, Host

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.presentation.glyphs import UNICODE
from war_tui.presentation.speed import speed_label
from war_tui.presentation.status import status_pieces
from war_tui.tables import FakeClock, RemoteGame, Table
from war_tui.ui.controllers.table import TableController

KEYS = ("a", "a", "space", "r", "w", "n", "+", "-")
"""The keys pressed, ``a`` twice as often: auto-play is what is looked at."""
MOVES = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(KEYS), st.sampled_from([0, 1])),
        st.tuples(st.just("wait"), st.floats(0, 40)),
        st.tuples(st.sampled_from(["tick", "to the end"]), st.just(0)),
    ),
    max_size=60,
)
HELD_SEED = 2
"""A deal whose first battle is a war: with both stopping at wars, auto-play holds at its tie."""


def press(controller: TableController, key: str) -> None:
    {
        "a": controller.auto, "space": controller.flip, "r": controller.restart, "w": controller.pause_on_war,
        "n": controller.decline, "+": controller.faster, "-": controller.slower,
    }[key]()


def auto_words(board: Board) -> str:
    """The auto-play part of a wide status line, as the board would draw it."""
    pieces = status_pieces(
        number=1, seed=1, battles=0, wars=0, auto=board.auto, speed=board.speed, pause_on_war=board.pause_on_war,
        over=board.result is not None, tally=(0, 0, 0, 0), names=board.names, glyphs=UNICODE, width=500,
    )
    return next(text for text, _ in pieces if text.startswith("auto"))


def seated(table: Table, clock: FakeClock) -> list[TableController]:
    controllers = []
    for name in ("ann", "bob"):
        game = RemoteGame(clock=clock)
        game.send = table.join(name, game.handle).request
        controllers.append(TableController(Board(), FakeApp(), SHOWN_WHOLE, Host(game), clock=clock))

    async def start() -> None:
        for controller in controllers:
            controller.start()

    asyncio.run(start())
    return controllers


def play_to_the_end(table: Table, clock: FakeClock, controllers: list[TableController]) -> None:
    """The players flip (and lay a war held at its tie) while auto-play is off; auto-play plays on when it is on."""
    for _ in range(200):
        state = table.state()
        if state.over:
            return
        if state.held:
            controllers[0].flip()
        elif state.auto_speed is not None:
            deadline = table.next_deadline()
            assert deadline is not None, "auto-play is on and nothing is due"
            clock.now = max(clock.now, deadline)
            table.poll()
        else:
            for member in table.members:
                table.flip(member)
    raise AssertionError("the game never ended")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), moves=MOVES)
@example(seed=0, moves=[("a", 1), ("to the end", 0), ("a", 0)])  # the status line said "auto off" at game over
@example(seed=HELD_SEED, moves=[("w", 0), ("w", 1), ("a", 0), ("a", 1), ("tick", 0), ("tick", 0)])  # held at a war
def test_the_status_lines_say_the_tables_auto_play_whatever_the_players_press(seed, moves):
    clock = FakeClock()
    table = Table("oak", clock=clock, deal=lambda: Game.deal(seed, Rules(max_battles=12)))
    controllers = seated(table, clock)
    for move, arg in moves:
        if move == "wait":
            clock.advance(arg)
            table.poll()
        elif move == "tick":
            deadline = table.next_deadline()
            clock.now = max(clock.now, deadline if deadline is not None else clock.now)
            table.poll()
        elif move == "to the end":
            play_to_the_end(table, clock, controllers)
        else:
            press(controllers[arg], move)
        state = table.state()
        wanting = [seat.auto for seat in state.seats]
        speed = speed_label(min(seat.speed for seat in state.seats))
        for controller in controllers:
            words = auto_words(controller.board)
            if all(wanting):
                assert words == (f"auto {speed} from the next deal" if state.over else f"auto {speed}")
            else:
                assert words.startswith("auto off")
            asked = any("for auto-play" in line for line in controller.board.requests)
            assert asked == (sum(wanting) == 1), controller.board.requests
        if all(wanting) and not state.over:
            assert state.held or table.next_deadline() is not None, "both want auto-play and nothing is due"
