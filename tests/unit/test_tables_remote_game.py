"""A table's game seen from a connection behaves like a local Game for the board; two players at one keyboard."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.deals import PLAIN
from support.tables import Recorder, dealing, make_table

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver, GameStarted
from war_tui.core.rules import Result, Side
from war_tui.tables import (
    Auto,
    EventBatch,
    FakeClock,
    Flip,
    Leave,
    Notice,
    NoticeCode,
    RemoteGame,
    Restart,
    Snapshot,
    Table,
    TableState,
    encode,
    two_player_table,
)
from war_tui.tables.protocol import update_reader
from war_tui.ui.adapter import EngineAdapter


def wired(deal):
    """A table, and ann's screen fed through the protocol as a game process would be."""
    table, clock = make_table(deal)
    screen = RemoteGame()
    reader = update_reader()
    table.join("ann", lambda update: [screen.handle(m) for m in reader.feed(encode(update))])
    table.join("bob", Recorder())
    return table, clock, screen


@pytest.mark.parametrize("seed", [3, 8, 2024])
def test_the_screen_hears_the_same_events_and_sees_the_same_state_as_a_local_game(seed):
    table, _clock, screen = wired(lambda: Game.deal(seed))
    local = Game.deal(seed)
    local_seen: list = []
    local.subscribe(lambda e: local_seen.append((e, local.battles, local.wars, local.counts, local.longest_war))
                    if isinstance(e, (GameStarted, BattleWon, GameOver)) else None)  # what a table sends
    local.start()
    remote_seen: list = []
    screen.subscribe(lambda e: remote_seen.append((e, screen.battles, screen.wars, screen.counts, screen.longest_war)))
    ann, bob = table.members
    while not table.game.over:
        ann.flip()
        bob.flip()
        local.step()
    assert remote_seen == local_seen[1:]  # the deal was told before the screen subscribed
    for name in ("battles", "wars", "longest_war", "counts", "over", "result", "reason", "leader", "seed",
                 "rules", "total_cards"):
        assert getattr(screen, name) == getattr(local, name), name


def test_the_engine_adapter_follows_a_table_game_as_it_follows_a_game():
    table, _clock, screen = wired(dealing("5C 2C KC 9C", "5D 3D QD 4D"))
    class Board:
        battle = None

    board = Board()
    adapter = EngineAdapter(board)
    screen.subscribe(lambda event: adapter.on_event(event, screen))
    ann, bob = table.members
    ann.flip()
    bob.flip()
    view = board.battle
    assert view.battle == 1 and view.wars == 1 and view.winner is Side.P1 and view.counts == (7, 1)


def test_a_snapshot_puts_a_late_screen_where_the_table_is():
    table, _clock = make_table(lambda: Game.deal(5))
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    for _ in range(12):
        ann.flip()
        bob.flip()
    screen = RemoteGame()
    heard: list = []
    screen.watch(heard.append)
    table.join("eve", screen.handle)
    assert isinstance(heard[0], Snapshot)
    assert screen.watching and screen.you.name == "eve"
    assert (screen.battles, screen.counts, screen.wars) == (table.game.battles, table.game.counts, table.game.wars)
    assert isinstance(screen.on_show, BattleWon) and screen.on_show.battle == 12
    assert list(screen.log)[-1] == screen.on_show and isinstance(list(screen.log)[0], GameStarted)


def test_seat_changes_and_notices_reach_table_listeners_and_logged_notices_reach_the_log():
    table, _clock, screen = wired(lambda: Game.deal(5))
    heard: list = []
    screen.watch(heard.append)
    _ann, bob = table.members
    bob.flip()
    assert isinstance(heard[-1], TableState) and heard[-1].seats[1].flipped
    assert screen.state.waiting_for == (Side.P1,)
    bob.leave()
    assert any(isinstance(h, Notice) and h.code is NoticeCode.LEFT for h in heard)
    assert isinstance(list(screen.log)[-1], Notice)


def test_a_stale_batch_from_a_replaced_game_is_ignored():
    screen = RemoteGame()
    screen.handle(EventBatch(2, (GameStarted(1, Game.deal(1).rules, tuple(range(26)), tuple(range(26, 52))),)))
    screen.handle(EventBatch(1, (BattleWon(9, Side.P1, (0, 1), (0,), (1,), 0, 40, 12),)))
    assert screen.counts == (26, 26) and screen.battles == 0


def test_keys_become_requests():
    sent: list = []
    screen = RemoteGame(sent.append)
    screen.flip()
    screen.set_auto(True, 8.0)
    screen.restart()
    screen.leave()
    assert sent == [Flip(), Auto(True, 8.0), Restart(), Leave()]


def test_a_new_deal_resets_the_screen():
    table, _clock, screen = wired(dealing(*PLAIN))
    ann, bob = table.members
    while not table.game.over:
        ann.flip()
        bob.flip()
    assert screen.over and screen.result is Result.P1
    ann.restart()
    bob.restart()
    assert not screen.over and screen.battles == 0 and screen.counts == (2, 2) and screen.game_number == 2


# ------------------------------------------------------------------ two players at one keyboard


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_two_players_at_one_keyboard_play_when_both_flipped_in_either_order(order):
    records: list = []
    local = two_player_table(("Player 1", "Player 2"), clock=FakeClock(), deal=dealing(*PLAIN),
                             on_record=records.append)
    first, second = (local.players[i] for i in order)
    first.flip()
    assert local.game.battles == 0
    assert local.game.state.seats[order[0]].flipped
    assert local.game.state.waiting_for == ((Side.P1, Side.P2)[order[1]],)
    second.flip()
    assert local.game.battles == 1 and local.game.counts == (3, 1)
    local.game.flip()  # the screen's own requests go to seat 1
    local.players[1].flip()
    assert local.game.over and len(records) == 1
    assert (records[0].p1_name, records[0].p2_name) == ("Player 1", "Player 2")


# ------------------------------------------------------------------ an asyncio host


async def test_the_asyncio_driver_polls_at_deadlines_and_when_woken():
    import asyncio

    from war_tui.tables.driver import run_timers

    class Timed:
        def __init__(self) -> None:
            self.polls = 0
            self.deadlines = [0.0, 0.0, None]

        def next_deadline(self):
            return self.deadlines.pop(0) if self.deadlines else None

        def poll(self) -> None:
            self.polls += 1

    timed = Timed()
    wake = asyncio.Event()
    task = asyncio.create_task(run_timers(timed, wake, clock=lambda: 1.0))
    for _ in range(20):
        await asyncio.sleep(0)
    assert timed.polls == 3  # two deadlines already due, then nothing until woken
    wake.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert timed.polls == 4
    task.cancel()


async def test_the_asyncio_driver_plays_a_table_on_auto():
    import asyncio

    from war_tui.tables.driver import run_timers

    table = Table("oak", deal=lambda: Game.deal(4))  # on the real monotonic clock
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    wake = asyncio.Event()
    task = asyncio.create_task(run_timers(table, wake))
    ann.set_auto(True, 128)
    bob.set_auto(True, 128)
    wake.set()
    for _ in range(200):
        if table.game.battles >= 10:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert table.game.battles >= 10


def test_a_screen_follows_a_table_opened_again_under_the_same_name():
    """ann leaves oak for the lobby after a few battles; oak closes, is opened again, and she sits there: her
    screen shows the new table, though it numbers its changes from the start again."""
    old, _clock = make_table(dealing("AC KC QC JC", "2D 3D 4D 5D"))
    screen = RemoteGame()
    ann = old.join("ann", screen.handle)
    bob = old.join("bob", Recorder())
    for _ in range(3):
        ann.flip()
        bob.flip()
    assert screen.battles == 3
    ann.request(Leave())  # whatever this screen made of it meanwhile
    new, _clock = make_table(dealing("AC KC QC JC", "2D 3D 4D 5D"))
    new.join("ann", screen.handle)
    new.join("cy", Recorder())
    assert screen.seq < 10 and old.seq > new.seq
    assert (screen.seq, screen.battles, screen.state) == (new.seq, 0, new.state())


def test_updates_of_a_table_left_are_ignored_without_asking_for_anything():
    table, _clock = make_table(dealing("AC KC QC JC", "2D 3D 4D 5D"))
    asked: list = []
    screen = RemoteGame(asked.append)
    ann = table.join("ann", screen.handle)
    bob = table.join("bob", Recorder())
    screen.leave()
    ann.flip()
    bob.flip()  # what the table said before it heard ann leave
    assert asked == [Leave()] and screen.battles == 0


def test_a_backlog_read_at_once_is_applied_as_its_newest_state():
    """What one read brings: nothing a later snapshot covers is applied (a note for this screen alone still is),
    only the last of the table's states is told, and the screen ends where the table is."""
    table, _clock = make_table(dealing(*PLAIN))
    backlog: list = []
    ann = table.join("ann", backlog.append)
    bob = table.join("bob", Recorder())
    screen = RemoteGame()
    told: list = []
    screen.watch(told.append)
    with screen.backlog(backlog) as plan:  # the joining snapshot and what followed
        for update, tell in plan:
            screen.handle(update, tell)
    backlog.clear()
    ann.flip()
    bob.flip()
    ann.flip()
    table.tell(ann, Notice(NoticeCode.INFO, "for ann alone"))
    table.resync(ann)  # a snapshot: what came before it is covered
    bob.restart(True)
    bob.restart(False)  # two states after it: only the last is news to the screen
    told.clear()
    with screen.backlog(backlog) as plan:
        assert [(type(u), tell) for u, tell in plan] == [
            (Notice, True), (Snapshot, True), (TableState, False), (TableState, True),
        ]
        for update, tell in plan:
            screen.handle(update, tell)
    assert [type(u) for u in told] == [Notice, Snapshot, TableState]
    assert (screen.seq, screen.state, screen.battles) == (table.seq, table.state(), 1)
    assert not screen.behind


def test_a_screen_knows_it_is_behind_from_a_gap_until_its_snapshot_comes_and_while_it_left_updates_unread():
    table, clock = make_table(dealing(*PLAIN))
    screen = RemoteGame(lambda request: None, clock=clock)
    ann = table.join("ann", screen.handle)
    table.join("bob", Recorder())
    assert not screen.behind
    screen.handle(replace(table.state(), seq=screen.seq + 2))  # one update was lost on its way
    assert screen.behind
    screen.handle(table.snapshot(ann))
    assert not screen.behind
    with screen.backlog([], unread=True):
        assert screen.behind  # a read stopped at its bound: more waits on the socket
    with screen.backlog([]):
        assert not screen.behind
