"""KV keys from table names: any name the name parser allows, as the few characters a key may hold.

A key may hold only ``[-/_=.A-Za-z0-9]`` (dots split it into tokens); a table's name may be any text the
lobby accepts, in any script. Its UTF-8 in URL-safe base64 (no padding) fits, is one token, and reads back
to the very name, so two names never share a key.
"""

from __future__ import annotations

import base64
import binascii

PREFIX = "t-"


def table_key(name: str) -> str:
    """The key a table's name is stored under."""
    return PREFIX + base64.urlsafe_b64encode(name.encode("utf-8")).decode("ascii").rstrip("=")


def table_name(key: str) -> str | None:
    """The name stored under ``key``; None for a key no table name makes."""
    if not key.startswith(PREFIX):
        return None
    text = key[len(PREFIX):]
    try:
        name = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return name if table_key(name) == key else None
