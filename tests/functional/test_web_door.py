"""The web door at the websocket level: admission, Origin, cookie, caps, message bounds, the game's end.

These run the stand-in game (ssh_support/fake_game.py) behind an in-process server, as the SSH door's
tests do; the browser tests (test_web_browser.py) run the real game in chromium.
"""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest
from ssh_support import FAKE_TABLE_ARGV, TIMEOUT, game_pid, until, wait_gone
from ssh_support.players import GAME
from web_support import bob_seated, closed, open_socket, origin, read_screen, served, signed, web_client

from war_tui.serving.commands import CommandRefused, TableMode
from war_tui.serving.goodbyes import TABLE_BROKEN
from war_tui.web.identity import VALUE
from war_tui.web.server import COOKIE, clean_name, place_command
from war_tui.web.session import CLOSE_GOODBYE


async def test_the_page_sets_a_secret_signed_cookie_and_a_strict_policy(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            async with client.get(origin(door) + "/table/oak") as response:
                assert response.status == 200
                policy = response.headers["Content-Security-Policy"]
                assert "script-src 'self';" in policy and "unsafe-inline'; " not in policy.split("style-src-attr")[0]
                assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
                cookie = response.cookies[COOKIE]
                assert VALUE.fullmatch(cookie.value) and cookie["httponly"] and cookie["samesite"] == "Lax"
                assert door.identities.token(cookie.value) is not None  # the door's own signature
                assert cookie.value not in await response.text()  # never shown
            async with client.get(origin(door) + "/static/xterm.js") as response:
                assert response.status == 200 and response.content_type == "text/javascript"
            for path in ("/static/../server.py", "/static/nope.js", "/etc/passwd", "/table/a/b"):
                async with client.get(origin(door) + path) as response:
                    assert response.status == 404, path


async def test_a_game_plays_on_a_pty_and_ends_when_the_socket_closes(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, cols=100, rows=30)
            text = await read_screen(ws, "READY")
            assert "SIZE 100x30" in text and "TERM=xterm-256color" in text and "WAR_TUI_PLAYER_ID=web:" in text
            pid = game_pid(text)
            await ws.send_bytes(b"k")
            await read_screen(ws, "KEY 6b")
            await ws.send_str("90 40")
            await read_screen(ws, "SIZE 90x40")
            await ws.close()
            assert await wait_gone(pid)
        await until(lambda: not door.sessions)
        assert any(line.startswith("web disconnect") and "client left" in line for line in srv.logs)


async def test_the_same_cookie_is_the_same_identity_and_another_is_not(tmp_path):
    async with served(tmp_path, {"max_sessions_per_address": 8}) as (srv, door):
        ids = []
        for token in ("a" * 43, "a" * 43, "b" * 43):
            async with web_client(token) as client:
                ws = await open_socket(client, door)
                text = await read_screen(ws, "READY")
                ids.append(text.split("WAR_TUI_PLAYER_ID=")[1].split()[0])
                await ws.close()
        assert ids[0] == ids[1] != ids[2] and "a" * 10 not in ids[0]


@pytest.mark.parametrize("bad", ["http://evil.example", "null", "", "http://127.0.0.1:1"])
async def test_a_socket_from_another_site_is_refused(tmp_path, bad):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_socket(client, door, origin_header=bad)
            assert refused.value.status == 403
        assert not door.sessions


async def test_a_socket_without_the_pages_cookie_is_refused(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client(None) as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_socket(client, door)
            assert refused.value.status == 403


async def test_the_web_caps_per_address_and_in_all_refuse_with_a_message(tmp_path):
    async with served(tmp_path, {"max_sessions_per_address": 8}, max_sessions_per_address=2, max_sessions=3) as (srv, door):
        async with web_client() as client:
            first = [await open_socket(client, door) for _ in range(2)]
            for ws in first:
                await read_screen(ws, "READY")
            third = await open_socket(client, door)
            assert "your address already has 2 games" in await closed(third)
            assert third.close_code == 1013
            assert len(door.sessions) == 2
            for ws in first:
                await ws.close()
        await until(lambda: not door.sessions)


async def test_ssh_and_web_games_count_together_in_max_sessions(tmp_path):
    async with served(tmp_path, {"max_sessions": 1}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            await read_screen(ws, "READY")
            assert srv.server.full  # the SSH door counts the browser's game
            second = await open_socket(client, door)
            assert "the server is full" in await closed(second)
            await ws.close()


async def test_a_message_too_large_ends_the_game(tmp_path):
    async with served(tmp_path, message_bytes=1024) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            pid = game_pid(await read_screen(ws, "READY"))
            await ws.send_bytes(b"x" * 2048)
            await closed(ws)
            assert ws.close_code == 1009
            assert await wait_gone(pid)


@pytest.mark.parametrize("send", [
    pytest.param(lambda ws: ws.send_str("not a size"), id="ignored text"),  # every message counts
    pytest.param(lambda ws: ws.ping(b"p"), id="pings"),
])
async def test_too_many_messages_end_the_game_with_a_goodbye(tmp_path, send):
    async with served(tmp_path, messages_per_second=5) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            seen = bytearray()
            pid = game_pid(await read_screen(ws, "READY", seen))
            for _ in range(30):
                await send(ws)
            assert "more messages arrived than a game takes (5 a second)" in await closed(ws, seen)
            assert ws.close_code == 1008
            assert await wait_gone(pid)


async def test_an_idle_browser_is_told_and_let_go(tmp_path):
    async with served(tmp_path, idle_seconds=0.5) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            seen = bytearray()
            await read_screen(ws, "READY", seen)
            assert "no keys for" in await closed(ws, seen) and "Come back any time" in seen.decode()
            assert ws.close_code == 1000


async def test_a_server_shutdown_says_goodbye_to_browsers(tmp_path):
    async with served(tmp_path) as (_srv, door), web_client() as client:
        ws = await open_socket(client, door)
        seen = bytearray()
        pid = game_pid(await read_screen(ws, "READY", seen))
        stopping = asyncio.ensure_future(door.stop())
        assert "the server is shutting down" in await closed(ws, seen)
        await asyncio.wait_for(stopping, TIMEOUT)
        assert await wait_gone(pid)


async def test_a_bad_table_name_in_the_address_is_refused_in_one_line(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/table/" + "x" * 200)
            text = await closed(ws)
            assert text.startswith("war-tui: ") and text.count("\n") == 1 and "x" * 50 not in text


def test_places_and_names():
    assert place_command("/") is None
    assert place_command("/tables").mode is TableMode.LOBBY
    assert place_command("/table/Oak").table == "oak"
    assert place_command("/watch/oak").mode is TableMode.WATCH
    for bad in ("/etc", "/table", "/table/a/b", "/tables/x"):
        with pytest.raises(CommandRefused):
            place_command(bad)
    assert clean_name("  ann\x1b[31m  b  ") == "ann[31m b"
    assert clean_name("\x00\x07") == "guest"
    assert len(clean_name("y" * 500)) == 24


async def raw_upgrade(door, token: str = "t" * 43):
    """A websocket opened by hand on a plain socket, which then reads nothing more: the slowest reader."""
    import base64
    import os
    import socket

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, ("127.0.0.1", door.port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws?cols=80&rows=24 HTTP/1.1\r\nHost: 127.0.0.1:{door.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin(door)}\r\nCookie: war_tui_id={signed(door, token)}\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    head = await asyncio.wait_for(loop.sock_recv(sock, 1024), TIMEOUT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


async def test_a_browser_that_reads_nothing_holds_no_more_than_the_backlog_and_the_game_waits(tmp_path):
    from ssh_support import FAKE_ARGV

    async with served(tmp_path, {"argv": (*FAKE_ARGV, "--flood")}, backlog_bytes=16 * 1024) as (_srv, door):
        sock = await raw_upgrade(door)
        try:
            await until(lambda: door.sessions)
            session = next(iter(door.sessions))
            await until(lambda: session._paused)  # the game's pty is no longer read
            peak = session.backlog_peak
            await asyncio.sleep(0.5)
            assert session._paused and session.backlog_peak == peak
            assert peak < 16 * 1024 + 65536  # the backlog and at most one pty read past it
        finally:
            sock.close()
        await until(lambda: not door.sessions)


async def test_a_browser_that_answers_no_ping_is_let_go(tmp_path):
    async with served(tmp_path, heartbeat=0.4) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, autoping=False)
            pid = game_pid(await read_screen(ws, "READY"))
            await until(lambda: not door.sessions)
            assert await wait_gone(pid)


async def test_the_door_serves_tls_with_a_secure_cookie(tmp_path):
    import datetime
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    from war_tui.commands.serve import tls_context

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    async with served(tmp_path, ssl_context=tls_context(tmp_path / "cert.pem", tmp_path / "key.pem")) as (srv, door):
        trust = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        trust.check_hostname = False
        https = f"https://127.0.0.1:{door.port}"
        async with aiohttp.ClientSession() as client:
            async with client.get(https + "/", ssl=trust) as response:
                assert response.status == 200 and response.cookies[COOKIE]["secure"]
            async with client.ws_connect(https + "/ws", ssl=trust,
                                         headers={"Origin": https, "Cookie": f"{COOKIE}={signed(door)}"}) as ws:
                await read_screen(ws, "READY")
            with pytest.raises(aiohttp.ClientError):  # plain HTTP on the TLS port gets nowhere
                async with client.get(origin(door) + "/") as response:
                    await response.read()


async def test_a_game_that_quits_closes_its_socket_and_frees_its_place(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door)
            pid = game_pid(await read_screen(ws, "READY"))
            await ws.send_bytes(b"q")  # the stand-in game exits with status 3
            await closed(ws)
            assert ws.close_code == 1000
            assert await wait_gone(pid)
        await until(lambda: not door.sessions)
        assert any(line.startswith("web disconnect") and "exit status 3" in line for line in srv.logs)


async def test_a_browser_back_with_its_cookie_gets_its_seat_and_another_browser_does_not(tmp_path):
    async with bob_seated(tmp_path, "oak") as (door, bob):
        async with web_client("a" * 43) as ann_client, web_client("e" * 43) as eve_client:
            ann = await open_socket(ann_client, door, "/table/oak", name="ann")
            await read_screen(ann, "SNAPSHOT you=ann seat=2 ")
            await bob.expect(r"STATE seats=bob:player,ann:player")
            await ann.send_bytes(b"f")  # the table moved: ann's seat is kept when she goes
            await bob.expect(r"waiting=1 ")
            await ann.close()
            await bob.expect(r"STATE seats=bob:player,ann:away")
            eve = await open_socket(eve_client, door, "/table/oak", name="ann")  # her name, not her cookie
            assert re.search(r"SNAPSHOT you=\S+ seat=- ", await read_screen(eve, r"SNAPSHOT .* seat=\S "))
            back = await open_socket(ann_client, door, "/table/oak", name="ann")
            await read_screen(back, "SNAPSHOT you=ann seat=2 ")
            await bob.expect(r"NOTICE joined ann is back at seat 2")
            await eve.close()
            await back.close()


async def test_a_game_that_breaks_the_table_protocol_says_why_it_ended(tmp_path):
    async with served(tmp_path, {"argv": FAKE_TABLE_ARGV}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/table/oak", name="ann")
            seen = bytearray()
            await read_screen(ws, "SNAPSHOT you=ann", seen)
            await ws.send_bytes(b"G")  # past the link's patience: the game is ended with a goodbye
            await read_screen(ws, re.escape(TABLE_BROKEN), seen)
    assert any("web table link closed: too many malformed messages" in line for line in srv.logs)


@pytest.mark.app
async def test_with_the_real_game_the_first_tab_ends_saying_why_and_frees_its_place(tmp_path, monkeypatch):
    """The first tab's goodbye says why, its websocket closes, and its place among its address's games is free
    again (two an address here: the first tab, the second; then a third gets in)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME, "max_sessions_per_address": 2}, max_sessions_per_address=2) as (srv, door):
        async with web_client("a" * 43) as tess_client:
            first = await open_socket(tess_client, door, "/table/dup", name="tess", cols=100, rows=30)
            seen = bytearray()
            await read_screen(first, r"tess \(you\)", seen)
            second = await open_socket(tess_client, door, "/table/dup", name="tess", cols=100, rows=30)
            await read_screen(second, r"tess \(you\)")
            said = await closed(first, seen)
            assert "war-tui: you sat down at this table again from another connection: the game goes on there." in said
            assert first.close_code == CLOSE_GOODBYE
            async with web_client("b" * 43) as eve_client:
                third = await open_socket(eve_client, door, "/table/dup", name="eve", cols=100, rows=30)
                await read_screen(third, r"eve \(you\)")
                await third.close()
            await second.close()
    assert any("web disconnect" in line and "exit status 0" in line for line in srv.logs), srv.logs


async def test_a_second_tab_of_the_same_browser_takes_the_seat_and_the_first_tab_is_told(tmp_path):
    async with bob_seated(tmp_path, "dup") as (door, bob):
        async with web_client("a" * 43) as tess_client:
            first = await open_socket(tess_client, door, "/table/dup", name="tess")
            seen = bytearray()
            await read_screen(first, "SNAPSHOT you=tess seat=2 ", seen)
            await bob.expect(r"STATE seats=bob:player,tess:player")
            await first.send_bytes(b"f")
            bob.type(b"f")
            await bob.expect(r"BATTLE 1 ")
            second = await open_socket(tess_client, door, "/table/dup", name="tess")
            await read_screen(second, "SNAPSHOT you=tess seat=2 game=1 battles=1 ")
            await read_screen(first, "NOTICE closing you sat down at this table again from another connection", seen)
            await bob.expect(r"NOTICE joined tess plays on at seat 2 from another connection")
            await second.send_bytes(b"f")
            bob.type(b"f")
            await read_screen(second, "BATTLE 2 ")
            assert "tess-2" not in bob.text and "house" not in bob.text
            await second.close()
