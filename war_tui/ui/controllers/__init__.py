"""One controller per way to play: a solo game (``solo``), a seat (or a spectator's chair) at a table
(``table``, with one of the seat policies of ``seats``: one seat, or both seats at this keyboard, ``two_players``).

A controller is a plain class (no Textual): it turns the app's actions (keys) into
moves or requests, and its game's events into the board's state; it is the board's
``Pacer``. ``choose.controller_for`` is the one place that picks one; it gives it the
board and the app in the roles it needs (notices, timers, the screens over the board,
the files); its unit tests give it stand-ins for both. A solo game loads nothing of the tables.
"""

from .base import AppRoles, BoardState, Controller, ResultShown, SoloShell, Stoppable, TableShell

__all__ = ["AppRoles", "BoardState", "Controller", "ResultShown", "SoloShell", "Stoppable", "TableShell"]
