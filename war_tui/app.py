"""The full-screen game: keys and timers drive the engine; the adapter's messages draw the board.

The app holds the session (the game, the tally, auto-play settings) as plain
attributes, not reactives: a reactive on the App repaints the whole screen on
every change. Each widget owns its own state and is told about deals, battles
and results through ``show_deal`` / ``show_battle`` / ``show_end``.
"""

from __future__ import annotations

import gc
import os
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.timer import Timer
from textual._styles_cache import StylesCache

from .adapter import EngineAdapter
from .components.ascii_scrollbar import AsciiScrollBarRender
from .cards import Card
from .components.battle_log import BattleLog
from .components.card_bar import CardBar
from .components.game_footer import GameFooter
from .components.kept_rows import BoardColumn, BoardRow, BoardScreen
from .components.packet import Packet
from .components.pile import Pile
from .components.refresh_batch import refresh_batch
from .components.status import StatusLine
from .components.trend import CountTrend
from .damage import CompositorUpdate, MinimalUpdate, ScreenShadow
from .engine import Game
from .keys import GAME_BINDINGS
from .messages import BattleShown, DealView, EndView, GameDealt, GameEnded
from .presentation import MAX, choose_glyphs, faster, slower, tick_plan
from .rules import Result, Rules, Side
from .screens.ascii_palette import PLACEHOLDER, AsciiCommandPalette
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.too_small import TooSmallScreen, too_small
from .settings import PlaySettings
from .stats import GameRecord, Source, StatsStore

if TYPE_CHECKING:
    from .screens.stats import StatsScreen

STYLES = files("war_tui.styles")

FRAME_BUDGET = 0.012
"""Seconds of engine time per frame at "max": the rest of the frame is left for drawing and keys."""
MAX_CHUNK = 256
"""Battles played between clock checks at "max"."""
FREEZE_AFTER = 1.0
"""Seconds after start-up when its objects are set aside from the garbage collector."""
YOUNG_OBJECTS = 10_000
"""Container objects made (net) before the collector looks at the youngest ones (Python's default: 700).

Every frame makes thousands of strips and rows, and most of what outlives a frame
is cache entries that live on for many: at 700 the collector walked them again
several times a battle. Measured at 16 battles/s, 10,000 took 5-7% off the game's
CPU (50,000 no more). Not at "max": there the engine's many short-lived objects per
frame, collected later, raised the memory growth of 10,000 battles by 1.2 MB."""
SAVE_AT_QUIT = 4.0
"""Seconds a quit keeps trying to save games waiting for a locked statistics file (``war-tui`` then
keeps them in a recovery file beside it)."""

FinishedHook = Callable[[Game, float], None]


def _forget_removed_widgets() -> None:
    """Let go of the render caches of widgets already removed (the last result dialog, old footer keys).

    Textual memoises ``StylesCache.get_inner_outer`` with an ``lru_cache`` keyed on the
    StylesCache itself, so up to 1,024 caches of removed widgets, each with its
    rendered lines, stay alive: the screensaver (a result dialog and a new set of
    footer keys per game) grew about 0.4 MB a game until that limit. Once a deal
    is enough: the memo refills with the few widgets on screen.
    """
    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:
        clear()


def _loaded_stats_screen() -> tuple[type[Screen], ...]:
    """The statistics screen's class if it was ever loaded; until then none can be showing."""
    module = sys.modules.get(f"{__package__}.screens.stats")
    return (module.StatsScreen,) if module is not None else ()


class WarApp(App[None]):
    """War at the table: flip battles by hand, or let auto-play (or the screensaver) run."""

    TITLE = "war-tui"
    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
    BINDINGS = GAME_BINDINGS

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
        self.tally: Counter[Result] = Counter()
        self.finished_hooks: list[FinishedHook] = []
        """Called once per finished game with (game, seconds): the seam for statistics."""
        # No store given (tests, embedding): record nothing rather than write to the user's file.
        self.stats = stats if stats is not None else StatsStore.off("no statistics file was given")
        if self.stats.enabled:
            self.finished_hooks.append(self._record_game)
        self._auto_seen = False
        self.auto = settings.auto or settings.screensaver
        self.speed = settings.speed
        self.pause_on_war = settings.pause_on_war
        self._started_at = 0.0
        self._reported = False
        self._credit = 0.0
        self._auto_timer: Timer | None = None
        self._auto_plan: tuple[float, float] | None = None
        self._limit_timer: Timer | None = None
        self._next_deal_timer: Timer | None = None
        self._board: list = []
        self._battle_log: BattleLog | None = None
        self._shadow = ScreenShadow()
        self._froze = False
        self._saving_at_quit = False

    # ------------------------------------------------------------------ layout

    def get_default_screen(self) -> Screen:
        return BoardScreen(id="_default")

    def compose(self) -> ComposeResult:
        g, names = self.glyphs, self.names
        yield StatusLine(names, g, id="status")
        with BoardRow(id="table"):
            with BoardColumn(id="packets"):
                yield Packet(Side.P1, names[0], g, id="packet-p1")
                yield Packet(Side.P2, names[1], g, id="packet-p2")
            yield Pile(names, g, id="pile")
        with BoardColumn(id="charts"):
            yield CardBar(names, g, id="card-bar")
            yield CountTrend(names, g, id="trend")
        yield BattleLog(names, g, id="log")
        yield GameFooter(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.glyphs.ascii, "-ascii")
        if self.glyphs.ascii:
            ScrollBar.renderer = AsciiScrollBarRender  # Textual has one renderer per process; put back on unmount
        self._board = list(self.query(".board"))
        self._battle_log = self.query_one(BattleLog)
        self._status.set_play(self.auto, self.speed, self.pause_on_war)
        self.new_game(self.settings.seed, packets=self.settings.packets)
        self._fit_screen(self.size.width, self.size.height)
        self._say_stats_off(self.stats.take_notice())
        self.set_timer(FREEZE_AFTER, self._freeze_start_up)  # once start-up's frames are out

    def _freeze_start_up(self) -> None:
        """Set what start-up built (the DOM, styles, caches) aside from the garbage collector.

        Python's collector walks every tracked object it holds each time its oldest
        generation fills; with Textual's tens of thousands of long-lived objects, that
        was a pause of 20-40 ms every few dozen battles, about a tenth of the game's CPU
        at 4 battles a second. Frozen objects are still freed by reference counting; only
        cycles among them would stay, and start-up's are collected just before.
        """
        if self.is_running and gc.isenabled():
            gc.collect()
            gc.freeze()
            self._thresholds = gc.get_threshold()
            self._froze = True
            self._sync_collector()

    def _sync_collector(self) -> None:
        """The collector's youngest generation at ``YOUNG_OBJECTS``, except while auto-play runs at "max"."""
        if self._froze:
            young = self._thresholds[0] if self.auto and self.speed == MAX else YOUNG_OBJECTS
            gc.set_threshold(young, *self._thresholds[1:])

    def on_unmount(self) -> None:
        if ScrollBar.renderer is AsciiScrollBarRender:
            ScrollBar.renderer = ScrollBarRender
        if self._froze:
            gc.unfreeze()  # an app run inside another program (tests) gives them back to the collector
            gc.set_threshold(*self._thresholds)

    @property
    def _status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

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
        _forget_removed_widgets()
        self._cancel(self._limit_timer, self._next_deal_timer)
        self._limit_timer = self._next_deal_timer = None
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
        self.post_message(
            GameDealt(DealView(self.game_number, game.seed, game.rules, game.counts, game.total_cards))
        )
        if self.settings.time_limit is not None:
            self._limit_timer = self.set_timer(self.settings.time_limit * 60, self._time_up)
        self._sync_auto()
        return game

    def report_finished(self, game: Game, seconds: float) -> None:
        """The one place a finished game is reported: the tally, then every hook (statistics)."""
        assert game.result is not None
        self.tally[game.result] += 1
        self._status.set_tally(self.tally)
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
        self.stats.record(record)
        reason = self.stats.take_notice()
        if reason is not None:
            self.call_from_thread(self._say_stats_off, reason)

    def _say_stats_off(self, reason: str | None) -> None:
        if reason:
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
        self.new_game(message.seed, message.rules)

    # ---------------------------------------------------------------- actions

    def action_flip(self) -> None:
        game = self.game
        if game is None or not self.is_running:
            return
        if game.over:
            self.new_game()
            return
        game.step()
        self._after_play()

    def action_auto(self) -> None:
        if self.game is not None and self.game.over:
            self.auto = True  # at game over, a deals again and lets the new game play itself
            self.new_game()
            return
        self.auto = not self.auto
        self._auto_seen = self._auto_seen or self.auto
        self._sync_auto()

    def action_faster(self) -> None:
        self.speed = faster(self.speed)
        self._sync_auto()

    def action_slower(self) -> None:
        self.speed = slower(self.speed)
        self._sync_auto()

    def action_pause_on_war(self) -> None:
        self.pause_on_war = not self.pause_on_war
        self._sync_auto()
        self.notify(
            "Auto-play will stop at every war" if self.pause_on_war else "Auto-play runs through wars",
            timeout=2,
        )

    def action_restart(self) -> None:
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
            self._push_overlay(StatsScreen(self.stats))

    def action_command_palette(self) -> None:
        if not self.glyphs.ascii:
            super().action_command_palette()
        elif self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(AsciiCommandPalette(placeholder=PLACEHOLDER, id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
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
        self._status.set_play(self.auto, self.speed, self.pause_on_war)
        self._sync_collector()
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
            self._credit += per_tick
            wars = game.wars
            while self._credit >= 1 and not game.over:
                self._credit -= 1
                game.step()
                if self.pause_on_war and game.wars > wars:
                    self._stop_at_war()
                    break
        self._after_play()

    def _max_frame(self, game: Game) -> None:
        """As many battles as fit in the frame budget; only the last one reaches the board.

        The adapter holds each battle's view instead of posting it, so the widgets
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
                        self._stop_at_war()
                        break
                else:
                    game.play(MAX_CHUNK)
        finally:
            adapter.holding = False
        adapter.flush(fast=True)

    def _stop_at_war(self) -> None:
        self.auto = False
        self._sync_auto()
        self.notify("Auto-play stopped at a war: a carries on, w stops stopping", timeout=3)

    # ------------------------------------------------------------- game over

    def _after_play(self) -> None:
        game = self.game
        if game is None or not game.over or self._reported:
            return
        self._reported = True
        seconds = self._clock() - self._started_at
        self._cancel(self._limit_timer)
        self._limit_timer = None
        self._sync_auto()
        self.report_finished(game, seconds)
        assert game.result is not None and game.reason is not None
        n1, n2 = game.counts
        end = EndView(
            game.result, game.reason, game.battles, game.wars, game.longest_war, (n1, n2), game.leader, seconds
        )
        self.post_message(GameEnded(end))
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

    def _deal_next(self) -> None:
        self._next_deal_timer = None
        if self.is_running:  # not while closing: the screens may already be gone
            self.new_game()

    def _time_up(self) -> None:
        self._limit_timer = None
        if self.game is not None and not self.game.over and self.is_running:
            self.game.stop()
            self._after_play()

    def _tally_line(self) -> str:
        t = self.tally
        dot = f" {self.glyphs.dot} "
        return "Tally  " + dot.join([
            f"{self.names[0]} {t[Result.P1]}", f"{self.names[1]} {t[Result.P2]}",
            f"draws {t[Result.DRAW]}", f"stopped {t[Result.STOPPED]}",
        ])

    # ------------------------------------------------- messages to the board
    # A timer can deal or play while Textual closes the app: the board's widgets may
    # already be unmounted (their component styles gone), so such news is dropped.

    def on_game_dealt(self, message: GameDealt) -> None:
        self._tell_board(lambda widget: widget.show_deal(message.deal))

    def on_battle_shown(self, message: BattleShown) -> None:
        self._tell_board(lambda widget: widget.show_battle(message.view))

    def on_game_ended(self, message: GameEnded) -> None:
        self._tell_board(lambda widget: widget.show_end(message.end))

    def _tell_board(self, tell: Callable[[Any], None]) -> None:
        """Each board widget in turn, their repaints handed to the screen at once (``refresh_batch``)."""
        if not self.is_running or not self._board:
            return
        with refresh_batch(self._board[0].screen):
            for widget in self._board:
                tell(widget)

    # ------------------------------------------------------------ screens

    def _display(self, screen: Screen, renderable: RenderableType | None) -> None:
        """Every frame goes out through the shadow of the terminal: only changed cells are written."""
        if isinstance(renderable, CompositorUpdate) and not self.is_inline:
            renderable = self._minimal(renderable)
        super()._display(screen, renderable)

    def _minimal(self, update: CompositorUpdate) -> MinimalUpdate:
        """A frame written through the shadow, told where the battle log moved up (the terminal can scroll it)."""
        log = self._battle_log
        hint = log.take_scroll() if log is not None else None
        return MinimalUpdate(update, self._shadow, (self.size.width, self.size.height), hint)

    def on_resize(self, event: events.Resize) -> None:
        self._shadow.forget()
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

    @staticmethod
    def _cancel(*timers: Timer | None) -> None:
        for timer in timers:
            if timer is not None:
                timer.stop()
