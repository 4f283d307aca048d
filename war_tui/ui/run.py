"""The full-screen game from its settings; which way it is played is ``controllers.choose``'s to decide."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..settings.play import PlaySettings
from ..stats import StatsStore
from .app import WarApp

if TYPE_CHECKING:  # a solo game loads nothing of the tables
    from .table_connection import SocketHost


def run_game(settings: PlaySettings, stats: StatsStore | None) -> int:
    """Runs the app until it quits and returns its exit status."""
    host = server_table(settings)
    app = WarApp(settings, stats=stats, table=host)
    if host is not None:
        host.on_closed = app.table_closed
    app.run()
    if app.goodbye is not None:
        sys.stdout.write(app.goodbye + "\n")
        sys.stdout.flush()
    return app.return_code or 0


def server_table(settings: PlaySettings) -> SocketHost | None:
    """The socket to the SSH server's table it passed down, if it did."""
    if settings.table_fd is None:
        return None
    from ..tables import RemoteGame
    from .table_connection import SocketHost

    return SocketHost(settings.table_fd, RemoteGame(), mode=settings.table_mode or "play")
