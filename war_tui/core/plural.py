"""Counted words, the one helper every layer uses: "1 battle", "2,048 battles", "1 table is open"."""

from __future__ import annotations


def plural(n: float, word: str, many: str | None = None) -> str:
    """``1 game``, ``2,048 games``, ``0.5 minutes``; ``many``: an irregular plural ("1 match", "2 matches")."""
    shown = f"{int(n):,}" if float(n).is_integer() else f"{n:,g}"
    return f"{shown} {word}" if n == 1 else f"{shown} {many or word + 's'}"


def counted(n: float, word: str, one: str, many: str, plural_word: str | None = None) -> str:
    """A count and its verb agreeing: ``counted(1, "table", "is", "are")`` -> "1 table is"."""
    return f"{plural(n, word, plural_word)} {one if n == 1 else many}"
