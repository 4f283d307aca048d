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


def status_pieces(
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
) -> list[tuple[str, str]]:
    """The status line as (text, style-name) pieces; styles: 'label', 'value', 'auto', 'paused'.

    The longest wording that fits ``width`` cells: full names, then initials, then
    without the battle number (the pile's frame shows it), then the seed without the
    game number (a game is never named without the seed that replays it), the tally
    as a score ("Wins P1 3-2 P2"), auto-play without the speed while it is off; then
    without the seed (the log says it at every deal), without the war count, and
    last without the draws and stopped games. Pieces go whole: no word is cut.
    """
    dot = f" {glyphs.dot} "
    p1, p2, draws, stopped = tally
    if not auto:
        plays = [(f"auto off ({speed_label(speed)})", "paused"), ("auto off", "paused")]
    elif over:
        # Nothing runs until the next deal.
        plays = [(f"auto {speed_label(speed)} next deal", "paused"), (f"auto {speed_label(speed)}", "paused")]
    else:
        plays = [(f"auto {speed_label(speed)}", "auto")] * 2
    seed_words = "hand-made deal" if seed is None else f"seed {seed}"
    pieces: list[tuple[str, str]] = []
    for game, short, battle, score, brief, war_count, extras in LADDER:
        play = plays[brief]
        a, b = initials(names) if short else names
        pieces = []
        if game == GAME_AND_SEED:
            pieces = [("Game ", "label"), (f"{number}", "value"), (f" ({seed_words})", "value"), (dot, "label")]
        elif game == SEED_ONLY:
            pieces = [(seed_words, "value"), (dot, "label")]
        if battle:
            pieces += [("Battle ", "label"), (f"{battles:,}", "value"), (dot, "label")]
        if war_count:
            pieces += [("Wars ", "label"), (f"{wars:,}", "value"), (dot, "label")]
        pieces.append(play)
        if pause_on_war:
            pieces += [(dot, "label"), ("war stop", "value")]
        if time_left is not None:
            pieces += [(dot, "label"), (time_left_text(time_left), "value")]
        if score:
            pieces += [(dot + f"Wins {a} ", "label"), (f"{p1}-{p2}", "value"), (f" {b}", "label")]
        else:
            pieces += [(dot + f"Wins {a}: ", "label"), (f"{p1}", "value"), (f", {b}: ", "label"), (f"{p2}", "value")]
        if draws and extras:
            pieces += [(", ", "label"), (f"{draws}", "value"), (" drawn", "label")]
        if stopped and extras:
            pieces += [(", ", "label"), (f"{stopped}", "value"), (" stopped", "label")]
        if sum(cell_width(text) for text, _ in pieces) <= width:
            break
    return pieces


GAME_AND_SEED, SEED_ONLY, NO_GAME = 2, 1, 0
LADDER = (
    # game shown, initials, battle number, tally as a score, auto-play in brief, war count, draws and stops
    (GAME_AND_SEED, False, True, False, False, True, True),
    (GAME_AND_SEED, True, True, False, False, True, True),
    (GAME_AND_SEED, True, False, False, False, True, True),
    (SEED_ONLY, True, False, False, False, True, True),
    (SEED_ONLY, True, False, True, False, True, True),
    (SEED_ONLY, True, False, True, True, True, True),
    (NO_GAME, True, False, True, True, True, True),
    (NO_GAME, True, False, True, True, False, True),
    (NO_GAME, True, False, True, True, False, False),
)
"""The status line's wordings, longest first."""
