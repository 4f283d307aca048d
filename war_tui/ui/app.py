"""The full-screen game: one App for every way to play; it shows the board, which hands its keys to a controller.

The board (``board.Board``) is the App's default screen: it holds what is on show, the game's keys and the
controller (``controllers``) that decides what a key does and what the board shows next: a solo game played
here, a seat at a shared table, or two players at one keyboard. The App keeps what belongs to the terminal
and the session: the screens over the board (result, help, statistics, lobby, the preferences notice, the
too-small notice), notices, themes, the driver, the preferences file and the statistics file.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib.resources import files
from typing import TYPE_CHECKING, ClassVar, cast

from textual import actions, events, work
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.notifications import Notification, Notify
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender

from ..core.engine import Game
from ..core.plural import plural
from ..presentation.glyphs import choose_glyphs, python_may_have_coerced
from ..presentation.table_keys import LEADERBOARD_KEYS, lobby_keys
from ..settings.play import PlaySettings
from ..settings.served import without_paths
from ..stats import GameRecord, Source, StatsStore
from .bindings import REDRAW_BINDING, REDRAW_KEY, over_board
from .board import EVERY_KEY, Board
from .components.ascii_scrollbar import AsciiScrollBarRender
from .controllers import Controller, ResultShown
from .controllers.base import AtTable, Severity
from .controllers.choose import controller_for, way_to_play
from .fastpath import probe
from .fastpath.output import ShadowOutput
from .gc_pauses import STARTUP_SETTLED, freeze_startup_objects
from .input_driver import forgiving_driver
from .key_order import run_input_binding
from .screens.ascii_palette import PLACEHOLDER, AsciiCommandPalette
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.preferences_notice import PreferencesNotice
from .screens.too_small import TooSmallScreen, too_small
from .theme import HIGH_CONTRAST
from .toast_trail import ToastTrail

if TYPE_CHECKING:  # a solo game loads nothing of the tables; a table imports them when it opens
    from ..tables import Lobby
    from .controllers.table import TableConnection
    from .screens.lobby import LobbyScreen
    from .screens.stats import StatsScreen
    from .screens.tv_waiting import TvWaitingScreen

STYLES = files("war_tui.styles")

SHORT_SCREEN = 24
"""The app's -tall breakpoint: below it, a toast lies over the board's piles."""
SHORT_SCREEN_NOTE = 3.0
"""Seconds at most a notice ``say`` raises stays on a short screen: time to read a line, then the board."""
TABLE_GAME_FIRST_LOOK, TABLE_GAME_LOOK_EVERY, TABLE_GAME_WAIT = 0.1, 2.0, 60.0
"""How a table game's result looks for the game's id (``_find_table_game``): first after 0.1 s, then at doubling
intervals up to every 2 s, for a minute at most (a cluster's stream may hold the record back while NATS is away)."""
SAVE_AT_QUIT = 4.0
"""Seconds a quit keeps trying to save games waiting for a locked statistics file (``war-tui`` then
keeps them in a recovery file beside it)."""

FinishedHook = Callable[[Game, float], None]

SAFE_SYSTEM_COMMANDS = frozenset({"Theme", "Quit", "Keys", "Maximize", "Minimize"})
"""Textual's own palette commands the game offers: none reaches files, the clipboard or anything
outside the game (its "Screenshot" writes into the machine's Downloads folder, which over SSH is the
server's). A command a newer Textual adds stays out until it is looked at and named here."""

BINDINGS = [*over_board(EVERY_KEY), REDRAW_BINDING]
"""Statistics, help and quit, and the board's keys on every screen over it that is not modal (the lobby, the
too-small notice...), handed to the board (``action_board``); ctrl+l redraws on every screen, whatever the way
to play."""


def _loaded_stats_screen() -> tuple[type[Screen], ...]:
    """The statistics screen's class if it was ever loaded; until then none can be showing."""
    module = sys.modules.get(f"{__package__}.screens.stats")
    return (module.StatsScreen,) if module is not None else ()


def _loaded_leaderboard_screen() -> tuple[type[Screen], ...]:
    """The leaderboard's class if it was ever loaded (by a lobby's ``s``); until then none can be showing."""
    module = sys.modules.get(f"{__package__}.screens.leaderboard")
    return (module.LeaderboardScreen,) if module is not None else ()


def breakpoint_classes(size: int, breakpoints: list[tuple[int, str]]) -> dict[str, bool]:
    """Which of a screen's breakpoint classes hold at ``size``, as Textual sets them on a resize: the last one reached."""
    reached = [name for at, name in sorted(breakpoints) if size >= at]
    return {name: bool(reached) and name == reached[-1] for _, name in breakpoints}


class WarApp(ShadowOutput, App[None]):
    """War at the table: a solo game, a seat at a shared table (``table``), or two players here (``--two-players``)."""

    TITLE = "war-tui"
    CSS_PATH = [str(STYLES / "app.tcss"), str(STYLES / "screens.tcss"), str(STYLES / "tables.tcss")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide"), (120, "-big-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT_SCREEN, "-tall"), (40, "-big-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [*BINDINGS]

    def __init__(
        self,
        settings: PlaySettings | None = None,
        *,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        new_seed: Callable[[], int] = lambda: secrets.randbelow(2**32),
        stats: StatsStore | None = None,
        table: TableConnection | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        """``table``: the connection to a shared table (None: a solo game, or with ``settings.two_players``
        a table of its own at this keyboard, dealt from ``seed_source``)."""
        super().__init__()
        self.settings = settings = settings if settings is not None else PlaySettings()
        # Python's own LC_CTYPE (PEP 538) is only ever in this process's environment, not in one given.
        coerced = environ is None and python_may_have_coerced(os.environ)
        self.glyphs = choose_glyphs(settings.ascii, os.environ if environ is None else environ, python_coerced=coerced)
        if settings.deck == "four-colour":
            self.glyphs = replace(self.glyphs, four_colour=True)
        self.finished_hooks: list[FinishedHook] = []
        """Called once per finished solo game with (game, seconds), after its statistics are recorded."""
        # No store given (tests, embedding): record nothing, never the user's file.
        self.stats = stats if stats is not None else StatsStore.off("no statistics file was given")
        self.ended: str | None = None
        """Why the table is gone, once it is."""
        self.leaving_status = 0
        """The exit status a quit leaves with (1 once a table turned this person away)."""
        self.goodbye: str | None = None
        """A line for the terminal once the full screen is given back (``run_game`` writes it)."""
        self.board = board = Board(settings.names, self.glyphs, kind=way_to_play(settings, table),
                                   war_step=settings.war_step, on_ready=self._board_ready)
        board.auto = settings.auto or settings.screensaver
        board.speed = min(settings.speed, settings.top_speed)
        board.pause_on_war = settings.pause_on_war
        self.controller: Controller = controller_for(
            settings, table, board=board, app=self, clock=clock, new_seed=new_seed, seed_source=seed_source,
            on_record=self._table_record,
        )
        board.controller = self.controller  # the board's keys go to it; the board tells it as it lays a war
        self._lobby: LobbyScreen | None = None
        self._tv_waiting: TvWaitingScreen | None = None
        self.fastpath = probe()
        """The private speed-ups the installed Textual allows (``war_tui.ui.fastpath``); all off with WAR_TUI_FASTPATH=0."""
        if self.fastpath.shadow_terminal:
            self.use_shadow_terminal(self.fastpath.scroll_terminal)
        self.driver_class = forgiving_driver(self.driver_class)
        self.register_theme(HIGH_CONTRAST)
        if settings.theme in self.available_themes:  # preferences: the theme last picked
            self.theme = settings.theme
        self._saving_at_quit = False
        self._said: dict[str, Notification] = {}
        """The newest notice of each kind ``say`` raised."""

    # ------------------------------------------------------------------ the board

    def get_default_screen(self) -> Board:
        """The board, with the size classes of the terminal's size already on: the first resize then changes
        no class, so the board's styles are applied once at start instead of twice."""
        size = self.size
        classes = {**breakpoint_classes(size.width, self.HORIZONTAL_BREAKPOINTS),
                   **breakpoint_classes(size.height, self.VERTICAL_BREAKPOINTS)}
        for name, holds in classes.items():
            self.board.set_class(holds, name, update=False)
        return self.board

    def on_mount(self) -> None:
        ToastTrail(self).watch(self.screen)  # lives on in the screens' signals it subscribes to
        self.set_class(self.glyphs.ascii, "-ascii")
        self.set_class(self.controller.kind == "two-players", "-two-players")
        if self.glyphs.ascii:
            ScrollBar.renderer = AsciiScrollBarRender  # Textual has one renderer per process; put back on unmount

    def _board_ready(self) -> None:
        """The board is mounted and its controller started: what start-up has to say goes over it."""
        self._fit_screen(self.size.width, self.size.height)
        self._say_stats_off(self.stats.take_notice())
        if self.settings.config_problems:
            self._push_overlay(PreferencesNotice(self.settings.config_problems))
        if self.settings.notice:
            self.notify(self.settings.notice, timeout=8)

    def on_ready(self) -> None:
        """Once the first screen has settled, what start-up made stays for good: collections can leave it out.

        Not in a headless app (tests, many apps in one process): what it freezes would never be freed.
        """
        if not self.is_headless:
            self.set_timer(STARTUP_SETTLED, freeze_startup_objects)

    def on_unmount(self) -> None:
        self.controller.close()
        if ScrollBar.renderer is AsciiScrollBarRender:
            ScrollBar.renderer = ScrollBarRender

    # ------------------------------------------------------- the controller's shell

    def show_result(self, result: ResultShown) -> None:
        if any(isinstance(s, GameOverScreen) for s in self.screen_stack):
            return
        names, dot, tally = self.board.names, self.glyphs.dot, self.board.tally_line()
        screen: GameOverScreen
        if result.kind == "solo":
            screen = GameOverScreen(
                result.end, names, seed=result.seed, tally_line=tally, next_deal_in=result.next_deal_in, dot=dot,
                game_id=self.stored_game_id, local=not self.settings.served,
                reached_at=(self.settings.ssh_at, self.settings.web_at),
            )
        else:
            from .screens.table_game_over import TableGameOverScreen, TwoPlayerGameOverScreen

            kind = TwoPlayerGameOverScreen if result.kind == "two-players" else TableGameOverScreen
            screen = kind(result.end, names, hint=result.hint, seed=result.seed, tally_line=tally, dot=dot,
                          local=not self.settings.served, reached_at=(self.settings.ssh_at, self.settings.web_at))
        self._push_overlay(screen)
        if result.table_game is not None and result.seed is not None and result.end.battles and self.stats.enabled:
            self._find_table_game(screen, *result.table_game, result.seed)

    @work(exclusive=True, group="table game")
    async def _find_table_game(self, screen: GameOverScreen, table: str, number: int, seed: int) -> None:
        """A table's game is recorded by the table's server (through the cluster's stream, with one): its id
        reaches this result once the statistics hold it, looked for off the screen's thread while the result
        is up, at growing intervals up to ``TABLE_GAME_WAIT`` seconds."""
        delay, waited = TABLE_GAME_FIRST_LOOK, 0.0
        while screen in self.screen_stack and waited <= TABLE_GAME_WAIT:
            found = await asyncio.to_thread(self.stats.table_game_stored, table, number, seed)
            if found is not None:  # a served game by its own id: a link to it opens it on every node of a cluster
                screen.game_id = found[1] if self.settings.served else found[0]
                return
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, TABLE_GAME_LOOK_EVERY)

    def notify(
        self, message: str, *, title: str = "", severity: Severity = "information", timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A notice shown as the words it is: its text often holds a name or a path someone typed
        (``ui.text``), so it is never read as markup, whatever ``markup`` a caller passes (a screen's own
        ``notify`` passes Textual's default)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def say(
        self, kind: str, message: str, *, timeout: float, severity: Severity = "information", short: str | None = None
    ) -> None:
        """``Notices.say``: the notice before of this ``kind`` expires as this one is raised (Textual drops
        expired notices when it adds one), so its toast gives way to the new one. On a short screen a
        toast covers part of the board, so it stays no longer than ``SHORT_SCREEN_NOTE``, in its ``short``
        words if it has some."""
        before = self._said.get(kind)
        if before is not None:
            before.timeout = 0
        if self.size.height < SHORT_SCREEN:
            timeout = min(timeout, SHORT_SCREEN_NOTE)
            message = message if short is None else short
        self._said[kind] = notice = Notification(message, severity=severity, timeout=timeout, markup=False)
        self.post_message(Notify(notice))

    def unsay(self, kind: str) -> None:
        """``Notices.unsay``: the notice expires and is raised again, and Textual, dropping expired notices as it
        shows the notices, takes its toast away."""
        notice = self._said.pop(kind, None)
        if notice is not None:
            notice.timeout = 0
            self.post_message(Notify(notice))

    def close_result(self) -> None:
        while isinstance(self.screen, GameOverScreen):
            self.pop_screen()

    def result_hint(self, hint: tuple[str, ...]) -> None:
        from .screens.table_game_over import TableGameOverScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableGameOverScreen):
                screen.set_hint(hint)

    def clear_for_deal(self) -> None:
        """Take the result and help off the board (a new deal starts with the table in view)."""
        notice = isinstance(self.screen, TooSmallScreen)
        if notice:
            self.pop_screen()
        overlays: tuple[type[Screen], ...] = (GameOverScreen, HelpScreen, *_loaded_stats_screen())
        while isinstance(self.screen, overlays):
            self.pop_screen()
        if notice:
            self.push_screen(TooSmallScreen())
        if self.fastpath.forget_removed_widgets:
            from .fastpath.memory import forget_removed_widgets

            forget_removed_widgets()

    def game_finished(self, game: Game, seconds: float, *, auto_seen: bool) -> None:
        """The one place a finished solo game is reported: the statistics, then every hook."""
        self.stored_game_id = None
        if self.stats.enabled:
            self._record_game(game, seconds, auto_seen=auto_seen)
        for hook in self.finished_hooks:
            hook(game, seconds)

    def open_lobby(self) -> None:
        from .screens.lobby import LobbyScreen

        settings = self.settings
        board = self.stats if settings.leaderboard and not self.stats.user_disabled else None
        self._lobby = LobbyScreen(self.glyphs, leaderboard=board, you=settings.player)
        self.push_screen(self._lobby)

    def close_lobby(self) -> bool:
        lobby, self._lobby = self._lobby, None
        if lobby is None:
            return False
        if lobby in self.screen_stack:  # with what was opened over it (the leaderboard, help)
            while self.screen is not lobby:
                self.pop_screen()
            self.pop_screen()
        self.refresh_bindings()
        return True

    def tv_waiting(self, why: str | None) -> None:
        """War TV waits for a table, for the reason ``why`` (over the board); None: it shows one again."""
        from .screens.tv_waiting import TvWaitingScreen

        screen = self._tv_waiting
        if why is not None and screen is not None:
            screen.why = why
        elif why is not None:
            self._tv_waiting = TvWaitingScreen(why)
            self.push_screen(self._tv_waiting)
        elif screen is not None:
            self._tv_waiting = None
            if screen in self.screen_stack:  # with what was opened over it (help, statistics)
                while self.screen is not screen:
                    self.pop_screen()
                self.pop_screen()
            self.refresh_bindings()

    def lobby_changed(self, lobby: Lobby) -> None:
        if self._lobby is not None:
            self._lobby.lobby = lobby

    def lobby_says(self, text: str) -> bool:
        if self._lobby is None or self.screen is not self._lobby:
            return False
        self._lobby.say(text)
        return True

    def table_closed(self, reason: str) -> None:
        """The table is gone: say why over the board, titled by what this person had there; any of the closing
        keys leaves (with exit status 1 after a refusal, as every refusal has). A connection the same person
        sat down from again ends at once, its ``goodbye`` said once the screen is given back."""
        if self.ended is not None or not self.is_running or not isinstance(self.controller, AtTable):
            return
        self.ended = reason
        gone = self.controller.table_closed(reason)
        self.leaving_status = gone.status
        if gone.goodbye is not None:  # the same person plays on from another connection: nothing to wait for here
            self.goodbye = gone.goodbye
            self.exit(return_code=gone.status)
            return
        from .screens.table_closed import TableClosedScreen

        self.push_screen(TableClosedScreen(gone.title, reason))

    def on_lobby_screen_join_requested(self, message: LobbyScreen.JoinRequested) -> None:
        if isinstance(self.controller, AtTable):
            self.controller.join(message.table, message.watch)

    # ------------------------------------------------------- the stats seam

    def _record_game(self, game: Game, seconds: float, *, auto_seen: bool) -> None:
        """``auto_seen``: auto-play ran during the game (a screensaver's games are the screensaver's)."""
        source = Source.AUTO if auto_seen else Source.INTERACTIVE
        if self.settings.screensaver:
            source = Source.SCREENSAVER
        self._store_record(GameRecord.from_game(game, self.board.names, seconds, source), solo=True)

    def _table_record(self, record: GameRecord) -> None:
        """A table of its own keeps one record of each finished game, stored off the screen's thread."""
        if self.stats.enabled:
            self._store_record(record)

    @work(thread=True, group="stats")
    def _store_record(self, record: GameRecord, *, solo: bool = False) -> None:
        """Off the UI thread: a slow or locked file must never stall the screen. A solo game's id, once stored,
        goes to its result (``_game_stored``)."""
        if self.settings.player is not None and record.p1_player is None and record.p2_player is None:
            record = replace(record, p1_player=self.settings.player, p2_player=self.settings.player)  # both seats here
        if self.stats.record(record) and solo and record.seed is not None:  # a hand-dealt game cannot be replayed
            game_id = self.stats.stored_id(record)
            if game_id is not None:
                self.call_from_thread(self._game_stored, game_id)
        reason = self.stats.take_notice()
        if reason is not None:
            self.call_from_thread(self._say_stats_off, reason)

    stored_game_id: int | None = None
    """The id of the solo game just finished, once the statistics hold it (its result offers its replay)."""

    def _game_stored(self, game_id: int) -> None:
        self.stored_game_id = game_id
        for screen in self.screen_stack:
            if type(screen) is GameOverScreen:  # a solo game's result (a table's is the table's)
                screen.game_id = game_id

    def on_game_over_screen_replay_requested(self, message: GameOverScreen.ReplayRequested) -> None:
        """enter on a solo game's result: that game on the replay screen, the result under it."""
        found = self.stats.game(message.game_id)
        if not found:
            self.notify("That game is not in the statistics any more, so it cannot be replayed.", severity="warning")
            return
        self._open_replay(found[0])

    def _open_replay(self, record: GameRecord) -> None:
        from ..stats.replay import Replay, ReplayError
        from .screens.replay import ReplayScreen

        try:
            replay = Replay.of_record(record)
        except ReplayError as error:
            self.notify(str(error).capitalize() + ".", severity="warning")
            return
        if self.board.auto and self.board.result is None:
            self.controller.auto()  # paused under the replay, so no result of its own lands on top of it
        self.push_screen(ReplayScreen(replay, (record.p1_name, record.p2_name), self.glyphs, game_id=record.id,
                                      local=not self.settings.served,
                                      reached_at=(self.settings.ssh_at, self.settings.web_at)))

    def _say_stats_off(self, reason: str | None) -> None:
        if reason:
            if self.settings.served:
                reason = without_paths(reason, self.stats.path)
            self.notify(reason, severity="warning", timeout=10)  # the store words it: off, or delayed

    async def action_quit(self) -> None:
        """Quit (or, at a table reached from the lobby, go back to it: ``Controller.back``); finished games
        still waiting for a locked statistics file get a few seconds first, said on screen. Asked again
        meanwhile, quit at once (``war-tui`` keeps what is left)."""
        if self.ended is None and self.controller.back():
            return
        waiting = self.stats.pending
        if not waiting or self._saving_at_quit:
            self.exit(return_code=self.leaving_status)
            return
        self._saving_at_quit = True
        self.notify(
            f"Saving {plural(waiting, 'finished game')}: the statistics file is locked by another program...",
            title="Quitting", timeout=SAVE_AT_QUIT + 5,
        )
        self._save_then_exit()

    @work(thread=True, group="stats-quit")
    def _save_then_exit(self) -> None:
        self.stats.save_pending(within=SAVE_AT_QUIT)
        self.call_from_thread(self.exit, return_code=self.leaving_status)

    def on_stats_screen_replay_requested(self, message: StatsScreen.ReplayRequested) -> None:
        """The game chosen on the statistics screen, on the replay screen (its battles rebuilt from its seed)."""
        if isinstance(self.controller, AtTable):  # the table deals on under any screen: its notice says so
            self.controller.replay(message.seed, message.rules)
            return
        self._open_replay(message.record)

    # ---------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The board's keys over the board are in play as the board says (a redraw, and the app's own, always)."""
        if action == "board":
            _, board_action, board_parameters = actions.parse(str(parameters[0]))
            return self.board.check_action(board_action, board_parameters)
        return True

    async def action_board(self, action: str) -> None:
        """One of the board's keys pressed on a screen over it: the board's action, as if pressed there."""
        await self.board.run_action(action)

    def action_redraw(self) -> None:
        """ctrl+l: the whole screen again, every cell (a full frame, which the fast path's shadow takes as the
        terminal's from then on); at a table also a fresh copy of it, in case this screen is behind it too."""
        self.refresh(repaint=True, layout=True)
        if isinstance(self.controller, AtTable):
            self.controller.resync()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        if any(isinstance(s, HelpScreen) for s in self.screen_stack):
            return  # under the too-small notice; it comes back with the board
        keys = self.controller.help_keys()
        if self._lobby is not None and self.screen is self._lobby:
            keys = lobby_keys(leaderboard=self._lobby.leaderboard is not None)
        elif isinstance(self.screen, _loaded_leaderboard_screen()):
            keys = LEADERBOARD_KEYS
        rules = self.controller.rules
        self._push_overlay(HelpScreen(rules) if keys is None else HelpScreen(rules, keys))

    def action_stats(self) -> None:
        from .screens.stats import StatsScreen  # loaded when first asked for: not at start-up (DataTable, sqlite reads)

        if isinstance(self.screen, StatsScreen):
            self.pop_screen()
        elif not any(isinstance(s, StatsScreen) for s in self.screen_stack):
            self._push_overlay(StatsScreen(self.stats, show_path=not self.settings.served, player=self.settings.player,
                                           ascii=self.glyphs.ascii))

    def action_command_palette(self) -> None:
        if not self.glyphs.ascii:
            super().action_command_palette()
        elif self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(AsciiCommandPalette(placeholder=PLACEHOLDER, id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title in SAFE_SYSTEM_COMMANDS:
                yield command
        board = self.board
        yield SystemCommand("Flip", "Play exactly one battle", board.action_flip)
        yield SystemCommand("Auto-play", "Turn auto-play on or off", board.action_auto)
        yield SystemCommand("Faster", "Play faster on auto", board.action_faster)
        yield SystemCommand("Slower", "Play slower on auto", board.action_slower)
        yield SystemCommand("Stop at wars", "Pause auto-play at every war (toggle)", board.action_pause_on_war)
        yield SystemCommand("Restart", "A new shuffle with a new seed", board.action_restart)
        yield SystemCommand("Statistics", "Results, records, recent games to replay", self.action_stats)
        yield SystemCommand("Help", "The rules in brief and every key", self.action_help)

    async def on_event(self, event: events.Event) -> None:
        """Any key may hurry a war being laid on the board (``Board.hurry``), whatever screen is on top.
        Once q asked to confirm leaving a table, the next key answers (but ctrl+l). A key the focused input
        binds (backspace, the arrows) is queued on it, in the order typed (``key_order``)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self.controller.leave_asked and event.key != REDRAW_KEY:
                if self.controller.answer_leave(event.key):
                    await self.action_quit()
                return
            self.board.hurry(event.key)
            if run_input_binding(self, event):
                return
        await super().on_event(event)

    # ------------------------------------------------------------ screens

    def scroll_hint(self) -> tuple[int, int, int] | None:
        """Where the battle log moved its lines up since the last frame (the fast path scrolls the terminal)."""
        if not self.board.is_mounted:
            return None
        return self.board.battle_log.take_scroll()

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

    # ------------------------------------------------------------ preferences
    # Problems shown once at start (``_board_ready``); theme and speed saved as the player changes them.

    def watch_theme(self, theme: str) -> None:
        self.save_preferences(theme=theme)

    def save_preferences(self, **changes: object) -> None:
        preferences = self.settings.preferences
        problem = preferences.save(**changes) if preferences is not None else None
        if problem:
            self.notify(problem, title="Preferences not saved", severity="warning", timeout=10)
