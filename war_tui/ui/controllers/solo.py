"""A solo game: the engine plays here, by hand (a flip a battle) or on auto-play (a timer), until a result."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ...core.cards import Card
from ...core.engine import Game
from ...core.events import Event, GameStarted
from ...core.pace import MAX, tick_plan
from ...core.rules import Rules
from ...presentation.result_hold import ResultHold
from ...presentation.speed import MIN_SPEED, faster, slower, speed_limit_text
from ...presentation.unfolding import stopped_at_war_text
from ...presentation.views import BattleView, deal_view, end_view
from ...settings.play import PlaySettings
from ..adapter import EngineAdapter
from .base import BoardState, Kind, ResultShown, SoloShell, Stoppable, TimeLimits, board_key

FRAME_BUDGET = 0.012
"""Seconds of engine time per frame at "max": the rest of the frame is left for drawing and keys."""
MAX_CHUNK = 256
"""Battles played between clock checks at "max"."""

Packets = tuple[tuple[Card, ...], tuple[Card, ...]]


class SoloController(TimeLimits):
    """Deals, plays and times a local ``Game``; its events reach the board through the engine adapter."""

    game: Game | None
    shell: SoloShell
    kind: Kind = "solo"
    game_number = 0
    game_waits = True
    """The game waits for the board to lay a war (the board's pacing)."""
    leave_asked = False
    """A solo game never asks before q quits."""

    def __init__(
        self,
        board: BoardState,
        shell: SoloShell,
        settings: PlaySettings,
        *,
        clock: Callable[[], float] = time.monotonic,
        new_seed: Callable[[], int],
    ) -> None:
        super().__init__(board, shell, settings, clock)
        self.game = None
        self._rules = settings.rules
        self._new_seed = new_seed
        self.adapter = EngineAdapter(board)
        self.top_speed = settings.top_speed
        self._auto_seen = False
        self._started_at = 0.0
        self._reported = False
        self._credit = 0.0
        self._auto_timer: Stoppable | None = None
        self._auto_plan: tuple[float, float] | None = None
        self._limit_timer: Stoppable | None = None
        self._next_deal_timer: Stoppable | None = None
        self._hold = ResultHold(settings.result_hold)
        """The result on show, holding against a key held through the last battle."""
        self._stop_events: Callable[[], None] | None = None

    @property
    def rules(self) -> Rules:
        return self._rules

    def start(self) -> None:
        self.new_game(self.settings.seed, packets=self.settings.packets)

    def allows(self, action: str, on_board: bool = True) -> bool:
        return board_key(action)

    def help_keys(self) -> Sequence[tuple[str, str]] | None:
        return None  # the help's own list: the solo game's keys

    def answer_leave(self, key: str) -> bool:
        return False

    def back(self) -> bool:
        return False  # q quits

    def close(self) -> None:
        self._cancel(self._auto_timer, self._limit_timer, self._next_deal_timer)

    # ------------------------------------------------------------------ deals

    def new_game(self, seed: int | None = None, rules: Rules | None = None, *, packets: Packets | None = None) -> Game:
        """Deal a game (a replay when ``seed`` is given) and show it; closes any result on screen."""
        if rules is not None:
            self._rules = rules
        self.shell.clear_for_deal()
        self._cancel(self._limit_timer, self._next_deal_timer)
        self._limit_timer = self._next_deal_timer = None
        self.board.settle()  # a war still being laid belongs to the game before
        self._hold.release()
        if packets is not None:
            game = Game(packets[0], packets[1], self._rules)
        else:
            game = Game.deal(self._new_seed() if seed is None else seed, self._rules)
        if self._stop_events is not None:
            self._stop_events()
        self.game = game
        self.game_number += 1
        self._reported = False
        self._auto_seen = self.board.auto
        self._credit = 0.0
        self._started_at = self._clock()
        self.adapter.reset()
        self._stop_events = game.subscribe(self._on_event)
        board = self.board
        board.result = None
        board.battle = None
        game.start()
        if self.settings.time_limit is not None:
            self._limit_timer = self.shell.set_timer(self.settings.time_limit * 60, self.time_up)
            self.game_ends = self._started_at + self.settings.time_limit * 60
            self._warned.discard("game")
        self.count_down()
        self.sync_auto()
        return game

    def _on_event(self, event: Event) -> None:
        game = self.game
        assert game is not None
        if isinstance(event, GameStarted):
            self.board.deal = deal_view(self.game_number, event)
        else:
            self.adapter.on_event(event, game)

    def replay(self, seed: int, rules: Rules) -> None:
        self.board.auto = False  # a replay starts paused: stepped through, or started with a, deliberately
        self.new_game(seed, rules)

    # ---------------------------------------------------------------- actions

    def flip(self) -> None:
        game = self.game
        if game is None or not self.shell.is_running:
            return
        if self.board.laying:  # a war on the table, not decided yet
            self.board.lay_war()
            return
        if game.over:
            if not self._still_held():
                self.new_game()
            return
        game.step()
        self._after_play()

    def auto(self) -> None:
        board = self.board
        if board.laying:
            board.settle()  # the war stopped at (or being laid) shows whole; auto-play carries on
        if self.game is not None and self.game.over:
            if self._still_held():
                return
            board.auto = True  # at game over, a deals again and lets the new game play itself
            self.new_game()
            return
        board.auto = not board.auto
        self._auto_seen = self._auto_seen or board.auto
        self.sync_auto()

    def faster(self) -> None:
        board = self.board
        if board.speed >= self.top_speed:
            self.shell.say("speed", speed_limit_text(faster=True, top=self.top_speed), timeout=2)
            return
        board.speed = min(faster(board.speed), self.top_speed)
        self.sync_auto()
        self.shell.save_preferences(speed=board.speed)

    def slower(self) -> None:
        board = self.board
        if board.speed <= MIN_SPEED:
            self.shell.say("speed", speed_limit_text(faster=False), timeout=2)
            return
        board.speed = slower(board.speed)
        self.sync_auto()
        self.shell.save_preferences(speed=board.speed)

    def pause_on_war(self) -> None:
        """Stop auto-play at every war, or no longer."""
        board = self.board
        board.pause_on_war = not board.pause_on_war
        self.sync_auto()
        self.shell.notify(
            "Auto-play will stop at every war" if board.pause_on_war else "Auto-play runs through wars", timeout=2
        )

    def restart(self) -> None:
        if self.game is not None and self.game.over and self._still_held():
            return
        self.new_game()

    def time_up(self) -> None:
        self._limit_timer = None
        self.board.settle()
        if self.game is not None and not self.game.over and self.shell.is_running:
            self.game.stop()
            self._after_play()

    # --------------------------------------------------------------- auto-play

    def sync_auto(self) -> None:
        """Run the auto-play timer exactly when auto-play is on and the game is not over."""
        wanted = self.board.auto and self.game is not None and not self.game.over
        plan = tick_plan(self.board.speed) if wanted else None
        if plan == self._auto_plan and (self._auto_timer is not None) == wanted:
            return
        self._cancel(self._auto_timer)
        self._auto_timer = None
        self._auto_plan = plan
        if plan is not None:
            self._credit = 0.0
            self._auto_timer = self.shell.set_interval(plan[0], self._tick)

    def _tick(self) -> None:
        game, board = self.game, self.board
        if game is None or game.over or self._auto_plan is None or not self.shell.is_running:
            return
        per_tick = self._auto_plan[1]
        if per_tick == MAX:
            self._max_frame(game)
        else:
            if board.laying:
                return  # a war is being laid (or auto-play just stopped at one): the next battle waits
            self._credit += per_tick
            # "Stop at wars" turns auto-play off at a war (``watch_battle``): the loop ends.
            while self._credit >= 1 and not game.over and board.auto and not board.laying:
                self._credit -= 1
                game.step()
        self._after_play()

    def _max_frame(self, game: Game) -> None:
        """As many battles as fit in the frame budget; only the last one reaches the board.

        The adapter holds each battle's view instead of showing it, so the widgets
        see one battle per frame (always the latest, the final one included)
        however many the engine played.
        """
        deadline = time.perf_counter() + FRAME_BUDGET
        adapter = self.adapter
        wars = game.wars
        adapter.holding = True
        try:
            while not game.over and time.perf_counter() < deadline:
                if self.board.pause_on_war:
                    for _ in range(MAX_CHUNK):
                        if not game.step() or game.wars > wars:
                            break
                    if game.wars > wars:
                        break  # the flush shows it, and stops auto-play at its tie (the board's watch_battle)
                else:
                    game.play(MAX_CHUNK)
        finally:
            adapter.holding = False
        adapter.flush(stop_at_war=self.board.pause_on_war)

    # the board's pacing

    def battle_settled(self) -> None:
        self._after_play()

    def stopped_at_war(self) -> None:
        self.sync_auto()
        self.shell.notify(stopped_at_war_text("space"), timeout=4)

    def stops_at_tie(self, view: BattleView) -> bool:
        """Whether a war reaching the board stops at its tie: on auto-play with "stop at wars"."""
        return self.board.auto and self.board.pause_on_war

    # ------------------------------------------------------------- game over

    def _after_play(self) -> None:
        game = self.game
        if game is None or not game.over or self._reported or self.board.laying:
            return  # a war still being laid tells the end once its deciding cards are on show
        self._reported = True
        seconds = self._clock() - self._started_at
        self._cancel(self._limit_timer)
        self._limit_timer = self.game_ends = None
        self.count_down()
        self.sync_auto()
        end = end_view(game, seconds)
        self.board.count_result(end.result)
        self.shell.game_finished(game, seconds, auto_seen=self._auto_seen)
        self.board.result = end
        screensaver = self.settings.screensaver
        pause = self.settings.screensaver_pause
        self.shell.show_result(ResultShown(end, game.seed, next_deal_in=pause if screensaver else None))
        if screensaver:
            self._next_deal_timer = self.shell.set_timer(pause, self._deal_next)
        self._hold.start(self._clock())  # a key held through the last battle does not skip the result

    def _still_held(self) -> bool:
        """Whether the result still ignores the keys that deal again (``ResultHold``)."""
        return self._hold.holds(self._clock())

    @property
    def result_held(self) -> bool:
        """Whether a key that deals again would now be ignored (the keys have not paused since the result)."""
        return self._hold.holding(self._clock())

    def _deal_next(self) -> None:
        self._next_deal_timer = None
        if self.shell.is_running:  # not while closing: the screens may already be gone
            self.new_game()

    @staticmethod
    def _cancel(*timers: Stoppable | None) -> None:
        for timer in timers:
            if timer is not None:
                timer.stop()
