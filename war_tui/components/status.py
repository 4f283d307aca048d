"""The status line: which game, how far, whether auto-play runs and how fast, and the tally."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .styled import CachedComponentStyles
from ..messages import BattleView, DealView, EndView
from ..presentation import Glyphs, speed_label
from ..rules import Result


class StatusLine(CachedComponentStyles, Widget):
    COMPONENT_CLASSES = {"status--label", "status--value", "status--auto", "status--paused"}

    number: reactive[int] = reactive(0)
    seed: reactive[int | None] = reactive(None)
    battles: reactive[int] = reactive(0)
    wars: reactive[int] = reactive(0)
    auto: reactive[bool] = reactive(False)
    speed: reactive[float] = reactive(4.0)
    pause_on_war: reactive[bool] = reactive(False)
    tally: reactive[tuple[int, int, int, int]] = reactive((0, 0, 0, 0))  # p1, p2, draws, stopped

    def __init__(self, names: Sequence[str], glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="board")
        self.names = tuple(names)
        self.glyphs = glyphs

    def show_deal(self, deal: DealView) -> None:
        self.number = deal.number
        self.seed = deal.seed
        self.battles = 0
        self.wars = 0

    def show_battle(self, view: BattleView) -> None:
        self.battles = view.battle
        self.wars = view.total_wars

    def show_end(self, end: EndView) -> None:
        self.battles = end.battles
        self.wars = end.wars

    def set_play(self, auto: bool, speed: float, pause_on_war: bool) -> None:
        self.auto, self.speed, self.pause_on_war = auto, speed, pause_on_war

    def set_tally(self, tally: Counter[Result]) -> None:
        self.tally = (tally[Result.P1], tally[Result.P2], tally[Result.DRAW], tally[Result.STOPPED])

    def render(self) -> Text:
        label = self.component_style("status--label")
        value = self.component_style("status--value")
        dot = f" {self.glyphs.dot} "
        narrow = self.size.width < 60
        text = Text(no_wrap=True, overflow="ellipsis", end="")

        def part(name: str, val: str) -> None:
            if text:
                text.append(dot, label)
            if name:
                text.append(name + " ", label)
            text.append(val, value)

        seed = "hand-made deal" if self.seed is None else f"seed {self.seed}"
        part("Game", f"{self.number}" if narrow else f"{self.number} ({seed})")
        part("Battle", f"{self.battles:,}")
        part("Wars", f"{self.wars:,}")
        text.append(dot, label)
        if self.auto:
            text.append(f"auto {speed_label(self.speed)}", self.component_style("status--auto"))
        else:
            text.append(f"auto off ({speed_label(self.speed)})", self.component_style("status--paused"))
        if self.pause_on_war:
            part("", "stop at wars")
        p1, p2, draws, stopped = self.tally
        if any(self.tally):
            part("Tally", f"{p1}-{p2}" if narrow else f"{p1}-{p2}, {draws} drawn, {stopped} stopped")
        return text
