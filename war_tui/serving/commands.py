"""The commands a connection may give instead of a plain game: ``table NAME``, ``watch NAME``, ``tables``, ``tv``
(War TV: the live table most worth watching), ``line`` (the game in plain sentences, with or without a terminal), ``replay GAME_ID[@BATTLE]`` (a finished
game of the served statistics) and ``export GAME_ID --format json|text|cast`` (that game written out).

Anything else is not a command of ours and is refused as before. A table name is
checked here, before anything starts, by the rule of ``war_tui.tables.names``;
the refusal names the rule and never echoes what the client sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings.served import TableMode
from ..tables.names import TableNameError, parse_table_name

USAGE = "ssh -t HOST table NAME, watch NAME, tables or tv"
REPLAY_USAGE = "ssh -t HOST replay GAME_ID or replay GAME_ID@BATTLE"
EXPORT_USAGE = "ssh HOST export GAME_ID --format json, text or cast"
EXPORT_FORMATS = ("json", "text", "cast")
MOST_GAME_ID = 2**63 - 1  # SQLite's largest row id
MOST_BATTLE = 1_000_000  # stats.replay.MOST_BATTLES: no replayed game has more
LINE_USAGE = "ssh -T HOST line, line table NAME, line watch NAME, line tv or line replay GAME_ID"

__all__ = [
    "EXPORT_FORMATS", "EXPORT_USAGE", "ExportCommand", "LINE_USAGE", "REPLAY_USAGE", "USAGE", "CommandRefused", "GameRefused", "LineCommand", "ReplayCommand", "TableCommand",
    "TableMode", "Way", "parse_command", "parse_export", "parse_replay", "way_to_play",
]


@dataclass(frozen=True, slots=True)
class TableCommand:
    mode: TableMode
    table: str | None  # the case-folded table name; None for the lobby and War TV


@dataclass(frozen=True, slots=True)
class LineCommand:
    """``line``, ``line table NAME``, ``line watch NAME``, ``line tv``, ``line replay GAME_ID``: the line mode, which
    needs no terminal."""

    table: TableCommand | None = None  # None: a solo game (or a replay)
    replay: ReplayCommand | None = None


@dataclass(frozen=True, slots=True)
class ReplayCommand:
    """``replay GAME_ID[@BATTLE]``: a finished game of the served statistics, opened at a battle."""

    game_id: int
    battle: int | None = None  # None: the first battle

    def words(self) -> str:
        """As the game is told it (``WAR_TUI_REPLAY``) and as a link names it: ``12`` or ``12@40``."""
        return str(self.game_id) if self.battle is None else f"{self.game_id}@{self.battle}"


@dataclass(frozen=True, slots=True)
class ExportCommand:
    """``export GAME_ID --format F``: a finished game of the served statistics written to the client's output."""

    game_id: int
    format: str = "json"

    def words(self) -> str:
        """As the game is told it (``WAR_TUI_EXPORT``): ``12 --format json``."""
        return f"{self.game_id} --format {self.format}"


@dataclass(frozen=True, slots=True)
class Way:
    """The way a client plays, whichever door it came through: solo, at a table (or its lobby), in the line mode
    or on the full screen."""

    line: bool
    table: TableCommand | None
    replay: ReplayCommand | None = None
    export: ExportCommand | None = None


class CommandRefused(ValueError):
    """A table command that cannot be carried out; the message is one line fit for the client."""


class GameRefused(CommandRefused):
    """A ``replay`` or ``export`` that names no game it could reach (its id, battle or options): counted apart from
    the table names (``counts.REFUSAL_REASONS``' ``game_id``)."""


def parse_replay(text: str) -> ReplayCommand:
    """``GAME_ID`` or ``GAME_ID@BATTLE``, each a whole number in range; ``CommandRefused`` names the rule, and
    never echoes what was sent."""
    game, at, battle = text.partition("@")
    if not _whole(game, MOST_GAME_ID):
        raise GameRefused(f"a game's id is a whole number from 1 to {MOST_GAME_ID}: {REPLAY_USAGE}")
    if at and not _whole(battle, MOST_BATTLE):
        raise GameRefused(f"a battle is a whole number from 1 to {MOST_BATTLE:,} after the '@': {REPLAY_USAGE}")
    return ReplayCommand(int(game), int(battle) if at else None)


def parse_export(words: list[str]) -> ExportCommand:
    """``GAME_ID``, then ``--format F`` (or ``--format=F``) or nothing (json); ``CommandRefused`` names the rule."""
    if not words or not _whole(words[0], MOST_GAME_ID):
        raise GameRefused(f"a game's id is a whole number from 1 to {MOST_GAME_ID}: {EXPORT_USAGE}")
    rest = words[1:]
    if len(rest) == 1 and rest[0].startswith("--format="):
        rest = ["--format", rest[0].removeprefix("--format=")]
    if not rest:
        return ExportCommand(int(words[0]))
    if len(rest) != 2 or rest[0] != "--format" or rest[1] not in EXPORT_FORMATS:
        raise GameRefused(f"'export' takes a game's id and --format json, text or cast: {EXPORT_USAGE}")
    return ExportCommand(int(words[0]), rest[1])


def _whole(text: str, most: int) -> bool:
    return 0 < len(text) <= 19 and text.isascii() and text.isdigit() and 1 <= int(text) <= most


def _line_command(words: list[str]) -> LineCommand:
    """What follows ``line``: nothing (a solo game), ``table NAME``, ``watch NAME``, ``tv`` or ``replay GAME_ID``."""
    if not words:
        return LineCommand()
    if words[0] == "replay" and len(words) == 2:
        return LineCommand(replay=parse_replay(words[1]))
    if words[0] not in ("table", "watch", "tv"):
        raise CommandRefused(
            f"the line mode takes 'table NAME', 'watch NAME', 'tv', 'replay GAME_ID' or nothing: {LINE_USAGE}"
        )
    table = parse_command(" ".join(words))
    return LineCommand(table if isinstance(table, TableCommand) else None)


def parse_command(command: str) -> TableCommand | LineCommand | ReplayCommand | ExportCommand | None:
    """The command ``command`` gives, or None when it is no command of ours at all.

    Raises ``CommandRefused`` for a table command with a bad or missing table name, or a replay with a bad id.
    """
    words = command.split()
    if words[:1] == ["replay"]:
        if len(words) != 2:
            raise GameRefused(f"'replay' takes one game: {REPLAY_USAGE}")
        return parse_replay(words[1])
    if words[:1] == ["export"]:
        return parse_export(words[1:])
    if words[:1] == ["line"]:
        return _line_command(words[1:])
    if not words or words[0] not in ("table", "watch", "tables", "tv"):
        return None
    verb, rest = words[0], words[1:]
    if verb in ("tables", "tv"):
        if rest:
            raise CommandRefused(f"'{verb}' takes no table name: {USAGE}")
        return TableCommand(TableMode.LOBBY if verb == "tables" else TableMode.TV, None)
    if len(rest) > 1:
        raise CommandRefused(f"'{verb}' takes one table name: {USAGE}")
    try:
        name = parse_table_name(rest[0] if rest else "")
    except TableNameError as error:
        raise CommandRefused(str(error)) from None
    return TableCommand(TableMode.PLAY if verb == "table" else TableMode.WATCH, name)


def way_to_play(
    command: TableCommand | LineCommand | ReplayCommand | ExportCommand | None, *, line: bool = False
) -> Way:
    """What a door's command plays: the one place every command (an SSH command, a web page's path) becomes the
    way its game is played. ``line``: the line mode asked for another way (``ACCESSIBLE``)."""
    if isinstance(command, LineCommand):
        return Way(line=True, table=command.table, replay=command.replay)
    if isinstance(command, ExportCommand):  # text out, no terminal needed: set up as the line mode's
        return Way(line=True, table=None, export=command)
    if isinstance(command, ReplayCommand):
        return Way(line=line, table=None, replay=command)
    return Way(line=line, table=command)
