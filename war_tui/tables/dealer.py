"""A table's games: each deal, what the engine says on each call, the game's time, the tally and its record.

The rules stay in the engine: the dealer deals a ``Game``, runs the table's calls on it and collects what
the engine says (``TableEvent``). It keeps the battle on show for snapshots, stops the game's time and
counts it in the tally the moment it ends (before anyone is told), and hands the host one ``GameRecord``
per finished game, named by ``game_ids``. A game stopped before its first battle is not counted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ..core.engine import Game
from ..core.events import BattleWon, Event, GameOver, GameStarted
from ..core.rules import EndReason, Result, Rules
from ..stats.records import GameRecord, Source
from .clock import Clock
from .messages import TableEvent, Tally


class Dealer:
    """The games of one table, one at a time: ``game`` is the one being played, ``number`` counts them from 1."""

    def __init__(
        self,
        clock: Clock,
        rules: Rules,
        deal: Callable[[], Game] | None = None,
        seed_source: Callable[[], int] | None = None,
        on_record: Callable[[GameRecord], None] | None = None,
        game: Game | None = None,
        game_ids: Callable[[int], str] | None = None,
    ) -> None:
        """``game_ids``: each game's id by its number (``table_game_id``); None: records carry none."""
        seeds = seed_source if seed_source is not None else _random_seed
        self._deal = deal if deal is not None else (lambda: Game.deal(seeds(), rules))
        self._clock = clock
        self._on_record = on_record
        self._game_ids = game_ids
        self._said: list[Event] = []
        self._tally: Counter[Result] = Counter()
        self._dealt_at = 0.0
        self._took: float | None = None
        self._recorded = False
        self.number = 0
        self.on_show: BattleWon | GameOver | None = None
        """The battle on the board (a ``GameOver``: a game ended short in a war), as a snapshot shows it."""
        self.game = self.deal() if game is None else self._follow(game)
        """The game being played (or just over)."""

    def deal(self) -> Game:
        """A new game, not yet started (the table starts it with ``run(game.start)``)."""
        game = self._deal()
        self.number += 1
        self._dealt_at = self._clock()
        self._took = None
        self._recorded = False
        self.on_show = None
        return self._follow(game)

    def _follow(self, game: Game) -> Game:
        game.subscribe(self._said.append)
        self.game = game
        return game

    def resume(
        self, number: int, played: float, tally: Tally, on_show: BattleWon | GameOver | None,
    ) -> None:
        """Go on with the game given at construction, in play for ``played`` seconds (how long it took, once over),
        as game ``number`` of a table whose finished games are ``tally`` (a restored table). A game over is not
        marked recorded: the process that finished it may have died before its record left, so ``record`` hands
        it once more (the statistics keep a game id once)."""
        self.number = number
        if self.game.over:
            self._took = played
        else:
            self._dealt_at = self._clock() - played
        self.on_show = on_show
        self._tally = Counter({Result.P1: tally[0], Result.P2: tally[1], Result.DRAW: tally[2], Result.STOPPED: tally[3]})

    def run(self, call: Callable[[], object]) -> tuple[TableEvent, ...] | None:
        """Run one engine call: what the engine said of it, as the table tells it (None: the engine said nothing)."""
        call()
        if not self._said:
            return None
        events = tuple(e for e in self._said if isinstance(e, (GameStarted, BattleWon, GameOver)))
        self._said.clear()
        for event in events:
            if isinstance(event, BattleWon) or (isinstance(event, GameOver) and event.last_battle_p1):
                self.on_show = event
        return events

    def finish(self) -> bool:
        """A game just over: its time stops and the tally counts it, before anyone is told it ended; whether it
        did just now."""
        game = self.game
        if not game.over or self._took is not None:
            return False
        self._took = self._clock() - self._dealt_at
        if game.result is not None and not _nothing_played(game):
            self._tally[game.result] += 1
        return True

    def record(self, names: tuple[str, str], players: tuple[str | None, str | None]) -> None:
        """Hand the host the finished game's one record (once; never for a game with nothing played)."""
        game = self.game
        if not game.over or self._recorded or self._took is None:
            return
        self._recorded = True
        if _nothing_played(game):
            return  # stopped before its first battle: no game, so neither statistics nor tally
        if self._on_record is not None:
            game_id = self._game_ids(self.number) if self._game_ids is not None else None
            self._on_record(
                GameRecord.from_game(game, names, self._took, Source.TABLE, players=players, game_id=game_id)
            )

    def played(self) -> float:
        """Seconds since the deal, or how long the game took once it is over."""
        return self._took if self._took is not None else max(0.0, self._clock() - self._dealt_at)

    def played_ms(self) -> int:
        return round(1000 * self.played())

    @property
    def tally(self) -> Tally:
        """The table's finished games: seat 1's wins, seat 2's, draws, stopped games."""
        t = self._tally
        return (t[Result.P1], t[Result.P2], t[Result.DRAW], t[Result.STOPPED])


def _nothing_played(game: Game) -> bool:
    """A game both players stopped by agreement before any battle was played."""
    return game.reason is EndReason.AGREED and game.battles == 0


def _random_seed() -> int:
    return random.SystemRandom().randrange(2**32)
