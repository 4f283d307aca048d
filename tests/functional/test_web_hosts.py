"""The web door answers only to its own host names, and opens a websocket only to its own origin, exactly.

A page of another site can make a browser ask our address under a name of its own (DNS rebinding); the
``Host`` header is what shows it. Real sockets against an in-process door; the browser's side is in
test_web_browser_identity.py.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from ssh_support import TIMEOUT
from web_support import open_socket, origin, served, signed, web_client

from war_tui.web.hosts import web_host_value
from war_tui.web.identity import COOKIE


async def status_of(door, path: str, host: str) -> int:
    """The status of a plain GET of ``path`` asked under the host name ``host``."""
    async with aiohttp.ClientSession() as client:
        async with client.get(origin(door) + path, headers={"Host": host}) as response:
            await response.read()
            return response.status


async def upgrade_status(door, host: str, origin_header: str) -> int:
    """The status of a websocket handshake asked under ``host`` from a page of ``origin_header`` (101: it opened)."""
    async with aiohttp.ClientSession() as client:
        headers = {"Host": host, "Origin": origin_header, "Cookie": f"{COOKIE}={signed(door)}"}
        try:
            ws = await asyncio.wait_for(client.ws_connect(origin(door) + "/ws/table/rebind?name=eve", headers=headers),
                                        TIMEOUT)
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status
        await ws.close()
        return 101


async def test_a_request_under_another_host_name_gets_421_and_no_game(tmp_path):
    async with served(tmp_path) as (srv, door):
        evil = f"evil.test:{door.port}"
        for path in ("/", "/table/rebind", "/line/table/rebind", "/static/page.js", "/nope"):
            assert await status_of(door, path, evil) == 421, path
        assert await upgrade_status(door, evil, f"http://{evil}") == 421
        assert not door.sessions and not any("web connect" in line for line in srv.logs)
        assert door.server.tables.registry.table("rebind") is None
        assert any(f"refused: host '{evil}'" in line for line in srv.logs), srv.logs  # no table was opened under the rebinding name
        # By default: the listening address and localhost, at its port only.
        assert await status_of(door, "/table/oak", f"127.0.0.1:{door.port}") == 200
        assert await status_of(door, "/table/oak", f"localhost:{door.port}") == 200
        assert await status_of(door, "/", f"127.0.0.1:{door.port + 1}") == 421
        assert await status_of(door, "/", "127.0.0.1") == 421


@pytest.mark.parametrize(
    "bad", ["https://127.0.0.1:{port}", "http://127.0.0.1:{port}/", "http://127.0.0.1:{port}/game",
            "http://127.0.0.1:{port}?x"],
    ids=["https on the http door", "a path /", "a path /game", "a query"],
)
async def test_a_socket_origin_must_be_the_doors_own_exactly(tmp_path, bad):
    async with served(tmp_path) as (srv, door):
        async with web_client() as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_socket(client, door, origin_header=bad.format(port=door.port))
            assert refused.value.status == 403
        assert not door.sessions
        assert any("refused: origin" in line for line in srv.logs)


async def test_the_names_given_are_the_only_ones_answered_and_a_proxys_https_origin_is_its_own(tmp_path):
    """``--web-host war.test --web-host https://war.example.org``: the door behind a TLS proxy and on the LAN."""
    hosts = (web_host_value("war.test"), web_host_value("https://war.example.org"))
    async with served(tmp_path, hosts=hosts) as (srv, door):
        assert await status_of(door, "/", f"war.test:{door.port}") == 200
        assert await status_of(door, "/", "war.example.org") == 200  # the proxy's Host: port 443, unsaid
        assert await status_of(door, "/", f"127.0.0.1:{door.port}") == 421  # the default names are replaced
        assert await upgrade_status(door, "war.example.org", "https://war.example.org") == 101
        assert await upgrade_status(door, "war.example.org", "http://war.example.org") == 403
        assert await upgrade_status(door, f"war.test:{door.port}", f"http://war.test:{door.port}") == 101
        assert await upgrade_status(door, f"war.test:{door.port}", f"https://war.test:{door.port}") == 403


@pytest.mark.long_wait  # a server process's start-up and shutdown; each state waited for
async def test_serve_takes_web_host_names_from_the_command_line(tmp_path):
    import re
    import subprocess
    import sys

    from ssh_support import FAKE_GAME

    server = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve", "--web", "0", "--web-host", "war.test", "--web-host", "lan-box:8000",
         "--host-key", str(tmp_path / "key"), "--session-command", f"{sys.executable} {FAKE_GAME}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines: list[str] = []
        while not any("listening on" in line for line in lines):
            line = server.stderr.readline()
            assert line, lines
            lines.append(line)
        port = int(re.search(r"listening on \S+:(\d+): open http://", "".join(lines))[1])
        assert f"web door answers to http://war.test:{port}, http://lan-box:8000;" in "".join(lines)
        async with aiohttp.ClientSession() as client:
            for host, status in ((f"war.test:{port}", 200), ("lan-box:8000", 200), (f"127.0.0.1:{port}", 421),
                                 (f"evil.test:{port}", 421)):
                async with client.get(f"http://127.0.0.1:{port}/", headers={"Host": host}) as response:
                    assert response.status == status, host
        server.terminate()
        assert server.wait(TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
