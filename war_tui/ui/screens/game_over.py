"""The result of a finished game, over the board; one key deals again, enter replays it once it is stored."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.screen import ModalScreen
from textual.widgets import Static

from ...core.rules import Result
from ...presentation.links import replay_command, served_replay_links
from ...presentation.result import ResultFacts, pack_parts, result_lines
from ...presentation.views import EndView
from ...presentation.words import capital, deepest_war_text, duration_text, leader_text, reason_text, result_title
from ..bindings import GAME_KEYS_OVER_BOARD
from ..text import plain

NARROW = 80  # the app's -narrow breakpoint: the dialog takes the whole width
SHORT = 24  # the app's -short breakpoint: the dialog drops its padding and margins


class GameOverScreen(ModalScreen[None]):
    """Modal so the finished board stays visible behind it; the app's keys all still work.

    Its facts and key hint are laid out for the terminal's size (presentation.result):
    a small terminal gets shorter lines, never a fact cut off or a phrase broken apart.
    """

    BINDINGS = [
        Binding("enter", "replay", "Replay"),  # before the game's own enter (a flip), which it leaves until then
        *GAME_KEYS_OVER_BOARD,
        Binding("escape", "dismiss", "Look at the table"),
    ]

    game_id: var[int | str | None] = var(None, init=False)
    """The game's id in the statistics, once stored there (None: not stored, or not yet)."""

    class ReplayRequested(Message):
        """Replay the game just finished (handled by the app)."""

        def __init__(self, game_id: int | str) -> None:
            super().__init__()
            self.game_id = game_id

    def __init__(
        self,
        end: EndView,
        names: Sequence[str],
        *,
        seed: int | None,
        tally_line: str,
        next_deal_in: float | None = None,
        dot: str = "·",
        game_id: int | str | None = None,
        local: bool = True,
        reached_at: tuple[str | None, str | None] = (None, None),
    ) -> None:
        super().__init__(classes=f"result-{end.result.value}")
        self.set_reactive(GameOverScreen.game_id, game_id)
        self.local = local
        """The statistics are this computer's: ``war-tui replay ID`` reaches the game again."""
        self.reached_at = reached_at
        """Served: ssh's arguments and the web origin that reach the server (``served_replay_links``)."""
        self.end = end
        self.names = tuple(names)
        self.seed = seed
        self.tally_line = tally_line
        self.next_deal_in = next_deal_in
        self.dot = dot

    def facts(self) -> ResultFacts:
        end = self.end
        why = [f"{capital(reason_text(end.reason, end.result, self.names), self.names)}."]
        if end.result is Result.STOPPED:
            why.append(leader_text(None if end.leader is None else end.leader.index, self.names) + ".")
        return ResultFacts(
            why=why,
            battles=f"{end.battles:,}",
            wars=f"{end.wars:,}",
            deepest=deepest_war_text(end.longest_war),
            cards=f"{self.names[0]} {end.counts[0]}, {self.names[1]} {end.counts[1]}",
            time=duration_text(end.seconds) if end.seconds is not None else "not known",
            seed=None if self.seed is None else str(self.seed),
            tally=self.tally_line,
            game=self._game_words(),
        )

    def _game_words(self) -> str | None:
        if self.game_id is None:
            return None
        if self.local:
            return f"{self.game_id} ({replay_command(self.game_id)})"
        links = served_replay_links(self.game_id, None, *self.reached_at)
        if links is None:
            return str(self.game_id)
        # a table game's own id is long (its table, nonce and number): named once, in the links
        return links if isinstance(self.game_id, str) else f"{self.game_id} ({links})"

    def hint_parts(self) -> list[str]:
        replay = [] if self.game_id is None else ["enter replays it"]
        if self.next_deal_in is not None:
            return [f"Next deal in {self.next_deal_in:g} seconds", "r deals now", *replay, "q quits"]
        if replay:
            return ["r or space: deal again", "enter: replay it", "esc: look at the table", "q: quit"]
        return ["r or space: deal again", "esc: look at the table", "q: quit"]

    def layout_for(self, size: Size) -> tuple[str, str]:
        """(facts, hint) for a terminal of ``size``, from the room the dialog's styles leave."""
        width, height = size
        narrow, short = width < NARROW, height < SHORT
        inner_width = int(width * 0.9) - (4 if narrow else 6)  # at most 90% wide, less border and padding
        inner_rows = height - 2 if short else int(height * 0.9) - 4
        hint = pack_parts(self.hint_parts(), f" {self.dot} " if narrow else f"  {self.dot}  ", inner_width)
        spacing = 0 if short else 2  # the title's margin and the hint's
        rows = inner_rows - 1 - len(hint) - spacing
        return "\n".join(result_lines(self.facts(), inner_width, rows, self.dot)), "\n".join(hint)

    def compose(self) -> ComposeResult:
        facts, hint = self.layout_for(self.app.size)
        with Vertical(id="result-dialog"):
            yield Static(plain(result_title(self.end.result, self.names)), id="result-title")
            yield Static(plain(facts), id="result-facts")
            yield Static(plain(hint), id="result-hint")

    def watch_game_id(self) -> None:
        self.refresh_bindings()
        self.on_resize()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """enter replays only a game stored in the statistics; until then it is the game's own enter."""
        if action == "replay":
            return self.game_id is not None
        return True

    def action_replay(self) -> None:
        if self.game_id is not None:
            self.post_message(self.ReplayRequested(self.game_id))

    def on_resize(self) -> None:
        facts, hint = self.layout_for(self.app.size)
        for widget in self.query("#result-facts").results(Static):  # none before compose or after close
            widget.update(plain(facts))
        for widget in self.query("#result-hint").results(Static):
            widget.update(plain(hint))
