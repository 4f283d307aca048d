"""The web door for the tests: a door beside an in-process server, websocket clients, and the browser.

The browser is Debian's chromium driven by Playwright (never Playwright's own download; each launch gets
a fresh profile of its own); a test that needs it is marked ``browser`` and skips when chromium or
Playwright is missing.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from weakref import WeakKeyDictionary

import aiohttp
from ssh_support import FAKE_TABLE_ARGV, TIMEOUT, InProcessServer, Seat, connect, start_server

from war_tui.serving.server import GameServer
from war_tui.web.config import WebConfig
from war_tui.web.server import COOKIE, WebDoor

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
TOKEN = "t" * 43  # an identity's token; its cookie is the token signed by the door (``signed``)
_TOKENS: WeakKeyDictionary[aiohttp.ClientSession, str] = WeakKeyDictionary()
"""The token of each ``web_client``, signed for a door when a socket opens to it."""


async def open_door(server: GameServer, **options) -> WebDoor:
    door = WebDoor(server, WebConfig(port=0, **options), log=server.log)
    await door.start()
    return door


@asynccontextmanager
async def served(tmp_path, server_options=None, **door_options) -> AsyncIterator[tuple[InProcessServer, WebDoor]]:
    """An in-process serve-ssh (``--public``, the stand-in game unless ``server_options`` say) with a web door;
    the door, then the server, stopped at the end however the test ends (a test may stop the door itself)."""
    async with await start_server(tmp_path, None, **(server_options or {})) as srv:
        door = await open_door(srv.server, **door_options)
        try:
            yield srv, door
        finally:
            await door.stop()


@asynccontextmanager
async def bob_seated(tmp_path, table: str) -> AsyncIterator[tuple[WebDoor, Seat]]:
    """A door whose games are the stand-in table game (ssh_support/fake_table.py), and bob seated at ``table``
    over SSH; 16 sessions an address, so a test's browsers all get in."""
    async with served(tmp_path, {"argv": FAKE_TABLE_ARGV, "max_sessions_per_address": 16},
                      max_sessions_per_address=16) as (srv, door):
        conn = await connect(srv.port, None, username="bob")
        try:
            process = await conn.create_process(f"table {table}", term_type="xterm-256color", term_size=(100, 30),
                                                encoding=None)
            yield door, Seat(conn, process)
        finally:
            conn.close()


def origin(door: WebDoor) -> str:
    return f"http://127.0.0.1:{door.port}"


def signed(door: WebDoor, token: str = TOKEN) -> str:
    """The identity cookie's value the door issues for ``token``, as the page would have set it."""
    return door.identities.sign(token)


@asynccontextmanager
async def web_client(token: str | None = TOKEN) -> AsyncIterator[aiohttp.ClientSession]:
    """A browser whose identity is ``token`` (its cookie signed by the door it opens a socket to); None: no cookie."""
    async with aiohttp.ClientSession() as client:
        if token is not None:
            _TOKENS[client] = token
        yield client


async def open_socket(client: aiohttp.ClientSession, door: WebDoor, path: str = "", *, name: str = "ann",
                      cols: int = 80, rows: int = 24, origin_header: str | None = None, **options):
    url = f"{origin(door)}/ws{path}?name={name}&cols={cols}&rows={rows}"
    if client in _TOKENS:
        client.cookie_jar.update_cookies({COOKIE: signed(door, _TOKENS[client])})
    headers = {"Origin": origin_header if origin_header is not None else origin(door)}
    return await asyncio.wait_for(client.ws_connect(url, headers=headers, **options), TIMEOUT)


async def read_screen(ws, pattern: str, seen: bytearray | None = None) -> str:
    """Read binary messages until ``pattern`` shows in what arrived; the close ends it with an AssertionError."""
    seen = bytearray() if seen is None else seen
    regex = re.compile(pattern)

    async def watch() -> str:
        while not regex.search(seen.decode(errors="replace")):
            message = await ws.receive()
            if message.type is aiohttp.WSMsgType.BINARY:
                seen.extend(message.data)
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                raise AssertionError(f"closed ({ws.close_code}) before {pattern!r}: {seen.decode(errors='replace')!r}")
        return seen.decode(errors="replace")

    try:
        return await asyncio.wait_for(watch(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"no {pattern!r} in {seen.decode(errors='replace')!r}") from None


async def closed(ws, seen: bytearray | None = None) -> str:
    """Read to the close; what arrived before it."""
    seen = bytearray() if seen is None else seen

    async def rest() -> None:
        async for message in ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                seen.extend(message.data)

    await asyncio.wait_for(rest(), TIMEOUT)
    return seen.decode(errors="replace")


async def read_lines(ws, pattern: str, seen: list[str] | None = None, since: int = 0) -> list[str]:
    """Read the plain-text page's sentences (text messages) until one from ``seen[since]`` on matches ``pattern``;
    all read so far."""
    seen = [] if seen is None else seen
    regex = re.compile(pattern)

    async def watch() -> list[str]:
        while not any(regex.search(line) for line in seen[since:]):
            message = await ws.receive()
            if message.type is aiohttp.WSMsgType.TEXT:
                seen.append(message.data)
            elif message.type is aiohttp.WSMsgType.BINARY:
                raise AssertionError(f"a binary message on the plain-text page: {message.data[:80]!r}")
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                raise AssertionError(f"closed ({ws.close_code}) before {pattern!r}: {seen!r}")
        return seen

    try:
        return await asyncio.wait_for(watch(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"no {pattern!r} in {seen!r}") from None


async def lines_to_close(ws, seen: list[str] | None = None) -> list[str]:
    """Read the plain-text page's sentences to the close; all of them."""
    seen = [] if seen is None else seen

    async def rest() -> None:
        async for message in ws:
            assert message.type is aiohttp.WSMsgType.TEXT, message
            seen.append(message.data)

    await asyncio.wait_for(rest(), TIMEOUT)
    return seen
