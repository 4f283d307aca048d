"""The web door: the page, its files, and one websocket per game, admitted under the door's own caps.

It shares the SSH server's ``GameServer`` (tables, game parent, statistics, limits). A browser is known by
a signed token in an HttpOnly cookie (``identity.py``); the door answers only to its own host names and
origin (``hosts.py``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterator
from importlib import resources

from aiohttp import web

from ..presentation.words import plural
from ..serving.commands import (
    CommandRefused,
    GameRefused,
    LineCommand,
    ReplayCommand,
    TableCommand,
    TableMode,
    parse_command,
    parse_replay,
    way_to_play,
)
from ..serving.goodbyes import SHUTDOWN
from ..serving.limits import address_key
from ..serving.log_format import LogLine, place_fields
from ..serving.server import GameServer
from .config import WebConfig
from .downloads import Downloads
from .hosts import HostRules
from .http_guard import SECURITY_HEADERS, HttpGuard, handler_args, request_logger
from .identity import COOKIE, COOKIE_SECONDS, Identities, starts_by_itself
from .page import line_page_html, line_page_policy, page_html, page_policy
from .session import CLOSE_POLICY, Visitor, WebSession

MAX_NAME = 24
CLOSE_TRY_LATER = 1013
CLOSE_WAIT = 2.0
"""Seconds a browser has to answer our close; one that does not is let go."""
WRITER_LIMIT = 64 * 1024
"""Screen bytes aiohttp may hold for a browser before a send waits for it (our backlog comes on top)."""
STATIC = {
    "xterm.js": "text/javascript", "addon-fit.js": "text/javascript", "page.js": "text/javascript",
    "xterm.css": "text/css", "page.css": "text/css", "line.js": "text/javascript", "line.css": "text/css",
    "LICENSE.xterm": "text/plain", "LICENSE.addon-fit": "text/plain",
}
SERVER_FULL = "war-tui: the server is full; please try again later."
ADDRESS_FULL = "war-tui: your address already has {games} in progress here, the most one address may have."
OUT_OF_MEMORY = "war-tui: the server is out of memory for new games; please try again later."
TOO_MANY_ATTEMPTS = "war-tui: too many games started from your address; please wait a minute."


def clean_name(text: str) -> str:
    """The display name as the page sent it, fit to show: printable, trimmed, short; "guest" if none."""
    name = " ".join("".join(ch for ch in text if ch.isprintable()).split())[:MAX_NAME]
    return name or "guest"


def place_command(path: str) -> TableCommand | LineCommand | ReplayCommand | None:
    """The command a page's path stands for: ``/table/NAME``, ``/watch/NAME``, ``/tables``, ``/tv``,
    ``/replay/GAME_ID`` (its socket's ``/replay/GAME_ID@BATTLE``), and the plain-text page's ``/line``,
    ``/line/table/NAME``, ``/line/watch/NAME``, ``/line/tv``; None: a solo game on the terminal page."""
    parts = [part for part in path.split("/") if part]
    if not parts:
        return None
    if parts[0] == "replay" and len(parts) == 2:
        return parse_replay(parts[1])
    if parts[:2] == ["line", "replay"] and len(parts) == 3:
        return LineCommand(replay=parse_replay(parts[2]))
    line = parts[0] == "line"
    place = parts[1:] if line else parts
    if (place and place[0] not in ("table", "watch", "tables", "tv")) or len(place) > 2 or (line and place[:1] == ["tables"]):
        raise CommandRefused(
            "there is no such page: / (solo), /tables, /table/NAME, /watch/NAME, /tv, /replay/GAME_ID, /line,"
            " /line/table/NAME, /line/watch/NAME, /line/tv or /line/replay/GAME_ID"
        )
    command = parse_command(" ".join(parts))
    assert isinstance(command, TableCommand | LineCommand)  # the first word is line, table, watch or tables
    return command


def replayed_game(path: str) -> int | str | None:
    """The game a replay's page shows (``/replay/12``), whose downloads it offers; None on any other page."""
    try:
        command = place_command(path)
    except CommandRefused:
        return None
    if isinstance(command, LineCommand):
        command = command.replay
    return command.game_id if isinstance(command, ReplayCommand) else None


def line_address(path: str) -> str:
    """The plain-text page of the same place as the terminal page at ``path`` (the lobby's: a solo game)."""
    try:
        command = place_command(path)
    except CommandRefused:
        return "/line"
    if isinstance(command, TableCommand) and command.mode is TableMode.TV:
        return "/line/tv"
    if isinstance(command, TableCommand) and command.table is not None:
        return f"/line/{'watch' if command.mode is TableMode.WATCH else 'table'}/{command.table}"
    if isinstance(command, ReplayCommand):
        return f"/line/replay/{command.game_id}"
    return "/line"


def screen_address(path: str) -> str:
    """The terminal page of the same place as the plain-text page at ``path``."""
    try:
        command = place_command(path)
    except CommandRefused:
        return "/"
    if isinstance(command, LineCommand) and command.table is not None and command.table.mode is TableMode.TV:
        return "/tv"
    if isinstance(command, LineCommand) and command.table is not None and command.table.table is not None:
        return f"/{'watch' if command.table.mode is TableMode.WATCH else 'table'}/{command.table.table}"
    if isinstance(command, LineCommand) and command.replay is not None:
        return f"/replay/{command.replay.game_id}"
    return "/"


def load_static() -> dict[str, tuple[bytes, str]]:
    folder = resources.files(__package__).joinpath("static")
    return {name: (folder.joinpath(name).read_bytes(), kind) for name, kind in STATIC.items()}


class WebDoor:
    """Listens for browsers; ``stop`` ends every game with a goodbye before the listener closes."""

    def __init__(self, server: GameServer, config: WebConfig, log: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.config = config
        self.log = log or server.log
        self.sessions: set[WebSession] = set()
        self._static = load_static()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.guard = HttpGuard(config.guard, server.flood_log, debug=server.config.debug)
        self._stopping = False
        self.identities = Identities(server.config.secret())
        self.downloads = Downloads(server)
        """The served games' exports the browsers download (``/export/GAME_ID.json``)."""
        self.hosts: HostRules | None = None
        """Set once the door listens (its port is known then); until then it answers to no host."""
        server.doors.append(self)

    # -- what the shared caps count -----------------------------------------------------------------------

    @property
    def listening(self) -> bool:
        return self._listener is not None and not self._stopping

    def kinds(self) -> Iterator[tuple[str, str]]:
        for session in self.sessions:
            yield "web", session.kind

    def games(self) -> int:
        return len(self.sessions)

    def games_from(self, key: str) -> int:
        return sum(1 for session in self.sessions if session.visitor.address_key == key)

    def addresses(self) -> Iterator[str]:
        for session in self.sessions:
            yield session.visitor.address_key

    # -- listening -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start listening; OSError (port in use, bad address) reaches the caller."""
        app = web.Application(client_max_size=4096, middlewares=[self._headers, self._host_check])
        app.router.add_get("/", self._page)
        app.router.add_get("/tables", self._page)
        app.router.add_get("/table/{name}", self._page)
        app.router.add_get("/watch/{name}", self._page)
        app.router.add_get("/tv", self._page)
        app.router.add_get("/replay/{game}", self._page)
        app.router.add_get("/export/{file}", self._download)
        app.router.add_get("/line", self._line_page)
        app.router.add_get("/line/table/{name}", self._line_page)
        app.router.add_get("/line/watch/{name}", self._line_page)
        app.router.add_get("/line/tv", self._line_page)
        app.router.add_get("/line/replay/{game}", self._line_page)
        app.router.add_get("/static/{file}", self._file)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/ws/{path:.*}", self._socket)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0,
            **handler_args(self.config.guard, request_logger(self.server.flood_log)),
        )
        await self._runner.setup()
        assert self._runner.server is not None
        context = self.config.ssl_context
        try:
            # The guard (http_guard) holds each connection until its websocket upgrade.
            self._listener = await asyncio.get_running_loop().create_server(
                self.guard.factory(self._runner.server), self.config.host, self.config.port, ssl=context,
                ssl_handshake_timeout=self.config.guard.header_seconds if context is not None else None,
            )
        except BaseException:
            await self._runner.cleanup()
            self._runner = None
            raise
        self.hosts = HostRules(self.config.hosts, self.config.host, self.scheme, self.port)

    @property
    def port(self) -> int:
        assert self._listener is not None
        return int(self._listener.sockets[0].getsockname()[1])

    @property
    def scheme(self) -> str:
        return "https" if self.config.ssl_context is not None else "http"

    async def stop(self) -> None:
        """End every game (the players read a goodbye), then close the listener; bounded by the grace period."""
        self._stopping = True
        for session in list(self.sessions):
            session.stop(SHUTDOWN)
        deadline = time.monotonic() + self.config.shutdown_grace + 1.0
        while self.sessions and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if self._listener is not None:
            self._listener.close()
        self.guard.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self._listener = None
        if self in self.server.doors:
            self.server.doors.remove(self)

    # -- pages and files -----------------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request, handler) -> web.StreamResponse:
        """Every response, errors (404, 403) included, carries the security headers; a page, its own policy."""
        try:
            response = await handler(request)
        except web.HTTPException as error:
            _secure(error)
            raise
        if response.prepared:  # a websocket: its headers went out with the upgrade
            return response
        _secure(response)
        return response

    @web.middleware
    async def _host_check(self, request: web.Request, handler) -> web.StreamResponse:
        """Another host name is another site (a rebinding one): 421 before any page or game."""
        host = request.headers.get("Host")
        if self.hosts is None or self.hosts.origin_of(host) is None:
            self.server.counts.refused("bad_input")
            self.server.flood_log(f"web {request.remote}: refused: host {(host or '(none)')[:80]!r}", "web refusals")
            return web.Response(status=421, text="war-tui: this server does not answer to that host name")
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        nonce = secrets.token_urlsafe(16)
        known = self.identities.token(request.cookies.get(COOKIE)) is not None
        starts = starts_by_itself(request.headers.get("Sec-Fetch-Site"), known)
        response = web.Response(text=page_html(nonce, line_address(request.path), starts=starts,
                                               game_id=replayed_game(request.path)),
                                content_type="text/html", charset="utf-8")
        response.headers["Content-Security-Policy"] = page_policy(nonce)
        return self._identified(request, response)

    async def _line_page(self, request: web.Request) -> web.Response:
        """The plain-text page: the line mode's sentences in a live list, for screen readers and braille."""
        screen = screen_address(request.path)
        keys = line_page_html(screen, watching=screen.startswith("/watch/"), seated=screen.startswith("/table/"),
                              replaying=screen.startswith("/replay/"), game_id=replayed_game(screen))
        response = web.Response(text=keys, content_type="text/html", charset="utf-8")
        response.headers["Content-Security-Policy"] = line_page_policy()
        return self._identified(request, response)

    def _identified(self, request: web.Request, response: web.Response) -> web.Response:
        """A page as sent: never cached, and with the browser's identity cookie, set if it has none yet."""
        response.headers["Cache-Control"] = "no-store"
        if self.identities.token(request.cookies.get(COOKIE)) is None:
            response.set_cookie(
                COOKIE, self.identities.issue(), max_age=COOKIE_SECONDS, path="/", httponly=True,
                samesite="Lax", secure=self.config.ssl_context is not None,
            )
        return response

    async def _file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info["file"])
        if found is None:
            raise web.HTTPNotFound()
        body, kind = found
        response = web.Response(body=body, content_type=kind, charset="utf-8")
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    async def _download(self, request: web.Request) -> web.Response:
        """A served game's export (``downloads``), for a browser that has the page's cookie, within the caps."""
        token = self.identities.token(request.cookies.get(COOKIE))
        if token is None:
            self.server.counts.refused("bad_input")
            raise web.HTTPForbidden(text="war-tui: open the game's page first, then its download")
        refusal = self._refusal(address_key(str(request.remote or "?")))
        if refusal is not None:
            return web.Response(status=503, text=refusal + "\n")
        return await self.downloads.respond(request.match_info["file"], self.server.door_identity("web", token),
                                            request.rel_url.query)

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    # -- games -----------------------------------------------------------------------------------------------

    def origin_allowed(self, request: web.Request) -> bool:
        """The page that opens the websocket is ours: its Origin is the origin of the host the browser asked for."""
        hosts = self.hosts
        return hosts is not None and hosts.origin_allowed(request.headers.get("Origin"), request.headers.get("Host"))

    def _refusal(self, key: str) -> str | None:
        """Why a new game from ``key`` cannot start now (counted), or None."""
        refusal = self._refused(key)
        if refusal is not None:
            self.server.counts.refused(refusal[1])
            return refusal[0]
        return None

    def _refused(self, key: str) -> tuple[str, str] | None:
        """Why a new game from ``key`` cannot start now, and the reason it is counted as; or None."""
        if self._stopping or self.server.stopping:
            return SERVER_FULL, "stopping"
        if len(self.sessions) >= self.config.max_sessions or self.server.full:
            self.server.note_full()
            return SERVER_FULL, "full"
        per_address = min(self.config.max_sessions_per_address, self.server.config.max_sessions_per_address)
        if self.games_from(key) >= self.config.max_sessions_per_address or self.server.address_full(key):
            return ADDRESS_FULL.format(games=plural(per_address, "game")), "caps"
        if self.server.out_of_memory():
            return OUT_OF_MEMORY, "memory"
        limiter = self.server.limiter
        if not limiter.allowed(limiter.attempt(key)):
            return TOO_MANY_ATTEMPTS, "rate"
        return None

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        address = str(peer[0]) if peer else "?"
        label = f"{address}:{peer[1]}" if peer and ":" not in address else f"[{address}]:{peer[1] if peer else 0}"
        if not self.origin_allowed(request):
            self.server.counts.refused("bad_input")
            self.server.flood_log(f"web {label}: refused: origin {request.headers.get('Origin', '(none)')[:80]!r}",
                                  "web refusals")
            raise web.HTTPForbidden(text="war-tui: this page may only be played from its own site")
        token = self.identities.token(request.cookies.get(COOKIE))
        if token is None:
            self.server.counts.refused("bad_input")
            raise web.HTTPForbidden(text="war-tui: reload the page to play")
        line_page = request.match_info.get("path", "").strip("/").split("/")[0] == "line"
        ws = web.WebSocketResponse(
            max_msg_size=self.config.message_bytes, heartbeat=self.config.heartbeat, compress=False,
            autoping=False, timeout=CLOSE_WAIT, writer_limit=WRITER_LIMIT,
        )  # pings are the session's to answer: they count toward the message rate
        await ws.prepare(request)
        self.guard.upgraded(request.transport)
        key = address_key(address)
        refusal = self._refusal(key)
        command: TableCommand | LineCommand | ReplayCommand | None = None
        if refusal is None:
            try:
                command = place_command(request.match_info.get("path", ""))
            except CommandRefused as error:
                self.server.counts.refused("game_id" if isinstance(error, GameRefused) else "bad_input")
                refusal = f"war-tui: {error}"
        if refusal is not None:
            await self._refuse(ws, refusal, label, line_page)
            return ws
        query = request.rel_url.query
        size = (_number(query.get("cols"), 80), _number(query.get("rows"), 24))
        origin = self.hosts.origin_of(request.headers.get("Host")) if self.hosts is not None else None
        visitor = Visitor(address, key, label, clean_name(query.get("name", "")),
                          self.server.door_identity("web", token), None if origin is None else str(origin))
        session = WebSession(self, ws, visitor, way_to_play(command), size)
        refusal = session.join_table()
        if refusal is not None:
            await self._refuse(ws, refusal, label, line_page)
            return ws
        self.sessions.add(session)
        started = time.monotonic()
        self.log(LogLine(f"web connect {label} name={visitor.name!r}{_where(session)} [{visitor.identity}]",
                         "web_connect", address=label, name=visitor.name, identity=visitor.identity,
                         **place_fields(session.where)))
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
            seconds = time.monotonic() - started
            self.log(LogLine(f"web disconnect {label} after {seconds:.1f}s, {session.exit_status}{_where(session)}",
                             "web_disconnect", address=label, name=visitor.name, seconds=round(seconds, 1),
                             end=session.exit_status, **place_fields(session.where)))
        return ws

    async def _refuse(self, ws: web.WebSocketResponse, message: str, label: str, line_page: bool) -> None:
        """Say why in one line, as the page reads it (the plain-text page: a sentence), then close."""
        reason = message.removeprefix("war-tui: ")
        self.server.flood_log(LogLine(f"web {label}: refused: {reason}", "web_refused", level="warning",
                                      address=label, reason=reason), "web refusals")
        try:
            if line_page:
                await ws.send_str(message)
            else:
                await ws.send_bytes((message + "\r\n").encode())
            await ws.close(code=CLOSE_POLICY if "page" in message else CLOSE_TRY_LATER, message=b"refused")
        except (ConnectionError, RuntimeError):
            pass


def _where(session: WebSession) -> str:
    """Where the session is, for its log lines: the plain-text page, the table and seat (as at its end)."""
    where = ", ".join(part for part in ("line mode" if session.line else None, session.where) if part)
    return f", {where}" if where else ""


def _secure(response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers["Server"] = "war-tui"


def _number(text: str | None, default: int) -> int:
    if text is None or not text.isdigit() or len(text) > 5:
        return default
    return int(text)
