"""The bounds of the shared tables a server hosts: the tables hold to them, and the server's flags offer them.

Written here once, below both: the tables check them (``tables.options``, ``tables.registry``), and the flags
that choose them (``serving.config``) read their defaults and ranges from here without loading the tables.
"""

from __future__ import annotations

DEFAULT_SEAT_TIMEOUT = 60.0
MIN_SEAT_TIMEOUT = 1.0
MAX_SEAT_TIMEOUT = 3600.0
"""Seconds a player may stay idle after the other flipped before the house flips for them."""
DEFAULT_MAX_SPECTATORS = 10
MAX_MAX_SPECTATORS = 1000
DEFAULT_MAX_TABLES = 16
MAX_MAX_TABLES = 100
"""Tables a server may hold at most: the whole lobby must fit in one protocol line."""
DEFAULT_MAX_LOBBY_READERS = 32
DEFAULT_TABLES_PER_VISITOR = 4
"""Open tables one address (or one identity) may have opened."""
DEFAULT_SEATS_PER_VISITOR = 4
"""Seats one address (or one identity) may hold at once, sitting in them or kept while away."""
MAX_PER_VISITOR = 1000
