"""The replay's scrubber: one line for the whole game, the battle on show and every war marked on it,
and one line that says where the replay stands."""

from __future__ import annotations

import bisect

from textual.reactive import var

from ...presentation.cells import fit_cells
from ...presentation.words import plural
from .line_widget import LineWidget, Row


def scrubber_cells(battle: int, battles: int, wars: tuple[int, ...], width: int) -> tuple[list[bool], int]:
    """Which of ``width`` cells hold a war, and the cell of ``battle``: each cell stands for an equal share
    of the game's battles (a game shorter than the line gives each battle a cell or more)."""
    if width < 1 or battles < 1:
        return [], 0
    marked = [False] * width
    for war in wars:
        marked[min(width - 1, (war - 1) * width // battles)] = True
    return marked, min(width - 1, (battle - 1) * width // battles)


class Scrubber(LineWidget, can_focus=False):
    """Where the replay is in its game: wars marked, the battle on show picked out."""

    COMPONENT_CLASSES = {"scrubber--track", "scrubber--war", "scrubber--here", "scrubber--label", "scrubber--value"}

    battle: var[int] = var(1)
    playing: var[bool] = var(False)
    speed: var[int] = var(1)
    typed: var[str | None] = var(None)
    """The digits typed after g, while a battle number is being typed; None otherwise."""

    def __init__(self, battles: int, wars: tuple[int, ...], *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.battles = battles
        self.wars = wars
        self.ascii = ascii

    def watch_battle(self) -> None:
        self.redraw()

    def watch_playing(self) -> None:
        self.redraw()

    def watch_speed(self) -> None:
        self.redraw()

    def watch_typed(self) -> None:
        self.redraw()

    def draw(self, width: int, height: int) -> list[Row]:
        marked, here = scrubber_cells(self.battle, self.battles, self.wars, width)
        track, war, at = ("-", "!", "#") if self.ascii else ("─", "╳", "█")
        line: Row = []
        for cell, is_war in enumerate(marked):
            if cell == here:
                line.append((at, "scrubber--here"))
            else:
                line.append((war, "scrubber--war") if is_war else (track, "scrubber--track"))
        where = f"battle {self.battle:,} of {self.battles:,}"
        index = bisect.bisect_left(self.wars, self.battle)
        on_war = index < len(self.wars) and self.wars[index] == self.battle
        wars = f"war {index + 1:,} of {len(self.wars):,}" if on_war else plural(len(self.wars), "war")
        state = f"playing {self.speed}x" if self.playing else f"paused {self.speed}x"
        words: Row = [(where, "scrubber--value"), (f"  {wars}  {state}", "scrubber--label")]
        if self.typed is not None:
            words = [("go to battle: ", "scrubber--label"), (self.typed + "_", "scrubber--value"),
                     (f"  (1 to {self.battles:,}, enter)", "scrubber--label")]
        text = fit_cells("".join(t for t, _ in words), width)
        return [line, _cut(words, len(text))]


def _cut(row: Row, cells: int) -> Row:
    """``row`` cut to its first ``cells`` characters (the words are plain ASCII)."""
    out: Row = []
    for text, style in row:
        if cells <= 0:
            break
        out.append((text[:cells], style))
        cells -= len(text)
    return out
