"""The rules value: one immutable record of every choice the rule sheet leaves open.

The defaults are the rule sheet's beginner game; the other values are the
house-rule variants people ask for by name.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from .plural import plural

MIN_WAR_CARDS = 1
MAX_WAR_CARDS = 3
DEFAULT_MAX_BATTLES = 10_000


class RulesError(ValueError):
    """A rule value out of range; the message is fit to show a person."""


class Side(StrEnum):
    P1 = "p1"
    P2 = "p2"

    @property
    def other(self) -> Side:
        return Side.P2 if self is Side.P1 else Side.P1

    @property
    def index(self) -> int:  # type: ignore[override]  # 0 or 1; nothing calls str.index on a Side
        return 0 if self is Side.P1 else 1


def leader(counts: tuple[int, int]) -> Side | None:
    """Who holds more cards (None when even): what a stopped game is decided by."""
    n1, n2 = counts
    if n1 == n2:
        return None
    return Side.P1 if n1 > n2 else Side.P2


class Gather(StrEnum):
    """In which order the battle's winner puts the middle pile under their packet."""

    WINNER_FIRST = "winner-first"  # winner's cards as laid, then the loser's as laid
    LOSER_FIRST = "loser-first"  # loser's cards as laid, then the winner's as laid
    LAID = "laid"  # every card in the order laid, player 1's before player 2's at each step
    RANDOM = "random"  # shuffled by the game's own seeded generator


class Result(StrEnum):
    P1 = "p1"
    P2 = "p2"
    DRAW = "draw"
    STOPPED = "stopped"


class EndReason(StrEnum):
    """Why a game ended, for people who ask "how did that happen?"."""

    ALL_CARDS = "all-cards"  # the loser ran out of cards
    SHORT_IN_WAR = "short-in-war"  # the loser could not supply a war's cards
    BOTH_SHORT = "both-short"  # neither could supply a war's cards: a draw
    BATTLE_CAP = "battle-cap"  # max_battles reached
    STOPPED = "stopped"  # stopped from outside (a time limit, say)
    AGREED = "agreed"  # both players at a table agreed to stop it and deal again


@dataclass(frozen=True, slots=True)
class Rules:
    war_cards: int = 1
    gather: Gather = Gather.WINNER_FIRST
    max_battles: int = DEFAULT_MAX_BATTLES

    def __post_init__(self) -> None:
        if isinstance(self.war_cards, bool) or not isinstance(self.war_cards, int):
            raise RulesError(f"war cards must be a whole number, not {self.war_cards!r}")
        if not MIN_WAR_CARDS <= self.war_cards <= MAX_WAR_CARDS:
            raise RulesError(
                f"war cards must be from {MIN_WAR_CARDS} to {MAX_WAR_CARDS}, not {self.war_cards}"
            )
        try:
            gather = Gather(self.gather)
        except ValueError:
            names = ", ".join(g.value for g in Gather)
            raise RulesError(f"unknown gather order '{self.gather}' (choose from {names})") from None
        object.__setattr__(self, "gather", gather)
        if isinstance(self.max_battles, bool) or not isinstance(self.max_battles, int):
            raise RulesError(f"max battles must be a whole number, not {self.max_battles!r}")
        if self.max_battles < 1:
            raise RulesError(f"max battles must be at least 1, not {self.max_battles}")

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["gather"] = self.gather.value
        return data

    def replay_flags(self) -> str:
        """The command-line flags that ask for these rules (empty for the defaults), each after a space."""
        default = Rules()
        flags = ""
        if self.war_cards != default.war_cards:
            flags += f" --war-cards {self.war_cards}"
        if self.gather is not default.gather:
            flags += f" --gather {self.gather.value}"
        if self.max_battles != default.max_battles:
            flags += f" --max-battles {self.max_battles}"
        return flags

    def describe(self) -> str:
        """A short phrase for status lines: only what differs from the defaults."""
        parts = []
        if self.war_cards != 1:
            parts.append(f"{plural(self.war_cards, 'card')} down per war")
        if self.gather is not Gather.WINNER_FIRST:
            parts.append(f"gather {self.gather.value}")
        if self.max_battles != DEFAULT_MAX_BATTLES:
            parts.append(f"cap {plural(self.max_battles, 'battle')}")
        return ", ".join(parts) or "standard rules"
