"""Names people choose, reduced before they reach anyone else's screen or the log.

A player's name comes from the SSH user name, which a client picks freely: it may
hold escape sequences, wide characters, newlines or nothing at all. Only
``[A-Za-z0-9._-]`` survives, cut to 16 characters. Table names are stricter
(they are typed on a command line and shown in the lobby): 1-24 characters of
``a-z 0-9 -``, case-folded; anything else is refused, never repaired.
"""

from __future__ import annotations

import re
from collections.abc import Collection

MAX_NAME_LENGTH = 16
MAX_TABLE_NAME_LENGTH = 24
FALLBACK_NAME = "guest"
"""The name of someone whose user name has nothing left once reduced."""

_NOT_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_TABLE_NAME = re.compile(rf"[a-z0-9-]{{1,{MAX_TABLE_NAME_LENGTH}}}")
TABLE_NAME_RULE = f"a table name is 1-{MAX_TABLE_NAME_LENGTH} characters of a-z, 0-9 and -"


class TableNameError(ValueError):
    """A table name that cannot be used; the message is fit to show a person (it never echoes the input)."""


def reduce_name(raw: str, fallback: str = FALLBACK_NAME) -> str:
    """``raw`` with only ``[A-Za-z0-9._-]`` kept, at most 16 characters; ``fallback`` when nothing is left."""
    name = _NOT_NAME.sub("", raw)[:MAX_NAME_LENGTH]
    return name or fallback


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name`` with the first free suffix ``-2``, ``-3``... (still at most 16 characters)."""
    if name not in taken:
        return name
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
        if candidate not in taken:
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
