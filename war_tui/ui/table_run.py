"""Which app a game at a table runs: both seats here (``--two-players``), or one over the SSH server's socket.

Apart from both apps so that neither module imports the other's.
"""

from __future__ import annotations

import secrets

from ..settings.play import PlaySettings
from ..stats import StatsStore
from .table_app import TableApp
from .table_connection import SocketHost
from ..tables import TableGame
from .two_player_app import TwoPlayerApp


def run_table(settings: PlaySettings, stats: StatsStore | None) -> int:
    """The full-screen game at a table: ``--two-players``, or the socket the SSH server passed down."""
    app: TableApp
    if settings.two_players:
        first = [settings.seed] if settings.seed is not None else []
        seeds = lambda: first.pop() if first else secrets.randbelow(2**32)  # noqa: E731 (a seed source in one line)
        app = TwoPlayerApp(settings, stats=stats, seed_source=seeds)
    else:
        assert settings.table_fd is not None
        host = SocketHost(settings.table_fd, TableGame(), mode=settings.table_mode or "play")
        app = TableApp(settings, host, stats=stats)
        host.on_closed = app.table_closed
    app.run()
    return app.return_code or 0
