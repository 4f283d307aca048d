"""The replay screen: a finished game's board at any battle, with a scrubber under it.

What it shows is its reactive state: the battle on show (``at``), how much of its war is laid
(``shown_steps``), whether it plays and how fast. Every battle comes from the ``Replay`` (stats/replay.py),
which rebuilds it from the seed and rules; the screen decides nothing about the rules.
"""

from __future__ import annotations

from importlib import resources

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...core.rules import Side
from ...presentation.footer import FooterPlan
from ...presentation.glyphs import Glyphs
from ...presentation.links import replay_command, served_replay_links
from ...presentation.views import BattleView, DealView, battle_view
from ...stats.replay import Replay
from ...untrusted import plain_text
from ..components.game_footer import GameFooter
from ..components.packet import Packet
from ..components.pile import Pile
from ..components.replay_log import LOG_ROWS, ReplayLog
from ..components.scrubber import Scrubber
from ..text import plain

SPEEDS = (1, 2, 4, 8)
"""Battles a second while playing."""
STEP_SECONDS = 0.5
"""A war's step on the table at 1x (a faster speed lays it faster)."""
MOST_TYPED_DIGITS = 7


class ReplayScreen(Screen[None]):
    """Any battle of a finished game; the keys move through it, escape goes back."""

    CSS_PATH = str(resources.files("war_tui.styles").joinpath("replay.tcss"))
    BINDINGS = [
        Binding("right,l", "next", "Next"),
        Binding("left,h", "previous", "Previous"),
        Binding("right_square_bracket", "next_war", "Next war", key_display="]"),
        Binding("left_square_bracket", "previous_war", "Previous war", key_display="["),
        Binding("space", "play", "Play/pause"),
        Binding("plus,equals_sign", "faster", "Faster", key_display="+"),
        Binding("minus", "slower", "Slower", key_display="-"),
        Binding("g", "go_to", "Go to"),
        Binding("home", "first", "First"),
        Binding("end", "last", "Last"),
        Binding("escape,q", "close", "Back"),
        Binding("question_mark", "help", "Help", key_display="?", show=False),  # the game's ? would list its keys
        Binding("ctrl+c", "app.quit", "Quit", show=False),  # as in the game, not Textual's "press ctrl+q" notice
    ]

    at: var[int] = var(1, init=False)
    """The battle on show, 1 to the game's last."""
    shown_steps: var[int | None] = var(None)
    """How many of the battle's war steps are on the table; None: all of them."""
    view: var[BattleView | None] = var(None)
    settled: var[BattleView | None] = var(None)
    """The battle the packets and the log tell: the one on show once its deciding cards are."""
    recent: var[tuple[BattleView, ...]] = var(())
    playing: var[bool] = var(False)
    speed: var[int] = var(1)
    typed: var[str | None] = var(None)

    def __init__(self, replay: Replay, names: tuple[str, str], glyphs: Glyphs, *, game_id: int | str | None = None,
                 local: bool = True, start: int = 1, reached_at: tuple[str | None, str | None] = (None, None)) -> None:
        super().__init__()
        self.set_reactive(ReplayScreen.at, max(1, min(replay.battles, start)))
        self.game_id = game_id
        """The game's id in the statistics it came from (None: a game file)."""
        self.local = local
        """Whether that is this computer's statistics, so ``war-tui replay ID`` reaches the game again."""
        self.reached_at = reached_at
        """Served: ssh's arguments and the web origin that reach the server; the link names the battle on show."""
        self.replay = replay
        self.names = (plain_text(names[0]), plain_text(names[1]))
        self.glyphs = glyphs
        self._timer: Timer | None = None
        self.deal = DealView(0, replay.seed, replay.rules, replay.start_counts, sum(replay.start_counts))

    def compose(self) -> ComposeResult:
        g, names, replay = self.glyphs, self.names, self.replay
        rules = replay.rules.describe()
        named = self.game_id is not None and not (isinstance(self.game_id, str) and self._served_link() is not None)
        game = f"Replay of game {self.game_id}" if named else "Replay"  # a table game's long id: in its link only
        with Horizontal(id="replay-heading"):
            yield Static(plain(f"{game}: {names[0]} v {names[1]}, seed {replay.seed}, {rules}"), id="replay-title")
            if self.game_id is not None and self.local:
                yield Static(plain(replay_command(self.game_id)), id="replay-link")
            elif self._served_link() is not None:
                yield Static(plain(self._served_link() or ""), id="replay-link")
        with Horizontal(id="replay-table"):
            with Vertical(id="replay-packets"):
                for side in (Side.P1, Side.P2):
                    packet = Packet(side, names, g, id=f"replay-{side.value}")
                    packet.set_reactive(Packet.deal, self.deal)
                    yield packet.data_bind(battle=ReplayScreen.settled)
            yield Pile(names, g, hints=("",), id="replay-pile").data_bind(
                battle=ReplayScreen.view, shown_steps=ReplayScreen.shown_steps
            )
        yield Scrubber(replay.battles, replay.war_battles, ascii=g.ascii, id="scrubber").data_bind(
            battle=ReplayScreen.at, playing=ReplayScreen.playing, speed=ReplayScreen.speed, typed=ReplayScreen.typed
        )
        yield ReplayLog(names, g, id="replay-log").data_bind(ReplayScreen.recent)
        yield GameFooter(ascii=g.ascii, plan=FooterPlan())

    def on_mount(self) -> None:
        self.watch_at(self.at)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < 80, "-narrow")
        self.set_class(event.size.height < 24, "-short")

    # ------------------------------------------------------------ what is on show

    def _served_link(self) -> str | None:
        """How to reach this battle of the served game again, or None (a local game, or no door named)."""
        if self.local or self.game_id is None:
            return None
        return served_replay_links(self.game_id, self.at, *self.reached_at)

    def watch_at(self, at: int) -> None:
        if (link := self._served_link()) is not None and self.is_mounted:
            self.query_one("#replay-link", Static).update(plain(link))
        first = max(1, at - LOG_ROWS + 1)
        war_cards = self.replay.rules.war_cards
        views = tuple(
            view
            for played in self.replay.played(first, at)
            if (view := battle_view(played.event, war_cards, played.total_wars)) is not None
        )
        self.recent = views
        self.view = views[-1] if views else None
        if self._stepping and self.view is not None and self.view.stages > 1:
            self.shown_steps = 1
            if len(views) > 1:
                self.settled = views[-2]  # the counts as the war begins
            self._schedule(STEP_SECONDS / self.speed, self._lay_step)
        else:
            self.shown_steps = None
            self.settled = self.view
            if self.playing:
                self._schedule(1 / self.speed, self._play_on)

    _stepping = False
    """Set while a move lays the next battle's war step by step (next, the next war, playing)."""

    def _move(self, battle: int, *, step_by_step: bool = False) -> None:
        """Battle ``battle`` (kept within the game) on the board; its war laid a step at a time if asked."""
        self._stepping = step_by_step
        try:
            target = max(1, min(self.replay.battles, battle))
            if target == self.at:
                self.shown_steps = None  # a war half laid: all of it at once
                self.settled = self.view
                return
            self.at = target
        finally:
            self._stepping = False

    def _lay_step(self) -> None:
        view = self.view
        if view is None or self.shown_steps is None:
            return
        if self.shown_steps + 1 >= view.stages:
            self.shown_steps = None
            self.settled = view
            if self.playing:
                self._schedule(1 / self.speed, self._play_on)
            return
        self.shown_steps += 1
        self._schedule(STEP_SECONDS / self.speed, self._lay_step)

    def _play_on(self) -> None:
        if not self.playing:
            return
        if self.at >= self.replay.battles:
            self.playing = False
            return
        self._move(self.at + 1, step_by_step=True)

    driven = False
    """Set by a recorder (ui/cast.py) that places every state itself (``show``): no timer runs."""

    def show(self, battle: int, steps: int | None = None) -> None:
        """Battle ``battle`` on the board with ``steps`` of its war laid (None: all of it), as playing would
        show it at that moment: what a recording of the replay draws frame by frame."""
        self._stepping = steps is not None
        try:
            self.at = battle
        finally:
            self._stepping = False
        if steps is None:
            self.shown_steps = None
            self.settled = self.view
        else:
            self.shown_steps = steps

    def _schedule(self, delay: float, callback: object) -> None:
        if self.driven:
            return
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(delay, callback)  # type: ignore[arg-type]  # a method of this screen

    def watch_playing(self, playing: bool) -> None:
        if self.driven:
            return
        if playing:
            if self.at >= self.replay.battles:
                self._move(1)
            self._schedule(1 / self.speed, self._play_on)
        elif self._timer is not None and self.shown_steps is None:
            self._timer.stop()

    # ------------------------------------------------------------ keys

    def action_next(self) -> None:
        self._move(self.at + 1, step_by_step=True)

    def action_previous(self) -> None:
        self._move(self.at - 1)

    def action_next_war(self) -> None:
        war = self.replay.next_war(self.at)
        if war is not None:
            self._move(war, step_by_step=True)

    def action_previous_war(self) -> None:
        war = self.replay.previous_war(self.at)
        if war is not None:
            self._move(war)

    def action_first(self) -> None:
        self._move(1)

    def action_last(self) -> None:
        self._move(self.replay.battles)

    def action_play(self) -> None:
        self.playing = not self.playing

    def action_faster(self) -> None:
        self.speed = SPEEDS[min(len(SPEEDS) - 1, SPEEDS.index(self.speed) + 1)]

    def action_slower(self) -> None:
        self.speed = SPEEDS[max(0, SPEEDS.index(self.speed) - 1)]

    def action_go_to(self) -> None:
        self.typed = ""

    def action_help(self) -> None:
        from .help import ReplayHelpScreen

        self.app.push_screen(ReplayHelpScreen(self.replay.rules))

    def action_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()

    def on_key(self, event: events.Key) -> None:
        """After g: digits, backspace, enter to go there, escape to forget them."""
        typed = self.typed
        if typed is None or event.key == "g":
            return
        event.stop()
        event.prevent_default()
        if event.character is not None and event.character.isdigit() and len(typed) < MOST_TYPED_DIGITS:
            self.typed = typed + event.character
        elif event.key == "backspace":
            self.typed = typed[:-1]
        elif event.key == "enter":
            self.typed = None
            if typed:
                number = int(typed)
                if 1 <= number <= self.replay.battles:
                    self._move(number)
                else:
                    self.notify(f"There is no battle {number:,}: this game has 1 to {self.replay.battles:,}.",
                                severity="warning", markup=False)
        elif event.key == "escape":
            self.typed = None
