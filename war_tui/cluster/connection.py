"""The server's one connection to NATS: reached at start-up or refused in one line, reconnected after.

At start the servers given must answer within ``CONNECT_TIMEOUT`` (the command then exits 2 with the
reason); once connected, the client reconnects on its own, forever, to any server of the cluster it knows,
and the log says when NATS went away and came back.

``tls://`` means TLS. nats-py turns to TLS only when a server's greeting asks for it, and sends the
credentials either way; so with ``tls://`` URLs every credential is handed over by a callback (a token's, a
user's, a signature's: nats-py calls them as it writes its CONNECT) that gives nothing unless a TLS
handshake has just completed on this connection (``TlsGuard``); a server that answers without TLS is
refused before the client sends it a byte. The handshake checks the server's certificate and name.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nats.aio.client import Client
from nats.errors import Error as NatsError

from .access import NatsAccess, Secret, TlsFiles
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


class PlainAnswer(NatsError):
    """A ``tls://`` server answered without TLS: no credential, nor anything else, goes to it."""

    def __str__(self) -> str:
        return "it answered without TLS, which a tls:// URL asks for; nothing was sent to it"


class TlsGuard:
    """Lets a credential go only right after a TLS handshake completed on the connection it goes out on.

    nats-py reads the server's greeting, completes TLS if the greeting asks for it, then builds its CONNECT,
    calling the credential callbacks one after another without yielding to the event loop. A completed
    handshake opens one window for them, closed at the loop's next turn; a CONNECT with no handshake before
    it finds none open and is refused (``PlainAnswer``), the connection dropped unsent.
    """

    def __init__(self, context: ssl.SSLContext) -> None:
        self._fresh = False
        self._open = False
        guard = self

        class Watched(ssl.SSLObject):
            def do_handshake(self) -> None:
                super().do_handshake()  # raises until the handshake is complete
                guard._fresh = True

        context.sslobject_class = Watched

    def check(self) -> None:
        if self._open:
            return
        if not self._fresh:
            raise PlainAnswer()
        self._fresh, self._open = False, True
        asyncio.get_running_loop().call_soon(self._close)

    def _close(self) -> None:
        self._open = False


@dataclass(frozen=True)
class SignIn:
    """What the client is given to sign in with, each credential behind the guard when TLS is required."""

    options: dict[str, object]

    @classmethod
    def of(cls, access: NatsAccess, guard: TlsGuard | None) -> SignIn:
        def given(value: str) -> Callable[[], str]:
            def hand_over() -> str:
                if guard is not None:
                    guard.check()
                return value

            return hand_over

        options: dict[str, object] = {}
        if access.user is not None and access.password is not None:
            options.update(user=given(access.user), password=given(access.password.reveal()))
        if access.credentials is not None:
            credentials = access.credentials

            def signature(nonce: str) -> bytes:
                if guard is not None:
                    guard.check()
                return credentials.sign(nonce)

            options.update(signature_cb=signature, user_jwt_cb=lambda: credentials.jwt.encode())
        token = access.token.reveal() if access.token is not None else None
        if guard is not None:
            # Always a token callback: nats-py then builds every CONNECT through a callback, whatever the
            # server's greeting says. An empty token is no token to the server.
            options["token"] = given(token or "")
        elif token is not None:
            options["token"] = token
        return cls(options)


def with_url_credentials(urls: Sequence[str], access: NatsAccess) -> tuple[list[str], NatsAccess]:
    """``urls`` without their user info, and ``access`` with what they carried (when it has none of its own)."""
    servers, token, user, password = lift_credentials(urls)
    if access.signs_in or (token is None and user is None):
        return servers if not access.signs_in else list(urls), access
    return servers, NatsAccess(
        token=Secret(token) if token is not None else None, user=user,
        password=Secret(password) if password is not None else None, tls=access.tls,
    )


def requires_tls(urls: Sequence[str]) -> bool:
    return any(urllib.parse.urlsplit(url).scheme == "tls" for url in urls)


def _reason(error: BaseException | None) -> str:
    if error is None:
        return "no answer"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"its TLS certificate is refused ({error.verify_message or error.reason or 'not trusted'})"
    if isinstance(error, ssl.SSLError):
        return f"TLS failed ({error.reason or type(error).__name__})"
    if isinstance(error, OSError) and (error.errno or error.strerror):
        words = os.strerror(error.errno) if error.errno else str(error.strerror)  # asyncio's strerror names no cause
        return words[0].lower() + words[1:]
    return str(error) or type(error).__name__


async def connect(
    urls: Sequence[str], log: Callable[[str], None], *, token: str | None = None, access: NatsAccess | None = None,
    name: str = "war-tui", timeout: float = CONNECT_TIMEOUT, reconnected: Callable[[], None] | None = None,
) -> Client:
    """A client connected to one of ``urls``, or ``ClusterUnavailable`` naming them and why; ``reconnected`` is
    called each time the connection comes back. ``token`` (the embedded server's) or ``access`` sign in;
    credentials in the URLs do too, when ``access`` has none."""
    client = Client()
    if access is None:
        access = NatsAccess(token=Secret(token) if token is not None else None)
    servers, access = with_url_credentials(urls, access)
    tls: dict[str, object] = {}
    guard = None
    if requires_tls(urls):
        context = (access.tls or TlsFiles()).context()
        guard = TlsGuard(context)
        tls["tls"] = context
    sign_in = SignIn.of(access, guard)
    errors: list[BaseException] = []
    refused = asyncio.Event()
    connected = False

    async def on_error(error: Exception) -> None:
        if not connected:
            errors[:] = [error]  # only the last: an unreachable server fails many times a second
            if isinstance(error, (PlainAnswer, ssl.SSLError)):
                refused.set()  # an attack or a mistake either way: the operator hears of it at once
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

    attempt = asyncio.ensure_future(client.connect(
        servers=servers, name=name, connect_timeout=max(1, round(timeout / 2)),
        allow_reconnect=True, max_reconnect_attempts=-1, reconnect_time_wait=RECONNECT_WAIT,
        error_cb=on_error, disconnected_cb=on_disconnect, reconnected_cb=on_reconnect,
        **tls, **sign_in.options,  # type: ignore[arg-type]  # each of the types nats-py's connect names
    ))
    plain = asyncio.ensure_future(refused.wait())
    try:
        await asyncio.wait({attempt, plain}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        plain.cancel()
        if not attempt.done():
            attempt.cancel()  # past the time, or a plain answer: no other server is tried
            await asyncio.wait({attempt})
    failure = TimeoutError() if attempt.cancelled() else attempt.exception()
    if failure is not None:
        with contextlib.suppress(Exception):  # closing what never opened: nothing to report
            await client.close()
        cause = errors[-1] if errors else (None if isinstance(failure, TimeoutError) else failure)
        where = ", ".join(shown_url(url) for url in urls)
        raise ClusterUnavailable(f"cannot reach NATS at {where}: {_reason(cause)}")
    connected = True
    return client
