"""The one implementation of War's rules, which everything that plays War drives.

Packets are deques of integer cards, and events are built only when someone listens, so a headless
simulation pays almost nothing for them. A battle is atomic: listeners hear its events once it is done,
so the game they inspect agrees with what the events said.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, deal, new_deck, shuffle, validate_packets
from .events import (
    BattleWon,
    CardsRevealed,
    Event,
    EventSource,
    GameOver,
    GameStarted,
    Listener,
    WarDeclared,
)
from .rules import EndReason, Gather, Result, Rules, Side, leader

_SIDES = (Side.P1, Side.P2)
_WINNER_RESULT = (Result.P1, Result.P2)
_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game between two battles, enough to play on from there exactly as it went on: what a replay keeps
    every few hundred battles so any battle is a short replay away."""

    battles: int
    wars: int
    longest_war: int
    p1: tuple[Card, ...]  # top card first
    p2: tuple[Card, ...]
    rng_state: tuple[Any, ...]  # the generator's state (the random gather order draws from it)


class Game(EventSource):
    """One game of War, played a battle at a time or to the end."""

    def __init__(
        self,
        p1: Sequence[Card],
        p2: Sequence[Card],
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        validate_packets(p1, p2)
        self._setup(p1, p2, rules, seed, rng)

    def _setup(
        self,
        p1: Sequence[Card],
        p2: Sequence[Card],
        rules: Rules | None,
        seed: int | None,
        rng: random.Random | None,
    ) -> None:
        self.rules = rules if rules is not None else _DEFAULT_RULES
        self.seed = seed
        self.initial: tuple[tuple[Card, ...], tuple[Card, ...]] = (tuple(p1), tuple(p2))
        self.total_cards = len(p1) + len(p2)
        # The random gather order draws from the same generator that dealt.
        self._rng = rng if rng is not None else random.Random(seed if seed is not None else 0)
        self._packets: tuple[deque[Card], deque[Card]] = (deque(p1), deque(p2))
        self._listeners: list[Listener] = []
        self._started = False
        # Queued while listeners run: an event one causes (stop()) comes after the rest.
        self._pending: deque[Event] = deque()
        self._dispatching = False
        self._playing = False
        self.battles = 0
        self.wars = 0
        self.longest_war = 0
        self.war_battles: list[int] | None = None
        """When a list: the number of each battle won in a war is added to it as it is played, with no listener
        needed (a replay marks its wars so, at the unlistened engine's speed)."""
        self.result: Result | None = None
        self.reason: EndReason | None = None

    @classmethod
    def deal(cls, seed: int, rules: Rules | None = None) -> Game:
        """Shuffle a full deck with ``seed`` and deal it: the same seed always gives the same game."""
        rng = random.Random(seed)
        deck = new_deck()
        shuffle(deck, rng)
        p1, p2 = deal(deck)
        game = cls.__new__(cls)
        game._setup(p1, p2, rules, seed, rng)  # a freshly dealt full deck needs no validating
        return game

    def snapshot(self) -> Snapshot:
        """This game between battles; ``resume`` plays on from it exactly as this game would."""
        if self._playing:
            raise RuntimeError("a game is snapshot between battles, not in one")
        return Snapshot(
            self.battles, self.wars, self.longest_war, tuple(self._packets[0]), tuple(self._packets[1]),
            self._rng.getstate(),
        )

    @classmethod
    def resume(cls, snapshot: Snapshot, rules: Rules | None = None, *, seed: int | None = None) -> Game:
        """A game at ``snapshot``, already started (it announces no ``GameStarted``), that plays on as the
        game it was taken from; ``initial`` holds the packets at the snapshot."""
        rng = random.Random()
        rng.setstate(snapshot.rng_state)
        game = cls.__new__(cls)
        game._setup(snapshot.p1, snapshot.p2, rules, seed, rng)
        game._started = True
        game.battles, game.wars, game.longest_war = snapshot.battles, snapshot.wars, snapshot.longest_war
        return game

    # ----------------------------------------------------------------- state

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def counts(self) -> tuple[int, int]:
        return len(self._packets[0]), len(self._packets[1])

    def packet(self, side: Side) -> tuple[Card, ...]:
        """A player's packet, top card first."""
        return tuple(self._packets[Side(side).index])

    @property
    def leader(self) -> Side | None:
        return leader(self.counts)

    # ------------------------------------------------------------- listeners

    def _dispatch(self, events: list[Event]) -> None:
        self._pending.extend(events)
        if self._dispatching:
            return  # a listener caused these; the loop below delivers them in turn
        self._dispatching = True
        try:
            pending = self._pending
            while pending:
                event = pending.popleft()
                for listener in tuple(self._listeners):
                    listener(event)
        finally:
            self._dispatching = False
            self._pending.clear()

    # ------------------------------------------------------------------ play

    def start(self) -> None:
        """Announce the game to listeners; playing starts it by itself if need be."""
        if self._started:
            return
        self._started = True
        if self._listeners:
            self._dispatch([GameStarted(self.seed, self.rules, *self.initial)])

    def step(self) -> int:
        """Play exactly one battle (with all of its wars); returns 1, or 0 once the game is over."""
        return self.play(1)

    def play(self, limit: int | None = None) -> int:
        """Play up to ``limit`` battles (all of them when None); returns how many were played."""
        if self._playing:
            # The outer play() holds a battle in progress; this would corrupt it.
            raise RuntimeError("a listener cannot play the game it listens to (stop() is fine)")
        if not self._started:
            self.start()
        if self.result is not None:
            return 0
        cap = self.rules.max_battles
        start = self.battles
        stop_at = cap if limit is None else min(cap, start + limit)
        if start < stop_at:
            self._playing = True
            try:
                self._battles(stop_at)
            finally:
                self._playing = False
        return self.battles - start

    def stop(self, reason: EndReason = EndReason.STOPPED) -> None:
        """End the game now as stopped (the rule sheet's "stop after a set time"; or, ``EndReason.AGREED``,
        both players at a table agreed to).

        A listener may call it too: the game ends after the battle being told.
        """
        if self.result is None:
            self._finish(Result.STOPPED, reason, [] if self._listeners else None)

    def _battles(self, stop_at: int) -> None:  # noqa: C901 - the battle loop, where every rule (war cards, gather order, the battle cap) meets once
        p1, p2 = self._packets
        pop1, pop2 = p1.popleft, p2.popleft
        put1, put2 = p1.extend, p2.extend
        k = self.rules.war_cards
        cap = self.rules.max_battles
        battles = self.battles
        wars = self.wars
        longest = self.longest_war
        listening = bool(self._listeners)
        noted = self.war_battles
        # simulate's path: headless winner-first builds no pile (tests hold both alike).
        plain = self.rules.gather is Gather.WINNER_FIRST and not listening
        out: list[Event] | None = None
        # A card is rank << 2 | suit: c1 ^ c2 < 4 is a tie, else the bigger wins.
        try:
            for battles in range(battles + 1, stop_at + 1):  # noqa: B020 (counts on from the battles played)
                c1 = pop1()
                c2 = pop2()
                if c1 ^ c2 > 3 and plain:
                    if c1 > c2:
                        put1((c1, c2))
                        if not p2:
                            break
                    else:
                        put2((c2, c1))
                        if not p1:
                            break
                    continue
                if listening:
                    out = [CardsRevealed(battles, c1, c2, 0)]
                laid1 = [c1]
                laid2 = [c2]
                depth = 0
                while c1 ^ c2 < 4:
                    if len(p1) <= k or len(p2) <= k:
                        # Someone cannot lay both the face-down and the face-up cards.
                        wars += depth
                        if depth > longest:
                            longest = depth
                        self.battles, self.wars, self.longest_war = battles, wars, longest
                        self._end_short(laid1, laid2, depth, out)
                        return
                    depth += 1
                    for _ in range(k):
                        laid1.append(pop1())
                        laid2.append(pop2())
                    c1 = pop1()
                    c2 = pop2()
                    laid1.append(c1)
                    laid2.append(c2)
                    if out is not None:
                        down1, down2 = tuple(laid1[-k - 1 : -1]), tuple(laid2[-k - 1 : -1])
                        out.append(WarDeclared(battles, depth, down1, down2))
                        out.append(CardsRevealed(battles, c1, c2, depth))
                wars += depth
                if depth > longest:
                    longest = depth
                if depth and noted is not None:
                    noted.append(battles)
                if plain:
                    if c1 > c2:
                        put1(laid1)
                        put1(laid2)
                        if not p2:
                            break
                    else:
                        put2(laid2)
                        put2(laid1)
                        if not p1:
                            break
                    continue
                winner = 0 if c1 > c2 else 1
                pile = self._gather(winner, laid1, laid2)
                (put1 if winner == 0 else put2)(pile)
                if out is not None:
                    out.append(
                        BattleWon(
                            battles, _SIDES[winner], tuple(pile), tuple(laid1), tuple(laid2),
                            depth, len(p1), len(p2),
                        )
                    )
                    if not p1 or not p2 or battles >= cap:
                        break  # the game ends with this battle: its events go out with GameOver
                    self.battles, self.wars, self.longest_war = battles, wars, longest
                    self._dispatch(out)
                    out = None
                    if self.result is not None:
                        return  # a listener stopped the game
                elif not p1 or not p2:
                    break
        finally:
            self.battles, self.wars, self.longest_war = battles, wars, longest
        if out is None and listening:
            out = []
        if not p1 or not p2:
            self._finish(_WINNER_RESULT[0 if p1 else 1], EndReason.ALL_CARDS, out)
        elif battles >= cap:
            self._finish(Result.STOPPED, EndReason.BATTLE_CAP, out)

    def _gather(self, winner: int, laid1: list[Card], laid2: list[Card]) -> list[Card]:
        gather = self.rules.gather
        own, other = (laid1, laid2) if winner == 0 else (laid2, laid1)
        if gather is Gather.WINNER_FIRST:
            return own + other
        if gather is Gather.LOSER_FIRST:
            return other + own
        if gather is Gather.LAID:
            # In the order laid: face-up pair, then each war's face-down groups and pair.
            pile = [laid1[0], laid2[0]]
            k = self.rules.war_cards
            for i in range(1, len(laid1), k + 1):
                up = i + k
                pile += laid1[i:up]
                pile += laid2[i:up]
                pile.append(laid1[up])
                pile.append(laid2[up])
            return pile
        pile = laid1 + laid2
        shuffle(pile, self._rng)
        return pile

    def _end_short(self, laid1: list[Card], laid2: list[Card], depth: int, out: list[Event] | None) -> None:
        p1, p2 = self._packets
        k = self.rules.war_cards
        short1, short2 = len(p1) <= k, len(p2) <= k
        if short1 and short2:
            # A draw: each player takes back what they laid, so no card is lost.
            p1.extend(laid1)
            p2.extend(laid2)
            result, reason = Result.DRAW, EndReason.BOTH_SHORT
        else:
            winner = 1 if short1 else 0
            self._packets[winner].extend(self._gather(winner, laid1, laid2))
            result, reason = _WINNER_RESULT[winner], EndReason.SHORT_IN_WAR
        self._finish(result, reason, out, tuple(laid1), tuple(laid2), depth)

    def _finish(
        self,
        result: Result,
        reason: EndReason,
        out: list[Event] | None,
        last1: tuple[Card, ...] = (),
        last2: tuple[Card, ...] = (),
        last_wars: int = 0,
    ) -> None:
        self.result = result
        self.reason = reason
        if out is not None:
            n1, n2 = self.counts
            out.append(
                GameOver(
                    result, reason, self.battles, self.wars, self.longest_war,
                    n1, n2, self.leader, last1, last2, last_wars,
                )
            )
            self._dispatch(out)

