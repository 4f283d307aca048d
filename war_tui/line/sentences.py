"""What the line mode says: cards in words, one sentence per battle, the score, the end of a game.

Player 1 is "you" and player 2 "they" unless the players were given names. Every sentence is plain
text meant to be read aloud: words, not symbols ("king of hearts", never "K♥").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import Card, rank, suit
from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import EndReason, Result, Side
from ..presentation.words import capital, war_word

RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")  # the engine's suit order: C D H S


def card_words(card: Card, terse: bool = False) -> str:
    """ "king of hearts", or with ``terse`` just "king"."""
    word = RANK_WORDS[rank(card)]
    return word if terse else f"{word} of {SUIT_WORDS[suit(card)]}"


def rank_plural(card: Card) -> str:
    """The rank of ``card`` counted: "sevens", "sixes", "aces"."""
    word = RANK_WORDS[rank(card)]
    return word + ("es" if word.endswith("x") else "s")


@dataclass(frozen=True, slots=True)
class Voice:
    """Who is who in the sentences: "you" for the player's own seat, "they" or the other player's name."""

    names: tuple[str, str] | None = None  # None: the other player is "they"
    terse: bool = False
    me: Side | None = Side.P1  # the seat that is "you"; None: a spectator, both seats by name

    def who(self, side: Side) -> str:
        """The subject: "you", "they", "Ann"."""
        if side is self.me:
            return "you"
        return "they" if self.names is None else self.names[side.index]

    def whose(self, side: Side) -> str:
        """The possessive: "your", "their", "Ann's"."""
        if side is self.me:
            return "your"
        return "their" if self.names is None else self.names[side.index] + "'s"

    def verb(self, side: Side, plain: str, third: str) -> str:
        """ "you take", "they take", "Ann takes"."""
        who = self.who(side)
        return f"{who} {plain if who in ('you', 'they') else third}"

    def counts(self, p1: int, p2: int) -> str:
        """The packets: "You have 27, they have 25." or tersely "27 to 25." (player 1's first)."""
        if self.terse:
            return f"{p1} to {p2}."
        return capital(f"{self.verb(Side.P1, 'have', 'has')} {p1}, {self.verb(Side.P2, 'have', 'has')} {p2}.")


class BattleTeller:
    """Follows one game's events and says each battle in one sentence once it is won (or ends the game).

    ``on_event`` returns the sentence an event completes, or None: a battle is told whole, when its pile
    has gone to the winner, so what is said always agrees with the counts. It needs only the deals, the
    won battles and the end (what a shared table sends too): the cards each player laid give the ties
    and the deciding cards, by the rules' number of cards laid face down in a war.
    """

    def __init__(self, voice: Voice, war_cards: int = 1) -> None:
        self.voice = voice
        self.war_cards = war_cards

    def on_event(self, event: object) -> str | None:
        if isinstance(event, GameStarted):
            self.war_cards = event.rules.war_cards
        elif isinstance(event, BattleWon):
            return self.battle(event)
        elif isinstance(event, GameOver):
            return self.game_over(event)
        return None

    def _face_up(self, laid: tuple[Card, ...], depth: int) -> Card | None:
        """The card a player turned face up at ``depth`` (0: the battle's first card), if they could."""
        index = depth * (self.war_cards + 1)
        return laid[index] if index < len(laid) else None

    def _ties(self, p1_laid: tuple[Card, ...], wars: int) -> str:
        """ "Sevens tie: war! Queens tie: double war!" for the first ``wars`` ties of a battle."""
        parts = []
        for depth in range(1, wars + 1):
            tied = self._face_up(p1_laid, depth - 1)
            what = capital(rank_plural(tied)) + " tie" if tied is not None else "A tie"
            parts.append(f"{what}: {war_word(depth)}!")
        return " ".join(parts)

    def battle(self, won: BattleWon) -> str:
        v = self.voice
        winner, loser = won.winner, won.winner.other
        deciding = (won.p1_laid[-1], won.p2_laid[-1]) if won.p1_laid and won.p2_laid else None
        if deciding is None:
            beats = capital(f"{v.verb(winner, 'win', 'wins')} the battle.")
        else:
            high, low = deciding if winner is Side.P1 else deciding[::-1]
            if v.terse:
                beats = capital(f"{v.whose(winner)} {card_words(high, True)} beats {card_words(low, True)}.")
            else:
                beats = capital(
                    f"{v.whose(winner)} {card_words(high)} beats {v.whose(loser)} {card_words(low)}."
                )
        parts = []
        if won.wars:
            parts.append(self._ties(won.p1_laid, won.wars))
            taken = f"{v.verb(winner, 'take', 'takes')} {len(won.cards)}"
            parts.append(beats)
            parts.append(capital(taken + ("." if v.terse else " cards.")))
        else:
            parts.append(beats)
        parts.append(v.counts(won.p1_count, won.p2_count))
        return " ".join(p for p in parts if p)

    def game_over(self, over: GameOver) -> str:
        """How the game ended, with the battle that ended it when a war could not be finished."""
        v = self.voice
        parts = []
        if over.last_battle_p1:  # the battle that ended it: its wars, then the tie nobody could follow
            parts.append(self._ties(over.last_battle_p1, over.last_battle_wars))
            last = self._face_up(over.last_battle_p1, over.last_battle_wars)
            if last is not None:
                parts.append(capital(rank_plural(last)) + " tie!")
        parts.append(ending(over.result, over.reason, v))
        wars = "no wars" if over.wars == 0 else "1 war" if over.wars == 1 else f"{over.wars:,} wars"
        battles = "1 battle" if over.battles == 1 else f"{over.battles:,} battles"
        parts.append(f"{battles}, {wars}.")
        if over.reason is not EndReason.ALL_CARDS:  # otherwise the last battle said it: all of them to none
            parts.append(v.counts(over.p1_count, over.p2_count))
        return " ".join(p for p in parts if p)


def ending(result: Result, reason: EndReason, v: Voice) -> str:
    """ "Game over: you win, they ran out of cards." in the voice's persons."""
    if result is Result.DRAW:
        return "Game over: a draw, neither of you could finish a war." if v.names is None else (
            "Game over: a draw, neither player could finish a war."
        )
    if result is Result.STOPPED:
        why = "the battle limit was reached" if reason is EndReason.BATTLE_CAP else "the time limit ran out"
        return f"Game over: stopped, {why}."
    winner = Side.P1 if result is Result.P1 else Side.P2
    loser = winner.other
    why = {
        EndReason.ALL_CARDS: v.verb(loser, "ran out of cards", "ran out of cards"),
        EndReason.SHORT_IN_WAR: v.verb(loser, "could not finish a war", "could not finish a war"),
    }.get(reason, "")
    said = f"Game over: {v.verb(winner, 'win', 'wins')}"
    return said + (f", {why}." if why else ".")


def score(battle: int, wars: int, counts: Sequence[int], v: Voice) -> str:
    """What ``s`` says: the battle, the wars so far and the packets."""
    war_count = "no wars" if wars == 0 else "1 war" if wars == 1 else f"{wars:,} wars"
    full = Voice(v.names, me=v.me)  # the score is asked for: it is said whole even in the terse voice
    return f"Battle {battle:,}, {war_count} so far. {full.counts(counts[0], counts[1])}"
