"""A browser's identity is one the server issued and signed; a page another site led to starts nothing.

Real sockets against an in-process door; the browser's side (a link from another site keeps the identity
and waits for Play) is in test_web_browser_identity.py.
"""

from __future__ import annotations

import re
import secrets

import aiohttp
import pytest
from web_support import TOKEN, open_socket, origin, read_screen, served, signed, web_client

from war_tui.web.identity import COOKIE, Identities


def starts(body: str) -> str:
    """What the terminal page was told: start at once ("now") or wait for Play ("on-play")."""
    found = re.search(r'<meta name="starts" content="([^"]*)">', body)
    assert found, body[:400]
    return found[1]


async def page(door, path: str = "/table/oak", cookie: str | None = None, fetch_site: str | None = None):
    """The page at ``path`` as a browser with ``cookie`` gets it; (what it was told, the cookie it was given)."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie is not None else {}
    if fetch_site is not None:
        headers["Sec-Fetch-Site"] = fetch_site
    async with aiohttp.ClientSession() as client:
        async with client.get(origin(door) + path, headers=headers) as response:
            assert response.status == 200
            given = response.cookies.get(COOKIE)
            return starts(await response.text()), (given.value if given is not None else None)


@pytest.mark.parametrize(
    "forged", ["random", "unsigned token", "another server's", "a signature of another token"],
)
async def test_a_cookie_the_server_did_not_sign_is_no_identity(tmp_path, forged):
    async with served(tmp_path) as (srv, door):
        forgeries = {
            "random": lambda: secrets.token_urlsafe(32),  # 43 characters a client picked
            "unsigned token": lambda: TOKEN,
            "another server's": lambda: Identities(b"another server").sign(TOKEN),
            "a signature of another token": lambda: TOKEN + "." + signed(door, "a" * 43).split(".")[1],
        }
        value = forgeries[forged]()
        async with aiohttp.ClientSession() as client:
            headers = {"Origin": origin(door), "Cookie": f"{COOKIE}={value}"}
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(origin(door) + "/ws/table/oak?name=eve", headers=headers)
            assert refused.value.status == 403
        assert not door.sessions and not any("web connect" in line for line in srv.logs)
        _, issued = await page(door, cookie=value)
        assert issued is not None and issued != value and door.identities.token(issued) is not None  # a new one


async def test_a_signed_cookie_is_kept_and_is_the_same_identity_each_time(tmp_path):
    async with served(tmp_path, {"max_sessions_per_address": 8}) as (srv, door):
        _, issued = await page(door)
        assert issued is not None
        _, again = await page(door, cookie=issued)
        assert again is None  # a browser with its identity keeps it
        players = []
        for _ in range(2):
            async with aiohttp.ClientSession() as client:
                ws = await client.ws_connect(origin(door) + "/ws", headers={"Origin": origin(door),
                                                                            "Cookie": f"{COOKIE}={issued}"})
                text = await read_screen(ws, "READY")
                players.append(text.split("WAR_TUI_PLAYER_ID=")[1].split()[0])
                await ws.close()
        assert players[0] == players[1] and issued.split(".")[0][:10] not in players[0]


@pytest.mark.parametrize(
    ("cookie", "fetch_site", "told"),
    [
        (True, "cross-site", "on-play"),  # a link from another site, cookie and all (SameSite=Lax)
        (True, "same-site", "on-play"),  # another port or a sibling name of the same site
        (False, "cross-site", "on-play"),
        (False, None, "on-play"),  # no identity, and the browser does not say where it came from
        (True, "same-origin", "now"),  # our own page's links (the lobby, Play again)
        (True, "none", "now"),  # typed, or a bookmark
        (True, None, "now"),  # a browser that sends no Sec-Fetch-Site, with its identity
        (False, "none", "now"),  # a first visit, typed
    ],
)
async def test_a_page_another_site_led_to_waits_for_play(tmp_path, cookie, fetch_site, told):
    async with served(tmp_path) as (srv, door):
        assert (await page(door, cookie=signed(door) if cookie else None, fetch_site=fetch_site))[0] == told
        assert (await page(door, "/", cookie=signed(door) if cookie else None, fetch_site=fetch_site))[0] == told


async def test_the_cookie_is_lax_so_a_link_keeps_it(tmp_path):
    async with served(tmp_path) as (srv, door):
        async with aiohttp.ClientSession() as client:
            async with client.get(origin(door) + "/line/table/oak") as response:
                cookie = response.cookies[COOKIE]
                assert cookie["samesite"] == "Lax" and cookie["httponly"] and cookie["path"] == "/"
        async with web_client() as client:  # the socket is still guarded: its Origin, exactly
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await open_socket(client, door, origin_header="http://evil.test")
