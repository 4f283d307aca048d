"""Lifetime statistics: every finished game in an SQLite file, and what they add up to.

UI-free (no Textual here): the app, the ``stats`` command and the stats screen all use it.
"""

from .records import Bin, GameRecord, Histogram, Source, Totals
from .store import (
    BUSY_TIMEOUT,
    SCHEMA_VERSION,
    StatsStore,
    Summary,
    default_path,
    served_path,
)

__all__ = [
    "BUSY_TIMEOUT",
    "SCHEMA_VERSION",
    "Bin",
    "GameRecord",
    "Histogram",
    "Source",
    "StatsStore",
    "Summary",
    "Totals",
    "default_path",
    "served_path",
]
