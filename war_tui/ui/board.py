"""The board: the one screen every way to play shows, composed once; its state is reactive; its keys go to
the controller it holds.

Each widget binds the ``var``s it draws (``data_bind`` in ``compose``) and redraws in its watchers:
``var``, not ``reactive``, so a change repaints only the widgets that draw it. The board also lays a war
step by step (``shown_steps``) and tells its outcome (``settled``) once its deciding cards are on show;
the controller learns of that through its pacing methods and settles it when something newer comes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer

from ..core.rules import Result, Side
from ..presentation.footer import SEAT_FOOTER, SOLO_FOOTER, TWO_PLAYER_FOOTER, WATCHING_FOOTER, FooterPlan
from ..presentation.glyphs import Glyphs
from ..presentation.unfolding import WATCHABLE_SPEED
from ..presentation.views import BattleView, DealView, EndView, LogNote
from ..presentation.words import SOLO_HINTS, TWO_PLAYER_HINTS, WATCHING_HINTS
from .bindings import FLIP_KEYS, GAME_BINDINGS, LOG_KEYS, SEAT_FLIP_KEYS, the_boards
from .components.battle_log import BattleLog
from .components.card_bar import CardBar
from .components.click_to_flip import FlipClicked
from .components.game_footer import GameFooter
from .components.packet import Packet
from .components.pile import Pile
from .components.status import StatusLine
from .components.table_grid import TableGrid
from .components.trend import CountTrend
from .controllers.base import AtTable, Controller, Kind
from .table_bindings import SEAT_FLIP_BINDINGS, TABLE_BINDINGS

if TYPE_CHECKING:  # a solo game loads nothing of the tables
    from ..tables import TableState, You


EVERY_KEY: list[Binding] = [
    *SEAT_FLIP_BINDINGS, *GAME_BINDINGS[:5], *TABLE_BINDINGS, *GAME_BINDINGS[5:], *LOG_KEYS,
]
"""Every way to play's keys, in the footer's order; the controller says which are in play (``check_action``):
each player's flip key first (two players at one keyboard), then the game's keys (a table's emotes, house and
seat among them, before statistics, help and quit), then the log's (j scrolls it down unless it is player 2's
flip). Statistics, help and quit are the app's (``WarApp.BINDINGS``): after the board's own in the footer, and
ctrl+c on the board still copies selected text first, as on every screen."""


class Board(Screen[None]):
    """The table: status line, (a table's seats line), packets, pile, charts, battle log and keys.

    Its keys are the controller's (``check_action`` asks which are in play, each action hands its key on);
    statistics, help and quit are the app's."""

    BINDINGS: ClassVar[list[BindingType]] = [binding for binding in EVERY_KEY if the_boards(binding)]
    BLANK: ClassVar[bool] = True
    """Its widgets cover every cell of it, so it draws nothing of its own (a frame renders it whole)."""

    deal: var[DealView | None] = var(None)
    """The game on the table (None before the first deal)."""
    battle: var[BattleView | None] = var(None)
    """The battle on the middle pile; None until a deal's first battle."""
    shown_steps: var[int | None] = var(None)
    """How many steps of that battle the pile shows while a war is laid step by step; None: all of them."""
    settled: var[BattleView | None] = var(None)
    """The battle whose outcome the board tells (counts, log, sparkline, status): the pile's battle once
    its deciding cards are on show, so nothing gives the result away before they turn."""
    result: var[EndView | None] = var(None)
    """How the game on the table ended (None while it is being played)."""
    names: var[tuple[str, str]] = var(("", ""))
    """The players' names; a table's seats change them."""
    table_state: var[TableState | None] = var(None)
    """Who sits where and what the table waits for (the seats line draws it; None: no table yet)."""
    you: var[You | None] = var(None)
    """Which seat this screen has at a table (None: not said yet)."""
    log_note: var[LogNote | None] = var(None)
    """The newest line a table added to the battle log."""
    requests: var[tuple[str, ...]] = var(())
    """A table's lines of what one player asks the other (and the house's countdown), whole."""
    emotes: var[tuple[str, str]] = var(("", ""))
    """Each seat's latest emote while it shows beside the player's name ("": none)."""
    auto: var[bool] = var(False)
    speed: var[float] = var(4.0)
    """Battles a second (``math.inf``: "max")."""
    pause_on_war: var[bool] = var(False)
    tally: var[Counter[Result]] = var(Counter)
    """Finished games of this session by result (changed in place, then ``mutate_reactive``)."""
    time_left: var[int | None] = var(None)
    """Whole seconds before the game's --time-limit or the server's session limit, whichever comes first."""
    on_tv: var[bool] = var(False)
    """War TV's spectator (the seats line keeps the table's name and its spectators longest)."""
    behind: var[bool] = var(False)
    """A table's screen knows the table is further on than it shows (a gap before its snapshot comes, a read that
    left more waiting): the status line says so until it is not."""
    footer_plan: var[FooterPlan] = var(SOLO_FOOTER)
    """Which keys the footer leaves out for this way to play (a spectator's, two players')."""

    controller: Controller
    """What a key does and what the board shows next (``war_tui.ui.controllers``), told as a war is laid:
    given by whoever builds the board, before it is shown."""

    def __init__(
        self,
        names: tuple[str, str],
        glyphs: Glyphs,
        *,
        kind: Kind,
        war_step: float,
        on_ready: Callable[[], None],
    ) -> None:
        """``kind``: which board to compose (a table's has the seats line). ``on_ready``: called once the board's
        widgets are mounted and the controller started, so what is set on the board from then on reaches them in
        order."""
        super().__init__()
        self.set_reactive(Board.names, names)
        self.glyphs = glyphs
        self.war_step = war_step
        self._on_ready = on_ready
        self.seats = seats = kind != "solo"
        """A table's board: the seats line under the status line."""
        self.local = local = kind == "two-players"
        """Both seats at this keyboard: the seats line names the players as this keyboard gave them."""
        self._step_timer: Timer | None = None
        self.set_class(seats and not local, "-table")
        self.set_reactive(Board.footer_plan, self._footer_plan(None))

    def compose(self) -> ComposeResult:
        g, names = self.glyphs, self.names
        # All but the pile tell a battle once settled (a war's deciding cards on show).
        shown = {"deal": Board.deal, "battle": Board.settled, "result": Board.result}
        yield StatusLine(names, g, id="status").data_bind(
            Board.auto, Board.speed, Board.pause_on_war, Board.tally, Board.time_left, Board.names, Board.shown_steps,
            Board.behind, on_pile=Board.battle, **shown,
        )
        if self.seats:
            from .components.requests import RequestsLine
            from .components.seats import SeatsLine  # a table's board only

            seats = SeatsLine(g, names=names if self.local else None, local=self.local, id="seats")
            local_only = (Board.names, Board.shown_steps) if self.local else ()
            yield seats.data_bind(Board.table_state, Board.you, Board.emotes, Board.on_tv, *local_only)
            yield RequestsLine(id="requests").data_bind(Board.requests)
        # One container on the board: the table's grid, the packets in its left column, the pile across both rows
        # on the right (the top packet, the pile, the bottom packet, in that order); a frame repaints what changed.
        with TableGrid(id="table"):
            yield Packet(Side.P1, names, g, id="packet-p1").data_bind(Board.names, **shown)
            hints = TWO_PLAYER_HINTS if self.local else SOLO_HINTS
            yield Pile(names, g, hints=hints, id="pile").data_bind(Board.battle, Board.shown_steps, Board.names)
            yield Packet(Side.P2, names, g, id="packet-p2").data_bind(Board.names, **shown)
        yield CardBar(names, g, id="card-bar").data_bind(Board.names, **shown)
        yield CountTrend(names, g, id="trend").data_bind(Board.deal, Board.names, battle=Board.settled)
        log = BattleLog(names, g, id="log").data_bind(Board.names, **shown)
        yield log.data_bind(note=Board.log_note) if self.seats else log
        yield GameFooter(ascii=g.ascii).data_bind(plan=Board.footer_plan)

    def on_mount(self) -> None:
        """The widgets are mounted, so every value the controller gives the board reaches them: it starts."""
        self.controller.start()
        self._on_ready()
        if self.controller.counts_down:
            self.controller.count_down()
            self.app.set_interval(1.0, self.controller.count_down)
        self.watch_you(self.you)

    def watch_you(self, you: You | None) -> None:
        """A player's own packet is marked and sits at the bottom, level with their own row of the pile; a
        spectator's footer lists only what a spectator's keys do, and the empty pile does not ask them to flip."""
        self.footer_plan = self._footer_plan(you)
        if not self.seats or self.local or len(self.query(Packet)) < 2 or not self.query(Pile):
            return  # not composed yet: on_mount places them
        self.query_one(Pile).hints = WATCHING_HINTS if you is not None and you.watching else SOLO_HINTS
        mine = you.seat if you is not None else None
        packets = {side: self.query_one(f"#packet-{side.value}", Packet) for side in (Side.P1, Side.P2)}
        for side, packet in packets.items():
            packet.yours = side is mine
        self.query_one(Pile).flipped = mine is Side.P1
        top, bottom = (Side.P2, Side.P1) if mine is Side.P1 else (Side.P1, Side.P2)
        table, pile = self.query_one("#table"), self.query_one(Pile)
        if table.children and table.children[0] is not packets[top]:
            table.move_child(packets[top], before=pile)
            table.move_child(packets[bottom], after=pile)

    def _footer_plan(self, you: You | None) -> FooterPlan:
        """The footer's plan for this way to play, and at a table for what ``you`` does there."""
        if self.local:
            return TWO_PLAYER_FOOTER
        if not self.seats:
            return SOLO_FOOTER
        return WATCHING_FOOTER if you is not None and you.watching else SEAT_FOOTER

    @property
    def battle_log(self) -> BattleLog:
        return self.query_one(BattleLog)

    def clear(self) -> None:
        """An empty table, before a table's log is replayed on it (a screen that fell behind)."""
        self._stop_laying()
        self.shown_steps = None
        self.result = self.battle = self.settled = self.deal = None
        if self.is_mounted:
            self.battle_log.clear()

    # ------------------------------------------------------ a war, step by step

    def watch_battle(self, old: BattleView | None, view: BattleView | None) -> None:
        """A battle reaches the pile: a war is laid step by step when there is time to watch it, else told whole.

        Runs before the pile's own watcher, so a war's deciding cards are never drawn before their turn.
        A table plays on while a screen lays a war: the war is then told whole before what came next.
        """
        self._stop_laying()
        if self.shown_steps is not None and old is not None and self.settled is not old:
            self.settled = old
        if view is not None and view.stages > 1:
            if self.controller.stops_at_tie(view):
                self.shown_steps = 1  # stopped at the tie: space lays the war cards
                self.auto = False
                self.controller.stopped_at_war()  # it says which key lays the war
                return
            if self._wars_watchable(view):
                self.shown_steps = 1
                self._step_timer = self.set_interval(self.war_step, self._next_war_step)
                return
        self.shown_steps = None
        self.settled = view

    def _wars_watchable(self, view: BattleView) -> bool:
        """Flipping by hand, or auto-play slow enough to see a war laid step by step.

        A game that waits for the board waits for the war. A table's auto-play does not: there a war is
        laid step by step only if it is all on the pile before the next battle comes, else shown whole.
        """
        if self.war_step <= 0 or (self.auto and self.speed > WATCHABLE_SPEED):
            return False
        return self.controller.game_waits or not self.auto or (view.stages - 1) * self.war_step < 1 / self.speed

    def _next_war_step(self) -> None:
        view, shown = self.battle, (self.shown_steps or 0) + 1
        if view is None or shown >= view.stages:
            self.settle()
        else:
            self.shown_steps = shown

    def lay_war(self) -> None:
        """Flip with a war on the table: stopped at its tie, lay its cards; being laid, show the rest at once."""
        if self._step_timer is not None or self.war_step <= 0:
            self.settle()
            return
        self._step_timer = self.set_interval(self.war_step, self._next_war_step)
        self._next_war_step()

    def hurry(self, key: str) -> None:
        """Any key but a flip shows the rest of a war being laid at once (the flip keys do only that: the
        controller's flip; at one keyboard each player's flip keys)."""
        seat_flip = self.local and any(key in keys for keys in SEAT_FLIP_KEYS)
        if self._step_timer is not None and key not in FLIP_KEYS and not seat_flip:
            self.settle()

    @property
    def laying(self) -> bool:
        """Whether a war is on the pile, not yet decided (being laid, or stopped at its tie)."""
        return self.shown_steps is not None

    @property
    def at_tie(self) -> bool:
        """Whether a war is stopped at its tie (on the pile, not being laid)."""
        return self.shown_steps is not None and self._step_timer is None

    def settle(self) -> None:
        """The whole battle on show: the board tells its outcome, and a game it ended shows its result."""
        self._stop_laying()
        if self.shown_steps is None:
            return
        self.shown_steps = None
        self.settled = self.battle
        self.controller.battle_settled()

    def _stop_laying(self) -> None:
        if self._step_timer is not None:
            self._step_timer.stop()
            self._step_timer = None

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of the way to play (the footer shows only those), on the board or over it."""
        return self.controller.allows(action, on_board=self.app.screen is self)

    def _at_table(self, key: Callable[[AtTable], None]) -> None:
        """A table's own key, for a table's controller (a solo game's keys never include them)."""
        if isinstance(self.controller, AtTable):
            key(self.controller)

    def action_flip(self) -> None:
        self.controller.flip()

    @on(FlipClicked)
    def _flip_clicked(self) -> None:
        self.controller.flip()

    def action_p1_flip(self) -> None:
        self._at_table(lambda table: table.seat_flip(0))

    def action_p2_flip(self) -> None:
        self._at_table(lambda table: table.seat_flip(1))

    def action_auto(self) -> None:
        self.controller.auto()

    def action_faster(self) -> None:
        self.controller.faster()

    def action_slower(self) -> None:
        self.controller.slower()

    def action_pause_on_war(self) -> None:
        self.controller.pause_on_war()

    def action_restart(self) -> None:
        self.controller.restart()

    def action_emote(self, emote: int) -> None:
        self._at_table(lambda table: table.emote(emote))

    def action_play_house(self) -> None:
        self._at_table(lambda table: table.play_house())

    def action_sit(self) -> None:
        self._at_table(lambda table: table.sit())

    def action_decline(self) -> None:
        self._at_table(lambda table: table.decline())

    def action_next_table(self) -> None:
        self._at_table(lambda table: table.next_table())

    def action_scroll_log(self, how: str) -> None:
        """Up/down, j/k, PageUp/PageDown, Home/End move the battle log (it never takes focus); not from a screen
        over the board, which keeps these keys for itself."""
        if self.app.screen is self:
            self.battle_log.scroll_by_key(how)

    # ------------------------------------------------------------ the tally

    def count_result(self, result: Result) -> None:
        self.tally[result] += 1
        self.mutate_reactive(Board.tally)

    def tally_line(self) -> str:
        t, names = self.tally, self.names
        dot = f" {self.glyphs.dot} "
        return "Tally  " + dot.join([
            f"{names[0]} {t[Result.P1]}", f"{names[1]} {t[Result.P2]}",
            f"draws {t[Result.DRAW]}", f"stopped {t[Result.STOPPED]}",
        ])
