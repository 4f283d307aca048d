"""Names people choose, reduced before they reach anyone else's screen or the log.

A player's name (an SSH user name, chosen freely) is for showing only: letters of every script stay;
controls, format characters, spaces, unassigned and private code points go; a letter keeps at most two
combining marks; the whole is cut to 16 cells (``core.cells``), and a name of no cell is the fallback.
Names match after NFKC, case folding and dropping what markup reads as a tag (``ＡＮＮ`` and ``[i]ann``
are ``ann``). Table names are stricter: 1-24 characters of ``a-z 0-9 -``, case-folded, else refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from ..core.cells import cell_width, cut_cells
from ..untrusted import DROPPED_CATEGORIES

MAX_NAME_LENGTH = 16
"""Terminal cells a name takes at most (a wide character such as 山 takes two)."""
MAX_NAME_CHARACTERS = 64
"""Characters a reduced name has at most: 16 cells of letters, each with at most two marks."""
MAX_MARKS = 2
"""Combining marks one letter keeps (Vietnamese needs two); the rest of a flood is dropped."""
MAX_TABLE_NAME_LENGTH = 24
FALLBACK_NAME = "guest"
"""The name of someone whose user name has nothing left once reduced."""

_DROPPED = DROPPED_CATEGORIES | {"Zs"}
"""What no text shown takes (``war_tui.untrusted.plain_text``: controls, format characters such as bidi overrides
and zero-width joiners, surrogates, private use, unassigned), and spaces."""
_MARKS = frozenset({"Mn", "Mc", "Me"})
_MARKUP_TAG = re.compile(r"\[[a-z#/@][^\[\]]*\]", re.IGNORECASE)
"""What Rich's markup reads as a tag (``[i]``, ``[/]``, ``[link=…]``): a name is never read so, but two
names that would look alike if one were (``[i]alice``, ``alice``) are one name all the same."""
_TABLE_NAME = re.compile(rf"[a-z0-9-]{{1,{MAX_TABLE_NAME_LENGTH}}}")
TABLE_NAME_RULE = f"a table name is 1-{MAX_TABLE_NAME_LENGTH} characters of a-z, 0-9 and -"


class TableNameError(ValueError):
    """A table name that cannot be used; the message is fit to show a person (it never echoes the input)."""


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
    # Something to see: marks, lone skin tones and variation selectors take no cell.
    visible = cell_width(name) > 0 and any(unicodedata.category(ch)[0] not in "MZC" for ch in name)
    return name if visible else fallback


def is_reduced(name: str) -> bool:
    """``name`` is what ``reduce_name`` makes of it (a name another party sent may be shown as it is)."""
    return bool(name) and reduce_name(name, "") == name


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, NFKC again (``ａｎｎ`` ``ⓐⓝⓝ`` ``ANN``: ``ann``),
    without what markup would read as tags (``[i]alice``: ``alice``; a name of tags alone keeps them)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    key = "".join(ch for ch in folded if unicodedata.category(ch) not in _DROPPED)
    return _MARKUP_TAG.sub("", key) or key


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
    # ASCII first: str.lower() folds some other letters (Kelvin sign) onto a-z.
    if not raw.isascii():
        raise TableNameError(f"that table name has characters outside a-z, 0-9 and -: {TABLE_NAME_RULE}")
    name = raw.lower()
    if len(name) > MAX_TABLE_NAME_LENGTH:
        raise TableNameError(f"that table name is {len(name)} characters long: {TABLE_NAME_RULE}")
    if _TABLE_NAME.fullmatch(name) is None:
        raise TableNameError(f"that table name has characters outside a-z, 0-9 and -: {TABLE_NAME_RULE}")
    return name
