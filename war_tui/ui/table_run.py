"""Which table a game at a table plays at: one of its own with both seats here (``--two-players``), or the
SSH server's, over the socket it passed down."""

from __future__ import annotations

import secrets

from ..settings.play import PlaySettings
from ..stats import StatsStore
from ..tables import RemoteGame
from .app import WarApp
from .table_connection import SocketHost


def run_table(settings: PlaySettings, stats: StatsStore | None) -> int:
    """The full-screen game at a table: ``--two-players``, or the socket the SSH server passed down."""
    if settings.two_players:
        first = [settings.seed] if settings.seed is not None else []
        seeds = lambda: first.pop() if first else secrets.randbelow(2**32)  # noqa: E731  # a closure over ``first``
        app = WarApp(settings, stats=stats, seed_source=seeds)
    else:
        assert settings.table_fd is not None
        host = SocketHost(settings.table_fd, RemoteGame(), mode=settings.table_mode or "play")
        app = WarApp(settings, stats=stats, table=host)
        host.on_closed = app.table_closed
    app.run()
    return app.return_code or 0
