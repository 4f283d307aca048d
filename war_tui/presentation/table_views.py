"""A table's messages as the board's views: what a late joiner's screen replays, and each game's end.

A snapshot's log holds every card laid, so ``board_steps`` builds the views with the live builders, and
the log, trend and pile come out as if this screen had watched from the start.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import Rules
from ..tables import Emoted, LogEntry, Notice, RemoteGame
from .views import BattleView, DealView, EndView, battle_view, deal_view, end_view


class DealStep(NamedTuple):
    """The board's deal (None: no game on the table)."""

    kind: Literal["deal"]
    view: DealView | None


class BattleStep(NamedTuple):
    """The battle on the board's pile (None: none yet)."""

    kind: Literal["battle"]
    view: BattleView | None


class ResultStep(NamedTuple):
    """The board's result (None: the game is being played)."""

    kind: Literal["result"]
    view: EndView | None


class NoteStep(NamedTuple):
    """A line of the table's log: a notice or an emote."""

    kind: Literal["note"]
    view: Notice | Emoted


Step = DealStep | BattleStep | ResultStep | NoteStep
"""One value given to the board, in order."""
EMPTY: tuple[Step, ...] = (ResultStep("result", None), BattleStep("battle", None), DealStep("deal", None))
"""An empty table: no result, no battle, no deal."""


def board_steps(game: RemoteGame, seconds: float = 0.0) -> list[Step]:
    """What the board is given, in order, to show ``game`` (fed by a snapshot) as if it had watched it.

    Older games in the log are replayed line by line; lines of an older game
    whose deal fell off the log's top get no deal line (their seed is not known).
    The last steps always leave the board on the table's current game.
    """
    log: list[LogEntry] = list(game.log)
    starts = sum(1 for entry in log if isinstance(entry, GameStarted))
    number = game.game_number - starts  # the game the log's first lines belong to
    steps: list[Step] = [*EMPTY]
    rules: Rules = game.rules if starts == 0 else Rules()
    total_wars = 0
    if starts == 0:
        # The whole log is the current game, begun before its first line.
        total = game.total_cards
        steps.append(DealStep("deal", DealView(number, game.seed, game.rules, _halves(total), total)))
        total_wars = game.wars - sum(e.wars for e in log if isinstance(e, BattleWon))
    last_over = next((e for e in reversed(log) if isinstance(e, (GameOver, GameStarted))), None)
    for entry in log:
        if isinstance(entry, GameStarted):
            number += 1
            rules, total_wars = entry.rules, 0
            steps += [*EMPTY[:2], DealStep("deal", deal_view(number, entry))]
        elif isinstance(entry, BattleWon):
            total_wars += entry.wars
            steps.append(BattleStep("battle", battle_view(entry, rules.war_cards, total_wars)))
        elif isinstance(entry, GameOver):
            view = battle_view(entry, rules.war_cards, entry.wars)
            if view is not None:
                steps.append(BattleStep("battle", view))
            # Only the game on the table (the log's last) has a known length: ``seconds``.
            steps.append(ResultStep("result", end_view(entry, seconds if entry is last_over else None)))
        elif isinstance(entry, (Notice, Emoted)):
            steps.append(NoteStep("note", entry))
    on_show = game.on_show
    if on_show is not None and not _shows(steps, on_show.battles if isinstance(on_show, GameOver) else on_show.battle):
        steps.append(BattleStep("battle", battle_view(on_show, game.rules.war_cards, game.wars)))
    if game.over and not any(isinstance(step, ResultStep) and step.view is not None for step in steps[-2:]):
        steps.append(ResultStep("result", end_view(game, seconds)))
    return steps


def _shows(steps: Iterable[Step], battle: int) -> bool:
    """Whether the last battle the steps give the board is number ``battle``."""
    last = next((step.view for step in reversed(list(steps)) if isinstance(step, BattleStep)), None)
    return last is not None and last.battle == battle


def _halves(total: int) -> tuple[int, int]:
    return total // 2, total - total // 2
