"""A screen ends on its table's last state, whatever the network did to the updates on the way (issue 29).

A property test of a screen's ``RemoteGame`` and ``TableController`` (with the stand-in board and shell
of test_controllers, no Textual): the table plays on (flips, auto-play, war stops, deals, emotes, time)
while its updates to the screen are delivered late, out of order, twice, or never. Once the last update
reaches the screen and the snapshots it asked for have come, it shows what the table has.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.controllers import SHOWN_WHOLE, Board, FakeApp, Host

from war_tui.core.engine import Game
from war_tui.tables import (
    Auto,
    FakeClock,
    Flip,
    RemoteGame,
    Restart,
    Resync,
    Table,
    TableOptions,
    WarStop,
    decode_update,
    encode,
)
from war_tui.tables.remote_game import RESYNC_RETRY
from war_tui.ui.controllers.table import TableController

TABLE_MOVES = st.one_of(
    st.tuples(st.sampled_from(["flip", "auto", "manual", "war_stop", "restart", "emote"]), st.sampled_from([0, 1])),
    st.tuples(st.just("wait"), st.floats(0, 5)),
)
NETWORK = st.tuples(st.sampled_from(["deliver", "late", "twice", "lose", "answer"]), st.integers(0, 50))
OPERATIONS = st.lists(st.one_of(TABLE_MOVES, NETWORK), max_size=80)


class Network:
    """What the table told the screen and the screen has not received yet, in the order it was told."""

    def __init__(self, screen: RemoteGame) -> None:
        self.screen = screen
        self.in_flight: list[bytes] = []
        self.last: bytes | None = None

    def __call__(self, update) -> None:
        line = encode(update)
        self.last = line
        self.in_flight.append(line)

    def deliver(self, line: bytes) -> None:
        self.screen.handle(decode_update(line))

    def take(self, index: int) -> bytes | None:
        if not self.in_flight:
            return None
        return self.in_flight.pop(index % len(self.in_flight))


def started(controller: TableController) -> None:
    async def start() -> None:
        controller.start()

    asyncio.run(start())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), operations=OPERATIONS)
def test_a_screen_ends_on_its_tables_last_state_whatever_happened_to_the_updates(seed, operations):
    clock = FakeClock()
    table = Table("oak", clock=clock, options=TableOptions(max_speed=16.0), deal=lambda: Game.deal(seed))
    asked: list = []
    screen = RemoteGame(asked.append, clock=clock)
    network = Network(screen)
    players = [table.join("ann", lambda update: None), table.join("bob", lambda update: None)]
    eve = table.join("eve", network, watch=True)
    for line in list(network.in_flight):  # the snapshot arrives first, as a link sends it
        network.deliver(line)
    network.in_flight.clear()
    board, shell = Board(), FakeApp()
    controller = TableController(board, shell, SHOWN_WHOLE, Host(screen), clock=clock)
    started(controller)
    answered = 0

    def answer() -> None:
        nonlocal answered
        for _ in asked[answered:]:
            table.resync(eve)
        answered = len(asked)

    for move, arg in operations:
        if move == "wait":
            clock.advance(arg)
            table.poll()
        elif move in ("deliver", "late", "twice", "lose"):
            line = network.take(0 if move == "deliver" else arg)
            if line is not None and move != "lose":
                network.deliver(line)
                if move == "twice":
                    network.deliver(line)
        elif move == "answer":
            answer()
        else:
            player = players[arg]
            request = {
                "flip": Flip(), "auto": Auto(True, 16.0), "manual": Auto(False, 16.0), "war_stop": WarStop(True),
                "restart": Restart(True),
            }.get(move)
            if request is not None:
                player.request(request)
            else:
                table.emote(player, 0)
    # In flight arrives, the last update again (it may be lost), the snapshots asked for.
    for _ in range(3):
        for line in network.in_flight:
            network.deliver(line)
        network.in_flight.clear()
        if network.last is not None:
            network.deliver(network.last)
        clock.advance(RESYNC_RETRY)  # a snapshot asked for and lost on the way: asked again
        answer()
        for line in network.in_flight:
            network.deliver(line)
        network.in_flight.clear()
    assert all(request == Resync() for request in asked)
    game = table.game
    assert screen.seq == table.seq
    assert (screen.game_number, screen.battles, screen.counts, screen.result) == (
        table.game_number, game.battles, game.counts, game.result
    )
    counting = {"house_in": None}  # the house's countdown is told as it stands when told: a later figure is no news
    assert replace(screen.state, **counting) == replace(table.state(), **counting)
    assert board.table_state == screen.state
    assert list(screen.log) == list(table.snapshot(eve).log)
    assert board.deal is not None and board.deal.number == table.game_number
    on_board = board.battle.battle if board.battle is not None else 0
    assert on_board == game.battles or (game.over and game.reason is not None and on_board <= game.battles)
