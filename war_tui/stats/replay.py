"""A finished game rebuilt from its seed and rules, at any battle, without storing its battles.

One pass over the game keeps a snapshot every ``SNAPSHOT_EVERY`` battles and the numbers of the battles
with a war (the scrubber's marks); any battle is then at most that many battles played from a snapshot.
Pure Python: the replay screen, the export and the tests all use it.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass

from ..core.cards import Card
from ..core.engine import Game, Snapshot
from ..core.events import BattleWon, Event, GameOver
from ..core.rules import EndReason, Result, Rules, Side
from .records import GameRecord

SNAPSHOT_EVERY = 256
MOST_BATTLES = 1_000_000
"""The longest game a replay rebuilds (a few seconds of play); a record that says more is refused."""
_WINNER = {Result.P1: Side.P1, Result.P2: Side.P2}


class ReplayError(ValueError):
    """A game that cannot be replayed; the message is one line fit to show a person."""


@dataclass(frozen=True, slots=True)
class PlayedBattle:
    """One battle as it was played: the cards each player laid, who took them, the counts after."""

    battle: int
    p1_laid: tuple[Card, ...]
    p2_laid: tuple[Card, ...]
    wars: int  # how deep this battle's war went (0: no war)
    winner: Side | None  # None: a draw ended the game with nobody taking the pile
    taken: int  # cards that went to the winner
    counts: tuple[int, int]  # packet sizes after the battle
    total_wars: int  # wars of the game so far, this battle's included
    event: BattleWon | GameOver  # the engine's own word for it, for whoever tells battles from events


def _played(event: BattleWon | GameOver, total_wars: int) -> PlayedBattle | None:
    if isinstance(event, BattleWon):
        return PlayedBattle(
            event.battle, event.p1_laid, event.p2_laid, event.wars, event.winner, len(event.cards),
            (event.p1_count, event.p2_count), total_wars, event,
        )
    if not event.last_battle_p1:
        return None  # the game ended between battles
    winner = _WINNER.get(Result(event.result))
    taken = len(event.last_battle_p1) + len(event.last_battle_p2) if winner is not None else 0
    return PlayedBattle(
        event.battles, event.last_battle_p1, event.last_battle_p2, event.last_battle_wars, winner, taken,
        (event.p1_count, event.p2_count), total_wars, event,
    )


class Replay:
    """A dealt game played once to its end (or to ``battles``, where a stopped game stopped), then
    any of its battles on demand."""

    def __init__(self, seed: int, rules: Rules, battles: int | None = None) -> None:
        limit = min(rules.max_battles, MOST_BATTLES) if battles is None else battles
        if not 0 <= limit <= MOST_BATTLES:
            raise ReplayError(f"a replay rebuilds games of at most {MOST_BATTLES:,} battles")
        self.seed = seed
        self.rules = rules
        self._snapshots: list[Snapshot] = []
        wars: list[int] = []
        game = Game.deal(seed, rules)
        self._start_counts = game.counts
        game.war_battles = wars  # no listener: the pass runs at the engine's own speed, events cost 15 times more
        game.start()
        while not game.over and game.battles < limit:
            self._snapshots.append(game.snapshot())
            game.play(min(SNAPSHOT_EVERY, limit - game.battles))
        self.battles = game.battles
        self.counts = game.counts
        self.result = game.result if game.result is not None else Result.STOPPED
        self.reason = game.reason if game.reason is not None else EndReason.STOPPED
        self.ended = self._game_over() if game.over else None
        if self.ended is not None and self.ended.last_battle_p1:
            wars.append(self.ended.battles)  # a war the game ended in, short of cards
        self.war_battles: tuple[int, ...] = tuple(wars)
        """The battles with a war (or a tie the game ended on), in order: the scrubber marks them."""

    def _game_over(self) -> GameOver | None:
        """The engine's word for the end of a game over by itself: the last stretch played again, listened to."""
        if not self._snapshots:
            return None
        game = Game.resume(self._snapshots[-1], self.rules, seed=self.seed)
        ended: list[GameOver] = []
        game.subscribe(lambda event: ended.append(event) if isinstance(event, GameOver) else None)
        game.play(self.battles - game.battles)
        return ended[0] if ended else None

    @classmethod
    def of_record(cls, record: GameRecord) -> Replay:
        """The game a statistics record tells, checked against it (the same battles, the same counts)."""
        if record.seed is None:
            raise ReplayError("that game was dealt by hand, not from a seed: it cannot be replayed")
        rules = record.rules
        if rules is None:
            raise ReplayError("that game was played with rules this version does not know")
        if record.battles < 1:
            raise ReplayError("that game ended before its first battle: there is nothing to replay")
        replay = cls(record.seed, rules, record.battles)
        if replay.battles != record.battles or replay.counts != (record.p1_count, record.p2_count):
            raise ReplayError("that game's seed and rules do not give the game recorded: it cannot be replayed")
        if replay.ended is None and isinstance(record.reason, EndReason):
            replay.reason = record.reason  # stopped from outside (a time limit, an agreement): the record says why
        return replay

    @property
    def start_counts(self) -> tuple[int, int]:
        return self._start_counts

    def battle(self, number: int) -> PlayedBattle:
        """Battle ``number`` (1 to ``battles``), played from the snapshot before it."""
        if not 1 <= number <= self.battles:
            raise ReplayError(f"battle {number:,} is not in this game (1 to {self.battles:,})")
        return next(self.played(number, number))

    def played(self, first: int = 1, last: int | None = None) -> Iterator[PlayedBattle]:
        """Battles ``first`` to ``last`` (the last battle when None), in order."""
        last = self.battles if last is None else min(last, self.battles)
        first = max(1, first)
        if first > last:
            return
        snapshot = self._snapshots[(first - 1) // SNAPSHOT_EVERY]
        game = Game.resume(snapshot, self.rules, seed=self.seed)
        total_wars = snapshot.wars
        caught: list[PlayedBattle] = []

        def note(event: Event) -> None:
            nonlocal total_wars
            if isinstance(event, BattleWon):
                total_wars += event.wars
            elif isinstance(event, GameOver):
                total_wars = event.wars
            else:
                return
            battle = _played(event, total_wars)
            if battle is not None and battle.battle >= first:
                caught.append(battle)

        game.subscribe(note)
        while game.battles < last and not game.over:
            game.play(min(SNAPSHOT_EVERY, last - game.battles))
            yield from caught
            caught.clear()

    def war_index(self, battle: int) -> int:
        """How many war battles come before ``battle``: where ``battle`` falls among the marks."""
        return bisect.bisect_left(self.war_battles, battle)

    def next_war(self, battle: int) -> int | None:
        """The first war battle after ``battle``; None when none is."""
        at = bisect.bisect_right(self.war_battles, battle)
        return self.war_battles[at] if at < len(self.war_battles) else None

    def previous_war(self, battle: int) -> int | None:
        """The last war battle before ``battle``; None when none is."""
        at = bisect.bisect_left(self.war_battles, battle)
        return self.war_battles[at - 1] if at else None
