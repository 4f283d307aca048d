"""The web door's plain-text page at the websocket level: the line mode for screen readers and braille.

Most run the stand-in game (ssh_support/fake_game.py), which says every key it gets; those marked ``app``
run the real game in the line mode and compare its sentences with the ones ``ssh -T HOST line`` gets.
"""

from __future__ import annotations

import asyncio
import re
import sys

import aiohttp
import pytest
from ssh_support import FAKE_ARGV, connect, game_pid, until, wait_gone
from web_support import lines_to_close, open_socket, origin, read_lines, served, web_client

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP
from war_tui.serving.commands import LineCommand, TableMode
from war_tui.web.line_text import SentenceCutter, typed_line
from war_tui.web.server import COOKIE, line_address, place_command, screen_address

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)
GAME_TIMEOUT = 30.0


def plain(sentence: str) -> bool:
    return all(ch.isprintable() for ch in sentence)


async def test_the_plain_text_page_is_linked_first_and_is_plain_semantic_html(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            for path, line in (("/", "/line"), ("/table/Oak", "/line/table/oak"), ("/watch/oak", "/line/watch/oak"),
                               ("/tables", "/line")):
                async with client.get(origin(door) + path) as response:
                    body = await response.text()
                first = re.search(r"<body>.*?<(a|input|button)\b([^>]*)>([^<]*)", body, re.S)
                assert first and first[1] == "a" and f'href="{line}"' in first[2], (path, first)
                assert first[3] == "Plain text for screen readers"
            async with client.get(origin(door) + "/line/table/oak") as response:
                assert response.status == 200
                body = await response.text()
                policy = response.headers["Content-Security-Policy"]
                assert "script-src 'self';" in policy and "unsafe-inline" not in policy and "nonce" not in policy
                assert door.identities.token(response.cookies[COOKIE].value)  # an identity, as the terminal page's
            assert "xterm" not in body and "<script>" not in body and " style=" not in body
            assert 'role="log"' in body and 'aria-live="polite"' in body
            assert '<label for="say">' in body and '<label for="name">' in body
            assert 'href="/table/oak"' in body  # back to the full-screen game of the same table
            for key in "ashq":
                assert f'data-line="{key}"' in body
            async with client.get(origin(door) + "/static/line.js") as response:
                assert response.status == 200 and "textContent" in await response.text()
            for path in ("/line/tables", "/line/x", "/line/table/a/b"):
                async with client.get(origin(door) + path) as response:
                    assert response.status == 404, path


async def test_a_spectators_plain_text_page_offers_only_a_spectators_keys(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            async with client.get(origin(door) + "/line/watch/oak") as response:
                body = await response.text()
    assert "You are watching" in body and "Flip (Enter)" not in body
    assert [key for key in "ashq" if f'data-line="{key}"' in body] == ["s", "h", "q"]


async def test_the_line_socket_runs_the_game_in_the_line_mode_and_types_lines(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            seen = await read_lines(ws, "^READY$")
            env = next(line for line in seen if line.startswith("ENV "))
            assert "WAR_TUI_LINE=lines" in env and "TERM=dumb" in env and "COLORTERM" not in env
            assert "WAR_TUI_PLAYER_ID=web:" in env
            await ws.send_str("")  # Enter in an empty box: the line mode's flip
            await read_lines(ws, "^KEY 0a$", seen)
            await ws.send_str("a")
            start = len(seen)
            await read_lines(ws, "^KEY 0a$", seen, since=start)
            assert seen[start:] == ["KEY 61", "KEY 0a"]
            assert all(plain(line) for line in seen)
            pid = game_pid("\n".join(seen))
            await ws.close()
            assert await wait_gone(pid)
        await until(lambda: not door.sessions)
        assert any(line.startswith("web connect") and "line mode" in line for line in srv.logs), srv.logs


async def test_a_hostile_line_reaches_the_game_printable_capped_and_bytes_are_not_keys(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            seen = await read_lines(ws, "^READY$")
            start = len(seen)
            await ws.send_bytes(b"q")  # not a key on this page: the stand-in game would quit on it
            await ws.send_str("\x1b[B\x03\x04\nz\r")  # escape, ctrl+C, ctrl+D, a second line: one printable line
            await read_lines(ws, "^KEY 0a$", seen)
            keys = [line.split()[1] for line in seen[start:] if line.startswith("KEY ")]
            assert keys == ["5b", "42", "20", "20", "20", "7a", "0a"]  # no 1b, 03, 04, no second line
            start = len(seen)
            await ws.send_str("y" * 5000)  # a line longer than the line mode reads: capped
            await read_lines(ws, "^KEY 0a$", seen, since=start)
            keys = [line for line in seen[start:] if line.startswith("KEY ")]
            assert keys.count("KEY 79") == 200 and keys[-1] == "KEY 0a"
            await ws.close()


@pytest.mark.app
async def test_lines_typed_while_the_game_starts_wait_for_it(tmp_path, monkeypatch):
    from war_tui.web import session as web_session

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    started = asyncio.Event()
    start = web_session.PtyProcess.start

    async def slow_start(*args, **kwargs):
        await started.wait()  # the game starts only once the page has typed
        return await start(*args, **kwargs)

    monkeypatch.setattr(web_session.PtyProcess, "start", slow_start)
    async with served(tmp_path, {"argv": (*GAME, "--seed", "3", "--no-stats")}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            for typed in ("", "s"):
                await ws.send_str(typed)
            await until(lambda: door.sessions and len(next(iter(door.sessions))._early) == 3)
            started.set()
            seen = await asyncio.wait_for(read_lines(ws, "^Battle 1, "), GAME_TIMEOUT)
            assert seen[-2:] == ["Your eight of hearts beats their five of diamonds. You have 27, they have 25.",
                                 "Battle 1, no wars so far. You have 27, they have 25."]
            await ws.close()


async def test_escape_bytes_from_the_game_never_reach_the_page(tmp_path):
    async with served(tmp_path, {"argv": (*FAKE_ARGV, "--escapes")}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            seen = await read_lines(ws, "RED")
            seen = await read_lines(ws, "more", seen)
            assert all(plain(line) for line in seen), seen
            assert "\x1b" not in "".join(seen) and "\x9b" not in "".join(seen)
            await ws.send_bytes(b"x")  # ignored
            await ws.send_str("x")  # the stand-in game ends on x: the socket closes with the game
            await lines_to_close(ws, seen)
            assert all(plain(line) for line in seen), seen
            assert ws.close_code == 1000


async def test_the_time_limit_and_idle_end_a_line_game_with_a_sentence_each(tmp_path):
    async with served(tmp_path, {"session_seconds": 1.0}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            pid = game_pid("\n".join(await read_lines(ws, "^READY$")))
            said = await lines_to_close(ws)
            assert said[-1].startswith("war-tui: the session time limit") and ws.close_code == 1000
            assert all(plain(line) for line in said) and not any("[?" in line for line in said)  # no terminal reset
            assert await wait_gone(pid)
    async with served(tmp_path, idle_seconds=0.5) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            await read_lines(ws, "^READY$")
            said = await lines_to_close(ws)
            assert "no keys for" in said[-1] and "Come back any time" in said[-1]


@pytest.mark.parametrize("bad", ["http://evil.example", "null", ""])
async def test_a_line_socket_from_another_site_is_refused(tmp_path, bad):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_socket(client, door, "/line", origin_header=bad)
            assert refused.value.status == 403
        assert not door.sessions


async def test_a_line_message_too_large_or_too_many_end_the_game(tmp_path):
    async with served(tmp_path, message_bytes=1024, messages_per_second=5) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            pid = game_pid("\n".join(await read_lines(ws, "^READY$")))
            await ws.send_str("x" * 2048)
            await lines_to_close(ws)
            assert ws.close_code == 1009
            assert await wait_gone(pid)
            ws = await open_socket(client, door, "/line")
            seen = await read_lines(ws, "^READY$")
            for _ in range(30):
                await ws.send_str("s")
            await lines_to_close(ws, seen)
            assert ws.close_code == 1008
            assert any("more messages arrived than a game takes (5 a second)" in line for line in seen)


async def test_the_line_pages_count_in_the_web_caps(tmp_path):
    async with served(tmp_path, {"max_sessions_per_address": 8}, max_sessions_per_address=1) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            await read_lines(ws, "^READY$")
            second = await open_socket(client, door, "/")
            assert "your address already has 1 game" in "".join(await _binary_to_close(second))
            third = await open_socket(client, door, "/line")
            assert (await lines_to_close(third))[0].startswith("war-tui: your address already has 1 game")
            await ws.close()
            await until(lambda: not door.sessions)
            bad = await open_socket(client, door, "/line/table/" + "x" * 200)  # a bad table name: one sentence
            said = await lines_to_close(bad)
            assert len(said) == 1 and said[0].startswith("war-tui: that table name") and "x" * 50 not in said[0]


async def _binary_to_close(ws) -> list[str]:
    """What a refused terminal-page socket was told (in bytes, as its terminal reads them) before its close."""
    said = []
    async for message in ws:
        said.append(message.data.decode() if isinstance(message.data, bytes) else message.data)
    return said


def test_places_sentences_and_typed_lines():
    command = place_command("/line/table/Oak")
    assert isinstance(command, LineCommand) and command.table.table == "oak" and command.table.mode is TableMode.PLAY
    assert place_command("/line") == LineCommand()
    assert place_command("/line/watch/oak").table.mode is TableMode.WATCH
    assert line_address("/watch/Oak") == "/line/watch/oak" and line_address("/table/x!y") == "/line"
    assert screen_address("/line/table/oak") == "/table/oak" and screen_address("/line") == "/"
    cutter = SentenceCutter()
    assert cutter.feed(b"One.\nTw") == ["One."]
    assert cutter.feed(b"o \xc3") == []
    assert cutter.feed(b"\xa9.\n\n\x1b[31mRed\r\n") == ["Two \xe9.", "[31mRed"]
    assert cutter.feed(b"z" * 5000) == ["z" * 2000, "z" * 2000] and cutter.end() == ["z" * 1000]
    assert typed_line("\x1bq\x00") == b"q\n" and typed_line("") == b"\n" and len(typed_line("w" * 999)) == 201


@pytest.mark.app
async def test_the_page_hears_the_same_sentences_as_ssh_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": (*GAME, "--seed", "3", "--no-stats")}) as (srv, door):
        async with await connect(srv.port, None) as conn:
            over_ssh = await asyncio.wait_for(conn.run("line", input="\n\nscore\nq\n"), GAME_TIMEOUT)
        async with web_client() as client:
            ws = await open_socket(client, door, "/line")
            for typed in ("", "", "score"):  # typed at once, as piped into ssh: they wait for the game to start
                await ws.send_str(typed)
            seen = await asyncio.wait_for(read_lines(ws, "^Battle 2, "), GAME_TIMEOUT)
            await ws.send_str("q")
            await lines_to_close(ws, seen)
        assert ws.close_code == 1000
        assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in seen
        assert seen == over_ssh.stdout.splitlines(), (seen, over_ssh.stdout)
        assert seen[-1] == "Goodbye."


async def test_a_seats_plain_text_page_offers_the_tables_keys_and_a_spectators_the_seat(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            pages = {}
            for place in ("/line/table/oak", "/line/watch/oak", "/line"):
                async with client.get(origin(door) + place) as response:
                    pages[place] = await response.text()
    keys = "awrnthsq"
    offered = {place: [key for key in keys if f'data-line="{key}"' in body] for place, body in pages.items()}
    assert offered == {"/line/table/oak": ["a", "w", "r", "n", "h", "s", "q"], "/line/watch/oak": ["t", "h", "s", "q"],
                       "/line": ["a", "h", "s", "q"]}


@pytest.mark.app
async def test_the_page_at_a_table_hears_the_others_request_agrees_and_emotes(tmp_path, monkeypatch):
    from ssh_support.players import Listener

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, {"argv": GAME, "max_sessions_per_address": 16},
                      max_sessions_per_address=16) as (srv, door):
        bob = None
        try:
            async with web_client() as client:
                ws = await open_socket(client, door, "/line/table/oak", name="ann")
                seen = await read_lines(ws, r"^You sit at table oak in seat 1, as ann; nobody sits across yet\.$")
                conn = await connect(srv.port, None, username="bob")
                bob = Listener(conn, await conn.create_process("line table oak", encoding=None))
                await bob.until("You sit at table oak in seat 2, as bob; ann sits across.")
                bob.say(b"r\n")
                await read_lines(ws, r"^bob asks to stop this game and deal again: r agrees, n declines\.$", seen)
                await ws.send_str("r")
                await read_lines(ws, r"^Game 2 is dealt\. You have 26, bob has 26\.$", seen)
                await bob.until(r"Game 2 is dealt\. Ann has 26, you have 26\.")
                stopped = bob.lines[bob.lines.index("game stopped by agreement: a new deal"):]
                assert not any(line.startswith("Press enter") for line in stopped)  # the table deals at once
                await ws.send_str("6")
                await read_lines(ws, r"^You say: thanks$", seen)
                await bob.until("ann says: thanks")
                await ws.send_str("q")
                await lines_to_close(ws, seen)
            assert all(plain(line) for line in seen)
        finally:
            if bob is not None:
                bob.conn.close()
