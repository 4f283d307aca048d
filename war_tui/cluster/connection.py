"""The server's one connection to NATS: reached at start-up or refused in one line, reconnected after.

At start the servers given must answer within ``CONNECT_TIMEOUT`` (the command then exits 2 with the
reason); once connected, the client reconnects on its own, forever, to any server of the cluster it knows,
and the log says when NATS went away and came back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import urllib.parse
from collections.abc import Callable, Sequence

from nats.aio.client import Client

from .errors import ClusterUnavailable

CONNECT_TIMEOUT = 5.0
"""Seconds the servers given have to answer at start-up."""
RECONNECT_WAIT = 1
"""Seconds between attempts at one server once connected (the client tries every server it knows in turn)."""


def _with_netloc(parts: urllib.parse.SplitResult, user_info: str = "") -> str:
    """``parts`` as a URL whose user info is ``user_info`` (none: ""), its host and port as they were."""
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    port = f":{parts.port}" if parts.port is not None else ""
    return urllib.parse.urlunsplit((parts.scheme, f"{user_info}{host}{port}", parts.path, parts.query, parts.fragment))


def shown_url(url: str) -> str:
    """A URL as the log may show it: without a password or token."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    return _with_netloc(parts, "***@")


def lift_credentials(urls: Sequence[str]) -> tuple[list[str], str | None, str | None, str | None]:
    """``urls`` without their user info, and the token (or user and password) they all carry, when they carry
    one: the client then signs in with it at every server, those the cluster tells it of too. A server of the
    cluster learnt that way has no user info of its own; with the token left in the URLs it would be tried
    without one and refused ("Authorization Violation"), and a client given one URL could never reconnect
    once that server died. URLs that carry different credentials are left as they are."""
    parts = [urllib.parse.urlsplit(url) for url in urls]
    given = {(part.username, part.password) for part in parts if part.username is not None or part.password is not None}
    if len(given) != 1:
        return list(urls), None, None, None
    user, password = given.pop()
    bare = [_with_netloc(part) for part in parts]
    user, password = urllib.parse.unquote(user or ""), (None if password is None else urllib.parse.unquote(password))
    if password is None:
        return bare, user, None, None
    return bare, None, user, password


def _reason(error: BaseException | None) -> str:
    if error is None:
        return "no answer"
    if isinstance(error, OSError) and (error.errno or error.strerror):
        words = os.strerror(error.errno) if error.errno else str(error.strerror)  # asyncio's strerror names no cause
        return words[0].lower() + words[1:]
    return str(error) or type(error).__name__


async def connect(
    urls: Sequence[str], log: Callable[[str], None], *, token: str | None = None, name: str = "war-tui",
    timeout: float = CONNECT_TIMEOUT, reconnected: Callable[[], None] | None = None,
) -> Client:
    """A client connected to one of ``urls``, or ``ClusterUnavailable`` naming them and why; ``reconnected`` is
    called each time the connection comes back."""
    client = Client()
    servers, lifted, user, password = lift_credentials(urls)
    token = token if lifted is None else lifted
    errors: list[BaseException] = []
    connected = False

    async def on_error(error: Exception) -> None:
        if not connected:
            errors[:] = [error]  # only the last: an unreachable server fails many times a second
        else:
            log(f"NATS: {_reason(error)}")

    async def on_disconnect() -> None:
        if connected and not client.is_closed:
            log("NATS: disconnected; reconnecting")

    async def on_reconnect() -> None:
        url = client.connected_url
        log(f"NATS: reconnected to {shown_url(url.geturl()) if url is not None else 'the cluster'}")
        if reconnected is not None:
            reconnected()

    try:
        await asyncio.wait_for(
            client.connect(
                servers=servers, token=token, user=user, password=password, name=name, connect_timeout=max(1, round(timeout / 2)),
                allow_reconnect=True, max_reconnect_attempts=-1, reconnect_time_wait=RECONNECT_WAIT,
                error_cb=on_error, disconnected_cb=on_disconnect, reconnected_cb=on_reconnect,
            ),
            timeout,
        )
    except Exception as exc:  # noqa: BLE001 - whatever kept it from NATS, the operator reads one line
        with contextlib.suppress(Exception):  # closing what never opened: nothing to report
            await client.close()
        cause = errors[-1] if errors else (None if isinstance(exc, TimeoutError) else exc)
        where = ", ".join(shown_url(url) for url in urls)
        raise ClusterUnavailable(f"cannot reach NATS at {where}: {_reason(cause)}") from None
    connected = True
    return client
