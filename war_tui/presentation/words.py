"""The game's vocabulary: wars, outcomes, results and reasons, plurals, said the same way on every screen.

``plural`` and ``counted`` are ``war_tui.core.plural``'s, the one helper every layer counts with."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.plural import counted as counted  # re-exported: every screen counts with these
from ..core.plural import plural as plural
from ..core.rules import EndReason, Result
from .cells import cell_width, wrap_cells


def war_word(depth: int) -> str:
    """One war's name by its depth: "war", "double war" ... "quadruple war", then "5-deep war"."""
    if depth <= 1:
        return "war"
    words = {2: "double war", 3: "triple war", 4: "quadruple war"}
    return words.get(depth, f"{depth}-deep war")


def a_war(depth: int) -> str:
    """``war_word`` with its article: "a double war", "an 8-deep war"."""
    word = war_word(depth)
    return ("an " if word.startswith(("8", "11-", "18-")) else "a ") + word


def deepest_war_text(depth: int) -> str:
    """The deepest chain of ties in a game, in the same words on every screen and command."""
    if depth <= 0:
        return "no war"
    if depth == 1:
        return "a single war"
    return a_war(depth)


def outcome_text(winner_name: str | None, cards: int, wars: int) -> str:
    """What happened to the middle pile, said plainly."""
    if winner_name is None:
        return "Nobody takes the pile"
    text = f"{winner_name} takes {plural(cards, 'card')}"
    if wars:
        text += f" after {a_war(wars)}"
    return text


def cannot_finish_text(loser_name: str | None) -> str:
    """Who could not lay a war's cards, which ends the game (None: neither player could)."""
    return "neither player can finish" if loser_name is None else f"{loser_name} cannot finish"


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
        EndReason.AGREED: "both players agreed to stop it",
    }[reason]


def leader_text(leader_index: int | None, names: Sequence[str]) -> str:
    if leader_index is None:
        return "The players were level"
    return f"{names[leader_index]} was ahead"


def number(value: float | None) -> str:
    """The one number format: thousands separators, a decimal only when needed, a dash for none."""
    if value is None:
        return "-"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}"


def capital(sentence: str, names: Sequence[str] = ()) -> str:
    """The first letter capitalised, the rest as it is (``str.capitalize()`` would lower-case a player's name);
    a sentence that opens with one of ``names`` stays as it is: a name is shown as given ("bob ran out")."""
    if any(name and sentence.startswith(name) for name in names):
        return sentence
    return sentence[:1].upper() + sentence[1:]


def duration_text(seconds: float) -> str:
    """How long, to the second under an hour and to the minute beyond: "42 s", "5 min 3 s", "2 h 5 min"."""
    if seconds < 1:
        return "under a second"  # a whole game at "max" speed
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{number(hours)} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def enlarge_notice(width: int, height: int, need: tuple[int, int]) -> list[str]:
    """Asking for a bigger terminal in whole words, in the fullest wording that fits ``width`` x ``height``."""
    size = f"{need[0]}x{need[1]}"
    wordings = [
        ["Please enlarge the terminal", f"(at least {size}, now {width}x{height})"],
        ["Please enlarge the terminal", f"(at least {size})"],
        ["Enlarge the terminal", f"to {size}"],
        [f"Need {size}"],
        [size],
    ]
    lines: list[str] = []
    for wording in wordings:
        lines = [line for part in wording for line in wrap_cells(part, width)]
        if len(lines) <= height and all(cell_width(line) <= width for line in lines):
            return lines
    return lines[: max(0, height)]


SOLO_HINTS = ("Press space to turn the top cards", "space turns the top cards", "space: flip")
"""What the empty pile says before the first battle, longest first (``hint_lines`` picks)."""
WATCHING_HINTS = ("You are watching: the players turn the top cards", "the players turn the top cards",
                  "the players flip")
"""The same for a spectator, whose space flips nothing."""
TWO_PLAYER_HINTS = (
    "{p1} flips with f or Left, {p2} with j or Right",
    "f or Left, and j or Right, turn the top cards",
    "f/Left and j/Right flip",
    "f and j flip",
)
"""The same at one keyboard: each player's own keys (space flips for nobody); {p1} and {p2} are their names."""


def hint_lines(wordings: Sequence[str], width: int, height: int, names: Sequence[str] = ("", "")) -> list[str]:
    """The fullest wording whose whole words fit ``width`` x ``height`` cells, as lines; nothing if none does.

    ``{p1}`` and ``{p2}`` in a wording are the players' names (put in once: a name that reads "{p2}" stays so)."""
    return fitting_lines([_PLACES.sub(lambda found: names[int(found[1]) - 1], wording) for wording in wordings],
                         width, height)


_PLACES = re.compile(r"\{p([12])\}")


def fitting_lines(wordings: Sequence[str], width: int, height: int) -> list[str]:
    """The fullest of ``wordings`` whose whole words fit ``width`` x ``height`` cells, as lines; nothing if none does."""
    for text in wordings:
        if any(cell_width(word) > width for word in text.split()):
            continue  # never a word cut in two
        lines = wrap_cells(text, width)
        if len(lines) <= height:
            return lines
    return []
