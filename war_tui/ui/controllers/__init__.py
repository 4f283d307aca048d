"""One controller per way to play: a solo game (``solo``), a seat (or a spectator's chair) at a table
(``table``), two players at one keyboard (``two_players``).

A controller is a plain class (no Textual): it turns the app's actions (keys) into
moves or requests, and its game's events into the board's state. The app picks one
and gives it the board and a ``Shell`` (notices, timers, the screens over the board);
its unit tests give it stand-ins for both. A solo game loads nothing of the tables.
"""

from .base import BoardState, Controller, ResultShown, Shell, Stoppable

__all__ = ["BoardState", "Controller", "ResultShown", "Shell", "Stoppable"]
