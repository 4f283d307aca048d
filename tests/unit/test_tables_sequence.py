"""One truth at a table (issue 29): the table numbers its changes, screens follow the newest, keys act on what
their player saw."""

from __future__ import annotations

from support.tables import Recorder, dealing, make_table

from war_tui.core.engine import Game
from war_tui.tables import (
    Decline,
    Emote,
    Emoted,
    EventBatch,
    FakeClock,
    Flip,
    Link,
    Notice,
    NoticeCode,
    ProtocolError,
    Registry,
    RemoteGame,
    Restart,
    Resync,
    Snapshot,
    TableState,
    decode_request,
    decode_update,
    encode,
)
from war_tui.tables.protocol import VERSION, update_reader
from war_tui.tables.remote_game import RESYNC_RETRY

PLAIN = ("AC KC QC JC", "2D 3D 4D 5D")  # player 1 wins four battles and the game
SEQUENCED = (EventBatch, TableState, Notice, Emoted)


def numbers(sink: Recorder) -> list[int]:
    """The sequence numbers of the changes a member was told (a notice for it alone has none)."""
    return [u.seq for u in sink.updates if isinstance(u, SEQUENCED) and u.seq]


def play_out(ann, bob) -> None:
    while not ann.table.game.over:
        ann.flip()
        bob.flip()


def test_every_change_told_to_everyone_carries_the_next_number_after_the_snapshot():
    table, clock = make_table(dealing(*PLAIN))
    one, two = Recorder(), Recorder()
    ann = table.join("ann", one)
    bob = table.join("bob", two)
    table.emote(bob, 0)
    ann.flip()
    bob.flip()
    ann.flip()  # refused to nobody else: a notice for ann alone would have no number
    seen = numbers(two)
    start = two.snapshots()[0].seq
    assert seen == list(range(start + 1, start + 1 + len(seen)))
    assert seen[-1] == table.seq and numbers(one)[-len(seen):] == seen


def test_a_screen_ignores_duplicates_and_asks_for_a_snapshot_after_a_gap_then_shows_the_table():
    table, clock = make_table(dealing(*PLAIN))
    asked: list = []
    screen = RemoteGame(asked.append, clock=clock)
    lost: list = []
    deliver = [True]

    def sink(update) -> None:
        for message in update_reader().feed(encode(update)):
            if deliver[0]:
                screen.handle(message)
                screen.handle(message)  # every update twice: the second is not news
            else:
                lost.append(message)

    ann = table.join("ann", sink)
    bob = table.join("bob", Recorder())
    ann.flip()
    bob.flip()
    assert screen.battles == 1 and screen.seq == table.seq and asked == []
    deliver[0] = False
    ann.flip()
    bob.flip()  # battle 2 never reaches the screen
    deliver[0] = True
    ann.flip()
    assert lost and screen.battles == 1  # nothing past the gap is applied...
    assert asked == [Resync()]  # ...it asks for everything at once
    screen.handle(decode_update(encode(table.snapshot(ann))))
    assert (screen.battles, screen.counts, screen.seq, screen.state) == (
        table.game.battles, table.game.counts, table.seq, table.state()
    )


def test_a_screen_keeps_one_ask_for_a_snapshot_outstanding_until_one_comes():
    table, clock = make_table(dealing(*PLAIN))
    asked: list = []
    screen = RemoteGame(asked.append, clock=clock)
    screen.handle(table.snapshot(table.join("eve", Recorder(), watch=True)))
    for seq in (screen.seq + 2, screen.seq + 3, screen.seq + 4):
        screen.handle(Notice(NoticeCode.INFO, "later", seq))
        clock.advance(1.0)
    assert asked == [Resync()]  # the snapshot asked for is on its way: not asked again
    clock.advance(RESYNC_RETRY)
    screen.handle(Notice(NoticeCode.INFO, "later still", screen.seq + 9))
    assert asked == [Resync(), Resync()]  # none came: asked again
    screen.handle(table.snapshot(table.members[0]))
    screen.handle(Notice(NoticeCode.INFO, "a gap again", screen.seq + 2))
    assert asked == [Resync(), Resync(), Resync()]  # one came: a new gap asks at once


class Wire:
    """A screen's game process and the server's link between them, with a host that polls the link when it says:
    what a socket carries, with ``lose`` to throw away the next line the link sends."""

    def __init__(self, registry: Registry, clock: FakeClock, name: str, table: str) -> None:
        self.clock = clock
        self.link = Link(registry, name, clock=clock)
        self.screen = RemoteGame(lambda request: self.link.receive(encode(request)), clock=clock)
        self.reader = update_reader()
        self.lose = 0
        self.link.join(table)

    def carry(self) -> None:
        """Until nothing moves: the host polls the link when due, the game reads what the link sends."""
        while True:
            due = self.link.next_deadline()
            if due is not None and self.clock() >= due:
                self.link.poll()
            data = self.link.take()
            if not data:
                return
            for line in data.splitlines(keepends=True):
                if self.lose:
                    self.lose -= 1
                    continue
                for message in self.reader.feed(line):
                    assert not isinstance(message, ProtocolError), message  # the link writes whole lines
                    self.screen.handle(message)

    def wait(self, seconds: float) -> None:
        """The table waits (nobody flips): time passes, the host does what the link asks."""
        end = self.clock() + seconds
        while (due := self.link.next_deadline()) is not None and due <= end:
            self.clock.advance(max(0.0, due - self.clock()))
            self.carry()
        self.clock.advance(max(0.0, end - self.clock()))
        self.carry()


def test_a_gap_whose_snapshot_is_asked_too_soon_still_ends_on_the_tables_last_state():
    """The frozen screen: a gap soon after a snapshot was served asks for one too soon; once the table then
    waits, with no further update, the screen must still catch up."""
    clock = FakeClock()
    registry = Registry(clock=clock, deal=lambda name: Game.deal(21))
    wire = Wire(registry, clock, "ann", "oak")
    bob = Link(registry, "bob", clock=clock)
    bob.join("oak")
    wire.carry()
    wire.screen.resync()  # ctrl+l
    wire.carry()
    clock.advance(0.3)
    wire.lose = 1  # bob's flip: lost on its way (whatever loses it)
    bob.receive(encode(Flip()))
    wire.carry()
    wire.screen.flip()  # ann's flip, and the battle: past the gap, asks for a snapshot too soon after the last
    wire.carry()
    assert wire.screen.battles == 0 and wire.screen.seq < registry.table("oak").seq
    wire.wait(5.0)  # nobody flips
    table = registry.table("oak")
    assert (wire.screen.seq, wire.screen.battles, wire.screen.state) == (table.seq, 1, table.state())


def test_a_request_made_for_a_game_that_is_gone_is_refused_in_one_line():
    table, _clock = make_table(dealing(*PLAIN))
    one = Recorder()
    ann, bob = table.join("ann", one), table.join("bob", Recorder())
    play_out(ann, bob)
    ann.restart()
    bob.restart()
    assert table.game_number == 2
    one.clear()
    assert not ann.request(Restart(True, game=1, seq=table.seq))
    assert one.texts() == ["that was for game 1; game 2 is on"]
    assert not table.state().seats[0].restart and table.game_number == 2


def test_the_house_never_answers_queued_keys_of_a_game_that_is_gone():
    """Item 3: a stalled screen's queued spaces reached the table as "stop this game and deal again" in game 2,
    the other player had left, and the house agreed to each: 241 stopped games with 0 battles in 3 s."""
    records: list = []
    table, _clock = make_table(dealing(*PLAIN), records)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    play_out(ann, bob)
    shown = table.seq
    bob.leave()
    for _ in range(20):  # space at game 1's result, twenty times, all read by the table at once
        ann.request(Restart(True, game=1, seq=shown))
    assert table.game_number == 2 and not table.game.over
    assert [r.battles for r in records] == [4] and table.tally == (1, 0, 0, 0)


def test_a_flip_made_before_the_last_battle_is_refused_and_its_screen_gets_the_table_afresh_once():
    table, _clock = make_table(dealing(*PLAIN))
    one = Recorder()
    ann, bob = table.join("ann", one), table.join("bob", Recorder())
    shown = table.seq
    ann.request(Flip(game=1, seq=shown))
    bob.flip()
    assert table.game.battles == 1
    one.clear()
    for _ in range(5):  # spaces her screen sent before it showed battle 1, all read by the table at once
        ann.request(Flip(game=1, seq=shown))
    assert not table.state().seats[0].flipped
    fresh = one.snapshots()
    assert len(fresh) == 1 and fresh[0].battles == 1 and fresh[0].seq == table.seq  # one, whatever the count
    assert one.texts() == []  # a flip that came too late needs no words: the screen shows the battle it missed
    ann.request(Flip(game=1, seq=fresh[0].seq))  # the next space, made on the fresh screen, counts
    assert table.state().seats[0].flipped


def test_a_stale_flip_under_auto_play_brings_no_snapshot():
    """No flip acts while auto-play runs: a snapshot a battle would only load a screen that is behind."""
    table, clock = make_table(dealing(*PLAIN))
    one = Recorder()
    ann, bob = table.join("ann", one), table.join("bob", Recorder())
    shown = table.seq
    ann.set_auto(True, 4.0)
    bob.set_auto(True, 4.0)
    clock.advance(1.0)
    table.poll()
    assert table.game.battles >= 1
    one.clear()
    ann.request(Flip(game=1, seq=shown))
    assert one.snapshots() == []


def test_a_screen_behind_its_table_is_brought_up_to_date_by_its_stale_key_and_its_next_key_counts():
    """The blind flips of issue 40: a screen that has not shown the last battle sends flips the table drops; its
    table waited for a flip that never counted. The stale flip brings its screen the table, and the next counts."""
    clock = FakeClock()
    registry = Registry(clock=clock, deal=lambda name: Game.deal(21))
    wire = Wire(registry, clock, "ann", "oak")
    bob = Link(registry, "bob", clock=clock)
    bob.join("oak")
    wire.carry()
    wire.screen.flip()
    wire.carry()
    bob.receive(encode(Flip()))  # battle 1: ann's screen has not read it yet
    for _ in range(3):
        bob.receive(encode(Emote(0)))  # and more she has not read
    wire.screen.flip()  # her next space, made on a screen still before battle 1
    table = registry.table("oak")
    assert not table.state().seats[0].flipped
    waiting = update_reader().feed(wire.link.take())
    assert [type(m) for m in waiting] == [Snapshot]  # what was queued gave way: the table as it is, at once
    wire.screen.handle(waiting[0])
    assert (wire.screen.seq, wire.screen.battles) == (table.seq, 1)
    wire.screen.flip()
    assert table.state().seats[0].flipped
    bob.receive(encode(Flip()))
    assert table.game.battles == 2


def test_a_seat_given_up_keeps_no_pending_flip():
    """Item 7: wendy flips and leaves; whoever sits next gets no battle they never flipped for."""
    table, _clock = make_table(dealing(*PLAIN))
    ann = table.join("ann", Recorder())
    wendy = table.join("wendy", Recorder())
    wendy.flip()
    wendy.leave()
    table.join("cy", Recorder())
    ann.flip()
    assert table.game.battles == 0
    assert [s.flipped for s in table.state().seats] == [True, False]


def test_a_link_asked_for_a_snapshot_sends_one_at_once_and_at_most_one_a_second():
    clock = FakeClock()
    registry = Registry(clock=clock, deal=lambda name: Game.deal(21))
    link = Link(registry, "ann", clock=clock)
    link.join("oak")
    link.take()
    resync = encode(Resync())
    link.receive(resync + resync)
    out = update_reader().feed(link.take())
    assert [type(m) for m in out] == [Snapshot]  # one: encoded after both asks, it answers both
    clock.advance(0.5)
    link.receive(resync + resync)
    link.poll()
    assert link.take() == b"" and link.next_deadline() == 1001.0  # the asks that came too soon: one, deferred
    clock.advance(0.5)
    link.poll()
    assert [type(m) for m in update_reader().feed(link.take())] == [Snapshot]
    assert link.next_deadline() is None and link.take() == b""


def test_sequence_numbers_and_stamps_travel_in_the_protocols_lines():
    flip = decode_request(encode(Flip(game=3, seq=41)))
    assert (flip.game, flip.seq) == (3, 41)
    batch = decode_update(encode(EventBatch(2, (), 10, (0, 0, 0, 0), seq=7, held=True)))
    assert isinstance(batch, EventBatch) and (batch.seq, batch.held) == (7, True)
    notice = decode_update(encode(Notice(NoticeCode.INFO, "hi", 9)))
    assert isinstance(notice, Notice) and notice.seq == 9
    for bad in (b'{"v":%d,"kind":"flip"}' % VERSION, b'{"v":%d,"kind":"flip","game":-1,"seq":0}' % VERSION):
        try:
            decode_request(bad)
        except ProtocolError:
            continue
        raise AssertionError("an unstamped or badly stamped flip was taken")


def test_decline_clears_what_the_other_player_asks_and_everyone_hears_who_declined():
    table, _clock = make_table(dealing(*PLAIN))
    one, two = Recorder(), Recorder()
    ann, bob = table.join("ann", one), table.join("bob", two)
    assert not ann.request(Decline(game=1, seq=table.seq))
    assert one.texts()[-1] == "no request waits for your answer"
    bob.restart()
    assert ann.request(Decline(game=1, seq=table.seq))
    told = "ann declined bob's request to stop this game and deal again"
    assert told in two.texts() and told in one.texts()
    assert not table.state().seats[1].restart and table.game_number == 1
    assert decode_request(encode(Decline(game=1, seq=5))) == Decline()


def test_every_request_has_one_codec_and_travels_whole():
    """One codec per request: each type has its tag and fields, read back as written, stamps included."""
    from typing import get_args

    from war_tui.tables import Auto, Emote, Join, Leave, Leaving, PlayHouse, Request, Sit, WarStop, WatchLobby
    from war_tui.tables.protocol import _REQUEST_CODEC

    assert set(get_args(Request)) == set(_REQUEST_CODEC)
    samples = [
        Flip(game=2, seq=3), Auto(True, float("inf"), 2, 3), Auto(False, 0.5), Restart(False, 4, 5), WarStop(True, 1, 1),
        Emote(5, 1, 9), Decline(7, 8), Leaving(True, 1, 2), Resync(), PlayHouse(), Sit(), Leave(), Join("oak", True),
        WatchLobby(),
    ]
    for request in samples:
        back = decode_request(encode(request))
        assert back == request and type(back) is type(request)
        assert (getattr(back, "game", 0), getattr(back, "seq", 0)) == (
            getattr(request, "game", 0), getattr(request, "seq", 0)
        )
