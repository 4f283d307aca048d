"""The relay's own bounds, without NATS: what an open request may hold, and the door's queue."""

from __future__ import annotations

import json

import pytest

from war_tui.cluster.relay import END, LINES, MAX_OPEN, OpenRequest, RemoteLink, new_conn_id
from war_tui.tables.messages import Resync
from war_tui.tables.protocol import encode


class Sent:
    """Stands in for the relay node: what the door would publish, by subject."""

    node = "nb"

    def __init__(self) -> None:
        self.doors: dict[str, RemoteLink] = {}
        self.sent: list[tuple[str, bytes]] = []

    def send(self, subject: str, data: bytes) -> None:
        self.sent.append((subject, data))


def request(**changes) -> bytes:
    fields = {"conn": "0123456789abcdef0123", "door": "nb", "user": "ann", "identity": "key:x", "address": "127.0.0.1",
              "table": "oak", "watch": False}
    fields.update(changes)
    return json.dumps(fields).encode()


def test_an_open_request_reads_back_as_it_was_made():
    made = OpenRequest(new_conn_id(), "na", "ann", None, "10.0.0.1", "oak", True, False)
    assert OpenRequest.decode(made.encode()) == made


@pytest.mark.parametrize("data", [
    request(conn="../x"), request(conn="A" * 20), request(door="n.*"), request(door=""), request(user=None),
    request(identity="x" * 401), request(table=7), b"[]", b"not json", b" " * (MAX_OPEN + 1),
], ids=["conn-path", "conn-upper", "door-wildcard", "door-empty", "no-user", "long-identity", "table-number",
        "list", "not-json", "too-long"])
def test_an_open_request_of_anything_but_our_ids_and_short_names_is_refused(data):
    with pytest.raises(ValueError):
        OpenRequest.decode(data)


def test_the_doors_queue_drops_to_a_gap_past_its_bound_and_asks_the_owner_for_a_snapshot():
    relay = Sent()
    remote = RemoteLink(relay, "na", "oak", max_queued=100)
    woken: list[bool] = []
    remote.on_output = lambda: woken.append(True)
    remote.deliver(LINES + b"x" * 60 + b"\n")
    remote.deliver(LINES + b"y" * 60 + b"\n")  # past the bound: what is queued is dropped
    assert remote.queued == 0 and remote.dropped == 1
    assert relay.sent == [(f"war-tui.relay.in.na.nb.{remote.conn}", LINES + encode(Resync()))]
    remote.deliver(LINES + b"z\n")
    assert remote.take() == b"z\n"
    remote.deliver(END)
    assert remote.finished


def test_a_closed_relay_sends_nothing_more():
    relay = Sent()
    remote = RemoteLink(relay, "na", "oak")
    remote.close()
    remote.receive(b'{"kind":"flip"}\n')
    assert [data for _, data in relay.sent] == [b"C"]


class FakeClient:
    """What the relay reads of its NATS connection here: how many times it reconnected."""

    def __init__(self) -> None:
        self.stats = {"reconnects": 0}


class HeldLink:
    """An owner's link to a door's connection, as far as a resync goes: what it was sent."""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    def receive(self, data: bytes) -> None:
        self.received.append(data)


async def test_after_a_reconnect_every_relayed_screen_gets_a_fresh_snapshot():
    from types import SimpleNamespace

    from war_tui.cluster.relay import RelayNode

    async def never(*args) -> bool:
        return False

    client = FakeClient()
    relay = RelayNode(client, "nb", 3, serve=never, link=lambda *a: None, alive=never,
                      wake=lambda: None, log=lambda line: None)
    door = RemoteLink(relay, "na", "oak")
    relay.doors[door.conn] = door
    owned = HeldLink()
    relay.relayed["c" * 20] = SimpleNamespace(link=owned, watch_deadline=lambda: None)
    relay._resync_after_reconnect()
    assert not relay._outbox and owned.received == []  # no reconnect yet: nothing asked
    client.stats["reconnects"] = 1
    relay._resync_after_reconnect()
    assert list(relay._outbox) == [(f"war-tui.relay.in.na.nb.{door.conn}", LINES + encode(Resync()))]
    assert owned.received == [encode(Resync())]
