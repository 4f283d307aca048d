"""A game at a table, seen from one connection: the engine's surface, fed by the table's updates.

The board follows it as it follows a local ``Game`` (both are a ``PlayedGame``); it never decides a
rule, only applies the next numbered update, asks for a fresh snapshot (``Resync``) after a gap, and
sends key presses as requests stamped with the game and sequence number on show. Fed by ``handle``,
from the protocol's reader or a local ``Table`` member's sink; what a socket's read brought at once goes
through ``backlog`` first, so a screen that fell behind shows the newest state, not every step it missed.
See docs/architecture.md, "One table move".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ..core.events import BattleWon, EventSource, GameOver, GameStarted, Listener
from ..core.rules import EndReason, Result, Rules, Side, leader
from .clock import Clock, monotonic
from .messages import (
    LOGGED_NOTICES,
    Auto,
    Decline,
    Emote,
    Emoted,
    EventBatch,
    Flip,
    Leave,
    Leaving,
    Lobby,
    LogEntry,
    NextTable,
    Notice,
    PlayHouse,
    Request,
    Restart,
    Resync,
    Sit,
    Snapshot,
    TableEvent,
    TableState,
    Tally,
    Tuned,
    Update,
    WarStop,
    You,
)
from .options import DEFAULT_AUTO_SPEED, DEFAULT_LOG_LINES

TableListener = Callable[[Snapshot | TableState | Notice | Emoted | Lobby | Tuned], None]
RESYNC_RETRY = 3.0
"""Seconds a screen waits for the snapshot it asked for before it asks again."""
NUMBERED = (EventBatch, TableState, Notice, Emoted)
"""The updates a table tells everyone, each with its sequence number (a notice for one member alone has none)."""


def newest_state(updates: Sequence[Update]) -> list[tuple[Update, bool]]:
    """Updates read at once, as a screen applies them to show the newest state rather than every step: each with
    whether its listeners are told.

    A snapshot covers everything the table told before it, so what came before the last one is left out (but a
    notice for this member alone, which no snapshot carries), and so is every lobby but the last. Of the table's
    states only the last is told; the others are kept in order (their numbers count) and told to nobody. Of War TV's
    word of the table it is on, the last is kept (before the snapshot of that table that follows it).
    """
    last = max((i for i, update in enumerate(updates) if isinstance(update, Snapshot)), default=0)
    lobby = max((i for i, update in enumerate(updates) if isinstance(update, Lobby)), default=-1)
    tuned = max((i for i, update in enumerate(updates) if isinstance(update, Tuned)), default=-1)
    kept = [
        (i, update) for i, update in enumerate(updates)
        if (i >= last or (isinstance(update, Notice) and not update.seq) or i == tuned)
        and (not isinstance(update, Lobby) or i == lobby) and (not isinstance(update, Tuned) or i == tuned)
    ]
    state = max((i for i, update in kept if isinstance(update, TableState)), default=-1)
    return [(update, not isinstance(update, TableState) or i == state) for i, update in kept]


class RemoteGame(EventSource):
    """A table's game as one connection sees it; ``send`` carries its requests to the table."""

    def __init__(
        self, send: Callable[[Request], object] | None = None, log_lines: int = DEFAULT_LOG_LINES,
        *, clock: Clock = monotonic,
    ) -> None:
        self.send = send
        self.seq = 0
        """The table's sequence number of the newest update applied (0: no table yet)."""
        self.newest = 0
        """The highest sequence number heard from the table: past ``seq`` after a gap, until the snapshot comes."""
        self.unread = False
        """The last read stopped at its bound with more waiting on the socket (``backlog``)."""
        self.catching_up = False
        """A backlog of more than one battle is being applied (``backlog``): a screen holds what it would draw
        for each and draws the newest once, when its ``after_read`` listeners are called."""
        self.held = False
        """The table holds auto-play at the tie of the battle on show (a war stop): either player's flip lays it."""
        self.resyncs = 0
        """Fresh snapshots asked for (a gap in the sequence, or ctrl+l)."""
        self._clock = clock
        self._resync_at: float | None = None
        """When the outstanding ask for a snapshot was made (None: none is outstanding)."""
        self.rules = Rules()
        self.seed: int | None = None
        self.total_cards = 0
        self.battles = 0
        self.wars = 0
        self.longest_war = 0
        self.result: Result | None = None
        self.reason: EndReason | None = None
        self.game_number = 0
        self.state: TableState | None = None
        self.you: You | None = None
        self.lobby: Lobby | None = None
        self.tuned: Tuned | None = None
        """War TV's last word of the table it is on (None: not War TV, or not said yet)."""
        self.on_show: BattleWon | GameOver | None = None
        self.tally: Tally = (0, 0, 0, 0)
        """The table's finished games (seat 1's wins, seat 2's, draws, stopped), as the table counts them."""
        self.played_ms = 0
        """The game's time at the table when it last said (how long it took, once over)."""
        self.log: deque[LogEntry] = deque(maxlen=log_lines)
        self._counts = (0, 0)
        self._listeners: list[Listener] = []
        self._table_listeners: list[TableListener] = []
        self._read_listeners: list[Callable[[], None]] = []

    # ------------------------------------------------------- the engine's surface

    @property
    def counts(self) -> tuple[int, int]:
        return self._counts

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def leader(self) -> Side | None:
        return leader(self._counts)

    # ------------------------------------------------------- the table's surface

    @property
    def watching(self) -> bool:
        return self.you is None or self.you.seat is None

    @property
    def behind(self) -> bool:
        """Whether this screen knows the table is further on than it shows: it heard a later number than it could
        apply (a gap, until the snapshot asked for comes), or left updates unread on the socket."""
        return self.newest > self.seq or self.unread

    def watch(self, listener: TableListener) -> Callable[[], None]:
        """Call ``listener`` with every snapshot, seat change, notice and lobby from now on."""
        self._table_listeners.append(listener)

        def stop() -> None:
            if listener in self._table_listeners:
                self._table_listeners.remove(listener)

        return stop

    def after_read(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` once the updates of each read are applied (``backlog``)."""
        self._read_listeners.append(listener)

    def flip(self) -> None:
        self._send(Flip(*self._stamp()))

    def set_auto(self, on: bool, speed: float = DEFAULT_AUTO_SPEED) -> None:
        self._send(Auto(on, speed, *self._stamp()))

    def restart(self, on: bool = True) -> None:
        self._send(Restart(on, *self._stamp()))

    def set_war_stop(self, on: bool) -> None:
        self._send(WarStop(on, *self._stamp()))

    def emote(self, emote: int) -> None:
        self._send(Emote(emote, *self._stamp()))

    def decline(self) -> None:
        """Say no to what the other player asks (auto-play, stopping at wars, dealing again)."""
        self._send(Decline(*self._stamp()))

    def resync(self) -> bool:
        """Ask the table for a fresh snapshot (a gap in the sequence, or ctrl+l), unless one asked is on its way
        (asked less than ``RESYNC_RETRY`` seconds ago, and no snapshot since). Whether it was asked."""
        now = self._clock()
        if self._resync_at is not None and now - self._resync_at < RESYNC_RETRY:
            return False
        self._resync_at = now
        self.resyncs += 1
        self._send(Resync())
        return True

    def _stamp(self) -> tuple[int, int]:
        """The game and sequence number this screen shows, carried by each of a seat's requests."""
        return self.game_number, self.seq

    def play_house(self) -> None:
        self._send(PlayHouse())

    def sit(self) -> None:
        self._send(Sit())

    def next_table(self) -> None:
        """War TV: on to the next table worth watching."""
        self._send(NextTable())

    def set_leaving(self, on: bool) -> None:
        self._send(Leaving(on, *self._stamp()))

    def leave(self) -> None:
        self._send(Leave())
        self.seq = self.newest = 0  # the next table numbers its own changes

    def _send(self, request: Request) -> None:
        if self.send is not None:
            self.send(request)

    # ------------------------------------------------------- updates in

    @contextmanager
    def backlog(self, updates: Sequence[Update], *, unread: bool = False) -> Iterator[list[tuple[Update, bool]]]:
        """What one read brought, to ``handle`` in the order given, each with whether its listeners are told
        (``newest_state``). While more than one battle is in it the game is ``catching_up``; at the end the
        ``after_read`` listeners are called, even if handling raised. ``unread``: the read left more on the socket."""
        plan = newest_state(updates)
        battles = sum(
            isinstance(event, (BattleWon, GameOver)) for update, _ in plan if isinstance(update, EventBatch)
            for event in update.events
        )
        self.catching_up = battles > 1
        self.unread = unread
        try:
            yield plan
        finally:
            self.catching_up = False
            for listener in tuple(self._read_listeners):
                listener()

    def handle(self, update: Update, tell: bool = True) -> None:
        """Apply one update from the table if it is the next in its sequence, then tell whoever listens (with
        ``tell`` False, nobody: a newer state follows in the same read)."""
        if isinstance(update, Snapshot):
            self.seq = self.newest = update.seq
            self._resync_at = None
        elif isinstance(update, NUMBERED) and update.seq and not self._next(update.seq):
            return
        if isinstance(update, EventBatch):
            self._events(update)
            return
        if isinstance(update, Snapshot):
            self._snapshot(update)
        elif isinstance(update, TableState):
            self.state = update
            self.held = update.held
        elif isinstance(update, Notice):
            if update.code in LOGGED_NOTICES:
                self.log.append(update)
        elif isinstance(update, Emoted):
            self.log.append(update)
        elif isinstance(update, Lobby | Tuned):
            self._heard(update)
        if not tell:
            return
        for listener in tuple(self._table_listeners):
            listener(update)

    def _heard(self, update: Lobby | Tuned) -> None:
        """What the lobby or War TV says: kept, outside any table's sequence."""
        if isinstance(update, Lobby):
            self.lobby = update
        else:
            self.tuned = update

    def _next(self, seq: int) -> bool:
        """Whether the update numbered ``seq`` is the next one (then this screen stands at it); after a gap, no:
        it asks for a snapshot instead."""
        if seq <= self.seq or self.seq == 0:
            return False  # a duplicate, stale, or older than a joined table's snapshot
        self.newest = max(self.newest, seq)
        if seq > self.seq + 1:
            self.resync()  # one was lost: the snapshot brings everything at once
            return False
        self.seq = seq
        return True

    def _snapshot(self, snapshot: Snapshot) -> None:
        self.held = snapshot.state.held
        self.you = snapshot.you
        self.state = snapshot.state
        self.game_number = snapshot.state.game
        self.rules = snapshot.rules
        self.seed = snapshot.seed
        self.total_cards = snapshot.total_cards
        self._counts = snapshot.counts
        self.battles = snapshot.battles
        self.wars = snapshot.wars
        self.longest_war = snapshot.longest_war
        self.result = snapshot.result
        self.reason = snapshot.reason
        self.on_show = snapshot.on_show
        self.tally = snapshot.tally
        self.played_ms = snapshot.played_ms
        self.log.clear()
        self.log.extend(snapshot.log)

    def _events(self, batch: EventBatch) -> None:
        if batch.game < self.game_number:
            return  # from a game this connection has already seen replaced
        self.game_number = batch.game
        self.held = batch.held
        self.tally = batch.tally
        self.played_ms = batch.played_ms
        for event in batch.events:
            self._apply(event)
            for listener in tuple(self._listeners):  # after the state it describes, as the engine does
                listener(event)

    def _apply(self, event: TableEvent) -> None:
        if isinstance(event, GameStarted):
            self.rules = event.rules
            self.seed = event.seed
            self.total_cards = len(event.p1) + len(event.p2)
            self._counts = (len(event.p1), len(event.p2))
            self.battles = self.wars = self.longest_war = 0
            self.result = self.reason = None
            self.on_show = None
        elif isinstance(event, BattleWon):
            self.battles = event.battle
            self.wars += event.wars
            self.longest_war = max(self.longest_war, event.wars)
            self._counts = (event.p1_count, event.p2_count)
            self.on_show = event
        else:
            self.result = event.result
            self.reason = event.reason
            self.battles = event.battles
            self.wars = event.wars
            self.longest_war = event.longest_war
            self._counts = (event.p1_count, event.p2_count)
            if event.last_battle_p1:
                self.on_show = event
        self.log.append(event)
