"""The relay without NATS: what an open request may hold, the door's queue, and numbered lines over a fake wire
that loses, repeats and reorders them (each applied once, in order; every buffer bounded)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from types import SimpleNamespace

import pytest
from support.waiting import until

from war_tui.cluster.relay import RelayNode
from war_tui.cluster.relay_wire import (
    ACK,
    END,
    GONE,
    LINES,
    MAX_OPEN,
    MOVE,
    OPENER,
    SKIP,
    OpenRequest,
    RelayKey,
    new_conn_id,
    open_subject,
    out_subject,
)
from war_tui.cluster.relayed import Relayed
from war_tui.cluster.remote_link import RemoteLink, resendable
from war_tui.cluster.sequenced import (
    MAX_EARLY,
    Inbox,
    Numbered,
    Window,
    WireCounts,
    decode_ack,
    decode_numbered,
    encode_numbered,
)
from war_tui.tables import Link, Registry, TableOptions
from war_tui.tables.messages import Auto, Emote, Flip, Resync
from war_tui.tables.protocol import encode

FLIP = encode(Flip(game=1, seq=3))
KEY = RelayKey(b"the host key every node of the test shares")


class Sent:
    """Stands in for the relay node: what the door or the owner would publish, by subject."""

    node = "nb"

    def __init__(self) -> None:
        self.doors: dict[str, RemoteLink] = {}
        self.relayed: dict[str, Relayed] = {}
        self.sent: list[tuple[str, bytes]] = []
        self.logged: list[str] = []
        self.kept_seq: int | None = None
        self.now = 0.0
        self.counts = WireCounts()

    def send(self, subject: str, data: bytes) -> None:
        self.sent.append((subject, data))

    def log(self, line: str) -> None:
        self.logged.append(line)

    def clock(self) -> float:
        return self.now

    def wake(self) -> None:
        pass

    def kept(self, table: str) -> int | None:
        return self.kept_seq

    def data(self) -> list[bytes]:
        return [data for _, data in self.sent]


def numbered(kind: bytes, number: int, body: bytes = b"", ack: int = 0) -> bytes:
    return encode_numbered(kind, number, ack, body)


def request(**changes) -> bytes:
    fields = {"conn": "0123456789abcdef0123", "door": "nb", "user": "ann", "identity": "key:x", "address": "127.0.0.1",
              "table": "oak", "watch": False, "at": time.time()}
    fields.update(changes)
    return json.dumps(fields).encode()


def test_an_open_request_reads_back_as_it_was_made():
    made = OpenRequest(new_conn_id(), "na", "ann", None, "10.0.0.1", "oak", True, 1.7e9)
    assert OpenRequest.decode(made.encode()) == made


@pytest.mark.parametrize("data", [
    request(conn="../x"), request(conn="A" * 20), request(door="n.*"), request(door=""), request(user=None),
    request(identity="x" * 401), request(table=7), b"[]", b"not json", b" " * (MAX_OPEN + 1),
], ids=["conn-path", "conn-upper", "door-wildcard", "door-empty", "no-user", "long-identity", "table-number",
        "list", "not-json", "too-long"])
def test_an_open_request_of_anything_but_our_ids_and_short_names_is_refused(data):
    with pytest.raises(ValueError):
        OpenRequest.decode(data)


# -- numbers on the wire ---------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [
    b"L", b"L1\n", b"Lx 0\n", b"L0 0\n", b"L-1 0\n", b"L1 -1\n", b"L1  0\n", b"L 1 0\n",
    b"L%d 0\n" % (2**53 + 1), b"L1 %d\n" % (2**53 + 1), b"L" + b"9" * 17 + b" 0\n", b"L1 0",
], ids=["bare", "no-ack", "letters", "zero", "negative", "negative-ack", "two-spaces", "leading-space", "huge",
        "huge-ack", "long", "no-newline"])
def test_a_message_with_a_bad_or_huge_number_is_not_read(data):
    assert decode_numbered(data) is None


def test_a_numbered_message_reads_back_as_it_was_made():
    assert decode_numbered(encode_numbered(LINES, 7, 3, b"x\n")) == Numbered(LINES, 7, 3, b"x\n")
    assert decode_ack(b"A12") == 12
    assert [decode_ack(data) for data in (b"A", b"Ax", b"A-1", b"A" + b"9" * 17)] == [None] * 4


def test_the_inbox_hands_on_each_number_once_in_order():
    inbox = Inbox()
    first, second, third = (Numbered(LINES, n, 0, b"%d" % n) for n in (1, 2, 3))
    assert inbox.accept(second) == []  # early: held
    assert inbox.accept(second) == []  # and again: a duplicate
    assert inbox.accept(first) == [first, second]
    assert inbox.accept(first) == [] and inbox.duplicates == 2
    assert inbox.accept(third) == [third] and inbox.received == 3


def test_the_inbox_holds_a_bounded_number_ahead_and_drops_the_rest():
    inbox = Inbox(max_early=4, max_early_bytes=100)
    for number in range(3, 3 + 10):
        inbox.accept(Numbered(LINES, number, 0, b"x"))
    inbox.accept(Numbered(LINES, 10**12, 0, b"x"))  # far ahead
    inbox.accept(Numbered(LINES, 2 + MAX_EARLY, 0, b"y" * 101))  # too big to hold
    assert sorted(inbox._early) == [3, 4] and inbox.dropped == 10  # within 4 of what it waits for
    assert [m.number for m in inbox.accept(Numbered(LINES, 2, 0, b"x"))] == []  # 1 is still missing
    assert [m.number for m in inbox.accept(Numbered(LINES, 1, 0, b"x"))] == [1, 2, 3, 4]


def test_a_skip_gives_up_the_numbers_before_it():
    inbox = Inbox()
    inbox.accept(Numbered(LINES, 1, 0, b""))
    inbox.accept(Numbered(LINES, 4, 0, b"held"))
    assert [m.number for m in inbox.accept(Numbered(SKIP, 6, 0, b""), skip=True)] == [6]
    assert inbox.received == 6 and not inbox._early
    assert inbox.accept(Numbered(LINES, 4, 0, b"late")) == []


def test_the_window_is_bounded_and_ignores_an_ack_of_a_number_never_sent():
    window = Window(max_messages=3, max_bytes=10)
    for body in (b"a", b"b", b"c"):
        window.add(LINES, body, 0.0)
    assert not window.fits(b"d")
    window.ack(99)  # never sent: not ours to believe
    window.ack(-5)
    assert len(window) == 3
    window.ack(2)
    assert window.bodies(LINES) == [b"c"] and window.fits(b"d") and not window.fits(b"x" * 10)


def test_the_window_sends_again_what_waited_past_the_timeout():
    window = Window()
    window.add(LINES, b"a", 0.0)
    window.add(LINES, b"b", 1.0)
    assert [number for number, _, _ in window.due(1.5, 1.0)] == [1]
    assert [number for number, _, _ in window.due(1.6, 1.0)] == []  # sent again at 1.5
    assert [number for number, _, _ in window.due(1.6, None)] == [1, 2]  # after a reconnect: everything


# -- the door --------------------------------------------------------------------------------------------


def door(relay: Sent | None = None, **kwargs) -> tuple[Sent, RemoteLink]:
    relay = relay or Sent()
    remote = RemoteLink(relay, "na", "oak", **kwargs)  # type: ignore[arg-type]  # the relay's part the door uses
    relay.doors[remote.conn] = remote
    return relay, remote


def test_the_doors_queue_drops_to_a_gap_past_its_bound_and_asks_the_owner_for_a_snapshot():
    relay, remote = door(max_queued=100)
    woken: list[bool] = []
    remote.on_output = lambda: woken.append(True)
    remote.deliver(numbered(LINES, 1, b"x" * 60 + b"\n"))
    remote.deliver(numbered(LINES, 2, b"y" * 60 + b"\n"))  # past the bound: what is queued is dropped
    remote.deliver(numbered(LINES, 3, b"y\n"))  # and what comes after, until the screen reads again
    assert remote.queued == 0 and remote.dropped == 1 and woken
    assert (relay.counts.behind, relay.counts.unacknowledged) == (1, 0)  # said in the log at a stop
    assert remote.take() == b""  # the screen reads: the owner is asked for a fresh snapshot, once
    assert relay.sent == [(f"war-tui.relay.in.na.nb.{remote.conn}", numbered(LINES, 1, encode(Resync()), ack=3))]
    remote.deliver(numbered(LINES, 4, b"z\n"))
    assert remote.take() == b"z\n"
    remote.deliver(numbered(END, 5))
    assert remote.finished


def test_a_spectator_on_the_doors_shared_screen_asks_for_no_snapshot_until_its_own_game_reads():
    """A relayed spectator watching the door's shared rendering reads nothing of its own link (``max_queued`` 0):
    the owner's updates are dropped without a word to the owner, not answered with a snapshot each; once its own
    game reads, one fresh snapshot is asked for."""
    relay, remote = door(max_queued=0)
    woken: list[bool] = []
    remote.on_output = lambda: woken.append(True)
    for number in range(1, 9):
        remote.deliver(numbered(LINES, number, b"BATTLE %d\n" % number))
        assert remote.take() == b""  # a pump that looks finds nothing, and asks nothing
    assert [data for data in relay.data() if data.startswith(LINES)] == []
    remote.max_queued = 1000  # its own game now
    assert len(woken) == 2  # behind once, and read again
    assert remote.take() == b""
    assert [data for data in relay.data() if data.startswith(LINES)] == [numbered(LINES, 1, encode(Resync()), ack=8)]
    remote.deliver(numbered(LINES, 9, b"SNAPSHOT\n"))
    assert remote.take() == b"SNAPSHOT\n"


def test_the_door_takes_the_owners_lines_once_and_in_order():
    relay, remote = door()
    remote.deliver(numbered(LINES, 2, b"two\n"))
    remote.deliver(numbered(LINES, 1, b"one\n"))
    remote.deliver(numbered(LINES, 1, b"one\n"))  # sent again: the owner missed the acknowledgement
    remote.deliver(b"L1\n")
    remote.deliver(b"Q" + b"x" * 10)
    assert remote.take() == b"one\ntwo\n"
    assert relay.data() == [ACK + b"2"]


def test_the_door_acknowledges_on_its_own_every_few_messages_else_on_its_keys_and_pings():
    relay, remote = door()
    for number in range(1, 16):
        remote.deliver(numbered(LINES, number, b"u\n"))
    assert relay.data() == []  # no message for every update
    remote.receive(FLIP)
    assert relay.data() == [numbered(LINES, 1, FLIP, ack=15)]
    remote.deliver(numbered(LINES, 16, b"u\n"))
    remote.ping()
    assert relay.data()[-1] == b"P16"


def test_the_doors_keys_past_its_window_are_dropped_and_logged_once():
    relay, remote = door()
    remote.wire.window = Window(max_messages=2)
    for _ in range(5):
        remote.receive(FLIP)
    assert len(relay.sent) == 2 and remote.dropped_keys == 3 and len(relay.logged) == 1
    remote.deliver(ACK + b"2")
    remote.receive(FLIP)
    assert len(relay.sent) == 3


def test_after_a_move_the_door_sends_again_only_the_keys_harmless_twice():
    relay, remote = door()
    for request in (Flip(game=1, seq=3), Emote(2, game=1, seq=3), Auto(True, 4.0, game=1, seq=3)):
        remote.receive(encode(request))
    remote.deliver(numbered(LINES, 1, b"u\n", ack=1))  # the owner applied (and kept) the flip
    moved: list[bool] = []
    remote.on_moved = lambda: moved.append(True)
    remote.deliver(numbered(MOVE, 2, ack=1))
    assert moved and remote.closed
    assert resendable(remote.unacknowledged()) == [encode(Auto(True, 4.0, game=1, seq=3))]


def test_an_owner_that_forgot_the_connection_closes_it_with_its_words():
    _, remote = door()
    remote.deliver(GONE + b'{"kind":"notice"}\n')
    assert remote.finished is False and remote.take() == b'{"kind":"notice"}\n' and remote.finished


def test_an_owner_that_forgot_a_routed_connection_has_it_reach_the_table_again():
    """The owner let the connection go while its door was silent (a fault, not the player's leaving): the router
    routes it again to whichever node serves the table, rather than ending it (before: "the table's server lost
    this connection", and a spectator was dropped mid-fault)."""
    _, remote = door()
    moved: list[bool] = []
    remote.on_moved = lambda: moved.append(True)
    remote.deliver(GONE + b'{"kind":"notice"}\n')
    assert moved and remote.closed and remote.take() == b""


# -- the owner -------------------------------------------------------------------------------------------


class HeldLink:
    """An owner's link to a door's connection: what it was sent, what it says."""

    def __init__(self, seq: int = 0) -> None:
        self.received: list[bytes] = []
        self.out = b""
        self.closed = False
        self.on_output = None
        self.clock = lambda: 0.0
        self.member = SimpleNamespace(table=SimpleNamespace(seq=seq))

    def receive(self, data: bytes) -> None:
        self.received.append(data)

    def take(self) -> bytes:
        out, self.out = self.out, b""
        return out

    @property
    def finished(self) -> bool:
        return self.closed and not self.out

    def close(self, fault: bool = False) -> None:
        self.closed = True
        self.fault = fault

    def next_deadline(self) -> None:
        return None

    def poll(self) -> None:
        pass


def owner(link: HeldLink) -> tuple[Sent, Relayed]:
    relay = Sent()
    opened = OpenRequest("c" * 20, "nb", "bob", None, None, "oak", False, 1.7e9)
    relayed = relay.relayed[opened.conn] = Relayed(relay, opened, "oak", link)  # type: ignore[arg-type]
    return relay, relayed


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_the_owner_applies_each_line_once_in_order_whatever_the_wire_does():
    link = HeldLink()
    relay, relayed = owner(link)
    emote = encode(Emote(1, game=1, seq=3))
    relayed.receive(numbered(LINES, 2, emote))
    relayed.receive(numbered(LINES, 1, FLIP))
    relayed.receive(numbered(LINES, 2, emote))  # an emote sent again: shown once
    relayed.receive(numbered(LINES, 10**15, FLIP))
    relayed.receive(b"L1 0")
    assert link.received == [FLIP, emote]
    await settle()
    assert relay.data() == [ACK + b"2"]


async def test_the_owner_acknowledges_a_key_once_the_store_kept_what_it_changed():
    link = HeldLink(seq=5)
    relay, relayed = owner(link)
    relay.kept_seq = 4
    relayed.receive(numbered(LINES, 1, FLIP))
    await settle()
    assert relay.data() == []  # applied, not kept: a takeover would lose it, so the door keeps it
    relay.kept_seq = 5
    link.out = b"battle\n"
    relayed.wanted()
    await settle()
    assert relay.data() == [numbered(LINES, 1, b"battle\n", ack=1)]  # the acknowledgement rides on the update


async def test_the_owner_gives_up_a_window_the_door_never_acknowledges_for_a_fresh_snapshot():
    link = HeldLink()
    relay, relayed = owner(link)
    relayed.wire.window = Window(max_messages=2, counts=relay.counts)
    for _ in range(3):
        link.out = b"u\n"
        relayed.wanted()
        await settle()
    assert relay.data() == [numbered(LINES, 1, b"u\n"), numbered(LINES, 2, b"u\n"), numbered(SKIP, 3)]
    assert link.received == [encode(Resync())] and relayed.dropped == 1
    assert (relay.counts.unacknowledged, relay.counts.behind) == (1, 0)  # said in the log at a stop
    relayed.receive(b"P3")
    relayed.receive(b"P99")  # an acknowledgement of a number never sent changes nothing
    assert len(relayed.wire.window) == 0


# -- both ends over a wire that loses a key --------------------------------------------------------------


class Bus:
    """Core NATS as far as the relay uses it, on one loop: subjects with ``*``, requests, reconnects counted;
    ``lose`` says which publishes never arrive."""

    def __init__(self) -> None:
        self.subs: list[tuple[list[str], object]] = []
        self.lose = lambda subject, data: False
        self.inboxes = 0

    def client(self) -> SimpleNamespace:
        async def subscribe(subject, cb):
            entry = (subject.split("."), cb)
            self.subs.append(entry)
            return SimpleNamespace(unsubscribe=lambda: asyncio.sleep(0))

        async def publish(subject, data):
            if not self.lose(subject, data):
                self.deliver(subject, data, None)

        async def request(subject, data, timeout):
            answer: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
            self.inboxes += 1
            inbox = f"_INBOX.{self.inboxes}"
            self.deliver(subject, data, answer, inbox)
            return SimpleNamespace(subject=inbox, data=await asyncio.wait_for(answer, timeout))

        async def flush():
            pass

        return SimpleNamespace(subscribe=subscribe, publish=publish, request=request, flush=flush,
                               stats={"reconnects": 0}, is_connected=True)

    def deliver(self, subject: str, data: bytes, answer, reply: str = "") -> None:
        parts = subject.split(".")
        for pattern, cb in self.subs:
            if len(pattern) == len(parts) and all(p in ("*", s) for p, s in zip(pattern, parts, strict=True)):
                async def respond(reply: bytes, answer=answer) -> None:
                    answer.set_result(reply)

                msg = SimpleNamespace(subject=subject, data=data, respond=respond, reply=reply)
                asyncio.get_running_loop().create_task(cb(msg))  # type: ignore[operator]


class OwnedLink(HeldLink):
    def join(self, table: str, watch: bool) -> None:
        pass


async def nobody(table: str) -> None:
    return None


@pytest.mark.parametrize("how", ["reconnect", "timeout"])
async def test_a_key_lost_on_the_wire_once_still_arrives_exactly_once(how):
    bus = Bus()
    links: list[OwnedLink] = []

    def make_link(*args) -> OwnedLink:
        links.append(OwnedLink())
        return links[-1]

    async def yes(*args) -> bool:
        return True

    lease = 3.0 if how == "reconnect" else 0.15  # a reconnect is seen at the first third of a lease, before any timeout
    nodes = []
    logged: dict[str, list[str]] = {"na": [], "nb": []}
    for name in ("na", "nb"):
        node = RelayNode(bus.client(), name, lease, serve=yes, link=make_link, alive=yes, owner=nobody,
                         wake=lambda: None, log=logged[name].append, key=KEY)
        await node.start()
        nodes.append(node)
    owner_node, door_node = nodes
    try:
        remote = RemoteLink(door_node, "na", "oak")
        await remote.open("bob", None, None, False)
        lost: list[bytes] = []

        def lose_the_first_key(subject: str, data: bytes) -> bool:
            if ".in." in subject and data.startswith(LINES) and not lost:
                lost.append(data)
                return True
            return False

        bus.lose = lose_the_first_key
        remote.receive(FLIP)
        await until(lambda: lost, what="the key was sent")
        if how == "reconnect":
            door_node.client.stats["reconnects"] = 1  # its NATS connection moved to another server
        await until(lambda: links[0].received, what="the key never arrived")
        await until(lambda: not remote.unacknowledged(), what="the key was never acknowledged")
        assert links[0].received == [FLIP]
        assert door_node.counts.again >= 1 and door_node.counts.behind == door_node.counts.unacknowledged == 0
    finally:
        for node in nodes:
            await node.stop()
    said = [line for line in logged["nb"] if line.startswith("relay: ")]
    assert len(said) == 1 and re.match(r"relay: [\d,]+ messages sent since the start, [1-9][\d,]* sent again", said[0])


async def test_an_owner_lets_a_quiet_door_go_only_while_its_own_connection_is_up():
    bus = Bus()
    link = HeldLink()

    async def yes(*args) -> bool:
        return True

    node = RelayNode(bus.client(), "na", 0.15, serve=yes, link=lambda *a: link, alive=yes, owner=nobody,
                     wake=lambda: None, log=lambda line: None, key=KEY)
    node.client.is_connected = False  # its NATS connection is away: the doors' silence is its own
    await node.start()
    try:
        opened = OpenRequest("c" * 20, "nb", "bob", None, None, "oak", False, 1.7e9)
        relayed = node.relayed[opened.conn] = Relayed(node, opened, "oak", link)
        relayed.heard -= 10.0
        await asyncio.sleep(0.3)  # several checks, none of which may let it go
        assert opened.conn in node.relayed and not link.closed
        before = node.clock()
        node.client.stats["reconnects"] = 1  # back: every door gets a fresh lease
        node.resend_after_reconnect()
        assert relayed.heard >= before
        node.client.is_connected = True
        await until(lambda: link.closed, what="a door quiet for a lease with the connection up is let go")
        assert link.fault, "a door gone quiet is a fault, not its player's leaving: the seat waits for them as it was"
    finally:
        await node.stop()


async def test_a_door_follows_a_dead_owners_table_once_its_owner_changed_and_only_then():
    """The owner's lease ran out and no node took its table over yet (this door cannot either): the door's two
    connections there wait, the owner record looked at less and less often, no re-route and no log line; once
    another node owns the table, one line says so and each connection follows it once."""
    bus = Bus()
    lease = 0.15
    now = [0.0]
    rounds = [0]
    record = ["na"]
    looks: list[str] = []
    logged: list[str] = []
    moved: list[str] = []

    async def dead(node: str) -> bool:
        rounds[0] += 1
        now[0] += lease / 3  # the relay's rounds, a third of a lease apart, on a clock of the test's own
        return False

    async def owner_of(table: str) -> str | None:
        looks.append(table)
        return record[0]

    async def cannot(table: str) -> bool:
        return False

    door = RelayNode(bus.client(), "nb", lease, serve=cannot, link=lambda *a: OwnedLink(), alive=dead,
                     owner=owner_of, wake=lambda: None, log=logged.append, key=KEY, clock=lambda: now[0])
    remotes = [RemoteLink(door, "na", "oak") for _ in range(2)]
    for remote in remotes:
        door.doors[remote.conn] = remote
        remote.on_moved = lambda conn=remote.conn: moved.append(conn)
    await door.start()
    try:
        await until(lambda: rounds[0] >= 40, what="forty rounds of the relay")
        assert (moved, logged) == ([], []), "no re-route while the dead owner's record names it"
        assert len(looks) <= 2 * 7, "looked at after a pause that doubles: the 1st, 2nd, 4th, ... 32nd round"
        record[0] = "nc"  # another node took the table over
        await until(lambda: moved, what="the connections follow the table")
        await asyncio.sleep(3 * lease)  # rounds more, if any were to come
        assert sorted(moved) == sorted(remote.conn for remote in remotes)
        assert logged == ["relay: table oak moved from node na, whose lease ran out, to node nc: re-routing 2 connections"]
    finally:
        await door.stop()


# -- who may open a relay, and whose updates reach a relayed player (issue 39) ------------------------------


async def relay_node(bus, name, link=None, key=KEY):
    async def yes(*args) -> bool:
        return True

    logged: list[str] = []
    node = RelayNode(bus.client(), name, 3.0, serve=yes, link=link or (lambda *a: OwnedLink()), alive=yes,
                     owner=nobody, wake=lambda: None, log=logged.append, key=key)
    node.logged = logged  # what it logged, for the test
    await node.start()
    return node


async def test_a_door_cannot_open_uncounted_watchers_past_max_spectators():
    registry = Registry(options=TableOptions(max_spectators=1))
    Link(registry, "ann").join("oak")
    bus = Bus()
    owner_node = await relay_node(bus, "na", link=lambda user, identity, address: Link(registry, user))
    try:
        answers = []
        for _ in range(3):  # as a door holding the key would send them, each saying it is not counted
            subject = open_subject("na")
            data = request(conn=new_conn_id(), watch=True, counted=False)
            reply = await bus.client().request(subject, KEY.sign(OPENER, subject, data), 3.0)
            answers.append(json.loads(KEY.check("na", reply.subject, reply.data)))
        assert answers[0] == {"ok": True}
        assert answers[1:] == [{"refused": "table oak has 1 spectator, the most it takes; try again later"}] * 2
        assert registry.table("oak").watching == 1
    finally:
        await owner_node.stop()


async def test_an_open_request_not_signed_with_the_nodes_key_opens_nothing():
    made: list[OwnedLink] = []
    bus = Bus()
    owner_node = await relay_node(bus, "na", link=lambda *a: made.append(OwnedLink()) or made[-1])
    stranger = RelayKey(b"a key the nodes do not share")
    try:
        subject = open_subject("na")
        for data in (request(), stranger.sign(OPENER, subject, request()), KEY.sign(OPENER, "elsewhere", request())):
            bus.deliver(subject, data, asyncio.get_running_loop().create_future(), "_INBOX.x")
        await until(lambda: len(owner_node.logged) == 3, what="each forged request is one line")
        assert made == [] and owner_node.relayed == {}
        assert all("is skipped (not signed by the node it should come from" in line for line in owner_node.logged)
    finally:
        await owner_node.stop()


@pytest.mark.parametrize("forger", ["a stranger", "another node"])
async def test_updates_and_gone_reach_a_relayed_player_only_from_the_tables_owner(forger):
    bus = Bus()
    owner_node, door_node = await relay_node(bus, "na"), await relay_node(bus, "nb")
    try:
        remote = RemoteLink(door_node, "na", "oak")
        await remote.open("bob", None, None, False)
        subject = out_subject("nb", remote.conn)
        sign = (lambda data: RelayKey(b"not the nodes' key").sign("na", subject, data)) if forger == "a stranger" \
            else (lambda data: KEY.sign("nc", subject, data))  # a node, but not the one the table is relayed to
        for forged in (numbered(LINES, 1, b"forged\n"), GONE + b"forged goodbye\n"):
            bus.deliver(subject, sign(forged), None)
        await until(lambda: len(door_node.logged) == 2, what="each forged update is one line")
        assert remote.take() == b"" and not remote.closed
        bus.deliver(subject, KEY.sign("na", subject, numbered(LINES, 1, b"battle\n")), None)
        await until(lambda: remote.queued, what="the owner's update arrives")
        assert remote.take() == b"battle\n"
    finally:
        for node in (owner_node, door_node):
            await node.stop()


@pytest.mark.parametrize("when", ["stale", "ahead"])
async def test_an_open_request_is_taken_only_fresh(when):
    """A signed request seen on the wire and sent again later opens nothing: not one whose time is more than a minute
    from the owner's clock."""
    made: list[OwnedLink] = []
    bus = Bus()
    owner_node = await relay_node(bus, "na", link=lambda *a: made.append(OwnedLink()) or made[-1])
    try:
        subject = open_subject("na")
        at = {"stale": time.time() - 61, "ahead": time.time() + 61}[when]
        signed = KEY.sign(OPENER, subject, request(at=at))
        for _ in range(2):
            bus.deliver(subject, signed, asyncio.get_running_loop().create_future(), "_INBOX.x")
            await settle()
        await until(lambda: len(owner_node.logged) == 2, what="each request is one line")
        assert made == []
        assert all("its time is not within 60 s of this node's clock" in line for line in owner_node.logged)
    finally:
        await owner_node.stop()


async def test_an_open_request_sent_again_opens_one_link_and_gets_the_answer_it_missed():
    """The owner was paused (or NATS slow) past the door's wait: the door asks again for the same connection, and
    is given the first answer, never a second link that would take the first one's seat. The same connection asked
    for by another door is skipped, in one line."""
    made: list[OwnedLink] = []
    bus = Bus()
    owner_node = await relay_node(bus, "na", link=lambda *a: made.append(OwnedLink()) or made[-1])
    try:
        subject = open_subject("na")
        answers = []
        for door in ("nb", "nb", "nc"):
            answer = asyncio.get_running_loop().create_future()
            bus.deliver(subject, KEY.sign(OPENER, subject, request(door=door)), answer, "_INBOX.x")
            answers.append(answer)
            await settle()
        first, again = [json.loads(KEY.check("na", "_INBOX.x", await answer)) for answer in answers[:2]]
        assert first == again == {"ok": True}
        assert len(made) == 1 and len(owner_node.relayed) == 1
        await until(lambda: owner_node.logged, what="another door's request is one line")
        assert not answers[2].done() and "it was taken already" in owner_node.logged[0], owner_node.logged
    finally:
        await owner_node.stop()
