"""Shared War tables: two seats, spectators, one engine ``Game`` per table, no UI and no transport.

- ``Table`` (table.py): the thin front of one table, driven by requests and ``poll()``: it takes each
  request, changes the room it concerns, settles what follows and tells the state. Its rooms:
  ``Seats`` (seats.py: seats, flips, idle players, kept seats and reconnection), agreement.py
  (requests between the players: auto-play, stop at wars, deal again; timeouts, declining, emote
  limits), ``AutoPlay`` (autoplay.py: auto-play's clock, a war held at its tie), ``Dealer``
  (dealer.py: deals, the game's time, the tally, one statistics record per finished game) and
  ``Journal`` (journal.py: the sequence number, the log in the table's order, stale requests,
  telling every member). options.py: ``TableOptions`` and the bounds a host chooses within.
- ``Registry`` (registry.py): the tables of a server by name, ``max_tables``, the lobby, and what a store under
  them needs (what changed, checkpoints, updates held until kept: held.py).
- checkpoint.py: ``checkpoint``/``restore``, a table as bytes and back, for a table to outlive its process.
- ``protocol`` (protocol.py): the versioned line-delimited JSON between server and game process.
- ``Link`` (link.py): the server's end of one connection, with bounded queues and resynchronisation.
- ``RemoteGame`` (remote_game.py): what the board follows in a game process, like a local ``Game``.
- ``two_player_table`` (local.py): ``--two-players``, the same table with both seats at one keyboard.
- ``run_timers`` (driver.py): an asyncio task that polls at each deadline.
- names.py: the reduction of user names and the rule for table names; clock.py: injected time.

Time only ever comes from an injected clock; a host calls ``poll()`` at ``next_deadline()``.
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
    House,
    Join,
    Leave,
    Leaving,
    Lobby,
    LobbyEntry,
    LogEntry,
    Notice,
    NoticeCode,
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
    "EMOTES", "Decline", "Emote", "Resync", "Emoted", "House", "Sit", "Tally", "WarStop",
    "MAX_LINE", "VERSION", "Auto", "Clock", "EventBatch", "FakeClock", "Flip", "Join", "Leave", "Leaving", "Link", "Lobby",
    "LobbyEntry", "LocalTable", "LogEntry", "Member", "MessageReader", "Notice", "NoticeCode", "ProtocolError",
    "Registry", "Request", "Restart", "SeatState", "SeatStatus", "Snapshot", "Table", "RemoteGame", "TableEvent",
    "TableNameError", "TableOptions", "TableRefused", "TableState", "Update", "WatchLobby", "You",
    "decode_request", "decode_update", "encode", "parse_table_name", "reduce_name", "run_timers", "seconds_until",
    "two_player_table", "unique_name",
]
