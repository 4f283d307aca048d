"""A table's messages as the board's views: what a late joiner's screen replays, and each game's end.

The engine adapter builds a ``BattleView`` from a battle's events as they come;
a snapshot only has what the log kept (a ``BattleWon`` holds every card each
player laid, a ``GameOver`` the cards of a battle it cut short), so these
functions build the same views from those. ``board_steps`` turns a table
game's log into the values the board is given in order, so the battle log, the
trend and the pile come out as if this screen had watched from the start.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import Result, Rules, Side
from ..tables import LogEntry, Notice, TableGame
from .views import BattleView, DealView, EndView

_WINNER = {Result.P1: Side.P1, Result.P2: Side.P2}


def deal_view(number: int, event: GameStarted) -> DealView:
    return DealView(number, event.seed, event.rules, (len(event.p1), len(event.p2)), len(event.p1) + len(event.p2))


def battle_view(event: BattleWon | GameOver, war_cards: int, total_wars: int) -> BattleView | None:
    """The battle an event ended, as the pile draws it; None for a game-over that cut no battle short."""
    if isinstance(event, BattleWon):
        return BattleView(
            event.battle, event.p1_laid, event.p2_laid, war_cards, event.wars, event.winner, len(event.cards),
            (event.p1_count, event.p2_count), total_wars,
        )
    if not event.last_battle_p1:
        return None
    winner = _WINNER.get(event.result)
    taken = len(event.last_battle_p1) + len(event.last_battle_p2) if winner is not None else 0
    return BattleView(
        event.battles, event.last_battle_p1, event.last_battle_p2, war_cards, event.last_battle_wars, winner, taken,
        (event.p1_count, event.p2_count), total_wars,
    )


def end_view(event: GameOver, seconds: float) -> EndView:
    return EndView(
        event.result, event.reason, event.battles, event.wars, event.longest_war, (event.p1_count, event.p2_count),
        event.leader, seconds,
    )


Step = tuple[str, DealView | BattleView | EndView | Notice | None]
"""("deal" | "battle" | "result", a view or None) or ("note", the notice): one value given to the board."""


def board_steps(game: TableGame, seconds: float = 0.0) -> list[Step]:
    """What the board is given, in order, to show ``game`` (fed by a snapshot) as if it had watched it.

    Older games in the log are replayed line by line; lines of an older game
    whose deal fell off the log's top get no deal line (their seed is not known).
    The last steps always leave the board on the table's current game.
    """
    log: list[LogEntry] = list(game.log)
    starts = sum(1 for entry in log if isinstance(entry, GameStarted))
    number = game.game_number - starts  # the game the log's first lines belong to
    steps: list[Step] = [("result", None), ("battle", None), ("deal", None)]
    rules: Rules = game.rules if starts == 0 else Rules()
    total_wars = 0
    if starts == 0:
        # The whole log is the current game, begun before its first line.
        steps.append(("deal", DealView(number, game.seed, game.rules, _halves(game.total_cards), game.total_cards)))
        total_wars = game.wars - sum(e.wars for e in log if isinstance(e, BattleWon))
    for entry in log:
        if isinstance(entry, GameStarted):
            number += 1
            rules, total_wars = entry.rules, 0
            steps += [("result", None), ("battle", None), ("deal", deal_view(number, entry))]
        elif isinstance(entry, BattleWon):
            total_wars += entry.wars
            steps.append(("battle", battle_view(entry, rules.war_cards, total_wars)))
        elif isinstance(entry, GameOver):
            view = battle_view(entry, rules.war_cards, entry.wars)
            if view is not None:
                steps.append(("battle", view))
            steps.append(("result", end_view(entry, seconds)))
        elif isinstance(entry, Notice):
            steps.append(("note", entry))
    on_show = game.on_show
    if on_show is not None and not _shows(steps, on_show.battles if isinstance(on_show, GameOver) else on_show.battle):
        steps.append(("battle", battle_view(on_show, game.rules.war_cards, game.wars)))
    if game.over and not any(kind == "result" and view is not None for kind, view in steps[-2:]):
        assert game.result is not None and game.reason is not None
        steps.append(("result", EndView(
            game.result, game.reason, game.battles, game.wars, game.longest_war, game.counts, game.leader, seconds,
        )))
    return steps


def _shows(steps: Iterable[Step], battle: int) -> bool:
    """Whether the last battle the steps give the board is number ``battle``."""
    last = next((view for kind, view in reversed(list(steps)) if kind == "battle"), None)
    return isinstance(last, BattleView) and last.battle == battle


def _halves(total: int) -> tuple[int, int]:
    return total // 2, total - total // 2
