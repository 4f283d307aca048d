"""The line mode's game: a state machine of commands and auto-play ticks that returns what to say.

It knows no terminal and no clock of its own (``now`` is passed in), so tests drive it directly and the
same code runs on a terminal, a pipe or an SSH channel.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.cards import Card
from ..core.engine import Game
from ..core.events import BattleWon, Event
from ..core.rules import Rules, Side
from ..settings.options import DEFAULT_PACE
from .keys import Command
from .sentences import BattleTeller, Voice, score

QUIET_PACE = 0.1
"""Seconds between the battles auto-play does not announce (``announce="wars"``)."""
MILESTONE = 10
"""With ``announce="wars"`` every 10th battle is said as well as every war."""

KEYS_LINE = "Keys: enter flips, a auto-play, s the score, h help, q quits."


@dataclass(frozen=True, slots=True)
class LineSettings:
    seed: int | None = None
    packets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
    rules: Rules = Rules()
    names: tuple[str, str] | None = None  # None: "you" and "they"
    terse: bool = False
    auto: bool = False
    pace: float = DEFAULT_PACE
    announce: str = "all"  # "all" battles, or only "wars" and every 10th battle


Recorder = Callable[[Game, float, bool], None]
"""Called with each finished game, how long it took and whether auto-play played any of it."""


class LinePlayer:
    def __init__(self, settings: LineSettings, record: Recorder | None = None, now: float = 0.0) -> None:
        self.settings = settings
        # Named players by name; else player 1 is "you" and player 2 "they".
        self.voice = Voice(settings.names, settings.terse, me=None if settings.names else Side.P1)
        self._record = record
        self.auto = settings.auto
        self.done = False
        self._due: float | None = None
        self._said: list[str] = []
        self._first = True
        self._deal(settings.seed, settings.packets, now)

    # -- dealing -------------------------------------------------------------------------------------

    def _deal(self, seed: int | None, packets, now: float) -> None:
        if packets is not None:
            self.game = Game(packets[0], packets[1], self.settings.rules)
        else:
            self.game = Game.deal(seed if seed is not None else secrets.randbelow(2**32), self.settings.rules)
        self._teller = BattleTeller(self.voice, self.settings.rules.war_cards)
        self._started_at = now
        self._auto_seen = self.auto
        self.game.subscribe(self._on_event)
        if self.auto:
            self._due = now + self.settings.pace

    def _on_event(self, event: Event) -> None:
        said = self._teller.on_event(event)
        if said is None:
            return
        if isinstance(event, BattleWon) and self._quiet(event):
            return
        if self.settings.announce == "wars" and self.auto and isinstance(event, BattleWon):
            said = f"Battle {event.battle:,}. {said}"
        self._said.append(said)

    def _quiet(self, won: BattleWon) -> bool:
        """Auto-play that announces only wars and milestones keeps this battle to itself."""
        return (self.settings.announce == "wars" and self.auto and not won.wars
                and won.battle % MILESTONE != 0 and not self.game.over)

    # -- what the player is told ------------------------------------------------------------------------

    def opening(self) -> list[str]:
        """The first lines of a session: the game, the counts and the keys."""
        g = self.game
        deal = f"seed {g.seed}" if g.seed is not None else "packets given by hand"
        lines = [f"War, {deal}, {g.rules.describe()}.",
                 replace(self.voice, terse=False).counts(*g.counts), KEYS_LINE]
        if self.auto:
            lines.append(self._auto_words())
        return lines

    def help(self) -> list[str]:
        return [
            "Each flip plays one battle: both turn their top card and the higher takes both.",
            "Equal cards start a war: each lays cards face down, then one face up decides.",
            KEYS_LINE,
            "Typing a whole word works too: flip, auto, score, help, quit.",
        ]

    def _auto_words(self) -> str:
        pace = f"{self.settings.pace:g}"
        every = "every second" if pace == "1" else f"every {pace} seconds"
        if self.settings.announce == "wars":
            return f"Auto-play on: saying wars and every {MILESTONE}th battle, at most one sentence {every}."
        return f"Auto-play on: one battle {every}. Press a to stop."

    # -- commands and time ------------------------------------------------------------------------------

    def command(self, command: Command, now: float) -> list[str]:
        if command is Command.FLIP:
            return self._flip(now)
        if command is Command.AUTO:
            if self.game.over:
                return ["The game is over. Press enter for a new game, q to quit."]
            self.auto = not self.auto
            if self.auto:
                self._auto_seen = True
                self._due = now + self.settings.pace
                return [self._auto_words()]
            self._due = None
            return ["Auto-play off."]
        if command is Command.SCORE:
            g = self.game
            return [score(g.battles, g.wars, g.counts, self.voice)]
        if command is Command.HELP:
            return self.help()
        if command is Command.QUIT:
            self.done = True
            self._due = None
            return ["Goodbye."]
        return [KEYS_LINE]

    def due(self) -> float | None:
        """When auto-play plays its next battle (None: it waits for a key)."""
        return self._due if self.auto and not self.game.over else None

    def tick(self, now: float) -> list[str]:
        """Auto-play's turn: one battle, then the next turn at the pace (sooner after a battle not said)."""
        if self.due() is None:
            return []
        said = self._play(now)
        self._due = None if self.game.over else now + (self.settings.pace if said else QUIET_PACE)
        return said

    def _flip(self, now: float) -> list[str]:
        if self.game.over:
            self._deal(None, None, now)  # the next enter plays its first battle: the deal is news of its own
            counts = replace(self.voice, terse=False).counts(*self.game.counts)
            return [f"New game, seed {self.game.seed}. {counts}"]
        said = self._play(now)
        if self.auto and not self.game.over:
            self._due = now + self.settings.pace
        return said

    def _play(self, now: float) -> list[str]:
        self._said = []
        self.game.step()
        said = self._said
        if self.game.over:
            self.auto = False
            self._due = None
            if self._record is not None:
                self._record(self.game, now - self._started_at, self._auto_seen)
            said = [*said, "Press enter for a new game, q to quit."]
        return said
