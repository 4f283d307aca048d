"""Bytes another process wrote, read as untrusted input: one reader for every record from NATS.

Anyone who reaches NATS can write any bucket or stream, so a lobby entry, a session record, an owner record, a
lease, a checkpoint, a relay message or a game record may be anything. ``read_json`` bounds a record's size
and its nesting *before* parsing (a scan of its brackets outside strings: the parser never goes deeper than
the scan allows, so it can never raise ``RecursionError``), refuses ``NaN``, ``Infinity`` and numbers past a
float, and raises one exception, ``BadRecord``, whose reason never echoes the record. The checkers (``whole``,
``finite``, ``text``, ``fields``) give each kind its ranges after parsing. ``plain_text`` is the one path text
from anywhere takes to a screen: no control, escape, bidi override or invisible character survives it (the
names' reduction drops the same characters). ``BadRecords`` logs a bad record in one line, within a flood
budget of its own, so a loop that meets one logs it, skips it and goes on.

It sits below every other package (the import-linter layers in pyproject.toml) and imports nothing of war_tui:
the tables' checkpoints, the statistics, the screens' text, the server and the cluster all read through it.
"""

from __future__ import annotations

import json
import math
import re
import time
import unicodedata
from collections.abc import Callable, Collection, Hashable
from typing import Any

MAX_DEPTH = 16
"""Nesting of arrays and objects a record may have at most unless its reader says otherwise (each kind's reader
gives its own: a checkpoint, the deepest, takes six)."""

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_PAIR = re.compile(rb"\[\]|\{\}")


class BadRecord(ValueError):
    """A record that is not one of its kind; ``str()`` is a short reason that never holds the record's bytes."""


def read_json(data: bytes | bytearray | memoryview | str, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value ``data`` holds: at most ``max_bytes`` of UTF-8, nested at most ``max_depth`` deep, every
    number finite; ``BadRecord`` otherwise."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    elif not isinstance(data, bytes):
        if not isinstance(data, (bytearray, memoryview)):
            raise BadRecord(f"a record is bytes, not {type(data).__name__}")
        data = bytes(data)
    if len(data) > max_bytes:
        raise BadRecord(f"{len(data):,} bytes, past {max_bytes:,}")
    if too_deep(data, max_depth):
        raise BadRecord(f"nested more than {max_depth} deep")
    try:
        return _DECODER.decode(data.decode("utf-8"))
    except BadRecord:
        raise
    except UnicodeDecodeError:
        raise BadRecord("not UTF-8") from None
    except (ValueError, RecursionError) as error:  # RecursionError: the scan leaves none; for a caller deep in its own stack
        where = f" (at character {error.pos})" if isinstance(error, json.JSONDecodeError) else ""
        raise BadRecord(f"not JSON{where}") from None


def too_deep(data: bytes, most: int) -> bool:
    """Whether ``data`` may open more than ``most`` arrays or objects inside one another (outside its strings).

    Its brackets alone, then each pass takes away the innermost pairs (``[]``, ``{}`` next to each other), one
    level a pass, all in C: what is left after ``most`` passes is nested deeper. Brackets that do not pair
    (JSON the parser refuses anyway) count as deep as they could reach."""
    structure = _outside_strings(data).translate(None, _NOT_BRACKETS)
    passes = 0
    while _openers(structure) + passes > most:
        if passes == most:
            return True
        shorter = _PAIR.sub(b"", structure)
        if len(shorter) == len(structure):
            return True  # no pair left to take, and as many openers as could be nested past ``most``
        structure = shorter
        passes += 1
    return False


def _outside_strings(data: bytes) -> bytes:
    """``data`` without its JSON strings, as the parser reads them up to its first error: escaped backslashes,
    then escaped quotes, go first, and what is left between two quotes is a string."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(data.split(b'"')[::2])


def _openers(structure: bytes) -> int:
    return structure.count(b"[") + structure.count(b"{")


def _no_constant(name: str) -> Any:
    raise BadRecord(f"{name} is not a number")


def _finite_float(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise BadRecord("a number past a float's range")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)
"""One decoder for every record (``json.loads`` with hooks makes one per call)."""


# -- checkers, after parsing ----------------------------------------------------------------------------------


def fields(value: object, what: str, required: Collection[str] = (), allowed: Collection[str] | None = None) -> dict[str, Any]:
    """``value`` as a JSON object that has every ``required`` key and (if given) no key outside ``allowed``."""
    if not isinstance(value, dict):
        raise BadRecord(f"{what} is not an object")
    missing = [key for key in required if key not in value]
    if missing:
        raise BadRecord(f"{what} has no {missing[0]}")
    if allowed is not None and any(key not in allowed for key in value):
        raise BadRecord(f"{what} has fields it should not have")
    return value


def whole(value: object, what: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (``true`` is not one)."""
    if type(value) is not int or not low <= value <= high:
        raise BadRecord(f"{what} is not a whole number from {low:,} to {high:,}")
    return value


def finite(value: object, what: str, low: float, high: float) -> float:
    """``value`` as a number from ``low`` to ``high`` (whole or not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:  # NaN fails too
        raise BadRecord(f"{what} is not a number from {low:g} to {high:g}")
    return float(value)


def text(value: object, what: str, max_chars: int, pattern: re.Pattern[str] | None = None) -> str:
    """``value`` as text of at most ``max_chars`` characters (matching ``pattern`` whole, if given), with no
    character a terminal would act on; a reader that shows it still passes it through ``plain_text``."""
    if not isinstance(value, str) or len(value) > max_chars:
        raise BadRecord(f"{what} is not text of at most {max_chars:,} characters")
    if pattern is not None and pattern.fullmatch(value) is None:
        raise BadRecord(f"{what} is not of its form")
    if not value.isprintable() and plain_text(value) != value:
        raise BadRecord(f"{what} holds control or escape characters")
    return value


# -- text to show ---------------------------------------------------------------------------------------------

DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""What never reaches a screen: controls (ESC, BEL, CR...), format characters (bidi overrides, zero-width
joiners), surrogates, private use and unassigned code points, line and paragraph separators. Names drop the
same, and spaces too."""


def plain_text(words: str) -> str:
    """``words`` fit for a terminal: line breaks kept, every character of ``DROPPED_CATEGORIES`` dropped, every
    other space a plain one. Text that is all printable (nearly all) is returned as it is."""
    if words.isprintable():
        return words
    return "\n".join(_plain_line(line) for line in words.split("\n"))


def _plain_line(line: str) -> str:
    if line.isprintable():
        return line
    kept = []
    for char in line:
        category = unicodedata.category(char)
        if category == "Zs":
            kept.append(" ")
        elif category not in DROPPED_CATEGORIES:
            kept.append(char)
    return "".join(kept)


def shown_key(key: str, most: int = 80) -> str:
    """A record's key (or subject) for the log: plain, cut, quoted."""
    return repr(plain_text(key[: most * 2])[:most])


# -- the log ------------------------------------------------------------------------------------------------

BURST = 10
"""Bad records logged at most per ``PERIOD``; the rest are counted and told in one line."""
PERIOD = 10.0
REMEMBERED = 1024
"""Records (by key and revision) remembered as logged, so that one read again at each poll is told once."""


class BadRecords:
    """One log line per bad record, ``BURST`` per ``PERIOD`` seconds at most: a flood of forged records costs a
    line per period (``flush``, or the next bad record, tells how many were held back). A record with a
    ``seen`` mark (its key and revision) already told is not told again."""

    def __init__(self, log: Callable[[str], None], *, burst: int = BURST, period: float = PERIOD,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._log = log
        self.burst = burst
        self.period = period
        self._clock = clock
        self._since = float("-inf")
        self._told = 0
        self._held = 0
        self._seen: dict[Hashable, None] = {}
        self.count = 0
        """Bad records met (each once), for the tests and the benchmark."""

    def __call__(self, line: str, seen: Hashable | None = None) -> None:
        """Log ``line`` (what was skipped and why, never the record's bytes) within the budget."""
        if seen is not None:
            if seen in self._seen:
                return
            if len(self._seen) >= REMEMBERED:
                del self._seen[next(iter(self._seen))]
            self._seen[seen] = None
        self.count += 1
        now = self._clock()
        if now - self._since >= self.period:
            self.flush()
            self._since, self._told = now, 0
        if self._told < self.burst:
            self._told += 1
            self._log(line)
        else:
            self._held += 1

    def flush(self) -> None:
        """Tell how many bad records were held back, if any; the loops call it at each round."""
        if self._held and self._clock() - self._since >= self.period:
            held, self._held = self._held, 0
            self._log(f"flood: {held:,} more bad records from NATS skipped in {self.period:g} s, not logged one by one")
