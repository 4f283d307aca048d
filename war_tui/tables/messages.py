"""The plain values a table and the people at it exchange, over a socket (``protocol``) or in one process.

A member is told ``Update``s and asks ``Request``s. Every change told to everyone carries the table's
``seq``: a screen applies only the next and asks for a ``Snapshot`` (``Resync``) after a gap. A seat's
requests are ``Stamped`` with what its screen showed, so a key acts on what its player saw. Texts hold
reduced names only; log entries are data, worded by the presentation layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import EndReason, Result, Rules, Side

__all__ = [
    "EMOTES", "Auto", "BattleWon", "Decline", "Emote", "Emoted", "EventBatch", "Flip", "GameOver", "GameStarted", "PlayHouse", "Join",
    "LOGGED_NOTICES", "Leave", "Leaving", "LogEntry", "Lobby", "LobbyEntry", "NextTable", "Notice", "NoticeCode", "Request",
    "Restart", "Resync", "SeatState", "SeatStatus", "Sit", "Snapshot", "Stamped", "Tally", "TableEvent", "TableState", "Tuned",
    "Update", "WarStop", "WatchLobby", "You",
]

EMOTES = ("good game", "what a war!", "again?", "wow", "unlucky", "thanks")
"""The six fixed reactions a player may send (keys 1-6); nobody types free text to a stranger."""

Tally = tuple[int, int, int, int]
"""A table's finished games: seat 1's wins, seat 2's wins, draws, stopped games."""


class SeatStatus(StrEnum):
    OPEN = "open"  # nobody has sat here yet: the table waits for a player
    PLAYER = "player"  # a connected player sits here
    AWAY = "away"  # the player left; the house plays the seat and keeps it for their name a while
    HOUSE = "house"  # the player left long ago; the house plays the seat until someone sits
    AWAITED = "awaited"  # its player's connection went with a restart or a move of the table: the seat is kept and
    # waits for them (their flip and wishes stand), the house flipping for them only as for an idle player


class NoticeCode(StrEnum):
    WATCHING = "watching"  # a spectator pressed a player's key
    REFUSED = "refused"  # a request that cannot be met now (and why)
    HOUSE_FLIPPED = "house-flipped"  # an idle player's card was turned by the house
    JOINED = "joined"
    LEFT = "left"
    CLOSING = "closing"  # the server or the table is closing
    INFO = "info"
    AGREED = "agreed"  # both players agreed on something that changes the game for both
    EXPIRED = "expired"  # a request nobody answered in time
    DECLINED = "declined"  # a player said no to the other's request


LOGGED_NOTICES = frozenset({
    NoticeCode.HOUSE_FLIPPED, NoticeCode.JOINED, NoticeCode.LEFT, NoticeCode.AGREED, NoticeCode.EXPIRED,
    NoticeCode.DECLINED,
})
"""Notices every member is told and the battle log keeps; the others are for one member, or final."""


@dataclass(frozen=True, slots=True)
class Notice:
    code: NoticeCode
    text: str  # composed by the table, from reduced names
    seq: int = field(default=0, compare=False)
    """The table's sequence number of this change (0: told to one member only, outside the sequence); values
    compare without it, so the same notice is equal whenever it was told."""


@dataclass(frozen=True, slots=True)
class SeatState:
    status: SeatStatus
    name: str | None  # the player sitting, away, or last seated here; None while OPEN
    flipped: bool  # has turned their card for the coming battle
    auto: bool  # wants auto-play
    speed: float  # auto-play speed they asked for, battles per second
    restart: bool  # deal again (at game over), or stop this game and redeal
    war_stop: bool = False  # asks to stop auto-play at the tie of every war
    leaving: bool = False  # pressed q mid-game and is asked on their own screen whether to leave

    @property
    def house(self) -> bool:
        """The house plays this seat (its player left)."""
        return self.status in (SeatStatus.AWAY, SeatStatus.HOUSE)


@dataclass(frozen=True, slots=True)
class TableState:
    """Who sits where and what the table waits for; sent whenever any of it changes."""

    table: str
    game: int  # number of the game being played at this table, from 1
    seats: tuple[SeatState, SeatState]
    spectators: int
    waiting_for: tuple[Side, ...]  # seats whose flip (or restart at game over) the table waits for
    auto_speed: float | None
    """Battles per second while auto-play is on: it runs, holds at a war's tie (``held``), or, at game over, plays the
    next deal from its start (both players still want it); None: off."""
    over: bool
    war_stop: bool = False  # both players agreed: auto-play stops at the tie of every war
    held: bool = False  # stopped at a war's tie: either player's flip lays it
    house_in: float | None = None  # seconds until the house flips for the player the table waits for
    seq: int = field(default=0, compare=False)  # the table's sequence number of this change


@dataclass(frozen=True, slots=True)
class You:
    """Who the receiving connection is at the table."""

    name: str
    seat: Side | None  # None: watching

    @property
    def watching(self) -> bool:
        return self.seat is None


@dataclass(frozen=True, slots=True)
class Emoted:
    """A player sent one of the ``EMOTES`` (by its index)."""

    seat: Side
    name: str
    emote: int
    seq: int = field(default=0, compare=False)  # the table's sequence number of this change

    @property
    def text(self) -> str:
        return EMOTES[self.emote]


LogEntry = GameStarted | BattleWon | GameOver | Notice | Emoted
"""One line of the battle log, as data: a deal, a battle, an end, a notice or an emote."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a screen needs to show the table now: sent on arrival and after falling behind."""

    you: You
    state: TableState
    seed: int | None
    rules: Rules
    total_cards: int
    counts: tuple[int, int]
    battles: int
    wars: int
    longest_war: int
    result: Result | None
    reason: EndReason | None
    on_show: BattleWon | GameOver | None  # the battle on the board (a GameOver: a game ended short in a war)
    log: tuple[LogEntry, ...]  # the newest lines, oldest first
    played_ms: int  # since the deal; at game over, its length (for a late joiner)
    tally: Tally = (0, 0, 0, 0)
    seq: int = field(default=0, compare=False)
    """The table's sequence number when it was made: the updates that follow carry the next ones."""


TableEvent = GameStarted | BattleWon | GameOver
"""What a table tells of its game: each deal, each battle won and the game's end (a battle's view and a
war's steps follow from ``BattleWon``; the turn of each card is the engine's own business)."""


@dataclass(frozen=True, slots=True)
class EventBatch:
    """A game's deals, won battles and game over from one step of the table's game, in the engine's order."""

    game: int
    events: tuple[TableEvent, ...]
    played_ms: int = 0
    """The game's time at the table after these events (how long it took, once over): one time on every screen."""
    tally: Tally = (0, 0, 0, 0)
    """The table's finished games after these events."""
    seq: int = field(default=0, compare=False)
    """The table's sequence number of this change."""
    held: bool = False
    """The table holds auto-play at the tie of the last battle here (both asked to stop at wars)."""


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    table: str
    players: tuple[str | None, str | None]  # seat 1's and seat 2's names (None: open)
    statuses: tuple[SeatStatus, SeatStatus]
    spectators: int
    game: int
    battles: int
    counts: tuple[int, int]
    result: Result | None  # None while the game is being played
    war: int = 0
    """The wars of the battle on show while the game is under way (0: none, or the game is over): War TV's
    deepest war under way."""


@dataclass(frozen=True, slots=True)
class Tuned:
    """War TV (``ssh HOST tv``) is on ``table`` now, or on none (None) for the reason ``why`` says; the table's
    snapshot follows."""

    table: str | None
    why: str


@dataclass(frozen=True, slots=True)
class Lobby:
    tables: tuple[LobbyEntry, ...]
    max_tables: int

    @property
    def full(self) -> bool:
        return len(self.tables) >= self.max_tables


Update = Snapshot | EventBatch | TableState | Notice | Emoted | Lobby | Tuned
"""What a table, the lobby or War TV tells a connection."""


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn my card for the coming battle (``Stamp``: refused if the battle on my screen is not the table's)."""

    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Auto:
    """Turn my wish for auto-play on or off, at ``speed`` battles per second."""

    on: bool
    speed: float
    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Restart:
    """Ask (or, ``on`` False, stop asking) to deal again; mid-game, to stop this game and deal again.

    The table deals once both players asked."""

    on: bool = True
    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class WarStop:
    """Ask (or stop asking) that auto-play stop at the tie of every war; it does once both players ask."""

    on: bool
    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Emote:
    """Send ``EMOTES[emote]`` to everyone at the table."""

    emote: int
    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class PlayHouse:
    """Alone at a table: play the house in the empty seat now."""


@dataclass(frozen=True, slots=True)
class Sit:
    """A spectator takes a free seat (open, played by the house, or kept for someone away too long)."""


@dataclass(frozen=True, slots=True)
class Leaving:
    """I am about to leave (``on``: my screen asks me to confirm), or I stay after all (``on`` False).

    Everyone at the table is told, so the other player hears of it before the seat changes."""

    on: bool
    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Decline:
    """Say no to every request the other player is waiting on me for (auto-play, stopping at wars, dealing
    again); everyone is told who declined."""

    game: int = field(default=0, compare=False)
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Resync:
    """Send me a fresh snapshot: my screen missed an update (a gap in the sequence) or its player asked (ctrl+l)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """I am leaving the table."""


@dataclass(frozen=True, slots=True)
class Join:
    """Sit at (or, with ``watch``, watch) the table named ``table``; from the lobby."""

    table: str
    watch: bool = False


@dataclass(frozen=True, slots=True)
class WatchLobby:
    """Send me the lobby, and again whenever it changes."""


@dataclass(frozen=True, slots=True)
class NextTable:
    """War TV: on to the next table worth watching, other than the one on show."""


Request = (
    Flip | Auto | Restart | WarStop | Emote | PlayHouse | Sit | Leaving | Decline | Resync | Leave | Join | WatchLobby
    | NextTable
)
"""What a connection asks of the server."""

Stamped = Flip | Auto | Restart | WarStop | Emote | Leaving | Decline
"""A seat's requests that carry the game and sequence number its screen showed (``game`` 0: unstamped, made in
this process; requests compare without them). The table refuses one made against another game, and a flip made before the last battle."""
