"""A connection's link: requests checked and carried out, garbage closes it, a slow one is resynchronised."""

from __future__ import annotations

import json

from war_tui.core.engine import Game
from war_tui.core.rules import Side
from war_tui.tables import (
    Auto,
    EventBatch,
    FakeClock,
    Flip,
    Join,
    Leave,
    Link,
    Lobby,
    Notice,
    NoticeCode,
    ProtocolError,
    Registry,
    RemoteGame,
    Resync,
    SeatStatus,
    Snapshot,
    WatchLobby,
    encode,
)
from war_tui.tables.protocol import MAX_LINE, VERSION, update_reader


def server(**kwargs):
    clock = FakeClock()
    reg = Registry(clock=clock, deal=lambda name: Game.deal(21), **kwargs)
    return reg, clock


def told(link: Link) -> list:
    out = update_reader().feed(link.take())
    assert not any(isinstance(m, ProtocolError) for m in out)
    return out


def notices(updates) -> list[Notice]:
    return [u for u in updates if isinstance(u, Notice)]


def test_a_player_flips_through_the_link_and_the_other_screen_sees_the_battle():
    reg, clock = server()
    ann, bob = Link(reg, "ann", clock=clock), Link(reg, "bob", clock=clock)
    ann.join("oak")
    bob.join("oak")
    told(ann), told(bob)
    ann.receive(encode(Flip()))
    bob.receive(encode(Flip()))
    batches = [u for u in told(ann) if isinstance(u, EventBatch)]
    assert batches and batches[-1].events[-1].battle == 1


def test_a_spectators_flip_is_refused_and_the_table_does_not_move():
    reg, clock = server()
    ann, bob, eve = (Link(reg, n, clock=clock) for n in ("ann", "bob", "eve"))
    for link in (ann, bob, eve):
        link.join("oak")
    ann.receive(encode(Flip()))
    before = reg.table("oak").state()
    eve.receive(encode(Flip()) * 3 + encode(Auto(True, 8)))
    assert reg.table("oak").state() == before and reg.table("oak").game.battles == 0
    assert [n.text for n in notices(told(eve))][-4:] == ["you are watching"] * 4
    assert not eve.closed and eve.bad_lines == 0


def test_bad_lines_are_refused_and_a_link_that_keeps_sending_them_is_closed():
    reg, clock = server()
    ann = Link(reg, "ann", identity="key:ann", clock=clock, max_bad_lines=8)
    bob = Link(reg, "bob", identity="key:bob", clock=clock)
    ann.join("oak")
    bob.join("oak")
    told(ann)
    clock.advance(30)  # seated long enough for the seat to be kept
    v = str(VERSION).encode()
    garbage = [b"not json\n", b'{"v":' + v + b',"kind":"teleport"}\n', b"x" * (MAX_LINE + 10) + b"\n", b"[]\n",
               b'{"v":9,"kind":"flip"}\n', b'{"v":' + v + b',"kind":"flip","x":1}\n', b"\xff\n"]
    for bad in garbage:
        ann.receive(bad)
    assert not ann.closed and ann.bad_lines == 7
    refused = notices(told(ann))
    assert len(refused) == 7 and all(n.code is NoticeCode.REFUSED for n in refused)
    ann.receive(b"{{{{\n" + encode(Flip()))
    assert ann.closed
    last = notices(told(ann))[-1]
    assert last.code is NoticeCode.CLOSING and "too many malformed messages" in last.text
    assert ann.finished
    table = reg.table("oak")
    assert table.state().seats[0].status is SeatStatus.AWAY and not table.state().seats[0].flipped
    ann.receive(encode(Flip()))  # nothing more is read
    assert ann.take() == b""


def test_a_link_that_never_reads_stays_bounded_and_is_resynchronised_with_a_snapshot():
    reg, clock = server()
    ann = Link(reg, "ann", clock=clock)
    bob = Link(reg, "bob", clock=clock)
    slow = Link(reg, "eve", clock=clock, max_queued=4096)
    for link in (ann, bob, slow):
        link.join("oak")
    ann.receive(encode(Auto(True, 128)))
    bob.receive(encode(Auto(True, 128)))
    ann_screen = RemoteGame()
    reader = update_reader()
    table = reg.table("oak")
    while not table.game.over:
        clock.now = reg.next_deadline()
        reg.poll()
        for update in reader.feed(ann.take()):
            ann_screen.handle(update)
        bob.take()
        assert slow.queued <= 4096
    assert slow.resyncs >= 1
    assert ann_screen.counts == table.game.counts and ann_screen.over  # the others missed nothing
    caught_up = told(slow)
    assert isinstance(caught_up[0], Snapshot)
    assert caught_up[0].counts == table.game.counts and caught_up[0].result == table.game.result


def test_a_resynchronised_spectator_screen_matches_the_table():
    reg, clock = server()
    ann, bob = Link(reg, "ann", clock=clock), Link(reg, "bob", clock=clock)
    slow = Link(reg, "eve", clock=clock, max_queued=2048)
    for link in (ann, bob, slow):
        link.join("oak")
    ann.member.set_auto(True, 16)
    bob.member.set_auto(True, 16)
    screen = RemoteGame()
    reader = update_reader()
    for _ in range(40):
        clock.now = reg.next_deadline()
        reg.poll()
        ann.take(), bob.take()
    for update in reader.feed(slow.take()):
        screen.handle(update)
    assert screen.counts == reg.table("oak").game.counts
    assert screen.battles == reg.table("oak").game.battles


def test_requests_past_the_rate_are_dropped():
    reg, clock = server()
    ann = Link(reg, "ann", clock=clock, request_rate=10, request_burst=20)
    ann.join("oak")
    ann.receive(encode(Flip()) * 100)
    assert ann.dropped_requests == 80 and not ann.closed
    clock.advance(1.0)
    ann.receive(encode(Flip()) * 100)
    assert ann.dropped_requests == 80 + 90


def test_leave_frees_the_seat_for_the_house_and_the_link_stays_open():
    reg, clock = server()
    ann, bob = Link(reg, "ann", identity="key:ann", clock=clock), Link(reg, "bob", identity="key:bob", clock=clock)
    ann.join("oak")
    bob.join("oak")
    clock.advance(30)
    bob.receive(encode(Leave()))
    assert bob.member is None and not bob.closed
    assert reg.table("oak").state().seats[1].status is SeatStatus.AWAY
    bob.receive(encode(Flip()))
    assert notices(told(bob))[-1].text == "you are not at a table"


def test_from_the_lobby_a_link_opens_a_table_and_a_bad_name_is_only_refused():
    reg, clock = server()
    link = Link(reg, "ann", clock=clock)
    link.receive(encode(WatchLobby()))
    assert isinstance(told(link)[0], Lobby)
    link.receive(encode(Join("no way", False)))
    assert "1-24 characters" in notices(told(link))[-1].text and link.bad_lines == 0
    link.receive(encode(Join("Pine", False)))
    assert link.member is not None and link.member.seat is Side.P1
    assert isinstance(told(link)[0], Snapshot)
    link.receive(encode(Join("elm", False)))
    assert notices(told(link))[-1].text == "you are already at a table"


def test_a_full_server_says_so_to_a_link_from_the_lobby():
    reg, clock = server(max_tables=1)
    Link(reg, "ann", clock=clock).join("oak")
    link = Link(reg, "bob", clock=clock)
    link.receive(encode(Join("elm", False)))
    assert "server is full" in notices(told(link))[-1].text


def test_the_host_is_woken_when_there_is_something_to_write():
    reg, clock = server()
    woken = []
    link = Link(reg, "ann", clock=clock, on_output=lambda: woken.append(1))
    link.join("oak")
    assert woken == [1]
    link.receive(encode(Flip()))
    assert woken == [1]  # still unread: no second wake-up
    link.take()
    link.receive(encode(Auto(True, 4)))
    assert len(woken) == 2


def test_closing_the_server_tells_the_link_and_finishes_it():
    reg, clock = server()
    link = Link(reg, "ann", clock=clock, max_queued=600)
    link.join("oak")
    reg.close()
    out = told(link)
    assert isinstance(out[-1], Notice) and out[-1].code is NoticeCode.CLOSING
    assert link.finished


def test_a_link_closed_by_its_connection_leaves_the_table():
    reg, clock = server()
    link = Link(reg, "ann", identity="key:ann", clock=clock)
    link.join("oak")
    clock.advance(30)
    link.close()
    link.close()
    assert reg.table("oak").state().seats[0].status is SeatStatus.AWAY


def test_a_hostile_user_name_reaches_no_one_unreduced():
    reg, clock = server()
    ann = Link(reg, "ann", clock=clock)
    ann.join("oak")
    Link(reg, "\x1b[6n\x1bP+q\x9b", clock=clock).join("oak")
    raw = ann.take()
    assert b"\\u001b" not in raw and b"\\u009b" not in raw and b"\x1b" not in raw
    assert json.loads(raw.splitlines()[-1])["seats"][1]["name"] == "[6nP+q"


def test_a_full_lobby_refuses_one_more_reader_in_one_line():
    reg, clock = server(max_lobby_readers=1)
    Link(reg, "ann", clock=clock).watch_lobby()
    late = Link(reg, "bob", clock=clock)
    late.receive(encode(WatchLobby()))
    assert "the lobby is full (1 reader)" in notices(told(late))[-1].text


def test_a_snapshot_asked_while_a_key_is_held_down_is_sent():
    """A resync has its own bound (one a ``RESYNC_GAP``): the requests' rate never drops it."""
    reg, clock = server()
    link = Link(reg, "ann", clock=clock)
    link.join("oak")
    told(link)
    link.receive(encode(Flip()) * 300)  # a key held down, read at once: past the rate
    assert link.dropped_requests > 0
    told(link)
    link.receive(encode(Resync()))
    assert any(isinstance(update, Snapshot) for update in told(link))


def test_asks_for_snapshots_too_soon_are_served_once_a_gap_and_never_more_than_one_a_gap():
    reg, clock = server()
    link = Link(reg, "ann", clock=clock)
    link.join("oak")
    told(link)
    served = []
    for _ in range(50):  # a screen asking every 0.1 s for 5 s
        link.receive(encode(Resync()))
        link.poll()
        served += [clock() for update in told(link) if isinstance(update, Snapshot)]
        clock.advance(0.1)
    link.poll()
    served += [clock() for update in told(link) if isinstance(update, Snapshot)]
    assert len(served) >= 5 and all(b - a >= 1.0 - 1e-9 for a, b in zip(served, served[1:]))
    assert link.next_deadline() is None or link.next_deadline() > served[-1]
