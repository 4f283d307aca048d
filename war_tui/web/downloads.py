"""The web door's downloads of a served game: ``/export/GAME_ID.json``, ``.txt`` and ``.cast`` (``?speed=4&size=100x30``
for a recording), as ``ssh HOST export GAME_ID --format ...`` writes them.

The export is made by a game process started as every game is (``serving.launcher``), on a pty set up as the
line mode's, its output held up to the export's bound; the browser gets the whole file or one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace

from aiohttp import web

from ..serving.commands import (
    CAST_SIZE,
    CommandRefused,
    ExportCommand,
    GameRefused,
    cast_size,
    cast_speed,
    parse_export,
)
from ..serving.environment import game_environment
from ..serving.launcher import start_game
from ..serving.server import GameServer
from ..settings.served import EXPORT_VARIABLE

FORMATS = {"json": ("json", "application/json"), "txt": ("text", "text/plain"), "cast": ("cast", "application/x-asciicast")}
"""A download's extension: the export's format and the file's type."""
MOST_BYTES = 16 * 1024 * 1024 + 4096
"""The export's own bound (16 MiB, ``commands.export.MOST_EXPORT_BYTES``) and room for a refusal's line."""
MOST_SECONDS = 120.0
"""A recording of a long game takes a while; past this the game process is ended and the browser told."""
AT_ONCE = 2
"""Exports a door makes at once; the next browser is told to try again."""


CAST_QUERY = ("speed", "size")
"""A recording's query (``/export/12.cast?speed=4&size=100x30``), as ``ssh HOST export`` takes ``--speed`` and
``--size``."""


class BadQuery(GameRefused):
    """The download's name is right, what its query asks is not (400, where a wrong name is 404)."""


def export_named(name: str, query: Mapping[str, str] | None = None) -> ExportCommand:
    """``12.json``, ``12.txt`` or ``12.cast`` (with ``speed`` and ``size`` in its query); ``CommandRefused`` for
    another name, ``BadQuery`` for a query that asks what the export does not take."""
    stem, _, extension = name.rpartition(".")
    if extension not in FORMATS:
        raise CommandRefused("a download is /export/GAME_ID.json, .txt or .cast")
    command = parse_export([stem, "--format", FORMATS[extension][0]])
    asked = [] if query is None else list(query.keys())
    if not asked:
        return command
    if extension != "cast" or any(key not in CAST_QUERY for key in asked) or len(set(asked)) != len(asked):
        raise BadQuery("a download's query is speed and size, each once, and only for a .cast")
    assert query is not None
    try:
        return replace(command, speed=cast_speed(query.get("speed", str(command.speed))),
                       size=cast_size(query.get("size", f"{command.size[0]}x{command.size[1]}")))
    except GameRefused as refusal:
        raise BadQuery(str(refusal)) from None


def file_name(command: ExportCommand) -> str:
    """The file a download saves as: ``12.json``, ``12.txt``, ``12.cast``, a recording's speed and size named
    when they are not the default (``12-4x-100x30.cast``)."""
    extension = {"json": "json", "text": "txt", "cast": "cast"}[command.format]
    if command.format == "cast" and (command.speed, command.size) != (1, CAST_SIZE):
        return f"{command.game_id}-{command.speed}x-{command.size[0]}x{command.size[1]}.{extension}"
    return f"{command.game_id}.{extension}"


class Downloads:
    """A door's exports under way, at most ``AT_ONCE``."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.under_way = 0

    async def respond(self, name: str, identity: str, query: Mapping[str, str] | None = None) -> web.Response:
        try:
            command = export_named(name, query)
        except CommandRefused as refusal:
            self.server.counts.refused("game_id")
            return web.Response(status=400 if isinstance(refusal, BadQuery) else 404, text=f"war-tui: {refusal}\n")
        if self.under_way >= AT_ONCE:
            return web.Response(status=503, text="war-tui: the server is making other downloads: try again soon\n",
                                headers={"Retry-After": "5"})
        self.under_way += 1
        try:
            status, body = await self._export(command, identity)
        finally:
            self.under_way -= 1
        if status != 0:
            line = body.decode(errors="replace").strip().splitlines()[-1:] or ["war-tui: the export failed"]
            return web.Response(status=404 if "no game" in line[0] else 400, text=line[0] + "\n")
        kind = FORMATS[name.rpartition(".")[2]][1]
        response = web.Response(body=bytes(body), content_type=kind)
        response.headers["Content-Disposition"] = f'attachment; filename="war-tui-game-{file_name(command)}"'
        return response

    async def _export(self, command: ExportCommand, identity: str) -> tuple[int, bytearray]:
        """The game process's exit status and what it wrote (cut at ``MOST_BYTES``)."""
        env = game_environment(self.server.config, None, {}, line_input="lines", identity=identity)
        env[EXPORT_VARIABLE] = command.words()
        held = bytearray()

        def output(data: bytes) -> None:
            if len(held) < MOST_BYTES:
                held.extend(data[: MOST_BYTES - len(held)])

        process = await start_game(self.server, env, (80, 24), output, line="lines")
        try:
            status = await asyncio.wait_for(process.wait(), MOST_SECONDS)
        except TimeoutError:
            await process.end()
            return 1, bytearray(b"war-tui: the export took too long\n")
        finally:
            process.close()
        return status, held
