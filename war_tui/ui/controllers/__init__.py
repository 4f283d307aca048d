"""One controller per way to play: a solo game (``solo``), or a seat or spectator's chair at a table
(``table``, with a seat policy of ``seats``: one seat, or both at this keyboard, ``two_players``).

A controller is a plain class, no Textual: keys in, the board's state out; the board holds it and tells it as it lays a war.
``choose.controller_for`` picks it and gives it the board and the app in the roles it needs.
"""

from .base import AppRoles, BoardState, Controller, ResultShown, SoloShell, Stoppable, TableShell

__all__ = ["AppRoles", "BoardState", "Controller", "ResultShown", "SoloShell", "Stoppable", "TableShell"]
