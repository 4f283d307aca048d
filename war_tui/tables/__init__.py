"""Shared War tables: two seats, spectators, one engine ``Game`` per table; no UI and no transport.

``Table`` (table.py) is a thin front over rooms of their own (seats, agreement, autoplay, dealer,
journal); ``Registry`` holds a server's tables, ``Link`` is a connection's end, ``RemoteGame`` what a
game process's board follows, protocol.py the JSON lines between them. Time comes only from an injected
clock: a host calls ``poll()`` at ``next_deadline()``. The layout is in docs/architecture.md.
"""

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

__all__ = [
    "EMOTES", "Decline", "Emote", "Resync", "Emoted", "PlayHouse", "Sit", "Tally", "WarStop",
    "MAX_LINE", "VERSION", "Auto", "Clock", "EventBatch", "FakeClock", "Flip", "Join", "Leave", "Leaving", "Link", "Lobby",
    "LobbyEntry", "LocalTable", "LogEntry", "Member", "MessageReader", "Notice", "NoticeCode", "ProtocolError",
    "Registry", "Request", "Restart", "SeatState", "SeatStatus", "Snapshot", "Table", "RemoteGame", "TableEvent",
    "TableNameError", "TableOptions", "TableRefused", "TableState", "Update", "WatchLobby", "You",
    "decode_request", "decode_update", "encode", "parse_table_name", "reduce_name", "run_timers", "seconds_until",
    "two_player_table", "unique_name",
]
