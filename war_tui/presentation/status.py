"""The status line's wording: the longest that fits the width, from full names down to a score."""

from __future__ import annotations

from collections.abc import Sequence

from .cells import cell_width
from .glyphs import Glyphs
from .speed import speed_label


def initials(names: Sequence[str]) -> tuple[str, str]:
    """Short names for a tight line: "Player 1" -> "P1", "Ann Lee" -> "AL"; "P1"/"P2" if they would clash."""
    short = tuple("".join(word[0] for word in name.split()) or "?" for name in names)
    if short[0].casefold() == short[1].casefold():
        return ("P1", "P2")
    return short[0], short[1]


def time_left_text(seconds: int) -> str:
    """The time left before a limit, as a clock reads it: "4:05 left", "1:02:03 left"."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return (f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}") + " left"


def one_minute_text(session: bool) -> str:
    """The one notice a minute before a time limit ends the game (or the server ends the session)."""
    return "One minute left in this session" if session else "One minute left: then the game stops, naming who is ahead"


CATCHING_UP = "catching up"
"""What a table's status line says while its screen knows it shows less than the table holds (then an ellipsis)."""


def status_pieces(  # noqa: C901 - one piece per fact the status line shows, in order
    *,
    number: int,
    seed: int | None,
    battles: int,
    wars: int,
    auto: bool,
    speed: float,
    pause_on_war: bool,
    over: bool,
    tally: tuple[int, int, int, int],
    names: Sequence[str],
    glyphs: Glyphs,
    width: int,
    time_left: int | None = None,
    behind: bool = False,
) -> list[tuple[str, str]]:
    """The status line as (text, style-name) pieces, in the longest wording that fits ``width`` (``LADDER``).

    The least important part goes first (the game number, the tally's words, an idle speed, the seed,
    the wars, draws and stops, "Wins"), then names give way to initials; no word or number is cut.
    ``behind``: a table's screen knows the table is further on than it shows (``CATCHING_UP`` follows the
    battle number until it is not).
    """
    dot = f" {glyphs.dot} "
    p1, p2, draws, stopped = tally
    label = speed_label(speed)
    if not auto:
        plays = [(f"auto off ({label})", "paused"), ("auto off", "paused")]
    elif over:
        # Nothing runs until the next deal, which auto-play then plays.
        plays = [(f"auto {label} from the next deal", "paused"), (f"auto {label}", "paused")]
    else:
        plays = [(f"auto {label}", "auto")] * 2
    seed_words = "hand-made deal" if seed is None else f"seed {seed}"
    pieces: list[tuple[str, str]] = []
    dealt = number > 0  # before the first deal (a table not heard from yet) there is no game to name
    for rung in LADDER:
        a, b = initials(names) if INITIALS in rung else names
        pieces = []
        if not dealt:
            pieces = [("waiting for the deal", "label"), (dot, "label")]
        elif SEED not in rung and GAME not in rung:
            pieces = [("Game ", "label"), (f"{number}", "value"), (f" ({seed_words})", "value"), (dot, "label")]
        elif SEED not in rung:
            pieces = [(seed_words, "value"), (dot, "label")]
        if BATTLE not in rung and dealt:
            pieces += [("Battle ", "label"), (f"{battles:,}", "value"), (dot, "label")]
        if WAR_COUNT not in rung and dealt:
            pieces += [("Wars ", "label"), (f"{wars:,}", "value"), (dot, "label")]
        if behind:
            pieces += [(CATCHING_UP + glyphs.ellipsis, "paused"), (dot, "label")]
        pieces.append(plays[AUTO_SPEED in rung])
        if pause_on_war:
            pieces += [(dot, "label"), ("war stop", "value")]
        if time_left is not None:
            pieces += [(dot, "label"), (time_left_text(time_left), "value")]
        if SCORE in rung:
            wins = "" if WINS_WORD in rung else "Wins "
            pieces += [(dot + f"{wins}{a} ", "label"), (f"{p1}-{p2}", "value"), (f" {b}", "label")]
        else:
            pieces += [(dot + f"Wins {a}: ", "label"), (f"{p1}", "value"), (f", {b}: ", "label"), (f"{p2}", "value")]
        if draws and EXTRAS not in rung:
            pieces += [(", ", "label"), (f"{draws}", "value"), (" drawn", "label")]
        if stopped and EXTRAS not in rung:
            pieces += [(", ", "label"), (f"{stopped}", "value"), (" stopped", "label")]
        if sum(cell_width(text) for text, _ in pieces) <= width:
            return pieces
    while sum(cell_width(text) for text, _ in pieces) > width:
        # Narrower: whole parts go from the left; the tally stays, nothing is cut.
        cut = next((i for i, (text, _) in enumerate(pieces) if text.startswith(dot)), None)
        if cut is None:
            break
        text, style = pieces[cut]
        pieces = ([(text[len(dot):], style)] if text != dot else []) + pieces[cut + 1:]
    return pieces


GAME, SCORE, AUTO_SPEED, SEED, WAR_COUNT, EXTRAS, WINS_WORD, INITIALS, BATTLE = (
    "game number", "tally in words", "auto-play's speed while off", "seed", "war count", "draws and stopped games",
    "the word Wins", "full names", "battle number",
)
"""The parts of the status line that give way, least important first."""
GIVING_WAY = (GAME, SCORE, AUTO_SPEED, SEED, WAR_COUNT, EXTRAS, WINS_WORD, INITIALS, BATTLE)
_BEFORE_NAMES = GIVING_WAY[: GIVING_WAY.index(WINS_WORD)]
LADDER = (
    *(frozenset(GIVING_WAY[:n]) for n in range(len(_BEFORE_NAMES) + 1)),
    frozenset({*_BEFORE_NAMES, WINS_WORD}),
    # Initials bring "Wins" back if it fits: "Wins A 3-2 B" reads better than "A 3-2 B".
    frozenset({*_BEFORE_NAMES, INITIALS}),
    frozenset({*_BEFORE_NAMES, WINS_WORD, INITIALS}),
    frozenset(GIVING_WAY),
)
"""The status line's wordings, longest first: each gives up one more part than the one before (the word
"Wins" goes before the names give way to initials, and comes back with them while it fits)."""
