"""The game's vocabulary: wars, outcomes, results and reasons, plurals, said the same way on every screen."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import EndReason, Result


def war_word(depth: int) -> str:
    if depth <= 1:
        return "war"
    words = {2: "double war", 3: "triple war", 4: "quadruple war"}
    return words.get(depth, f"{depth}-deep war")


def longest_war_text(depth: int) -> str:
    """The deepest chain of ties in a game, in words: "a single war", "double war", "5 wars deep"."""
    if depth <= 0:
        return "none"
    if depth == 1:
        return "a single war"
    if depth <= 4:
        return war_word(depth)
    return f"{depth} wars deep"


def outcome_text(winner_name: str | None, cards: int, wars: int) -> str:
    """What happened to the middle pile, said plainly."""
    if winner_name is None:
        return "Nobody takes the pile"
    text = f"{winner_name} takes {cards} cards"
    if wars:
        text += f" after a {war_word(wars)}"
    return text


def result_title(result: Result, names: Sequence[str]) -> str:
    return {
        Result.P1: f"{names[0]} wins",
        Result.P2: f"{names[1]} wins",
        Result.DRAW: "A draw",
        Result.STOPPED: "Stopped",
    }[result]


def reason_text(reason: EndReason, result: Result, names: Sequence[str]) -> str:
    """Why the game ended, naming the player who lost it ("Bob ran out of cards")."""
    loser = names[1] if result is Result.P1 else names[0]
    return {
        EndReason.ALL_CARDS: f"{loser} ran out of cards",
        EndReason.SHORT_IN_WAR: f"{loser} could not finish a war",
        EndReason.BOTH_SHORT: "neither player could finish a war",
        EndReason.BATTLE_CAP: "the battle limit was reached",
        EndReason.STOPPED: "the time limit ran out",
    }[reason]


def leader_text(leader_index: int | None, names: Sequence[str]) -> str:
    if leader_index is None:
        return "The players were level"
    return f"{names[leader_index]} was ahead"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"
