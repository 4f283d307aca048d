"""What the board shows, as plain text: a widget's rows, the seats line, the requests and the battle log."""

from __future__ import annotations

from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.seats import SeatsLine


def drawn(widget) -> str:
    """What a widget shows inside its border, row by row, as plain text (as the screen has it, trailing blanks cut)."""
    rows = [widget.render_line(y).text for y in range(widget.content_size.height)]
    if isinstance(widget, (Pile, Packet)):  # they draw their own frames
        rows = [row[1:-1] for row in rows[1:-1]]
    return "\n".join(row.rstrip() for row in rows)


def seats(app) -> str:
    """The seats line as drawn ("" while the board is being composed again for new names)."""
    found = app.query(SeatsLine)
    return drawn(found.first()) if found else ""


def requests(app) -> str:
    """The table's open requests, one a line."""
    return "\n".join(app.board.requests)


def log_text(app) -> str:
    """The battle log's lines ("" while the board has none)."""
    found = app.query(BattleLog)
    return "\n".join(found.first().lines) if found else ""
