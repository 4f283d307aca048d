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
from ..stats.records import TABLE_GAME_ID
from ..tables.names import TableNameError, parse_table_name

USAGE = "ssh -t HOST table NAME, watch NAME, tables or tv"
REPLAY_USAGE = "ssh -t HOST replay GAME_ID or replay GAME_ID@BATTLE"
EXPORT_USAGE = "ssh HOST export GAME_ID --format json, text or cast (cast: --speed 1|2|4|8, --size COLSxROWS)"
EXPORT_FORMATS = ("json", "text", "cast")
CAST_SPEEDS = (1, 2, 4, 8)
"""A recording's battles a second, as the replay's + and - give them."""
CAST_SIZE = (80, 24)
SMALLEST_CAST, LARGEST_CAST = (40, 12), (300, 100)
"""The terminal sizes a recording is drawn for, columns and rows."""
MOST_GAME_ID = 2**63 - 1  # SQLite's largest row id
GAME_ID_RULE = (f"a game's id is a whole number from 1 to {MOST_GAME_ID}, or a table game's id as its result"
                " shows it (TABLE.NONCE.NUMBER)")
MOST_BATTLE = 1_000_000  # stats.replay.MOST_BATTLES: no replayed game has more
LINE_USAGE = "ssh -T HOST line, line table NAME, line watch NAME, line tv or line replay GAME_ID"

__all__ = [
    "CAST_SIZE", "CAST_SPEEDS", "EXPORT_FORMATS", "EXPORT_USAGE", "LARGEST_CAST", "SMALLEST_CAST", "ExportCommand", "LINE_USAGE", "REPLAY_USAGE", "USAGE", "CommandRefused", "GameRefused", "LineCommand", "ReplayCommand", "TableCommand",
    "TableMode", "Way", "cast_size", "cast_speed", "parse_command", "parse_export", "parse_replay", "way_to_play",
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

    game_id: int | str  # a row of the served statistics, or a table game's own id (TABLE_GAME_ID)
    battle: int | None = None  # None: the first battle

    def words(self) -> str:
        """As the game is told it (``WAR_TUI_REPLAY``) and as a link names it: ``12`` or ``12@40``."""
        return str(self.game_id) if self.battle is None else f"{self.game_id}@{self.battle}"


@dataclass(frozen=True, slots=True)
class ExportCommand:
    """``export GAME_ID --format F``: a finished game of the served statistics written to the client's output."""

    game_id: int | str  # as ReplayCommand's
    format: str = "json"
    speed: int = 1  # a recording's battles a second (CAST_SPEEDS)
    size: tuple[int, int] = CAST_SIZE  # a recording's terminal, columns and rows

    def words(self) -> str:
        """As the game is told it (``WAR_TUI_EXPORT``): ``12 --format json``, ``12 --format cast --speed 4
        --size 100x30``."""
        cast = f" --speed {self.speed} --size {self.size[0]}x{self.size[1]}" if self.format == "cast" else ""
        return f"{self.game_id} --format {self.format}{cast}"


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
    game_id = game_id_of(game)
    if game_id is None:
        raise GameRefused(f"{GAME_ID_RULE}: {REPLAY_USAGE}")
    if at and not _whole(battle, MOST_BATTLE):
        raise GameRefused(f"a battle is a whole number from 1 to {MOST_BATTLE:,} after the '@': {REPLAY_USAGE}")
    return ReplayCommand(game_id, int(battle) if at else None)


def game_id_of(text: str) -> int | str | None:
    """A game's id as a person gives it: a whole number (a row of this server's statistics), or a table game's
    own id (``TABLE_GAME_ID``, as a table's result shows it); None for anything else."""
    if _whole(text, MOST_GAME_ID):
        return int(text)
    return text if TABLE_GAME_ID.fullmatch(text) else None


def parse_export(words: list[str]) -> ExportCommand:
    """``GAME_ID``, then ``--format F`` (json when not given) and, for a cast, ``--speed N`` and ``--size COLSxROWS``,
    each once, in any order, also as ``--name=value``; ``GameRefused`` names the rule and never echoes what came."""
    game_id = game_id_of(words[0]) if words else None
    if game_id is None:
        raise GameRefused(f"{GAME_ID_RULE}: {EXPORT_USAGE}")
    given: dict[str, str] = {}
    rest = [part for word in words[1:] for part in (word.split("=", 1) if word.startswith("--") else [word])]
    while rest:
        name, value = rest[0], rest[1] if len(rest) > 1 else None
        if name not in ("--format", "--speed", "--size") or name in given or value is None:
            raise GameRefused(f"'export' takes a game's id, --format json, text or cast, and for a cast --speed and"
                              f" --size, each once: {EXPORT_USAGE}")
        given[name], rest = value, rest[2:]
    form = given.get("--format", "json")
    if form not in EXPORT_FORMATS:
        raise GameRefused(f"'export' takes a game's id and --format json, text or cast: {EXPORT_USAGE}")
    if form != "cast" and ("--speed" in given or "--size" in given):
        raise GameRefused("--speed and --size are for --format cast")
    speed = cast_speed(given.get("--speed", str(CAST_SPEEDS[0])))
    size = cast_size(given.get("--size", f"{CAST_SIZE[0]}x{CAST_SIZE[1]}"))
    return ExportCommand(game_id, form, speed, size)


def cast_speed(text: str) -> int:
    """A recording's speed: 1, 2, 4 or 8 battles a second; ``GameRefused`` otherwise."""
    if text.isascii() and text.isdigit() and len(text) == 1 and int(text) in CAST_SPEEDS:
        return int(text)
    raise GameRefused("a recording's speed is 1, 2, 4 or 8 (battles a second)")


def cast_size(text: str) -> tuple[int, int]:
    """A recording's terminal, ``COLSxROWS`` from 40x12 to 300x100; ``GameRefused`` otherwise."""
    columns, x, rows = text.lower().partition("x")
    if x and _whole(columns, LARGEST_CAST[0]) and _whole(rows, LARGEST_CAST[1]):
        size = int(columns), int(rows)
        if size[0] >= SMALLEST_CAST[0] and size[1] >= SMALLEST_CAST[1]:
            return size
    raise GameRefused(
        f"a recording's size is COLSxROWS from {SMALLEST_CAST[0]}x{SMALLEST_CAST[1]} to"
        f" {LARGEST_CAST[0]}x{LARGEST_CAST[1]}"
    )


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
