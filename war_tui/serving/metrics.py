"""``/metrics``: the server's counts and gauges in Prometheus's text format, on a registry of the server's own.

Loaded only with ``--metrics`` (prometheus_client takes a while to import). Every value is read when scraped:
gauges from the server as it is (sessions, tables, the lease, NATS, game processes), counters and histograms
from ``counts.ServerCounts``, where the server adds to them as things happen. Every label comes from a fixed list
and every one of its values is always there (zeros too), so a scrape has the same series whoever plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from .counts import DOORS, SESSION_KINDS, Histogram

if TYPE_CHECKING:
    from .health import Health
    from .server import GameServer


class ServerCollector(Collector):
    """Everything the server tells ``/metrics`` but the process's own figures."""

    def __init__(self, server: GameServer, health: Health) -> None:
        self.server = server
        self.health = health

    def collect(self) -> Iterator[Metric]:
        server, counts = self.server, self.server.counts
        sessions = GaugeMetricFamily(
            "war_tui_sessions", "Games in progress, by door and kind (player, spectator, lobby, solo, line)",
            labels=["door", "kind"],
        )
        held = Counter(server.kinds())
        for door in DOORS:
            for kind in SESSION_KINDS:
                sessions.add_metric([door, kind], held[door, kind])
        yield sessions
        yield GaugeMetricFamily(
            "war_tui_tables", "Shared tables open on this server",
            value=sum(1 for table in server.tables.registry.tables if not table.closed),
        )
        yield CounterMetricFamily("war_tui_battles", "Battles played at this server's tables", value=counts.battles)
        games = CounterMetricFamily("war_tui_games", "Games over at this server's tables, by how they ended",
                                    labels=["end"])
        for end, number in counts.games.items():
            games.add_metric([end], number)
        yield games
        refusals = CounterMetricFamily("war_tui_refusals", "Connections, games and requests turned away, by reason",
                                       labels=["reason"])
        for reason, number in counts.refusals.items():
            refusals.add_metric([reason], number)
        yield refusals
        yield _histogram("war_tui_screen_behind_seconds",
                         "How far each screen at a table is behind its table, measured every second",
                         counts.screen_behind)
        yield _histogram("war_tui_store_write_seconds",
                         "Seconds a table's checkpoint took to be kept, from its first try", counts.store_write)
        yield GaugeMetricFamily("war_tui_node_lease", "1 while this node holds its lease in the cluster",
                                value=int(self.health.lease_held))
        yield GaugeMetricFamily("war_tui_nats_connected", "1 while NATS is connected and answered the last question",
                                value=int(self.health.nats_connected))
        yield GaugeMetricFamily("war_tui_game_processes", "Game processes running (players, spectators, renderers)",
                                value=server.game_processes())
        yield CounterMetricFamily("war_tui_flood_lines_held", "Log lines held back in a flood (summarised instead)",
                                  value=server.flood_log.held_total)


def _histogram(name: str, documentation: str, histogram: Histogram) -> HistogramMetricFamily:
    return HistogramMetricFamily(name, documentation, buckets=histogram.cumulative(), sum_value=histogram.sum)


def metrics_registry(server: GameServer, health: Health) -> CollectorRegistry:
    """A registry of the server's own (never prometheus_client's global one): its figures and the process's."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServerCollector(server, health))
    ProcessCollector(registry=registry)
    return registry


def exposition(registry: CollectorRegistry) -> bytes:
    """The registry in Prometheus's text format."""
    return generate_latest(registry)


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
