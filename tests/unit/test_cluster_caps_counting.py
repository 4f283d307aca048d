"""The caps across nodes: what a node tells of its visitors and sessions, what it reads of another's (whatever
bytes it finds), and the registry counting the other nodes' with its own."""

from __future__ import annotations

import json

import pytest
from support.tables import Recorder

from war_tui.cluster.caps import (
    MAX_SESSIONS,
    Elsewhere,
    NodeSessions,
    TableVisitors,
    VisitorKeys,
    node_sessions,
    read_sessions,
    read_visitors,
    table_visitors,
)
from war_tui.cluster.nodes import entry_value, read_entry
from war_tui.tables import FakeClock, Registry, SeatStatus, TableRefused
from war_tui.tables.messages import LobbyEntry
from war_tui.untrusted import BadRecord

KEYS = VisitorKeys(b"the host key both nodes share")


def other_node(*tables: TableVisitors, sessions: dict[str, NodeSessions] | None = None) -> Elsewhere:
    elsewhere = Elsewhere(KEYS)
    elsewhere.tables = tables
    elsewhere.sessions = sessions or {}
    return elsewhere


def registry(**kwargs) -> Registry:
    return Registry(clock=FakeClock(), seed_source=lambda: 1, **kwargs)


def test_a_visitor_hashes_alike_on_every_node_given_the_same_secret_and_says_nothing_of_who_they_are():
    again = VisitorKeys(b"the host key both nodes share")
    other = VisitorKeys(b"another host key")
    assert KEYS.visitor("key:SHA256:ann", "10.0.0.1") == again.visitor("key:SHA256:ann", "10.0.0.1")
    assert KEYS.address("10.0.0.1") != other.address("10.0.0.1")
    assert KEYS.address("10.0.0.1") != KEYS.identity("10.0.0.1"), "an address is not an identity of that text"
    told = table_visitors(KEYS, ("10.0.0.1", "key:SHA256:ann"), [("key:SHA256:ann", "10.0.0.1")])
    text = json.dumps(told.to_json())
    assert "10.0.0.1" not in text and "ann" not in text


def test_tables_opened_and_seats_held_on_another_node_count_by_identity_or_by_address():
    ann = ("key:ann", "10.0.0.1")
    elsewhere = other_node(
        table_visitors(KEYS, ("10.0.0.1", "key:ann"), [ann, ("key:bob", "10.0.0.2")]),
        table_visitors(KEYS, ("10.0.0.9", "key:ann"), [("key:ann", "10.0.0.9")]),
        table_visitors(KEYS, ("10.0.0.1", "key:cy"), []),
    )
    assert elsewhere.tables_opened_by("key:ann", None) == 2
    assert elsewhere.tables_opened_by(None, "10.0.0.1") == 2
    assert elsewhere.tables_opened_by(*ann) == 3, "either one counts a table once"
    assert elsewhere.seats_held("key:ann", None) == 2
    assert elsewhere.seats_held(None, "10.0.0.2") == 1
    assert elsewhere.tables_opened_by("key:eve", "10.0.0.5") == 0 and elsewhere.seats_held(None, None) == 0


def test_the_registry_refuses_a_table_past_the_cap_counting_the_tables_opened_on_other_nodes():
    reg = registry(tables_per_visitor=2)
    reg.join("oak", "ann", Recorder(), identity="key:ann", address="10.0.0.1")
    reg.elsewhere = other_node(table_visitors(KEYS, ("10.0.0.7", "key:ann"), []))
    with pytest.raises(TableRefused, match="you already opened 2 of the tables open here, the most one player may"):
        reg.join("elm", "ann", Recorder(), identity="key:ann", address="10.0.0.2")
    assert reg.join("elm", "bob", Recorder(), identity="key:bob", address="10.0.0.2").seat is not None


def test_the_registry_seats_a_visitor_past_the_seat_cap_elsewhere_as_a_spectator():
    reg = registry(seats_per_visitor=2)
    reg.join("oak", "ann", Recorder(), identity="key:ann", address="10.0.0.1")
    reg.elsewhere = other_node(table_visitors(KEYS, (None, None), [("key:zed", "10.0.0.1")]))
    told = Recorder()
    third = reg.join("elm", "cy", told, identity="key:cy", address="10.0.0.1")
    assert third.watching
    assert "your address holds all the seats it may" in told.texts()[-1]


def test_a_node_tells_its_sessions_in_all_and_per_address_and_another_reads_them_back():
    sessions = node_sessions(KEYS, ["10.0.0.1", "10.0.0.1", "10.0.0.2"])
    read = read_sessions(sessions.to_bytes())
    assert read == sessions and read.total == 3
    elsewhere = other_node(sessions={"nb": read, "nc": node_sessions(KEYS, ["10.0.0.1"])})
    assert elsewhere.sessions_total() == 4
    assert elsewhere.sessions_from("10.0.0.1") == 3 and elsewhere.sessions_from("10.0.0.3") == 0
    assert b"10.0.0.1" not in sessions.to_bytes()


HASH = "0" * 24


@pytest.mark.parametrize("value", [
    b"", b"{", b"[]", b"null", b'"text"', b'{"total": 1}',
    b'{"total": -1, "addresses": {}}', b'{"total": true, "addresses": {}}', b'{"total": 1.5, "addresses": {}}',
    b'{"total": 99999999999999999999, "addresses": {}}',
    json.dumps({"total": 1, "addresses": {"10.0.0.1": 1}}).encode(),
    json.dumps({"total": 1, "addresses": {HASH: "1"}}).encode(),
    json.dumps({"total": 1, "addresses": {HASH: 2}}).encode(),
    json.dumps({"total": 1, "addresses": [HASH]}).encode(),
    json.dumps({"total": MAX_SESSIONS + 1, "addresses": {}}).encode(),
    b" " * 1_000_000,
])
def test_a_session_record_that_is_not_one_is_a_bad_record(value):
    with pytest.raises(BadRecord):
        read_sessions(value)


@pytest.mark.parametrize("raw", [
    None, [], "x", {}, {"opened": [None, None]}, {"opened": [None], "seats": []},
    {"opened": [None, None], "seats": [[None, None]] * 3}, {"opened": ["not-a-hash", None], "seats": []},
    {"opened": [None, None], "seats": [[1, None]]}, {"opened": [None, None], "seats": {"a": 1}},
    {"opened": [HASH, HASH, HASH], "seats": []},
])
def test_visitors_that_are_not_a_tables_are_a_bad_record(raw):
    with pytest.raises(BadRecord):
        read_visitors(raw)


ENTRY = LobbyEntry("oak", ("ann", None), (SeatStatus.PLAYER, SeatStatus.OPEN), 0, 1, 0, (26, 26), None)


def test_a_lobby_record_carries_its_visitors_and_one_with_garbage_for_them_is_not_read():
    visitors = table_visitors(KEYS, ("10.0.0.1", "key:ann"), [("key:ann", "10.0.0.1")])
    read = read_entry(entry_value("na", ENTRY, visitors))
    assert read[0] == "na" and read[2] == visitors
    bare = read_entry(entry_value("na", ENTRY))
    assert bare[2] == TableVisitors(), "a record without visitors tells of none"
    raw = json.loads(entry_value("na", ENTRY, visitors))
    raw["visitors"]["seats"] = [["10.0.0.1", None]]
    with pytest.raises(BadRecord):
        read_entry(json.dumps(raw).encode())
