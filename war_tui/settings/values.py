"""The values flags and the preferences file take: whole numbers, minutes and paths with their ranges.

Shared by the command line and the preferences file, so a value means the same and is refused the
same way wherever it is given. Each type raises ``argparse.ArgumentTypeError`` with one short sentence.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.rules import Gather
from ..presentation.cells import cell_width

MAX_SEED = 2**63 - 1
# Far past real games (all under 10,000 battles); an endless one stops in minutes.
MAX_MAX_BATTLES = 10**9
MAX_NAME_LENGTH = 16  # columns a player's name may take on the board

_WHOLE = re.compile(r"\s*[+-]?\d+\s*")
SHOWN = 24  # characters of a bad value an error repeats (a pasted wall is cut)


def shown(text: str) -> str:
    """A bad value as an error repeats it, cut short when long."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def positive_int(what: str, maximum: int, *, minimum: int = 1, span: str | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` (1 unless told) to ``maximum``.

    The bound is mandatory: every number a flag takes has a range, and whatever reaches SQLite
    fits in its signed 64-bit integers. ``span`` words the range in errors ("from 1 to 3").
    """
    if not -(2**63) <= minimum <= maximum <= 2**63 - 1:
        raise ValueError(f"{what}: the range {minimum} to {maximum} does not fit in 64 bits")

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            if not _WHOLE.fullmatch(text):
                raise argparse.ArgumentTypeError(f"{what} must be a whole number, not '{shown(text)}'") from None
            value = None  # more digits than Python reads: far out of any range
        negative = text.strip().startswith("-")
        if value is not None and minimum <= value <= maximum:
            return value
        if span is not None:
            wrong = span
        else:
            wrong = f"at least {minimum}" if negative or (value is not None and value < minimum) else f"at most {maximum:,}"
        raise argparse.ArgumentTypeError(f"{what} must be {wrong}, not {shown(text.strip())}")

    return parse


MAX_MINUTES = 7 * 24 * 60
"""A week: longer than anyone watches one game or keeps one session open."""


def minutes_value(what: str) -> Callable[[str], float]:
    """An argparse type: minutes above 0 and at most a week (5, 0.5); NaN and infinity are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be minutes (like 5 or 0.5), not '{shown(text)}'") from None
        if not math.isfinite(value) or not 0 < value <= MAX_MINUTES:
            raise argparse.ArgumentTypeError(
                f"{what} must be more than 0 and at most {MAX_MINUTES:,} minutes (a week), not {shown(text)}"
            )
        return value

    return parse


def number_value(flag: str, low: float, high: float, unit: str, example: str) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` to ``high`` (NaN and infinity refused)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be {unit} (like {example}), not '{shown(text)}'") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{flag} must be from {low:g} to {high:g} {unit}, not {shown(text)}")
        return value

    return parse


def path_value(flag: str) -> Callable[[str], str]:
    """An argparse type for a file path: anything but empty (an empty one would mean the current folder)."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{flag} must be a path, not empty")
        return text

    return parse


def rows_value(flag: str) -> Callable[[str], int]:
    """An argparse type: a row cap of the statistics file, in its range (read from the store when a cap is given)."""

    def parse(text: str) -> int:
        from ..stats.store import MAX_ROWS, MIN_ROWS  # the store loads SQLite: only for the flag given

        return positive_int(flag, MAX_ROWS, minimum=MIN_ROWS, span=rows_span())(text)

    return parse


def rows_span() -> str:
    """A row cap's range, as an error words it."""
    from ..stats.store import MAX_ROWS, MIN_ROWS

    return f"a whole number from {MIN_ROWS:,} to {MAX_ROWS:,}"


def config_path_value(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("--config needs a file's path")
    return Path(text).expanduser()


def gather_value(text: str) -> Gather:
    try:
        return Gather(text.lower())
    except ValueError:
        names = ", ".join(g.value for g in Gather)
        raise argparse.ArgumentTypeError(f"unknown gather order '{text}' (choose from {names})") from None


def names_value(names: Sequence[str]) -> tuple[str, str]:
    """Two players' names, trimmed; the ``--names`` flag and the preferences file both check them here."""
    if len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise ValueError("--names must be two names")
    for name in names:
        if not name.strip() or not name.isprintable():
            raise ValueError("--names must be two printable, non-blank names")
        if cell_width(name) > MAX_NAME_LENGTH:
            raise ValueError(
                f"--names: '{name}' is wider than {MAX_NAME_LENGTH} columns (wide characters such as 山 take two)"
            )
    pair = (names[0].strip(), names[1].strip())
    if pair[0].casefold() == pair[1].casefold():
        raise ValueError("--names: the two players need different names")
    return pair


DECKS = ("two-colour", "four-colour")
"""How suits are coloured: hearts and diamonds red (two-colour), or diamonds and clubs in colours of their own."""
HIGH_CONTRAST_THEME = "high-contrast"
"""The game's own theme: every text and card at WCAG AA contrast or better (registered by the app)."""


def deck_value(text: str) -> str:
    """An argparse type: a deck's colouring; the American spelling is understood."""
    word = text.strip().lower().replace("color", "colour")
    if word not in DECKS:
        raise argparse.ArgumentTypeError(f"--deck must be {' or '.join(DECKS)}, not '{shown(text)}'")
    return word


NATS_SCHEMES = ("nats", "tls")
MAX_URL = 2048
"""Characters a ``--nats`` URL may have: any real one fits, a pasted wall of text is refused."""


def nats_url_value(text: str) -> str:
    """An argparse type for ``--nats``: a ``nats://`` or ``tls://`` URL naming a host and a port (1-65535),
    with a user and password or a token before the host if the cluster asks for them, and nothing after.
    A refusal says what is wrong and repeats no part of the value: it may hold a password or a token."""
    from urllib.parse import urlsplit

    def wrong(reason: str) -> argparse.ArgumentTypeError:
        return argparse.ArgumentTypeError(
            f"--nats must be a nats:// or tls:// URL with a host and a port (like nats://10.0.0.5:4222): {reason}"
        )

    if len(text) > MAX_URL:
        raise wrong(f"this one is longer than {MAX_URL:,} characters")
    if not text.isascii() or not text.isprintable() or any(c.isspace() for c in text):
        raise wrong("this one holds spaces or characters no URL has")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # a port that is no number, or past 65535
        raise wrong("its port is not a number from 1 to 65535") from None
    if parts.scheme not in NATS_SCHEMES:
        raise wrong("it does not start with nats:// or tls://")
    if not parts.hostname:
        raise wrong("it names no host")
    if port is None or port == 0:
        raise wrong("it names no port" if port is None else "its port is not a number from 1 to 65535")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise wrong("something follows the port")
    return text
