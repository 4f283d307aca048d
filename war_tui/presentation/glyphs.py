"""Every character the board draws, and the choice between Unicode and ASCII from the locale."""

from __future__ import annotations

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


def locale_is_utf8(environ: Mapping[str, str]) -> bool:
    """Whether the terminal's locale can show UTF-8, judged the way the C library would.

    Python turns a plain C locale into ``LC_CTYPE=C.UTF-8`` for itself (PEP 538)
    before we run, so that value alone proves nothing: when it is there, LANG
    tells what the person's terminal actually uses.
    """
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        if name == "LC_CTYPE" and value == "C.UTF-8" and environ.get("LANG"):
            continue  # possibly Python's own coercion; LANG is the person's choice
        lowered = value.lower().replace("-", "")
        return "utf8" in lowered
    return False


def choose_glyphs(ascii_flag: bool, environ: Mapping[str, str]) -> Glyphs:
    """ASCII when asked for, or when the locale cannot show suit symbols and box lines."""
    if ascii_flag or not locale_is_utf8(environ):
        return ASCII
    return UNICODE
