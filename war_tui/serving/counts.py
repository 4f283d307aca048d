"""What the server counts as it serves, for ``--metrics``: plain numbers, kept whether or not anyone reads them.

Each count is one integer or one bucket added where its event happens; ``metrics.py`` reads them when scraped
(and only then loads prometheus_client). Every label is from a fixed list, so no count grows with the players,
the addresses or the tables.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from ..core.rules import EndReason

REFUSAL_REASONS = (
    "full", "caps", "rate", "memory", "flood", "auth", "forwarding", "bad_input", "game_id", "stopping",
)
"""Why a door or a table turned something away (``war_tui_refusals_total{reason}``):

- full: no room left (--max-sessions, --max-tables, --max-spectators, --max-lobby, the web door's own cap);
- caps: one visitor holds all it may (--max-sessions-per-address, --max-tables-per-address);
- rate: too many attempts from one address (--max-attempts-per-minute);
- memory: the server is past --max-server-mb;
- flood: more than a client may send (keys past the input cap, too many unauthenticated connections, too many
  refused requests, websocket messages too fast);
- auth: a key refused, too many keys offered, a connection that never logged in;
- forwarding: port, agent or X11 forwarding, tunnels;
- bad_input: what is not a way to play (a command, a subsystem, no terminal, a bad table or page name, a table
  to watch that does not exist, a second session, a signal, an env request, garbage on a table socket);
- game_id: a replay or an export that names no game it could reach (its id, battle, format, speed or size),
  over SSH, on a web page's address or a download's;
- stopping: the server is closing."""

SESSION_KINDS = ("player", "spectator", "lobby", "solo", "line")
"""What a session is (``war_tui_sessions{kind}``): seated at a table, watching one, in the lobby, a solo game,
or the line mode (whatever it plays there)."""

DOORS = ("ssh", "web")

GAME_ENDS = tuple(reason.value for reason in EndReason)
"""How a table's game ended (``war_tui_games_total{end}``): the engine's reasons."""

BEHIND_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds a screen is behind its table, up to what a player notices and past it."""

WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds a checkpoint takes to be kept: a fraction of a millisecond on one machine, seconds during an election."""


class Histogram:
    """Observations counted in fixed buckets (``le``, as Prometheus reads them), with their sum."""

    def __init__(self, buckets: Iterable[float]) -> None:
        self.bounds = tuple(buckets)
        self.counts = [0] * (len(self.bounds) + 1)  # the last: past every bound (+Inf)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def cumulative(self) -> list[tuple[str, int]]:
        """Each bucket's bound and the observations at or below it, +Inf last."""
        rows: list[tuple[str, int]] = []
        total = 0
        for bound, count in zip((*(repr(b) for b in self.bounds), "+Inf"), self.counts):
            total += count
            rows.append((bound, total))
        return rows


class ServerCounts:
    """The server's counters and histograms; gauges are read from the server itself when scraped."""

    def __init__(self) -> None:
        self.refusals = dict.fromkeys(REFUSAL_REASONS, 0)
        self.battles = 0
        self.games = dict.fromkeys(GAME_ENDS, 0)
        self.screen_behind = Histogram(BEHIND_BUCKETS)
        self.store_write = Histogram(WRITE_BUCKETS)

    def refused(self, reason: str) -> None:
        """One refusal; ``reason`` is one of ``REFUSAL_REASONS`` (a slip in a caller counts as bad input)."""
        if reason not in self.refusals:
            reason = "bad_input"
        self.refusals[reason] += 1

    def battle(self) -> None:
        self.battles += 1

    def game_over(self, end: str) -> None:
        if end in self.games:
            self.games[end] += 1
