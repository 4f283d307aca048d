"""Every character the board draws, and the choice between Unicode and ASCII from the locale."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Every character the board draws, in one place so ASCII mode is a swap, not a branch."""

    ascii: bool
    suits: str  # clubs, diamonds, hearts, spades
    frame: str  # top-left, top-right, bottom-left, bottom-right, horizontal, vertical
    box: str  # the pile's frame, in the same order
    war_box: str  # the pile's frame during a war
    back: tuple[str, str]  # two alternating rows of a card back's pattern
    bar_p1: str
    bar_p2: str
    spark: str  # levels from empty to full
    dot: str
    arrow: str
    ellipsis: str
    four_colour: bool = False  # --deck four-colour: diamonds and clubs get colours of their own


def suit_style(card: int, glyphs: Glyphs) -> str:
    """The colour a card's face is drawn in, by suit: "red" (hearts, and diamonds in the usual deck), "black"
    (spades, and clubs in the usual deck), or "diamond" and "club" in a four-colour deck."""
    suit = card & 3  # clubs, diamonds, hearts, spades
    if glyphs.four_colour and suit in (0, 1):
        return "club" if suit == 0 else "diamond"
    return "red" if suit in (1, 2) else "black"


UNICODE = Glyphs(
    ascii=False,
    suits="♣♦♥♠",  # single-width text symbols; never the emoji variants
    frame="┌┐└┘─│",
    box="╭╮╰╯─│",
    war_box="┏┓┗┛━┃",
    back=("▒▒▒", "▒▒▒"),
    bar_p1="█",
    bar_p2="░",
    spark=" ▁▂▃▄▅▆▇█",
    dot="·",
    arrow="→",
    ellipsis="…",
)

ASCII = Glyphs(
    ascii=True,
    suits="CDHS",
    frame="++++-|",
    box="++++-|",
    war_box="++++-|",
    back=("/\\/", "\\/\\"),
    bar_p1="#",
    bar_p2=".",
    spark=" .:-=+*#%",
    dot="|",
    arrow="->",
    ellipsis="...",
)


LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")
"""Where the C library looks for the character set, in order: the first set and not empty wins; none is C."""
PYTHON_LOCALES = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})
"""What Python sets ``LC_CTYPE`` to when it starts in the C or POSIX locale (PEP 538's coercion)."""


def locale_is_utf8(environ: Mapping[str, str], *, python_coerced: bool = False) -> bool:
    """Whether the locale the variables name is UTF-8, by POSIX's rules: ``LC_ALL``, then ``LC_CTYPE``, then
    ``LANG``, the first one set and not empty; none at all is the C (POSIX) locale, which is not.

    ``python_coerced``: this Python may have set ``LC_CTYPE`` itself, finding the C locale as it started
    (``python_may_have_coerced``); an ``LC_CTYPE`` of its making is then not the person's, and ``LANG`` decides.
    """
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        if name == "LC_CTYPE" and python_coerced and value in PYTHON_LOCALES:
            continue
        return "utf8" in value.lower().replace("-", "")
    return False


def python_may_have_coerced(environ: Mapping[str, str]) -> bool:
    """Whether this Python may have set ``LC_CTYPE`` in ``environ`` (its own environment) as it started.

    It does when it finds the C or POSIX locale (PEP 538), and then also turns on its UTF-8 mode (PEP 540):
    without that mode it did not, unless ``PYTHONUTF8`` chose the mode (then it cannot tell).
    """
    return bool(sys.flags.utf8_mode) or "PYTHONUTF8" in environ


def choose_glyphs(ascii_flag: bool, environ: Mapping[str, str], *, python_coerced: bool = False) -> Glyphs:
    """ASCII when asked for, or when the locale cannot show suit symbols and box lines (``locale_is_utf8``)."""
    if ascii_flag or not locale_is_utf8(environ, python_coerced=python_coerced):
        return ASCII
    return UNICODE
