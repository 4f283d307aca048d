"""``--two-players``: a table of its own with both seats at this keyboard.

The table is a ``LocalHost`` in this process, so the table's rules decide as they do over SSH; player 1
flips with f or Left, player 2 with j or Right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .screens.table_game_over import TableGameOverScreen, TwoPlayerGameOverScreen
from ..settings.play import PlaySettings
from ..stats import GameRecord, StatsStore
from .table_app import TableApp
from .table_bindings import TWO_PLAYER_BINDINGS, two_player_keys
from .table_connection import LocalHost
from ..tables import Notice, NoticeCode, TableOptions
from ..presentation.views import EndView


class TwoPlayerApp(TableApp, inherit_bindings=False):
    """``--two-players``: one table, both seats at this keyboard; each player flips with their own key."""

    BINDINGS = TWO_PLAYER_BINDINGS

    local = True

    def __init__(
        self,
        settings: PlaySettings,
        *,
        environ: dict[str, str] | None = None,
        clock: Callable[[], float] | None = None,
        stats: StatsStore | None = None,
        host: LocalHost | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        if host is None:
            host = LocalHost(settings.names, seed_source=seed_source, on_record=self._table_record,
                             options=TableOptions(rules=settings.rules))
        super().__init__(settings, host, environ=environ, clock=clock, stats=stats)
        self.local_host = host

    def _initial_names(self) -> tuple[str, str]:
        return self.settings.names

    def _seat_names(self) -> tuple[str, str]:
        return self.settings.names

    def _logs(self, notice: Notice) -> bool:
        """Only the house's flips: both players sat down here at once, and nobody leaves but by quitting."""
        return notice.code is NoticeCode.HOUSE_FLIPPED

    def _table_record(self, record: GameRecord) -> None:
        """The table's one record of each finished game, stored off the screen's thread."""
        if self.stats.enabled:
            self._store_record(record)

    def new_game(self, seed=None, rules=None, *, packets=None):
        first = not self._joined
        super().new_game(seed, rules, packets=packets)
        if first and self.settings.auto:
            self.local_host.set_auto(True, self.my_speed)
        return None

    def action_flip(self) -> None:
        """Space or enter over the result or help, or the palette's Flip: nobody's here, so say whose keys are whose."""
        self.notify(f"f or Left flips for {self.names[0]}, j or Right for {self.names[1]}", timeout=3)

    def action_p1_flip(self) -> None:
        self._seat_flip(0)

    def action_p2_flip(self) -> None:
        self._seat_flip(1)

    def _seat_flip(self, seat: int) -> None:
        """A player's own key: flip, or at game over ask to deal again."""
        if self.ended is not None:
            return
        if self.table_game.over:
            self.local_host.restart(seat)
        else:
            self.local_host.flip(seat)

    def action_auto(self) -> None:
        state = self.table_state
        on = not (state is not None and any(s.auto for s in state.seats))
        self.local_host.set_auto(on, self.my_speed)

    def _ask_auto(self, on: bool) -> None:
        self.local_host.set_auto(on, self.my_speed)

    def _my_seat_wants_auto(self) -> bool:
        state = self.table_state
        return state is not None and any(s.auto for s in state.seats)

    def action_restart(self) -> None:
        if self.table_game.over:
            self.local_host.restart(0)
            self.local_host.restart(1)
        else:
            self.notify("r deals again once the game is over", timeout=3)

    def _help_keys(self) -> Sequence[tuple[str, str]]:
        return two_player_keys(self.names)

    def _result_screen(self, end: EndView) -> TableGameOverScreen:
        dot = self.glyphs.dot
        hint = ["f and j (or r): deal again", "esc: look at the table", "q: quit"]
        return TwoPlayerGameOverScreen(
            end, self.names, hint=hint, seed=self.table_game.seed, tally_line=self._tally_line(), dot=dot
        )
