"""Names people choose, reduced before they reach anyone else's screen or the log.

A player's name comes from the SSH user name, which a client picks freely: it may
hold escape sequences, bidi overrides, invisible characters, floods of combining
marks, newlines or nothing at all. A name is for showing only (a seat belongs to
an identity, never to a name): letters of every script stay (``山田`` shows as
``山田``), controls, format characters (bidi overrides, zero-width ones), spaces
and unassigned or private code points go, a letter keeps at most two combining
marks, and the whole is cut to 16 terminal cells. Two names are the same name
when they match after NFKC and case folding (``ａｎｎ``, ``ⓐⓝⓝ`` and ``ANN`` are
``ann``). Table names are stricter (they are typed on a command line and shown
in the lobby): 1-24 characters of ``a-z 0-9 -``, case-folded; anything else is
refused, never repaired.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

MAX_NAME_LENGTH = 16
"""Terminal cells a name takes at most (a wide character such as 山 takes two)."""
MAX_NAME_CHARACTERS = 64
"""Characters a reduced name has at most: 16 cells of letters, each with at most two marks."""
MAX_MARKS = 2
"""Combining marks one letter keeps (Vietnamese needs two); the rest of a flood is dropped."""
MAX_TABLE_NAME_LENGTH = 24
FALLBACK_NAME = "guest"
"""The name of someone whose user name has nothing left once reduced."""

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
"""Controls, format characters (bidi overrides, zero-width joiners), surrogates, private use, unassigned, spaces."""
_MARKS = frozenset({"Mn", "Mc", "Me"})
_TABLE_NAME = re.compile(rf"[a-z0-9-]{{1,{MAX_TABLE_NAME_LENGTH}}}")
TABLE_NAME_RULE = f"a table name is 1-{MAX_TABLE_NAME_LENGTH} characters of a-z, 0-9 and -"


class TableNameError(ValueError):
    """A table name that cannot be used; the message is fit to show a person (it never echoes the input)."""


def _cells(char: str) -> int:
    """Terminal cells one character of a reduced name takes: a mark none, a wide (CJK) character two."""
    if unicodedata.category(char) in _MARKS:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cut_cells(text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` cells, a character's marks kept with it."""
    used = 0
    for index, char in enumerate(text):
        used += _cells(char)
        if used > width:
            return text[:index]
    return text


def reduce_name(raw: str, fallback: str = FALLBACK_NAME) -> str:
    """``raw`` as a name fit for any screen and the log (see the module); ``fallback`` when nothing is left."""
    kept: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", raw[: 4 * MAX_NAME_CHARACTERS]):
        category = unicodedata.category(char)
        if category in _DROPPED:
            continue
        if category in _MARKS:
            if not kept or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        kept.append(char)
    name = cut_cells("".join(kept), MAX_NAME_LENGTH)[:MAX_NAME_CHARACTERS]
    return name if any(unicodedata.category(ch)[0] not in "MZC" for ch in name) else fallback


def is_reduced(name: str) -> bool:
    """``name`` is what ``reduce_name`` makes of it (a name another party sent may be shown as it is)."""
    return bool(name) and reduce_name(name, "") == name


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, NFKC again (``ａｎｎ`` ``ⓐⓝⓝ`` ``ANN``: ``ann``)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(ch for ch in folded if unicodedata.category(ch) not in _DROPPED)


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name`` with the first free suffix ``-2``, ``-3``... (still at most 16 cells).

    ``taken`` holds names; a name is taken when it is the same as one of them by ``name_key``.
    """
    keys = {name_key(other) for other in taken}
    if name_key(name) not in keys:
        return name
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = cut_cells(name, MAX_NAME_LENGTH - len(suffix)) + suffix
        if name_key(candidate) not in keys:
            return candidate
        number += 1


def parse_table_name(raw: str) -> str:
    """The table name ``raw`` asks for, case-folded; raises ``TableNameError`` with the rule otherwise."""
    if not raw:
        raise TableNameError(f"no table name given: {TABLE_NAME_RULE}")
    # ASCII first: str.lower() folds some non-ASCII letters (the Kelvin sign) onto a-z.
    if not raw.isascii():
        raise TableNameError(f"that table name has characters outside a-z, 0-9 and -: {TABLE_NAME_RULE}")
    name = raw.lower()
    if len(name) > MAX_TABLE_NAME_LENGTH:
        raise TableNameError(f"that table name is {len(name)} characters long: {TABLE_NAME_RULE}")
    if _TABLE_NAME.fullmatch(name) is None:
        raise TableNameError(f"that table name has characters outside a-z, 0-9 and -: {TABLE_NAME_RULE}")
    return name
