"""A door's session at the tables, whichever door it came through: taking its place, and its game's socket.

The SSH door and the web door join a table (or the lobby) for a session, hand its game one end of a
socket pair to the session's link, and leave in the same way (``TablePlace``); only who the visitor is
and what is logged differ.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Protocol

from ...settings.options import served_environment
from ...tables import Member, TableRefused
from ...tables.link import DoorLink, TableLink
from ...tables.messages import Notice, NoticeCode
from ...tables.protocol import ProtocolError, decode_update
from ..commands import TableCommand, TableMode
from .host import SharedTables
from .socket import TableSocket
from .tv import TvLink

TABLE_LEFT = "war-tui: the connection to the table closed before your screen reached it; connect again to follow it."
"""What a session's own game would have been started without: the table's link closed (a fault moved the table and
its connection could not follow it, the table closed) before that game could read it."""


ON_TV = "War TV"
"""Where a War TV viewer is, for the log, until it tunes in to a table (``TvLink.on_join`` says which)."""


class PlacedLink(TableLink, Protocol):
    """A session's link at the tables: a door's own (``DoorLink``), or War TV's (``TvLink``)."""

    on_join: Callable[[str, Member, str], None] | None


def take_place(link: DoorLink, command: TableCommand) -> str:
    """Sit at, watch, or browse the lobby on ``link`` as ``command`` says; where that is, for the log.

    A refusal (``TableRefused``) closes the link and goes to the caller.
    """
    try:
        if command.mode is TableMode.LOBBY:
            link.watch_lobby()
            return "lobby"
        assert command.table is not None
        member = link.join(command.table, watch=command.mode is TableMode.WATCH)
    except TableRefused:
        link.close()
        raise
    if member is None:  # not open here: claimed, or relayed to the node that serves it; the link tells the rest
        return f"table {command.table} (through the cluster)"
    seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
    return f"table {command.table} {seat} as {member.name}"


def game_socket(
    link: TableLink, mode: TableMode, env: dict[str, str], tables: SharedTables,
    on_finished: Callable[[], None] | None = None,
) -> tuple[TableSocket, socket.socket]:
    """Our pumped end of a new socket pair to ``link``, and the game's end (its number and the mode told in ``env``).

    What the game sends wakes ``tables``' timers; the socket is one of its ``screens`` until it closes."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    env.update(served_environment(table_fd=theirs.fileno(), table_mode=mode.value))
    return TableSocket(ours, link, on_request=tables.wake, on_finished=on_finished, screens=tables.screens), theirs


def join_table(tables: SharedTables, name: str, identity: str | None, address_key: str, command: TableCommand) -> TablePlace:
    """A visitor's place at the tables as ``command`` says (a seat, a spectator's chair, the lobby, War TV), under
    ``name`` and ``identity``; a refusal (``TableRefused``) goes to the caller."""
    if command.mode is TableMode.TV:
        registry = tables.registry
        tv = TvLink(
            lambda: tables.link(name, identity, address_key), registry.lobby,
            max_spectators=registry.options.max_spectators, stopping=lambda: registry.closed, wake=tables.wake,
        )
        tv.start()
        return TablePlace(tv, command.mode, tables, ON_TV)
    link = tables.link(name, identity, address_key)
    where = take_place(link, command)
    tables.wake()
    return TablePlace(link, command.mode, tables, where)


class TablePlace:
    """A session's place at the tables: its link, what it came for, and the socket its game reads the link through."""

    def __init__(self, link: PlacedLink, mode: TableMode, tables: SharedTables, where: str) -> None:
        self.link = link
        self.mode = mode
        """What the session asked for ("play" also when both seats were taken: the snapshot says it watches)."""
        self.where = where
        """Where the session is, for the log: as it joined ("table oak seat 1 as ann", "lobby"), and as it left (a
        spectator may have sat since)."""
        self._tables = tables
        self.socket: TableSocket | None = None

    def socket_for_game(self, env: dict[str, str], on_finished: Callable[[], None]) -> socket.socket | None:
        """The game's end of a new socket pair to the link (told in ``env``); None once the link is closed."""
        if self.link.closed:
            return None
        self.socket, theirs = game_socket(self.link, self.mode, env, self._tables, on_finished)
        return theirs

    def last_words(self) -> str:
        """Why the link closed, for a session whose game cannot read it any more: its closing notice (a table never
        turns into a solo game), or ``TABLE_LEFT``."""
        for line in reversed(self.link.take().splitlines()):
            try:
                update = decode_update(line)
            except ProtocolError:
                continue
            if isinstance(update, Notice) and update.code is NoticeCode.CLOSING:
                return f"war-tui: {update.text}"
        return TABLE_LEFT

    @property
    def kind(self) -> str:
        """What the session is at the tables now, as ``--metrics`` counts it: "player" (in a seat), "spectator" or
        "lobby". A connection relayed to another node has no member here: what it came for says."""
        member = self.link.member
        if member is not None:
            return "player" if member.seat is not None else "spectator"
        if self.mode is TableMode.LOBBY:
            return "lobby"
        return "spectator" if self.mode in (TableMode.WATCH, TableMode.TV) else "player"

    @property
    def told(self) -> bool:
        """The game has read all the link said."""
        return self.socket is None or self.socket.delivered

    @property
    def gave_up(self) -> str | None:
        """Why the link closed itself (garbage from the game, not a goodbye); None if it did not."""
        return self.link.close_reason

    def leave(self) -> None:
        """Leave the table (or the lobby) and let go of the socket; safe to call twice."""
        member = self.link.member
        if member is not None and member.table.name is not None:
            seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
            self.where = f"table {member.table.name} {seat} as {member.name}"
        if self.socket is not None:
            self.socket.close()
        self.link.close()
        self._tables.wake()
