"""The full-screen game: keys and timers drive the engine; the board shows the app's reactive state.

What is on show lives in the app's ``var``s: the deal, the battle on show (set
by the engine adapter), the result, the auto-play settings and the tally. Each
board widget binds the ones it draws (``data_bind`` in ``compose``) and redraws
in its watchers. ``var`` rather than ``reactive``: a change repaints nothing by
itself, only the widgets whose watchers draw it.
"""

from __future__ import annotations

import math
import os
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib.resources import files
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.command import CommandPalette
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.timer import Timer

from .adapter import EngineAdapter
from .components.ascii_scrollbar import AsciiScrollBarRender
from .input_driver import forgiving_driver
from ..core.cards import Card
from .components.battle_log import BattleLog
from .components.card_bar import CardBar
from .components.click_to_flip import FlipClicked
from .components.game_footer import GameFooter
from .components.packet import Packet
from .components.pile import Pile
from .components.status import StatusLine
from .components.trend import CountTrend
from ..core.engine import Game
from .fastpath import probe
from .fastpath.output import ShadowOutput
from .gc_pauses import STARTUP_SETTLED, freeze_startup_objects
from .bindings import FLIP_KEYS, GAME_BINDINGS, scroll_bindings
from ..presentation.views import BattleView, DealView, EndView
from ..presentation.glyphs import choose_glyphs
from ..presentation.status import one_minute_text
from ..presentation.speed import MAX, MIN_SPEED, faster, slower, speed_limit_text, tick_plan
from ..presentation.unfolding import WATCHABLE_SPEED, stopped_at_war_text
from ..core.rules import Result, Rules, Side
from .screens.ascii_palette import PLACEHOLDER, AsciiCommandPalette
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.too_small import TooSmallScreen, too_small
from ..settings.play import PlaySettings
from ..settings.served import without_paths
from ..stats import GameRecord, Source, StatsStore

if TYPE_CHECKING:
    from .screens.stats import StatsScreen

STYLES = files("war_tui.styles")

FRAME_BUDGET = 0.012
"""Seconds of engine time per frame at "max": the rest of the frame is left for drawing and keys."""
MAX_CHUNK = 256
"""Battles played between clock checks at "max"."""
SAVE_AT_QUIT = 4.0
"""Seconds a quit keeps trying to save games waiting for a locked statistics file (``war-tui`` then
keeps them in a recovery file beside it)."""

FinishedHook = Callable[[Game, float], None]

SAFE_SYSTEM_COMMANDS = frozenset({"Theme", "Quit", "Keys", "Maximize", "Minimize"})
"""Textual's own palette commands the game offers: none reaches files, the clipboard or anything
outside the game (its "Screenshot" writes into the machine's Downloads folder, which over SSH is the
server's). A command a newer Textual adds stays out until it is looked at and named here."""


def _loaded_stats_screen() -> tuple[type[Screen], ...]:
    """The statistics screen's class if it was ever loaded; until then none can be showing."""
    module = sys.modules.get(f"{__package__}.screens.stats")
    return (module.StatsScreen,) if module is not None else ()


LOG_KEYS = scroll_bindings("scroll_log", "Log")
"""The battle log's keys, on the board only (the screens over it keep these keys for themselves)."""


class WarApp(ShadowOutput, App[None]):
    """War at the table: flip battles by hand, or let auto-play (or the screensaver) run."""

    TITLE = "war-tui"
    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide"), (120, "-big-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall"), (40, "-big-tall")]
    BINDINGS = [*GAME_BINDINGS, *LOG_KEYS]

    deal: var[DealView | None] = var(None)
    """The game on the table (None before the first deal)."""
    battle: var[BattleView | None] = var(None)
    """The battle on the middle pile: set by the engine adapter; None until a deal's first battle."""
    shown_steps: var[int | None] = var(None)
    """How many steps of that battle the pile shows while a war is laid step by step; None: all of them."""
    settled: var[BattleView | None] = var(None)
    """The battle whose outcome the board tells (counts, log, sparkline, status): the pile's battle once
    its deciding cards are on show, so nothing gives the result away before they turn."""
    result: var[EndView | None] = var(None)
    """How the game on the table ended (None while it is being played)."""
    auto: var[bool] = var(False)
    speed: var[float] = var(4.0)
    """Battles a second (MAX, infinite: as many as fit in a frame)."""
    pause_on_war: var[bool] = var(False)
    tally: var[Counter[Result]] = var(Counter)
    """Finished games of this session by result (changed in place, then ``mutate_reactive``)."""
    time_left: var[int | None] = var(None)
    """Whole seconds before the game's --time-limit or the server's session limit, whichever comes first."""

    def __init__(
        self,
        settings: PlaySettings | None = None,
        *,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        new_seed: Callable[[], int] = lambda: secrets.randbelow(2**32),
        stats: StatsStore | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings = settings if settings is not None else PlaySettings()
        self.glyphs = choose_glyphs(settings.ascii, os.environ if environ is None else environ)
        self.names = settings.names
        self.rules = settings.rules
        self._clock = clock
        self._new_seed = new_seed
        self.adapter = EngineAdapter(self)
        self.game: Game | None = None
        self.game_number = 0
        self.finished_hooks: list[FinishedHook] = []
        """Called once per finished game with (game, seconds): the seam for statistics."""
        # No store given (tests, embedding): record nothing rather than write to the user's file.
        self.stats = stats if stats is not None else StatsStore.off("no statistics file was given")
        if self.stats.enabled:
            self.finished_hooks.append(self._record_game)
        self._auto_seen = False
        self.auto = settings.auto or settings.screensaver
        self.top_speed = settings.top_speed
        self.speed = min(settings.speed, self.top_speed)
        self.pause_on_war = settings.pause_on_war
        self._started_at = 0.0
        self._reported = False
        self._credit = 0.0
        self._auto_timer: Timer | None = None
        self._auto_plan: tuple[float, float] | None = None
        self._limit_timer: Timer | None = None
        self._next_deal_timer: Timer | None = None
        self._step_timer: Timer | None = None
        self._hold_timer: Timer | None = None
        self._result_held = False
        self._game_ends: float | None = None
        self._session_ends = clock() + settings.session_minutes * 60 if settings.session_minutes else None
        self._warned: set[str] = set()  # the limits whose one-minute notice was given
        self._battle_log: BattleLog | None = None
        self.fastpath = probe()
        """The private speed-ups the installed Textual allows (``war_tui.ui.fastpath``); all off with WAR_TUI_FASTPATH=0."""
        if self.fastpath.shadow_terminal:
            self.use_shadow_terminal()
        self.driver_class = forgiving_driver(self.driver_class, self.fastpath.replace_bad_input)
        if settings.theme in self.available_themes:  # preferences: the theme last picked
            self.theme = settings.theme
        self._saving_at_quit = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        g, names = self.glyphs, self.names
        # Everything but the pile tells a battle once it is settled (a war's deciding cards on show).
        shown = {"deal": WarApp.deal, "battle": WarApp.settled, "result": WarApp.result}
        yield StatusLine(names, g, id="status").data_bind(
            WarApp.auto, WarApp.speed, WarApp.pause_on_war, WarApp.tally, WarApp.time_left, **shown
        )
        with Horizontal(id="table"):
            with Vertical(id="packets"):
                yield Packet(Side.P1, names[0], g, id="packet-p1").data_bind(**shown)
                yield Packet(Side.P2, names[1], g, id="packet-p2").data_bind(**shown)
            yield Pile(names, g, id="pile").data_bind(WarApp.battle, WarApp.shown_steps)
        with Vertical(id="charts"):
            yield CardBar(names, g, id="card-bar").data_bind(**shown)
            yield CountTrend(names, g, id="trend").data_bind(WarApp.deal, battle=WarApp.settled)
        yield BattleLog(names, g, id="log").data_bind(**shown)
        yield GameFooter(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.glyphs.ascii, "-ascii")
        if self.glyphs.ascii:
            ScrollBar.renderer = AsciiScrollBarRender  # Textual has one renderer per process; put back on unmount
        self._battle_log = self.query_one(BattleLog)
        self.new_game(self.settings.seed, packets=self.settings.packets)
        self._fit_screen(self.size.width, self.size.height)
        self._say_stats_off(self.stats.take_notice())
        self._say_config_problems()
        if self.settings.notice:
            self.notify(self.settings.notice, timeout=8, markup=False)
        if self.settings.time_limit is not None or self._session_ends is not None:
            self.set_interval(1.0, self._count_down)

    def on_ready(self) -> None:
        """Once the first screen has settled, what start-up made stays for good: collections can leave it out.

        Not in a headless app (tests, many apps in one process): what it freezes would never be freed.
        """
        if not self.is_headless:
            self.set_timer(STARTUP_SETTLED, freeze_startup_objects)

    def on_unmount(self) -> None:
        if ScrollBar.renderer is AsciiScrollBarRender:
            ScrollBar.renderer = ScrollBarRender

    # ------------------------------------------------------- the stats seam

    def new_game(
        self,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        packets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None,
    ) -> Game:
        """Deal a game (a replay when ``seed`` is given) and show it; closes any result on screen."""
        if rules is not None:
            self.rules = rules
        self._close_overlays()
        if self.fastpath.forget_removed_widgets:
            from .fastpath.memory import forget_removed_widgets

            forget_removed_widgets()
        self._cancel(self._limit_timer, self._next_deal_timer, self._step_timer, self._hold_timer)
        self._limit_timer = self._next_deal_timer = self._step_timer = self._hold_timer = None
        self._result_held = False
        if packets is not None:
            game = Game(packets[0], packets[1], self.rules)
        else:
            game = Game.deal(self._new_seed() if seed is None else seed, self.rules)
        self.game = game
        self.game_number += 1
        self._reported = False
        self._auto_seen = self.auto
        self._credit = 0.0
        self._started_at = self._clock()
        self.adapter.follow(game)
        game.start()
        self.result = None
        self.battle = None
        self.deal = DealView(self.game_number, game.seed, game.rules, game.counts, game.total_cards)
        if self.settings.time_limit is not None:
            self._limit_timer = self.set_timer(self.settings.time_limit * 60, self._time_up)
            self._game_ends = self._started_at + self.settings.time_limit * 60
            self._warned.discard("game")
        self._count_down()
        self._sync_auto()
        return game

    def report_finished(self, game: Game, seconds: float) -> None:
        """The one place a finished game is reported: the tally, then every hook (statistics)."""
        assert game.result is not None
        self.tally[game.result] += 1
        self.mutate_reactive(WarApp.tally)
        for hook in self.finished_hooks:
            hook(game, seconds)

    def _record_game(self, game: Game, seconds: float) -> None:
        if self.settings.screensaver:
            source = Source.SCREENSAVER
        else:
            source = Source.AUTO if self._auto_seen else Source.INTERACTIVE
        self._store_record(GameRecord.from_game(game, self.names, seconds, source))

    @work(thread=True, group="stats")
    def _store_record(self, record: GameRecord) -> None:
        """Off the UI thread: a slow or locked file must never stall the screen."""
        if self.settings.player is not None and record.p1_player is None and record.p2_player is None:
            record = replace(record, p1_player=self.settings.player, p2_player=self.settings.player)  # both seats here
        self.stats.record(record)
        reason = self.stats.take_notice()
        if reason is not None:
            self.call_from_thread(self._say_stats_off, reason)

    def _say_stats_off(self, reason: str | None) -> None:
        if reason:
            if self.settings.served:
                reason = without_paths(reason, self.stats.path)
            self.notify(reason, severity="warning", timeout=10)  # the store words it: off, or delayed

    async def action_quit(self) -> None:
        """Quit; finished games still waiting for a locked statistics file get a few seconds first,
        said on screen. Asked again meanwhile, quit at once (``war-tui`` keeps what is left)."""
        waiting = self.stats.pending
        if not waiting or self._saving_at_quit:
            self.exit()
            return
        self._saving_at_quit = True
        games = "1 finished game" if waiting == 1 else f"{waiting:,} finished games"
        self.notify(
            f"Saving {games}: the statistics file is locked by another program...",
            title="Quitting", timeout=SAVE_AT_QUIT + 5,
        )
        self._save_then_exit()

    @work(thread=True, group="stats-quit")
    def _save_then_exit(self) -> None:
        self.stats.save_pending(within=SAVE_AT_QUIT)
        self.call_from_thread(self.exit)

    def on_stats_screen_replay_requested(self, message: StatsScreen.ReplayRequested) -> None:
        self.auto = False  # a replay starts paused: stepped through, or started with a, deliberately
        self.new_game(message.seed, message.rules)

    # ---------------------------------------------------------------- actions

    def action_flip(self) -> None:
        game = self.game
        if game is None or not self.is_running:
            return
        if self.shown_steps is not None:  # a war on the table, not decided yet
            self._lay_war()
            return
        if game.over:
            if not self._result_held:
                self.new_game()
            return
        game.step()
        self._after_play()

    @on(FlipClicked)
    def _flip_clicked(self) -> None:
        self.action_flip()

    def action_auto(self) -> None:
        if self.shown_steps is not None:
            self._settle_battle()  # the war stopped at (or being laid) shows whole; auto-play carries on
        if self.game is not None and self.game.over:
            if self._result_held:
                return
            self.auto = True  # at game over, a deals again and lets the new game play itself
            self.new_game()
            return
        self.auto = not self.auto
        self._auto_seen = self._auto_seen or self.auto
        self._sync_auto()

    def action_faster(self) -> None:
        if self.speed >= self.top_speed:
            self.notify(speed_limit_text(faster=True), timeout=2)
            return
        self.speed = min(faster(self.speed), self.top_speed)
        self._sync_auto()
        self._save_preferences(speed=self.speed)

    def action_slower(self) -> None:
        if self.speed <= MIN_SPEED:
            self.notify(speed_limit_text(faster=False), timeout=2)
            return
        self.speed = slower(self.speed)
        self._sync_auto()
        self._save_preferences(speed=self.speed)

    def action_pause_on_war(self) -> None:
        self.pause_on_war = not self.pause_on_war
        self._sync_auto()
        self.notify(
            "Auto-play will stop at every war" if self.pause_on_war else "Auto-play runs through wars",
            timeout=2,
        )

    def action_scroll_log(self, how: str) -> None:
        """Up/down, j/k, PageUp/PageDown, Home/End move the battle log (it never takes focus)."""
        log = self._battle_log
        if log is not None and log.screen is self.screen:
            log.scroll_by_key(how)

    def action_restart(self) -> None:
        if self.game is not None and self.game.over and self._result_held:
            return
        self.new_game()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        if any(isinstance(s, HelpScreen) for s in self.screen_stack):
            return  # under the too-small notice; it comes back with the board
        self._push_overlay(HelpScreen(self.rules))

    def action_stats(self) -> None:
        from .screens.stats import StatsScreen  # loaded when first asked for: not at start-up (DataTable, sqlite reads)

        if isinstance(self.screen, StatsScreen):
            self.pop_screen()
        elif not any(isinstance(s, StatsScreen) for s in self.screen_stack):
            self._push_overlay(StatsScreen(self.stats, show_path=not self.settings.served, player=self.settings.player))

    def action_command_palette(self) -> None:
        if not self.glyphs.ascii:
            super().action_command_palette()
        elif self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]  # typed App[object]: any app
            self.push_screen(AsciiCommandPalette(placeholder=PLACEHOLDER, id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title in SAFE_SYSTEM_COMMANDS:
                yield command
        yield SystemCommand("Flip", "Play exactly one battle", self.action_flip)
        yield SystemCommand("Auto-play", "Turn auto-play on or off", self.action_auto)
        yield SystemCommand("Faster", "Play faster on auto", self.action_faster)
        yield SystemCommand("Slower", "Play slower on auto", self.action_slower)
        yield SystemCommand("Stop at wars", "Pause auto-play at every war (toggle)", self.action_pause_on_war)
        yield SystemCommand("Restart", "A new shuffle with a new seed", self.action_restart)
        yield SystemCommand("Statistics", "Results, records, recent games to replay", self.action_stats)
        yield SystemCommand("Help", "The rules in brief and every key", self.action_help)

    # --------------------------------------------------------------- auto-play

    def _sync_auto(self) -> None:
        """Run the auto-play timer exactly when auto-play is on and the game is not over."""
        wanted = self.auto and self.game is not None and not self.game.over
        plan = tick_plan(self.speed) if wanted else None
        if plan == self._auto_plan and (self._auto_timer is not None) == wanted:
            return
        self._cancel(self._auto_timer)
        self._auto_timer = None
        self._auto_plan = plan
        if plan is not None:
            self._credit = 0.0
            self._auto_timer = self.set_interval(plan[0], self._tick)

    def _tick(self) -> None:
        game = self.game
        if game is None or game.over or self._auto_plan is None or not self.is_running:
            return
        per_tick = self._auto_plan[1]
        if per_tick == MAX:
            self._max_frame(game)
        else:
            if self.shown_steps is not None:
                return  # a war is being laid (or auto-play just stopped at one): the next battle waits
            self._credit += per_tick
            # A war stopped at by "stop at wars" turns auto-play off (``watch_battle``), which ends the loop.
            while self._credit >= 1 and not game.over and self.auto and self.shown_steps is None:
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
                if self.pause_on_war:
                    for _ in range(MAX_CHUNK):
                        if not game.step() or game.wars > wars:
                            break
                    if game.wars > wars:
                        break  # the flush shows it, and stops auto-play at its tie (watch_battle)
                else:
                    game.play(MAX_CHUNK)
        finally:
            adapter.holding = False
        adapter.flush()

    # ------------------------------------------------------ a war, step by step

    def watch_battle(self, old: BattleView | None, view: BattleView | None) -> None:
        """A battle reaches the pile: a war is laid step by step when there is time to watch it, else told whole.

        Runs before the pile's own watcher, so a war's deciding cards are never drawn before their turn.
        A table plays on while a screen lays a war: the war is then told whole before what came next.
        """
        self._cancel(self._step_timer)
        self._step_timer = None
        if self.shown_steps is not None and old is not None and self.settled is not old:
            self.settled = old
        if view is not None and view.stages > 1:
            if self.auto and self.pause_on_war:
                self.shown_steps = 1  # stopped at the tie: space lays the war cards
                self.auto = False
                self._sync_auto()
                self.notify(stopped_at_war_text(), timeout=4)
                return
            if self._wars_watchable(view):
                self.shown_steps = 1
                self._step_timer = self.set_interval(self.settings.war_step, self._next_war_step)
                return
        self.shown_steps = None
        self.settled = view

    def _wars_watchable(self, view: BattleView) -> bool:
        """Flipping by hand, or auto-play slow enough to see a war laid step by step (it waits for the war)."""
        return self.settings.war_step > 0 and (not self.auto or self.speed <= WATCHABLE_SPEED)

    def _next_war_step(self) -> None:
        view, shown = self.battle, (self.shown_steps or 0) + 1
        if view is None or shown >= view.stages:
            self._settle_battle()
        else:
            self.shown_steps = shown

    def _lay_war(self) -> None:
        """Flip with a war on the table: stopped at its tie, lay its cards; being laid, show the rest at once."""
        if self._step_timer is not None or self.settings.war_step <= 0:
            self._settle_battle()
            return
        self._step_timer = self.set_interval(self.settings.war_step, self._next_war_step)
        self._next_war_step()

    def _settle_battle(self) -> None:
        """The whole battle on show: the board tells its outcome, and a game it ended shows its result."""
        self._cancel(self._step_timer)
        self._step_timer = None
        if self.shown_steps is None:
            return
        self.shown_steps = None
        self.settled = self.battle
        self._after_play()

    async def on_event(self, event: events.Event) -> None:
        """Any key shows the rest of a war being laid at once (the flip keys do only that: ``action_flip``)."""
        if (
            isinstance(event, events.Key) and self._step_timer is not None
            and not event.is_forwarded and event.key not in FLIP_KEYS
        ):
            self._settle_battle()
        await super().on_event(event)

    # ------------------------------------------------------------- game over

    def _after_play(self) -> None:
        game = self.game
        if game is None or not game.over or self._reported or self.shown_steps is not None:
            return  # a war still being laid tells the end once its deciding cards are on show
        self._reported = True
        seconds = self._clock() - self._started_at
        self._cancel(self._limit_timer)
        self._limit_timer = self._game_ends = None
        self._count_down()
        self._sync_auto()
        self.report_finished(game, seconds)
        assert game.result is not None and game.reason is not None
        n1, n2 = game.counts
        end = EndView(
            game.result, game.reason, game.battles, game.wars, game.longest_war, (n1, n2), game.leader, seconds
        )
        self.result = end
        screensaver = self.settings.screensaver
        pause = self.settings.screensaver_pause
        self._push_overlay(
            GameOverScreen(
                end, self.names, seed=game.seed, tally_line=self._tally_line(),
                next_deal_in=pause if screensaver else None, dot=self.glyphs.dot,
            )
        )
        if screensaver:
            self._next_deal_timer = self.set_timer(pause, self._deal_next)
        if self.settings.result_hold > 0:  # a key held through the last battle does not skip the result
            self._result_held = True
            self._hold_timer = self.set_timer(self.settings.result_hold, self._release_result)

    def _release_result(self) -> None:
        self._hold_timer = None
        self._result_held = False

    def _deal_next(self) -> None:
        self._next_deal_timer = None
        if self.is_running:  # not while closing: the screens may already be gone
            self.new_game()

    def _time_up(self) -> None:
        self._limit_timer = None
        self._settle_battle()
        if self.game is not None and not self.game.over and self.is_running:
            self.game.stop()
            self._after_play()

    def _count_down(self) -> None:
        """The time left on the status line, and one notice a minute before each limit (if it is longer than that)."""
        now = self._clock()
        limits = {"game": (self._game_ends, self.settings.time_limit), "session": (self._session_ends, self.settings.session_minutes)}
        left = [ends - now for ends, _ in limits.values() if ends is not None]
        self.time_left = max(0, math.ceil(min(left))) if left else None
        for which, (ends, minutes) in limits.items():
            if ends is None or minutes is None or minutes <= 1 or which in self._warned:
                continue
            if ends - now <= 60:
                self._warned.add(which)
                self.notify(one_minute_text(session=which == "session"), title="Time", severity="warning", timeout=10)

    def _tally_line(self) -> str:
        t = self.tally
        dot = f" {self.glyphs.dot} "
        return "Tally  " + dot.join([
            f"{self.names[0]} {t[Result.P1]}", f"{self.names[1]} {t[Result.P2]}",
            f"draws {t[Result.DRAW]}", f"stopped {t[Result.STOPPED]}",
        ])

    # ------------------------------------------------------------ screens

    def scroll_hint(self) -> tuple[int, int, int] | None:
        """Where the battle log moved its lines up since the last frame (the fast path scrolls the terminal)."""
        log = self._battle_log
        return log.take_scroll() if log is not None else None

    def on_resize(self, event: events.Resize) -> None:
        self.forget_terminal()
        self._fit_screen(event.size.width, event.size.height)

    def _fit_screen(self, width: int, height: int) -> None:
        """Show the too-small notice over everything, or take it away, as the terminal changes."""
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small(width, height) and not showing:
            self.push_screen(TooSmallScreen())
        elif showing and not too_small(width, height):
            self.pop_screen()

    def _push_overlay(self, screen: Screen) -> None:
        """Push a screen under the too-small notice if it is showing, so the notice stays on top."""
        if isinstance(self.screen, TooSmallScreen):
            self.pop_screen()
            self.push_screen(screen)
            self.push_screen(TooSmallScreen())
        else:
            self.push_screen(screen)

    def _close_overlays(self) -> None:
        """Take the result and help off the board (a new deal starts with the table in view)."""
        notice = isinstance(self.screen, TooSmallScreen)
        if notice:
            self.pop_screen()
        overlays: tuple[type[Screen], ...] = (GameOverScreen, HelpScreen, *_loaded_stats_screen())
        while isinstance(self.screen, overlays):
            self.pop_screen()
        if notice:
            self.push_screen(TooSmallScreen())

    # ------------------------------------------------------------ preferences
    # The preferences file (war_tui/settings/preferences.py): its problems said once at start,
    # the theme and the speed saved when the player changes them.

    def _say_config_problems(self) -> None:
        if self.settings.config_problems:
            self.notify(
                "\n".join(self.settings.config_problems), title="Preferences: defaults used",
                severity="warning", timeout=20, markup=False,
            )

    def watch_theme(self, theme: str) -> None:
        self._save_preferences(theme=theme)

    def _save_preferences(self, **changes: object) -> None:
        preferences = self.settings.preferences
        problem = preferences.save(**changes) if preferences is not None else None
        if problem:
            self.notify(problem, title="Preferences not saved", severity="warning", timeout=10, markup=False)

    @staticmethod
    def _cancel(*timers: Timer | None) -> None:
        for timer in timers:
            if timer is not None:
                timer.stop()
