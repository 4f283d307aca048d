"""Shared War tables: two seats, spectators, one engine ``Game`` per table; no UI and no transport.

``Table`` (table.py) is a thin front over rooms of their own (seats, agreement, autoplay, dealer,
journal); ``Registry`` holds a server's tables, ``Link`` is a connection's end, ``RemoteGame`` what a
game process's board follows, protocol.py the JSON lines between them. Time comes only from an injected
clock: a host calls ``poll()`` at ``next_deadline()``. The layout is in docs/architecture.md.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .clock import Clock, FakeClock, seconds_until
    from .driver import run_timers
    from .link import Link
    from .local import LocalTable, two_player_table
    from .messages import (
        EMOTES,
        Auto,
        Decline,
        Emote,
        Emoted,
        EventBatch,
        Flip,
        Join,
        Leave,
        Leaving,
        Lobby,
        LobbyEntry,
        LogEntry,
        Notice,
        NoticeCode,
        PlayHouse,
        Request,
        Restart,
        Resync,
        SeatState,
        SeatStatus,
        Sit,
        Snapshot,
        TableEvent,
        TableState,
        Tally,
        Update,
        WarStop,
        WatchLobby,
        You,
    )
    from .names import TableNameError, parse_table_name, reduce_name, unique_name
    from .options import TableOptions
    from .protocol import MAX_LINE, VERSION, MessageReader, ProtocolError, decode_request, decode_update, encode
    from .registry import Registry, TableRefused
    from .remote_game import RemoteGame
    from .table import Member, Table

_HOMES = {
    "Clock": "clock",
    "FakeClock": "clock",
    "seconds_until": "clock",
    "run_timers": "driver",
    "Link": "link",
    "LocalTable": "local",
    "two_player_table": "local",
    "EMOTES": "messages",
    "Auto": "messages",
    "Decline": "messages",
    "Emote": "messages",
    "Emoted": "messages",
    "EventBatch": "messages",
    "Flip": "messages",
    "Join": "messages",
    "Leave": "messages",
    "Leaving": "messages",
    "Lobby": "messages",
    "LobbyEntry": "messages",
    "LogEntry": "messages",
    "Notice": "messages",
    "NoticeCode": "messages",
    "PlayHouse": "messages",
    "Request": "messages",
    "Restart": "messages",
    "Resync": "messages",
    "SeatState": "messages",
    "SeatStatus": "messages",
    "Sit": "messages",
    "Snapshot": "messages",
    "TableEvent": "messages",
    "TableState": "messages",
    "Tally": "messages",
    "Update": "messages",
    "WarStop": "messages",
    "WatchLobby": "messages",
    "You": "messages",
    "TableNameError": "names",
    "parse_table_name": "names",
    "reduce_name": "names",
    "unique_name": "names",
    "TableOptions": "options",
    "MAX_LINE": "protocol",
    "VERSION": "protocol",
    "MessageReader": "protocol",
    "ProtocolError": "protocol",
    "decode_request": "protocol",
    "decode_update": "protocol",
    "encode": "protocol",
    "Registry": "registry",
    "TableRefused": "registry",
    "RemoteGame": "remote_game",
    "Member": "table",
    "Table": "table",
}
"""Where each name lives: a module is loaded when one of its names is first asked for, so a command that needs
only a table name's rule (``serving.commands``) loads none of the tables' machinery."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "EMOTES", "Decline", "Emote", "Resync", "Emoted", "PlayHouse", "Sit", "Tally", "WarStop",
    "MAX_LINE", "VERSION", "Auto", "Clock", "EventBatch", "FakeClock", "Flip", "Join", "Leave", "Leaving", "Link", "Lobby",
    "LobbyEntry", "LocalTable", "LogEntry", "Member", "MessageReader", "Notice", "NoticeCode", "ProtocolError",
    "Registry", "Request", "Restart", "SeatState", "SeatStatus", "Snapshot", "Table", "RemoteGame", "TableEvent",
    "TableNameError", "TableOptions", "TableRefused", "TableState", "Update", "WatchLobby", "You",
    "decode_request", "decode_update", "encode", "parse_table_name", "reduce_name", "run_timers", "seconds_until",
    "two_player_table", "unique_name",
]
