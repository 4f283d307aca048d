"""War TV's choice of table: the live table most worth watching, from the lobby every node reads.

A table is live while its game is under way (no result yet, a battle played, both seats taken). The most worth
watching has the deepest war under way; among equals, the closest counts; then the longest game (battles); then
the first name, so every node, given the same lobby, chooses the same table. Pure: the lobby's entries in, a
choice out (``choose_table``); the link that follows it is ``serving.tables.tv``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..tables.messages import LobbyEntry, SeatStatus

NO_TABLE = "no table is playing now; War TV tunes in as soon as a game starts"
ALL_FULL = "every table playing has all the spectators it takes; War TV tunes in as soon as one has room"
NO_OTHER = "no other table is playing now"
"""Why ``n`` stays where it is."""
DEEPEST_WAR = "the deepest war under way"
A_WAR = "a war under way"
CLOSEST = "the closest counts"
LONGEST = "the longest game"
ONLY = "the only table playing"
FIRST = "as good as any other, and first by name"


@dataclass(frozen=True, slots=True)
class Choice:
    """The table War TV shows (None: none) and why, in words for its viewer."""

    table: str | None
    why: str


def live(entry: LobbyEntry) -> bool:
    """A game under way worth tuning in to: not over, a battle played, both seats taken (by a player or the house)."""
    return entry.result is None and entry.battles > 0 and SeatStatus.OPEN not in entry.statuses


def worth(entry: LobbyEntry) -> tuple[int, int, int]:
    """How much a live table is worth watching, higher first: its war's depth, how close its counts are, its
    battles."""
    return (entry.war, -abs(entry.counts[0] - entry.counts[1]), entry.battles)


def ranked(entries: Iterable[LobbyEntry]) -> list[LobbyEntry]:
    """The live tables, the most worth watching first (the first name among equals)."""
    return sorted((entry for entry in entries if live(entry)), key=lambda entry: (_negated(worth(entry)), entry.table))


def _negated(key: tuple[int, int, int]) -> tuple[int, int, int]:
    return (-key[0], -key[1], -key[2])


def choose_table(
    entries: Iterable[LobbyEntry], *, leaving: str | None = None, refused: Collection[str] = (),
    max_spectators: int | None = None,
) -> Choice:
    """The live table most worth watching, other than ``leaving`` (the one on show, skipped with n or over) and the
    tables in ``refused`` (which turned War TV away a moment ago); with ``max_spectators``, none that has all the
    spectators it takes. No such table: ``Choice(None, why)``, ``why`` saying what War TV waits for."""
    playing = ranked(entries)
    room = [e for e in playing if (max_spectators is None or e.spectators < max_spectators) and e.table not in refused]
    candidates = [e for e in room if e.table != leaving]
    if not candidates:
        if room or (leaving is not None and any(e.table == leaving for e in playing)):
            return Choice(None, NO_OTHER)
        return Choice(None, ALL_FULL if playing else NO_TABLE)
    best = candidates[0]
    return Choice(best.table, _why(best, candidates[1] if len(candidates) > 1 else None))


def _why(best: LobbyEntry, runner_up: LobbyEntry | None) -> str:
    """What put ``best`` before ``runner_up``: the first of the three measures in which it is ahead."""
    if runner_up is None:
        return A_WAR if best.war else ONLY
    mine, theirs = worth(best), worth(runner_up)
    if mine[0] > theirs[0]:
        return DEEPEST_WAR
    if mine[1] > theirs[1]:
        return CLOSEST
    if mine[2] > theirs[2]:
        return LONGEST
    return FIRST
