"""The web door's HTTP connections before their websocket: caps per address and in all, the head's size and
time, aiohttp's own errors in the log, pings in the message rate, the security headers on every response.

The attacker connects from 127.0.0.2 (another address on loopback), the player from 127.0.0.1, as a
stranger and a player would come from two addresses.
"""

from __future__ import annotations

import asyncio
import logging
import os

import aiohttp
import pytest
from ssh_support import FAKE_TABLE_ARGV, TIMEOUT, until
from web_support import closed, open_socket, origin, read_screen, served, web_client

from war_tui.web.http_guard import HEADER_BYTES, SECURITY_HEADERS, GuardConfig

STRANGER = "127.0.0.2"
BIG_LINE = b"X-Big: " + b"a" * 8000 + b"\r\n"


async def stranger(door, first: bytes = b"") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from the stranger's address that sends ``first`` (``Host: x`` there names the door as its
    pages do) and then nothing."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", door.port, local_addr=(STRANGER, 0)), TIMEOUT)
    first = first.replace(b"\r\nHost: x\r\n", f"\r\nHost: 127.0.0.1:{door.port}\r\n".encode())
    if first:
        writer.write(first)
        await writer.drain()
    return reader, writer


async def answer(reader: asyncio.StreamReader) -> bytes:
    """All the server sends until it closes the connection (b"" if it closed without a word)."""
    try:
        return await asyncio.wait_for(reader.read(), TIMEOUT)
    except ConnectionResetError:
        return b""


async def plays(door) -> None:
    """A player at 127.0.0.1 starts a game and gets its first screen."""
    async with web_client() as client:
        ws = await open_socket(client, door)
        await read_screen(ws, "READY")
        await ws.close()


async def test_past_the_pending_cap_of_an_address_a_connection_is_refused_and_a_player_still_plays(tmp_path):
    async with served(tmp_path, guard=GuardConfig(max_pending_per_address=50)) as (_srv, door):
        writers = []
        try:
            for _ in range(50):
                writers.append((await stranger(door, b"GET / HTTP/1.1\r\nHost: x\r\n"))[1])
            await until(lambda: len(door.guard.pending) == 50)
            reader, writer = await stranger(door, b"GET / HTTP/1.1\r\n")
            writers.append(writer)
            assert b" 503 " in await answer(reader)
            assert len(door.guard.pending) == 50
            await plays(door)
        finally:
            for writer in writers:
                writer.close()


async def test_a_request_head_larger_than_the_bound_is_answered_431_and_closed(tmp_path):
    async with served(tmp_path) as (srv, door):
        reader, writer = await stranger(door, b"GET / HTTP/1.1\r\nHost: x\r\n")
        for _ in range(126):  # the attack of issue 30: 8 KB lines, never the blank line
            writer.write(BIG_LINE)
            if writer.is_closing():
                break
            try:
                await writer.drain()
            except ConnectionError:
                break
        response = await answer(reader)  # the 431, or a reset if it arrived while the flood was unread
        assert response == b"" or response.startswith(b"HTTP/1.1 431 "), response[:80]
        assert door.guard.refused["request headers too large"] == 1
        writer.close()
        await until(lambda: not door.guard.pending)


async def test_a_head_within_the_bound_is_served(tmp_path):
    async with served(tmp_path) as (srv, door):
        reader, writer = await stranger(door, b"GET /tables HTTP/1.1\r\nHost: x\r\n" + BIG_LINE
                                        + b"Connection: close\r\n\r\n")
        assert len(BIG_LINE) < HEADER_BYTES
        assert (await answer(reader)).startswith(b"HTTP/1.1 200 ")
        writer.close()


@pytest.mark.parametrize("debug", [False, True], ids=["info", "debug"])
async def test_a_connection_that_sends_no_request_or_half_of_one_is_closed_after_the_header_time(tmp_path, debug):
    # Half a request is a slow head (408 and a line); no byte at all is a browser's unused preconnect, closed
    # as quietly as it came (a line at --log-level debug only).
    async with served(tmp_path, {"debug": debug}, guard=GuardConfig(header_seconds=0.5)) as (srv, door):
        idle = await stranger(door)
        half = await stranger(door, b"GET / HTTP/1.1\r\nHost: x\r\nUser-Ag")
        assert await answer(idle[0]) == b""
        assert (await answer(half[0])).startswith(b"HTTP/1.1 408 ")
        for _reader, writer in (idle, half):
            writer.close()
        assert door.guard.refused["request headers too slow"] == 1 and door.guard.refused["no request"] == 1
        await until(lambda: not door.guard.pending)
    closed = sorted(line.rpartition(": closed: ")[2] for line in srv.logs if line.startswith(f"web {STRANGER}:"))
    quiet = ["nothing sent in 0.5 s (an unused preconnect, or an idle client)"] if debug else []
    assert closed == [*quiet, "request headers too slow"], srv.logs


async def test_idle_connections_from_one_address_hold_no_more_than_its_cap(tmp_path):
    async with served(tmp_path, guard=GuardConfig(max_pending_per_address=8)) as (_srv, door):
        connections = []
        try:
            for _ in range(40):
                connections.append(await stranger(door))
            refused = 0
            for reader, _writer in connections[8:]:
                refused += b" 503 " in await answer(reader)
            assert refused == 32 and len(door.guard.pending) == 8
            await plays(door)
        finally:
            for _reader, writer in connections:
                writer.close()


async def test_past_the_total_cap_the_oldest_waiting_connection_is_closed(tmp_path):
    async with served(tmp_path, guard=GuardConfig(max_pending=4)) as (_srv, door):
        connections = []
        try:
            for _ in range(6):
                connections.append(await stranger(door, b"GET"))
                count = len(connections)
                await until(lambda n=count: len(door.guard.pending) + door.guard.refused["too many connections"] == n)
            first, second = connections[0][0], connections[1][0]
            assert b" 503 " in await answer(first) and b" 503 " in await answer(second)
            await until(lambda: len(door.guard.pending) == 4)
        finally:
            for _reader, writer in connections:
                writer.close()


async def test_new_connections_stop_before_the_file_descriptors_kept_for_games(tmp_path):
    async with served(tmp_path) as (srv, door):
        # As if the process were 10 descriptors short of its limit's reserve.
        door.guard.reserve = door.guard.fd_limit - len(os.listdir("/proc/self/fd")) - 10
        connections = [await stranger(door) for _ in range(20)]
        await until(lambda: door.guard.refused["file descriptors kept for games"] >= 10)
        assert len(door.guard.pending) <= 10
        for _reader, writer in connections:
            writer.close()


async def test_a_malformed_request_is_one_log_line_not_a_traceback(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    async with served(tmp_path) as (srv, door):
        reader, writer = await stranger(door, b"GET / HTTP/1.1\r\n\r\n")  # no Host header
        assert (await answer(reader)).startswith(b"HTTP/1.")
        writer.close()
        await until(lambda: any("Missing 'Host' header" in line for line in srv.logs))
        lines = [line for line in srv.logs if "Missing 'Host' header" in line]
        assert len(lines) == 1 and "\n" not in lines[0] and lines[0].startswith("web: "), srv.logs
        assert not [r for r in caplog.records if r.name.startswith("aiohttp") and r.exc_info], caplog.text
        assert "Traceback" not in caplog.text


async def test_a_flood_of_malformed_requests_is_a_few_lines_and_a_summary(tmp_path):
    async with served(tmp_path) as (srv, door):
        before = len(srv.logs)
        for _ in range(60):
            reader, writer = await stranger(door, b"GET / HTTP/1.1\r\n\r\n")
            await answer(reader)
            writer.close()
        await until(lambda: any("held back" in line and "web request errors" in line for line in srv.logs[before:]))
        errors = [line for line in srv.logs[before:] if "Missing 'Host' header" in line]
        assert 0 < len(errors) < 60


async def test_a_ping_is_answered(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, autoping=False)
            await read_screen(ws, "READY")
            await ws.ping(b"hello")

            async def pong() -> bytes:
                while True:
                    message = await ws.receive()
                    if message.type is aiohttp.WSMsgType.PONG:
                        return message.data

            assert await asyncio.wait_for(pong(), TIMEOUT) == b"hello"
            await ws.close()


async def test_every_response_carries_the_security_headers(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            for path, status in (("/nope", 404), ("/static/nope.js", 404), ("/ws", 403), ("/tables", 200)):
                headers = {"Origin": origin(door)} if path == "/ws" else {}
                async with client.get(origin(door) + path, headers=headers) as response:
                    assert response.status == status, path
                    for name in SECURITY_HEADERS:
                        assert name in response.headers, (path, name)
                    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        reader, writer = await stranger(door, b"GET / HTTP/1.1\r\n\r\n")  # aiohttp's own 400: no Host header
        response = await answer(reader)
        writer.close()
        head = response.split(b"\r\n\r\n", 1)[0].decode()
        assert head.startswith("HTTP/1.") and " 400 " in head.split("\r\n")[0], head
        for name, value in SECURITY_HEADERS.items():
            assert f"\r\n{name}: {value}\r\n" in head + "\r\n", (name, head)


async def test_the_disconnect_line_says_where_the_player_was_at_the_end(tmp_path):
    async with served(tmp_path, {"argv": FAKE_TABLE_ARGV, "max_sessions_per_address": 16},
                      max_sessions_per_address=16) as (srv, door):
        async with web_client("a" * 43) as ann_client, web_client("c" * 43) as cy_client, \
                web_client("w" * 43) as wanda_client:
            ann = await open_socket(ann_client, door, "/table/oak", name="ann")
            await read_screen(ann, "SNAPSHOT you=ann seat=1 ")
            cy = await open_socket(cy_client, door, "/table/oak", name="cy")
            await read_screen(cy, "SNAPSHOT you=cy seat=2 ")
            wanda = await open_socket(wanda_client, door, "/table/oak", name="wanda")
            seen = bytearray()
            await read_screen(wanda, "SNAPSHOT you=wanda seat=- ", seen)
            await cy.send_bytes(b"l")  # cy leaves the table: a seat is free
            await cy.close()
            await until(lambda: any("table oak seat 2 as cy" in line and "web disconnect" in line for line in srv.logs))
            await wanda.send_bytes(b"s")  # wanda sits
            await read_screen(wanda, "SNAPSHOT you=wanda seat=2 ", seen)
            await wanda.close()
            await ann.close()
        await until(lambda: any(line.startswith("web disconnect") and "wanda" in line for line in srv.logs))
        line = next(line for line in srv.logs if line.startswith("web disconnect") and "wanda" in line)
        assert line.endswith("table oak seat 2 as wanda"), line


async def test_a_crashed_web_game_is_one_line_naming_the_exception_and_where(tmp_path):
    from ssh_support import FAKE_ARGV

    async with served(tmp_path, {"argv": (*FAKE_ARGV, "--crash")}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            assert "Sorry" in await closed(ws)
        await until(lambda: any(" crashed (" in line for line in srv.logs))
        crashed = [line for line in srv.logs if " crashed (" in line]
        assert len(crashed) == 1 and "RuntimeError: the fake game fell over at fake_game.py:" in crashed[0], srv.logs


async def test_a_connection_idle_after_its_request_is_closed_after_the_keepalive_time(tmp_path):
    async with served(tmp_path, guard=GuardConfig(keepalive_seconds=0.5)) as (srv, door):
        reader, writer = await stranger(door, b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).startswith(b"HTTP/1.1 204 ")
        assert await answer(reader) == b""  # then nothing, and the server closed it
        writer.close()
        await until(lambda: not door.guard.pending)


@pytest.mark.serial  # the second connection must come within the first's 3-second header timeout
async def test_the_serve_flags_set_the_doors_http_bounds(tmp_path):
    import re
    import subprocess
    import sys

    from ssh_support import FAKE_GAME

    server = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve", "--web", "0", "--public", "--host-key", str(tmp_path / "key"),
         "--session-command", f"{sys.executable} {FAKE_GAME}", "--web-header-seconds", "3",
         "--web-max-pending-per-address", "1"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines: list[str] = []
        while not any("listening on" in line for line in lines):
            line = await asyncio.wait_for(asyncio.to_thread(server.stderr.readline), TIMEOUT)
            assert line, lines
            lines.append(line)
        port = int(re.search(r"listening on \S+:(\d+): open http://", "".join(lines))[1])
        first = await asyncio.open_connection("127.0.0.1", port)  # accepted first: the kernel queues in order
        first[1].write(b"GET / HTTP/1.1\r\n")  # a request begun, its headers never sent
        second = await asyncio.open_connection("127.0.0.1", port)
        assert (await answer(second[0])).startswith(b"HTTP/1.1 503 ")  # one pending connection per address
        assert (await answer(first[0])).startswith(b"HTTP/1.1 408 ")  # after 3 s without the whole head
        for _reader, writer in (first, second):
            writer.close()
    finally:
        server.terminate()
        server.wait(TIMEOUT)
