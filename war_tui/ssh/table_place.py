"""A door's session at the tables, whichever door it came through: taking its place, and its game's socket.

The SSH door and the web door join a table (or the lobby) for a session and hand its game one end of a
socket pair to the session's link in the same way; only who the visitor is and what is logged differ.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from ..settings.served import TABLE_FD_VARIABLE, TABLE_MODE_VARIABLE
from ..tables import Link, TableRefused
from .commands import TableCommand, TableMode
from .table_socket import TableSocket


def take_place(link: Link, command: TableCommand) -> str:
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
    seat = f"seat {member.seat.index + 1}" if member.seat is not None else "watching"
    return f"table {command.table} {seat} as {member.name}"


def game_socket(
    link: Link, mode: TableMode, env: dict[str, str], wake: Callable[[], None], on_finished: Callable[[], None],
) -> tuple[TableSocket, socket.socket]:
    """Our pumped end of a new socket pair to ``link``, and the game's end (its number and the mode told in ``env``)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    env[TABLE_FD_VARIABLE] = str(theirs.fileno())
    env[TABLE_MODE_VARIABLE] = mode.value
    return TableSocket(ours, link, on_request=wake, on_finished=on_finished), theirs
