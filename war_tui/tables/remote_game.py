"""A game at a table, seen from one connection: the engine's surface, fed by the table's updates.

The board follows a ``RemoteGame`` exactly as it follows a local ``Game`` (both are a
``PlayedGame``): ``subscribe`` for the game's deals, won battles and game over, and
``battles``, ``wars``, ``counts``, ``rules``, ``over``, ``result``... for the state
they describe, which is up to date before each event is told, as with the engine. It never
decides a rule: it only applies what the table's updates say. Everything else a
table says (the seats, notices, snapshots, the lobby) goes to ``watch``
listeners. Key presses become requests through ``send`` (``flip``, ``set_auto``,
``restart``, ``set_war_stop``, ``emote``, ``play_house``, ``sit``, ``leave``); the table answers with
updates. The table's tally and the game's time (``tally``, ``played_ms``) come with its events, so
every screen shows the same.

Fed by ``handle``: from the protocol's ``update_reader`` in a game process, or
straight from a ``Table`` member's sink in one process (``--two-players``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from ..core.events import BattleWon, EventSource, GameOver, GameStarted, Listener
from ..core.rules import EndReason, Result, Rules, Side, leader
from .messages import (
    LOGGED_NOTICES,
    Auto,
    Emote,
    Emoted,
    EventBatch,
    Flip,
    House,
    Leave,
    Leaving,
    Lobby,
    LogEntry,
    Notice,
    Request,
    Restart,
    Sit,
    Snapshot,
    Tally,
    TableEvent,
    TableState,
    Update,
    WarStop,
    You,
)
from .table import DEFAULT_AUTO_SPEED, DEFAULT_LOG_LINES

TableListener = Callable[[Snapshot | TableState | Notice | Emoted | Lobby], None]


class RemoteGame(EventSource):
    """A table's game as one connection sees it; ``send`` carries its requests to the table."""

    def __init__(self, send: Callable[[Request], object] | None = None, log_lines: int = DEFAULT_LOG_LINES) -> None:
        self.send = send
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
        self.on_show: BattleWon | GameOver | None = None
        self.tally: Tally = (0, 0, 0, 0)
        """The table's finished games (seat 1's wins, seat 2's, draws, stopped), as the table counts them."""
        self.played_ms = 0
        """The game's time at the table when it last said (how long it took, once over)."""
        self.log: deque[LogEntry] = deque(maxlen=log_lines)
        self._counts = (0, 0)
        self._listeners: list[Listener] = []
        self._table_listeners: list[TableListener] = []

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

    def watch(self, listener: TableListener) -> Callable[[], None]:
        """Call ``listener`` with every snapshot, seat change, notice and lobby from now on."""
        self._table_listeners.append(listener)

        def stop() -> None:
            if listener in self._table_listeners:
                self._table_listeners.remove(listener)

        return stop

    def flip(self) -> None:
        self._send(Flip())

    def set_auto(self, on: bool, speed: float = DEFAULT_AUTO_SPEED) -> None:
        self._send(Auto(on, speed))

    def restart(self, on: bool = True) -> None:
        self._send(Restart(on))

    def set_war_stop(self, on: bool) -> None:
        self._send(WarStop(on))

    def emote(self, emote: int) -> None:
        self._send(Emote(emote))

    def play_house(self) -> None:
        self._send(House())

    def sit(self) -> None:
        self._send(Sit())

    def set_leaving(self, on: bool) -> None:
        self._send(Leaving(on))

    def leave(self) -> None:
        self._send(Leave())

    def _send(self, request: Request) -> None:
        if self.send is not None:
            self.send(request)

    # ------------------------------------------------------- updates in

    def handle(self, update: Update) -> None:
        """Apply one update from the table, then tell whoever listens."""
        if isinstance(update, EventBatch):
            self._events(update)
            return
        if isinstance(update, Snapshot):
            self._snapshot(update)
        elif isinstance(update, TableState):
            self.state = update
        elif isinstance(update, Notice):
            if update.code in LOGGED_NOTICES:
                self.log.append(update)
        elif isinstance(update, Emoted):
            self.log.append(update)
        elif isinstance(update, Lobby):
            self.lobby = update
        for listener in tuple(self._table_listeners):
            listener(update)

    def _snapshot(self, snapshot: Snapshot) -> None:
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
