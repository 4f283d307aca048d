"""The game-over dialog's facts and key hint, laid out for the room the terminal gives.

The longest layout that fits: every fact on its own line with space between groups,
then without the spacing, then facts paired on shared lines. Time, seed and tally
are kept to the last, since they name the game and what the session stands at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cells import cell_width, wrap_cells


@dataclass(frozen=True, slots=True)
class ResultFacts:
    """What the dialog says about a finished game, already in words."""

    why: Sequence[str]  # the reason, and who led a stopped game
    battles: str
    wars: str
    deepest: str
    cards: str
    time: str
    seed: str | None
    tally: str
    game: str | None = None  # the game's id in the statistics and how to replay it, once it is stored


def pack_parts(parts: Sequence[str], sep: str, width: int) -> list[str]:
    """``parts`` joined by ``sep`` into lines of at most ``width`` cells, never breaking a part
    across lines unless it alone is wider than a line."""
    lines: list[str] = []
    for part in parts:
        if lines and cell_width(lines[-1] + sep + part) <= width:
            lines[-1] += sep + part
        else:
            lines.extend(wrap_cells(part, width) if cell_width(part) > width else [part])
    return lines


Line = tuple[str, ...]
"""A line of the dialog as parts that may go to separate lines but are never broken apart themselves."""


def _layouts(facts: ResultFacts, dot: str) -> list[list[Line]]:
    def row(label: str, value: str) -> Line:
        return (f"{label:<14}{value}",)

    tally: list[Line] = [tuple(facts.tally.split(f" {dot} "))] if facts.tally else []
    why: list[Line] = [(line,) for line in facts.why]
    seed = [row("Seed", facts.seed)] if facts.seed is not None else []
    game = [row("Game", facts.game)] if facts.game is not None else []
    full = [
        *why, ("",),
        row("Battles", facts.battles), row("Wars", facts.wars), row("Deepest war", facts.deepest),
        row("Cards", facts.cards), row("Time", facts.time), *seed, *game,
        *([("",), *tally] if tally else []),
    ]
    time_seed: Line = (
        (f"Time {facts.time}",) + ((f"Seed {facts.seed}",) if facts.seed is not None else ())
        + ((f"Game {facts.game}",) if facts.game is not None else ())
    )
    count: Line = (f"Battles {facts.battles}", f"Wars {facts.wars}")
    paired = [*why, count, (f"Deepest war: {facts.deepest}",), (f"Cards: {facts.cards}",), time_seed, *tally]
    least = [why[0], count, time_seed, *tally]
    return [full, [line for line in full if line != ("",)], paired, least]


def result_lines(facts: ResultFacts, width: int, rows: int, dot: str = "·") -> list[str]:
    """The facts as lines of at most ``width`` cells, in the fullest layout that fits ``rows``."""
    width = max(1, width)
    lines: list[str] = []
    for layout in _layouts(facts, dot):
        lines = [text for parts in layout for text in (pack_parts(parts, f" {dot} ", width) if parts[0] else [""])]
        if len(lines) <= rows:
            return lines
    return lines[: max(0, rows)]
