"""The table's grid on the board: the packets in its left column, the pile across both rows on the right.

Its children cover every cell of it, so it draws nothing of its own (``BLANK``): a battle repaints the
board from the status line to the log, and a container drawn through Textual's styles costs a render
of all its rows every frame though none of them shows.
"""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Container


class TableGrid(Container):
    BLANK: ClassVar[bool] = True
