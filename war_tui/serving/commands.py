"""The commands a connection may give instead of a plain game: ``table NAME``, ``watch NAME``, ``tables``,
and ``line`` (the game in plain sentences, with or without a terminal).

Anything else is not a command of ours and is refused as before. A table name is
checked here, before anything starts, by the rule of ``war_tui.tables.names``;
the refusal names the rule and never echoes what the client sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings.served import TableMode
from ..tables.names import TableNameError, parse_table_name

USAGE = "ssh -t HOST table NAME, watch NAME or tables"
LINE_USAGE = "ssh -T HOST line, line table NAME or line watch NAME"

__all__ = [
    "LINE_USAGE", "USAGE", "CommandRefused", "LineCommand", "TableCommand", "TableMode", "Way", "parse_command",
    "way_to_play",
]


@dataclass(frozen=True, slots=True)
class TableCommand:
    mode: TableMode
    table: str | None  # the case-folded table name; None for the lobby


@dataclass(frozen=True, slots=True)
class LineCommand:
    """``line``, ``line table NAME``, ``line watch NAME``: the line mode, which needs no terminal."""

    table: TableCommand | None = None  # None: a solo game


@dataclass(frozen=True, slots=True)
class Way:
    """The way a client plays, whichever door it came through: solo, at a table (or its lobby), in the line mode
    or on the full screen."""

    line: bool
    table: TableCommand | None


class CommandRefused(ValueError):
    """A table command that cannot be carried out; the message is one line fit for the client."""


def parse_command(command: str) -> TableCommand | LineCommand | None:
    """The command ``command`` gives, or None when it is no command of ours at all.

    Raises ``CommandRefused`` for a table command with a bad or missing table name.
    """
    words = command.split()
    if words[:1] == ["line"]:
        if len(words) == 1:
            return LineCommand()
        if words[1] not in ("table", "watch"):
            raise CommandRefused(f"the line mode takes 'table NAME' or 'watch NAME' or nothing: {LINE_USAGE}")
        table = parse_command(" ".join(words[1:]))
        return LineCommand(table if isinstance(table, TableCommand) else None)
    if not words or words[0] not in ("table", "watch", "tables"):
        return None
    verb, rest = words[0], words[1:]
    if verb == "tables":
        if rest:
            raise CommandRefused(f"'tables' takes no table name: {USAGE}")
        return TableCommand(TableMode.LOBBY, None)
    if len(rest) > 1:
        raise CommandRefused(f"'{verb}' takes one table name: {USAGE}")
    try:
        name = parse_table_name(rest[0] if rest else "")
    except TableNameError as error:
        raise CommandRefused(str(error)) from None
    return TableCommand(TableMode.PLAY if verb == "table" else TableMode.WATCH, name)


def way_to_play(command: TableCommand | LineCommand | None, *, line: bool = False) -> Way:
    """What a door's command plays: the one place every command (an SSH command, a web page's path) becomes the
    way its game is played. ``line``: the line mode asked for another way (``ACCESSIBLE``)."""
    if isinstance(command, LineCommand):
        return Way(line=True, table=command.table)
    return Way(line=line, table=command)
