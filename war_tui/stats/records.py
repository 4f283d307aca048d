"""The values the statistics store reads and writes: one finished game, the totals, a histogram.

Plain frozen dataclasses with no SQLite or UI in them, so the command line, the
stats screen and the tests all speak the same language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from ..core.rules import EndReason, Gather, Result, Rules

if TYPE_CHECKING:
    from ..core.engine import Game

DEFAULT_NAMES = ("Player 1", "Player 2")
YOU = "you"
OPPONENT = "opponent"
"""What a served player's statistics call the seats of a table game: their own, and anyone else's."""


class Source(StrEnum):
    """How the game was played, so a screensaver's thousands of games can be told from real play."""

    INTERACTIVE = "interactive"
    AUTO = "auto"
    SCREENSAVER = "screensaver"
    TABLE = "table"  # two people at a shared table (over SSH or at one keyboard)


E = TypeVar("E", bound=StrEnum)


def known(kind: type[E], value: str) -> E | str:
    """The member of ``kind`` named by ``value``, or ``value`` itself when this version does not know it
    (a newer war-tui wrote it): shown as it is, never a crash."""
    try:
        return kind(value)
    except ValueError:
        return value


TABLE_GAME_ID = re.compile(r"[a-z0-9-]{1,24}\.[0-9a-f]{1,64}\.[1-9][0-9]{0,17}")
"""What ``table_game_id`` makes of a table's name, nonce and game number: the id a game has on every node of a
cluster (the statistics' row ids are each node's own), so a link to it opens it whichever node answers."""


def table_game_id(table: str, nonce: str, number: int) -> str:
    """A table game's id: the table's name, the nonce the table was opened with, the game's number there.

    A table's name is used again once it closes; its nonce is not, so no two games share an id, and whichever
    node holds the table (it keeps its nonce and its count of games) names a game the same.
    """
    return f"{table}.{nonce}.{number}"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game as stored: enough to show it, count it and deal it again.

    A value read from the file that this version does not know (a result, a reason, a gather order,
    a source) stays the plain string it was written as.
    """

    finished_at: str  # UTC, ISO 8601 with offset: "2024-05-01T12:00:00+00:00"
    seed: int | None  # None when the packets were given by hand (cannot be replayed by seed)
    war_cards: int
    gather: Gather | str
    max_battles: int
    p1_name: str
    p2_name: str
    result: Result | str
    reason: EndReason | str
    battles: int
    wars: int
    longest_war: int
    p1_count: int
    p2_count: int
    seconds: float
    source: Source | str
    p1_player: str | None = None
    """Who sat in seat 1, as the SSH server knows them (``WAR_TUI_PLAYER_ID``): never shown, only matched."""
    p2_player: str | None = None
    game_id: str | None = None
    """The game's own name, the same on every node that hands it on (``table_game_id``): the store keeps one
    game per id, so a record delivered twice counts once. None: a solo game, each record a game of its own."""
    id: int | None = field(default=None, compare=False)  # set once stored

    @classmethod
    def from_game(
        cls,
        game: Game,
        names: tuple[str, str] = DEFAULT_NAMES,
        seconds: float = 0.0,
        source: Source | str = Source.INTERACTIVE,
        *,
        finished_at: str | None = None,
        players: tuple[str | None, str | None] = (None, None),
        game_id: str | None = None,
    ) -> GameRecord:
        """The record of a game that is over (won, drawn or stopped).

        ``players``: the identities of the two seats in a served game (a solo game: the player's in seat 1);
        ``game_id``: a table game's id (``table_game_id``).
        """
        if game.result is None or game.reason is None:
            raise ValueError("only a finished game can be recorded")
        n1, n2 = game.counts
        return cls(
            finished_at=finished_at or utc_now(),
            seed=game.seed,
            war_cards=game.rules.war_cards,
            gather=game.rules.gather,
            max_battles=game.rules.max_battles,
            p1_name=names[0],
            p2_name=names[1],
            result=game.result,
            reason=game.reason,
            battles=game.battles,
            wars=game.wars,
            longest_war=game.longest_war,
            p1_count=n1,
            p2_count=n2,
            seconds=max(0.0, float(seconds)),
            source=Source(source),
            p1_player=players[0],
            p2_player=players[1],
            game_id=game_id,
        )

    def seen_by(self, player: str) -> GameRecord:
        """This record as ``player`` may see it: a seat someone else sat in is "opponent", never their name."""
        if self.source != Source.TABLE:
            return self  # a solo game's names are the game's, not people's
        return replace(
            self,
            p1_name=YOU if self.p1_player == player else OPPONENT,
            p2_name=YOU if self.p2_player == player else OPPONENT,
        )

    @property
    def rules(self) -> Rules | None:
        """The rules to deal this game again with; None when this version cannot play them."""
        try:
            return Rules(war_cards=self.war_cards, gather=Gather(self.gather), max_battles=self.max_battles)
        except ValueError:  # RulesError, or Gather's own for a gather this version does not know
            return None

    @property
    def finished(self) -> datetime:
        return datetime.fromisoformat(self.finished_at)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "finished_at": self.finished_at,
            "seed": self.seed,
            "rules": {"war_cards": self.war_cards, "gather": str(self.gather), "max_battles": self.max_battles},
            "names": [self.p1_name, self.p2_name],
            "result": str(self.result),
            "reason": str(self.reason),
            "battles": self.battles,
            "wars": self.wars,
            "longest_war": self.longest_war,
            "final": {"p1": self.p1_count, "p2": self.p2_count},
            "seconds": round(self.seconds, 3),
            "source": str(self.source),
        }


@dataclass(frozen=True, slots=True)
class Totals:
    """Everything the stats screen and ``war-tui stats`` say about all the games recorded."""

    games: int
    results: dict[Result | str, int]  # every Result is a key, zeros included; then any unknown result
    total_battles: int
    total_wars: int
    seconds_played: float
    mean_battles: float | None  # None while no game is recorded
    median_battles: float | None
    longest: GameRecord | None  # most battles (the latest of equals)
    shortest: GameRecord | None
    most_wars: GameRecord | None
    deepest_war: GameRecord | None  # deepest chain of ties in one battle
    first_at: str | None
    last_at: str | None

    @classmethod
    def empty(cls) -> Totals:
        return cls(
            games=0, results={r: 0 for r in Result}, total_battles=0, total_wars=0,
            seconds_played=0.0, mean_battles=None, median_battles=None, longest=None,
            shortest=None, most_wars=None, deepest_war=None, first_at=None, last_at=None,
        )

    def share(self, result: Result | str) -> float:
        """The fraction of games (0..1) that ended with ``result``; 0 with no games."""
        return self.results.get(result, 0) / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        def game(record: GameRecord | None) -> dict[str, object] | None:
            return record.to_dict() if record is not None else None

        return {
            "games": self.games,
            "results": {
                str(r): {"count": count, "share": self.share(r)} for r, count in self.results.items()
            },
            "battles": {
                "total": self.total_battles,
                "mean": self.mean_battles,
                "median": self.median_battles,
                "longest_game": game(self.longest),
                "shortest_game": game(self.shortest),
            },
            "wars": {
                "total": self.total_wars,
                "most_in_a_game": game(self.most_wars),
                "deepest": game(self.deepest_war),
            },
            "seconds_played": round(self.seconds_played, 3),
            "first_at": self.first_at,
            "last_at": self.last_at,
        }


@dataclass(frozen=True, slots=True)
class Bin:
    """Games whose length in battles is from ``low`` to ``high``, both included."""

    low: int
    high: int
    count: int

    def to_dict(self) -> dict[str, int]:
        return {"low": self.low, "high": self.high, "count": self.count}


@dataclass(frozen=True, slots=True)
class Histogram:
    """Game lengths in equal-width bins; the rare very long games go in one ``overflow`` bin.

    A handful of games that hit the battle cap would otherwise squash every
    ordinary game into the first bar, so when the longest game is more than
    twice the 99th percentile (of 100 games or more) the bins stop there and the rest are counted apart.
    """

    bins: tuple[Bin, ...]
    overflow: Bin | None = None

    @property
    def games(self) -> int:
        return sum(b.count for b in self.bins) + (self.overflow.count if self.overflow else 0)

    def merged(self, columns: int) -> Histogram:
        """At most ``columns`` bins, joining neighbours (exact: they share edges)."""
        if columns < 1 or len(self.bins) <= columns:
            return self
        per = -(-len(self.bins) // columns)
        joined = tuple(
            Bin(group[0].low, group[-1].high, sum(b.count for b in group))
            for group in (self.bins[i : i + per] for i in range(0, len(self.bins), per))
        )
        return Histogram(joined, self.overflow)

    def to_dict(self) -> dict[str, object]:
        return {
            "bins": [b.to_dict() for b in self.bins],
            "overflow": self.overflow.to_dict() if self.overflow else None,
        }


@dataclass(frozen=True, slots=True)
class Leader:
    """One identity on the leaderboard: the table games it finished, those it won and its longest game.

    ``player`` is only for matching (never shown); ``name`` is the name it had in its latest game.
    """

    player: str
    name: str
    games: int
    wins: int
    longest: int
    longest_id: int | None = None
    """The id of that longest game in the file (None where the file cannot say): enter replays it."""
