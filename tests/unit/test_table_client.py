"""The game's end of the table socket, which the screen and the line mode share."""

from __future__ import annotations

import socket

from war_tui.serving.tables.client import TableClient
from war_tui.tables import Leave, Notice, NoticeCode, ProtocolError
from war_tui.tables.protocol import decode_request, encode_shared


def pair() -> tuple[TableClient, socket.socket]:
    ours, server = socket.socketpair()
    return TableClient(ours.detach()), server


def test_requests_past_the_bound_are_dropped_while_the_server_reads_nothing():
    client, server = pair()
    try:
        kept = 0
        while client.queue(Leave()):
            kept += 1
        assert kept > 0 and client.dropped == 1 and client.unsent
        assert not client.queue(Leave()) and client.dropped == 2  # still full: the server still reads nothing
        assert client.flush()  # the socket takes what waited: room is made
        assert client.queue(Leave())
    finally:
        client.close()
        server.close()


def test_updates_come_in_order_and_a_bad_line_is_a_protocol_error_then_the_close_is_none():
    client, server = pair()
    try:
        assert client.receive() == []  # nothing yet: never blocks
        server.sendall(encode_shared(Notice(NoticeCode.JOINED, "ann sits at seat 1")) + b"not json\n")
        items = client.receive()
        assert items is not None and isinstance(items[0], Notice) and isinstance(items[1], ProtocolError)
        server.close()
        assert client.receive() is None
    finally:
        client.close()


def test_a_goodbye_waiting_for_the_socket_goes_out_before_it_closes():
    client, server = pair()
    try:
        client.queue(Leave())
        client.finish()
        client.close()
        assert isinstance(decode_request(server.recv(4096).rstrip(b"\n")), Leave)
    finally:
        server.close()
