"""A table's auto-play clock: when the next battles are due, how many, and a war held at its tie.

Auto-play runs while every seated player wants it (``Seats.wants_auto``), at the slower speed asked
for, in ticks of ``core.pace.tick_plan``: each tick plays a whole number of battles and carries the
fraction over, and a late poll plays on from now, never in a burst. When both players asked to stop
at wars it holds at the first war's tie; either player's flip lays it, and the battles go on after
``WAR_LAY_SECONDS``. A deadline on the table's clock says when a tick is due; nothing here sleeps,
broadcasts or decides who sits.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.engine import Game
from ..core.pace import tick_plan

WAR_LAY_SECONDS = 1.5
"""After a war held at its tie is laid, auto-play waits this long, so every screen can lay it step by step."""

Play = Callable[[Callable[[], object]], None]
"""The table's way to run one engine call and tell everyone what the engine said."""


class AutoPlay:
    """The auto-play of one table: off, running (``at``: when the next tick is due) or held at a war's tie."""

    def __init__(self) -> None:
        self.at: float | None = None
        """When the next tick is due; None while auto-play does not run."""
        self.credit = 0.0
        """Battles owed to the coming ticks, as a fraction of one."""
        self.held = False
        """Auto-play stopped at a war's tie (both asked to stop at wars): either player's flip lays it."""

    @property
    def running(self) -> bool:
        return self.at is not None

    @property
    def agreed(self) -> bool:
        """Both players' auto-play is on: it runs, or holds at a war's tie."""
        return self.at is not None or self.held

    def due(self, now: float) -> bool:
        return self.at is not None and now >= self.at

    def follow(self, wants: bool, war_stop: bool, over: bool, speed: float, now: float) -> bool:
        """Run while the seated players want auto-play (``wants``), hold only while they stop at wars; whether it
        starts now (the seats' flips are then spent)."""
        if self.held and not (wants and war_stop):
            self.held = False  # nobody to lay it for: a screen lays what it holds when it hears so
        if over:
            return False
        running = wants and not self.held
        if running and self.at is None:
            self.credit = 0.0
            self.at = now + tick_plan(speed)[0]
            return True
        if not running:
            self.at = None
        return False

    def lay(self, now: float) -> None:
        """A player's flip lays the war held at its tie; auto-play carries on once screens have laid it."""
        self.held = False
        self.credit = 0.0
        self.at = now + WAR_LAY_SECONDS

    def stop(self) -> None:
        """Nothing more is due: the table closed."""
        self.at = None

    def end(self) -> None:
        """The game is over, or the table closed: nothing more is due."""
        self.at = None
        self.held = False

    def tick(self, now: float, speed: float, war_stop: bool, game: Game, play: Play) -> None:
        """Play the battles due at ``speed`` through ``play`` (to the first war's tie with ``war_stop``), and set
        when the next tick is due."""
        interval, per_tick = tick_plan(speed)
        self.credit += per_tick
        battles = int(self.credit)
        self.credit -= battles
        if battles:
            if war_stop:
                play(lambda: self._play_to_war(game, battles))
            else:
                play(lambda: game.play(battles))
        if self.held:
            self.at = None
            return
        if self.at is None:
            return  # the game ended
        self.at += interval
        if self.at <= now:
            self.at = now + interval  # a late poll plays on from now, never in a burst

    def _play_to_war(self, game: Game, battles: int) -> None:
        """Up to ``battles`` battles, holding at the first war's tie (both players asked to stop at wars)."""
        for _ in range(battles):
            wars = game.wars
            if not game.step():
                return
            if game.wars > wars and not game.over:
                self.held = True
                return
