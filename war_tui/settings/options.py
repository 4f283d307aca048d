"""Every setting of the game declared once, in one table: ``PLAY``.

An ``Option`` names a setting, its parser (with its range), default and help, and what else it is: a
preference key, a choice for one run, a served variable, a ``PlaySettings`` field. The game's flags
(``add_flags``), the file's keys (``preference_checks``), the defaults and the served environment
(``read_served``, ``served_environment``) come from here, as do the servers' flags. It imports only the
values it checks: ``war-tui game`` loads it on every start.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Literal, TypeVar, overload

from ..core.pace import MAX
from ..core.rules import MAX_WAR_CARDS, MIN_WAR_CARDS, Gather, Rules
from ..presentation.speed import DEFAULT_SPEED, MAX_NUMERIC_SPEED, MIN_SPEED, SpeedError, parse_speed, speed_label
from . import file_values as keys
from .file_values import Check, Maker
from .served import (
    ACCESSIBLE_VARIABLE,
    ERROR_FD_VARIABLE,
    EXPORT_VARIABLE,
    LEADERBOARD_VARIABLE,
    LINE_INPUTS,
    LINE_VARIABLE,
    MAX_PLAYER_ID,
    NOTICE_VARIABLE,
    PLAYER_ID_VARIABLE,
    REPLAY_VARIABLE,
    SERVED_VARIABLE,
    SESSION_MINUTES_VARIABLE,
    SESSION_PLAYER_PREFIX,
    SSH_AT_VARIABLE,
    TABLE_FD_VARIABLE,
    TABLE_MODE_VARIABLE,
    TABLE_MODES,
    TOP_SPEED_VARIABLE,
    WEB_AT_VARIABLE,
    fd_number,
    one_of,
    switched_on,
)
from .values import (
    DECKS,
    HIGH_CONTRAST_THEME,
    MAX_MAX_BATTLES,
    MAX_MINUTES,
    MAX_SEED,
    config_path_value,
    deck_value,
    gather_value,
    minutes_value,
    number_value,
    path_value,
    positive_int,
    rows_value,
)

T = TypeVar("T")
U = TypeVar("U")
Kind = Literal["value", "switch", "either", "pair", "repeat"]
"""value: the flag takes one word; switch: ``--x`` alone; either: ``--x`` or ``--no-x``; pair: two words."""


@dataclass(frozen=True)
class Option(Generic[T]):
    """One setting: its flag ``--name-with-dashes``, its key ``name-with-dashes``, its field ``name``.

    ``help`` may name ``{low}``, ``{high}`` and ``{default}`` (with a format, like ``{high:,}``): a range
    and a default are written once, here, and said the same in the help, the errors and the file's checks.
    """

    name: str
    default: T
    help: str = ""
    parse: Callable[[str], T] | None = None  # the flag's word (or the variable's text) to the value; None: kept as text
    low: float | None = None  # the range ``parse`` holds to, for the help
    high: float | None = None
    metavar: str | tuple[str, str] | None = None
    group: str = ""  # the help's heading; "": the command's own options
    kind: Kind = "value"
    choices: tuple[str, ...] | None = None
    key: Maker | None = None  # a preference: makes the check of the file's value (``file_values``)
    per_run: str = ""  # a flag that is no preference: why, said for a key the file has anyway
    variable: str = ""  # a served variable: the environment variable ``serve-ssh`` sets for each game
    text: Callable[[T], str] = str  # a value as its variable holds it
    absent: Callable[[], T] | None = None  # a served variable the server did not set: this, not the default
    comes_with: str = ""  # a served variable set only together with this option's (an error alone)
    setting: bool = False  # a field of ``PlaySettings`` by the same name, whose default is this one
    flag: bool = True  # False: a served variable only
    exclusive: str = ""  # flags of one group that exclude each other share this word
    hidden: bool = False  # a flag for the programs that start the game, not for people

    @property
    def flag_name(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def key_name(self) -> str:
        """``pause_on_war`` is ``pause-on-war`` in the preferences file."""
        return self.name.replace("_", "-")

    @property
    def check(self) -> Check:
        """How the preferences file's value for this key is checked."""
        if self.key is None:
            raise ValueError(f"{self.name} is not a preference")
        return self.key(self)

    def help_text(self) -> str:
        return self.help.format(low=self.low, high=self.high, default=self.default)

    def add_to(self, group: Any, *, unset: bool = False) -> None:
        """Add the flag to an argparse parser or group; ``unset``: a preference's flag defaults to None, so
        only a flag actually given overrides the file."""
        kwargs: dict[str, Any] = {
            "default": None if unset and self.key is not None else self.default,
            "help": argparse.SUPPRESS if self.hidden else self.help_text(),
        }
        if self.kind == "switch":
            kwargs["action"] = "store_true"
        elif self.kind == "either":
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs["type"] = self.parse
            kwargs["metavar"] = self.metavar
            if self.choices is not None and self.parse is None:
                kwargs["choices"] = self.choices
            if self.kind == "pair":
                kwargs["nargs"] = 2
            elif self.kind == "repeat":
                kwargs["action"] = "append"  # None when never given: argparse appends to a list default
        group.add_argument(self.flag_name, **kwargs)


def whole(name: str, low: int, high: int, default: Any = None, *, what: str = "", span: str | None = None,
          **fields: Any) -> Option[Any]:
    """An option taking a whole number from ``low`` to ``high``; errors name ``what`` (the flag unless told)."""
    flag = "--" + name.replace("_", "-")
    parse = positive_int(what or flag, high, minimum=low, span=span)
    return Option(name, default, parse=parse, low=low, high=high, **fields)


def number(name: str, low: float, high: float, default: Any, unit: str, example: str | None = None,
           **fields: Any) -> Option[Any]:
    """An option taking a finite number from ``low`` to ``high`` ``unit`` (like ``example``; unless told, the
    default)."""
    parse = number_value("--" + name.replace("_", "-"), low, high, unit, example or f"{default:g}")
    return Option(name, default, parse=parse, low=low, high=high, **fields)


def add_flags(
    parser: argparse.ArgumentParser, options: Iterable[Option[Any]], *, unset: bool = False,
    descriptions: Mapping[str, str] | None = None,
) -> None:
    """Each option's flag, under its group's heading (``descriptions``: a few words under a heading)."""
    groups: dict[str, Any] = {}
    exclusive: dict[str, Any] = {}
    for option in options:
        if not option.flag:
            continue
        where: Any = parser
        if option.group:
            if option.group not in groups:
                groups[option.group] = parser.add_argument_group(option.group, (descriptions or {}).get(option.group))
            where = groups[option.group]
        if option.exclusive:
            if option.exclusive not in exclusive:
                exclusive[option.exclusive] = where.add_mutually_exclusive_group()
            where = exclusive[option.exclusive]
        option.add_to(where, unset=unset)


# ------------------------------------------------------------------ a server's settings, declared by their flags

OPTION = "war_tui.option"
HELD = "war_tui.held"


@overload
def setting(option: Option[T]) -> T: ...


@overload
def setting(option: Option[T], held: Callable[[T], U]) -> U: ...


def setting(option: Option[Any], held: Callable[[Any], Any] | None = None) -> Any:
    """A field of a settings dataclass declared by its flag's ``option``: its default is the option's (``held``
    as the field holds it: minutes as seconds, a ``--no-`` switch as what it turns off), and ``from_flags``
    reads it from the parsed flags. The option is the one place its name, range, default and help are written."""
    metadata = {OPTION: option} if held is None else {OPTION: option, HELD: held}
    return field(default=option.default if held is None else held(option.default), metadata=metadata)


def declared_options(settings: type) -> dict[str, Option[Any]]:
    """The options that declare fields of the dataclass ``settings`` (``setting``), by option name."""
    return {option.name: option for option in _declared(settings)}


def from_flags(settings: type, args: argparse.Namespace) -> dict[str, Any]:
    """The fields of the dataclass ``settings`` its flags declare, as ``args`` holds them, by field name."""
    values = {}
    for item in fields(settings):
        option = item.metadata.get(OPTION)
        if option is not None:
            value = getattr(args, option.name)
            held = item.metadata.get(HELD)
            values[item.name] = value if held is None else held(value)
    return values


def _declared(settings: type) -> Iterable[Option[Any]]:
    for item in fields(settings):
        option = item.metadata.get(OPTION)
        if option is not None:
            yield option


# ------------------------------------------------------------------ what a served variable holds

MAX_FD = 65535
MAX_NOTICE = 200


def _top_speed(text: str) -> float:
    try:
        return parse_speed(text) if text else MAX
    except SpeedError as exc:
        raise ValueError(f"{TOP_SPEED_VARIABLE}: {exc}") from None


def _notice(text: str) -> str | None:
    """One printable sentence, or nothing: a notice is a courtesy, never a reason to refuse the game."""
    return text if text.isprintable() and 0 < len(text) <= MAX_NOTICE else None


def _reached_at(text: str) -> str | None:
    """Printable ASCII of at most 300 characters, or nothing: a link is a courtesy, never a reason to refuse."""
    return text if text.isascii() and text.isprintable() and 0 < len(text) <= 300 else None


def _command_words(variable: str) -> Callable[[str], str]:
    """A command the server passes on (``12@40``, ``12 --format json``): printable ASCII, at most 64 characters;
    what the words mean is checked where they are used (``serving.commands``)."""

    def parse(text: str) -> str:
        if not (0 < len(text) <= 64 and text.isascii() and text.isprintable()):
            raise ValueError(f"{variable} must be 1 to 64 printable ASCII characters")
        return text

    return parse


def _player(text: str) -> str:
    if not (0 < len(text) <= MAX_PLAYER_ID and text.isascii() and text.isprintable()):
        raise ValueError(f"{PLAYER_ID_VARIABLE} must be 1 to {MAX_PLAYER_ID} printable ASCII characters")
    return text


def _on_or_off(variable: str) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        if text not in ("0", "1"):
            raise ValueError(f"{variable} must be 0 or 1")
        return text == "1"

    return parse


def _table_fd(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 3 <= int(text) <= MAX_FD:
        raise ValueError(f"{TABLE_FD_VARIABLE} must be a file descriptor number from 3 to {MAX_FD}")
    return int(text)


def _table_mode(text: str) -> str:
    if text not in TABLE_MODES:
        raise ValueError(f"{TABLE_MODE_VARIABLE} must be one of {', '.join(TABLE_MODES)}")
    return text


# ------------------------------------------------------------------ the game's settings

PLAYING = "playing (the full-screen game)"
LINE_MODE = "the line mode (plain sentences for screen readers and braille displays)"
HOUSE_RULES = "house rules"
PREFERENCES = "preferences"
STATISTICS = "statistics"

DEFAULT_NAMES = ("Player 1", "Player 2")
MIN_PACE, DEFAULT_PACE, MAX_PACE = 0.5, 3.0, 60.0
"""The line mode's seconds between auto-played battles: an ordinary battle takes about 2 to 4 s to speak at 175 wpm."""
ANNOUNCE = ("all", "wars")
"""What the line mode says on auto-play."""
PACKETS = "hand-made packets are for one run; give --p1 and --p2"
STATS_FILE = "war-tui stats reads the file its flags name, so statistics go where the flags say; give "
_RULES = Rules()


def speed_value(text: str) -> float:
    try:
        return parse_speed(text)
    except SpeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


SEED = whole(
    "seed", 0, MAX_SEED, what="seed", span=f"from 0 to {MAX_SEED}", group=PLAYING, setting=True,
    help="shuffle the first game with this seed, {low} to {high} (replays a deal)",
    per_run="a seed deals the same game at every start; give --seed for the run you want to replay",
)
P1: Option[str | None] = Option(
    "p1", None, metavar="CARDS", group=PLAYING, per_run=PACKETS,
    help='player 1\'s packet, top card first: "AS KD 10H 2C"',
)
P2: Option[str | None] = Option(
    "p2", None, metavar="CARDS", group=PLAYING, per_run=PACKETS, help="player 2's packet, top card first"
)
WAR_CARDS = whole(
    "war_cards", MIN_WAR_CARDS, MAX_WAR_CARDS, _RULES.war_cards, span=f"from {MIN_WAR_CARDS} to {MAX_WAR_CARDS}",
    metavar="N", group=HOUSE_RULES, key=keys.whole, help="cards laid face down in each war, {low}-{high} (default {default})",
)
GATHER: Option[Gather] = Option(
    "gather", _RULES.gather, parse=gather_value, metavar="ORDER", group=HOUSE_RULES,
    key=keys.word("a gather order's name"),
    help="order the won pile goes under the packet: " + ", ".join(g.value for g in Gather) + " (default {default})",
)
MAX_BATTLES = whole(
    "max_battles", 1, MAX_MAX_BATTLES, _RULES.max_battles, metavar="N", group=HOUSE_RULES, key=keys.whole,
    help="stop a game after N battles, {low} to {high:,} (default {default:,})",
)
RULES = (WAR_CARDS, GATHER, MAX_BATTLES)
"""The house rules, which ``war-tui game`` and ``simulate`` take too."""

PLAY: tuple[Option[Any], ...] = (
    SEED, P1, P2,
    Option("auto", False, kind="switch", group=PLAYING, key=keys.switch, setting=True, help="start with auto-play on"),
    Option(
        "speed", DEFAULT_SPEED, parse=speed_value, low=MIN_SPEED, high=MAX_NUMERIC_SPEED, metavar="S", group=PLAYING,
        key=keys.speed, setting=True,
        help="auto-play battles per second, {low:g} to {high:g}, or 'max' (default " + speed_label(DEFAULT_SPEED) + ")",
    ),
    Option(
        "screensaver", False, kind="switch", group=PLAYING, key=keys.switch, setting=True,
        help="auto-play forever: show each result for a few seconds, then deal again",
    ),
    Option(
        "pause_on_war", False, kind="either", group=PLAYING, key=keys.switch, setting=True,
        help="stop auto-play at every war (or not)",
    ),
    Option(
        "time_limit", None, parse=minutes_value("--time-limit"), low=0, high=MAX_MINUTES, metavar="MINUTES",
        group=PLAYING, key=keys.number("minutes", "5 or 0.5"), setting=True,
        help="end each game as stopped after this many minutes (more than 0, at most {high:,}), naming the leader",
    ),
    Option(
        "names", DEFAULT_NAMES, kind="pair", metavar=("A", "B"), group=PLAYING, key=keys.names, setting=True,
        help="the players' names",
    ),
    Option(
        "two_players", False, kind="switch", group=PLAYING, key=keys.switch, setting=True,
        help="two people at one keyboard: player 1 flips with f (or Left), player 2 with j (or Right);"
        " the battle is played when both have flipped",
    ),
    Option(
        "ascii", False, kind="either", group=PLAYING, key=keys.switch, setting=True,
        help="letters for suits and ASCII borders (or not)",
    ),
    Option(
        "deck", DECKS[0], parse=deck_value, choices=DECKS, metavar="COLOURS", group=PLAYING, key=keys.one_of,
        setting=True,
        help="two-colour (hearts and diamonds red, the default) or four-colour (diamonds blue, clubs green too)",
    ),
    Option(
        "theme", None, metavar="NAME", group=PLAYING, key=keys.theme, setting=True,
        help=f"the colours: '{HIGH_CONTRAST_THEME}' (every text at WCAG AA contrast) or one of Textual's themes",
    ),
    Option(
        "line", False, kind="switch", group=LINE_MODE, key=keys.switch,
        help="play in plain lines of text, one sentence per battle (also chosen by ACCESSIBLE=1)",
    ),
    Option(
        "terse", False, kind="switch", group=LINE_MODE, key=keys.switch,
        help="line mode: shorter sentences ('King beats three. 27 to 25.')",
    ),
    number(
        "pace", MIN_PACE, MAX_PACE, DEFAULT_PACE, "seconds", "3 or 1.5", metavar="SECONDS", group=LINE_MODE,
        key=keys.number("seconds", "3 or 1.5"),
        help="line mode: seconds between auto-played battles, {low:g} to {high:g} (default {default:g})",
    ),
    Option(
        "announce", ANNOUNCE[0], choices=ANNOUNCE, group=LINE_MODE, key=keys.one_of,
        help="line mode, auto-play: say every battle (all, the default) or only wars and every 10th battle (wars)",
    ),
    *RULES,
    Option(
        "config", None, parse=config_path_value, metavar="PATH", group=PREFERENCES, exclusive="file",
        per_run="it says which preferences file to read, so it cannot be in one",
        help="read and save preferences in this file",
    ),
    Option(
        "no_config", False, kind="switch", group=PREFERENCES, exclusive="file",
        per_run="it says not to read a preferences file, so it cannot be in one",
        help="neither read nor save a preferences file",
    ),
    Option(
        "config_read_only", False, kind="switch", group=PREFERENCES,
        per_run="give --config-read-only for the run that should save nothing",
        help="read the preferences file but save nothing to it: changes last for this session (serve-ssh games)",
    ),
    Option(
        "stats_db", None, parse=path_value("--stats-db"), metavar="PATH", group=STATISTICS,
        per_run=STATS_FILE + "--stats-db",
        help="record finished games in this SQLite file (default: stats.sqlite3 in your data folder)",
    ),
    Option("no_stats", False, kind="switch", group=STATISTICS, per_run=STATS_FILE + "--no-stats",
           help="record no statistics"),
    # Set by serve-ssh (--served-stats-rows) for its games; not a player's flag.
    Option("stats_rows", None, parse=rows_value("--stats-rows"), metavar="N", group=STATISTICS, hidden=True),
    # What serve-ssh tells each game; no client sets these (``settings.served``).
    Option("served", False, variable=SERVED_VARIABLE, text=lambda _: "1", setting=True, flag=False),
    Option(
        "top_speed", MAX, parse=_top_speed, variable=TOP_SPEED_VARIABLE, text=lambda v: f"{v:g}",
        setting=True, flag=False,
    ),
    Option("notice", None, parse=_notice, variable=NOTICE_VARIABLE, setting=True, flag=False),
    Option("ssh_at", None, parse=_reached_at, variable=SSH_AT_VARIABLE, setting=True, flag=False),
    Option("web_at", None, parse=_reached_at, variable=WEB_AT_VARIABLE, setting=True, flag=False),
    Option("replay", None, parse=_command_words(REPLAY_VARIABLE), variable=REPLAY_VARIABLE, setting=True, flag=False),
    Option("export", None, parse=_command_words(EXPORT_VARIABLE), variable=EXPORT_VARIABLE, setting=True, flag=False),
    Option(
        "session_minutes", None, parse=minutes_value(SESSION_MINUTES_VARIABLE), variable=SESSION_MINUTES_VARIABLE,
        text=lambda v: f"{v:g}", setting=True, flag=False,
    ),
    Option(
        "player", None, parse=_player, variable=PLAYER_ID_VARIABLE,
        absent=lambda: SESSION_PLAYER_PREFIX + secrets.token_hex(16), setting=True, flag=False,
    ),
    Option(
        "leaderboard", True, parse=_on_or_off(LEADERBOARD_VARIABLE), variable=LEADERBOARD_VARIABLE,
        text=lambda on: "1" if on else "0", setting=True, flag=False,
    ),
    Option(
        "table_fd", None, parse=_table_fd, variable=TABLE_FD_VARIABLE, comes_with="table_mode",
        setting=True, flag=False,
    ),
    Option(
        "table_mode", None, parse=_table_mode, variable=TABLE_MODE_VARIABLE, comes_with="table_fd",
        setting=True, flag=False,
    ),
    Option("line_input", None, parse=one_of(LINE_VARIABLE, LINE_INPUTS), variable=LINE_VARIABLE,
           setting=True, flag=False),
    # Read by serve-ssh's bootstrap (commands/serve_ssh.py) before any import.
    Option("error_fd", None, parse=fd_number(ERROR_FD_VARIABLE, MAX_FD), variable=ERROR_FD_VARIABLE,
           setting=True, flag=False),
    # Also read locally (commands/line.py): the user's variable, or an SSH client's.
    Option("accessible", False, parse=switched_on, variable=ACCESSIBLE_VARIABLE,
           text=lambda on: "1" if on else "0", setting=True, flag=False),
)
"""The full-screen game's flags, the preferences file's keys and the served variables, in the help's order."""

OPTIONS = {option.name: option for option in PLAY}
PREFERENCE_OPTIONS = tuple(option for option in PLAY if option.key is not None)
SERVED_OPTIONS = tuple(option for option in PLAY if option.variable)


def preference_checks() -> dict[str, Check]:
    """Every key the preferences file may hold, named like its flag, with the check its value must pass."""
    return {option.key_name: option.check for option in PREFERENCE_OPTIONS}


def per_run_reasons() -> dict[str, str]:
    """The game's flags that are not keys, and why: said for a key the file has anyway."""
    return {option.key_name: option.per_run for option in PLAY if option.per_run}


# ------------------------------------------------------------------ the served environment


def read_served(environ: Mapping[str, str]) -> dict[str, Any]:
    """What the server told this game, by ``PlaySettings`` field; nothing when it is not served.

    Raises ValueError, in one sentence naming the variable, for a value the server would never set.
    """
    if environ.get(SERVED_VARIABLE) != "1":
        return {}
    values: dict[str, Any] = {}
    for option in SERVED_OPTIONS:
        text = environ.get(option.variable)
        if text is None and option.comes_with:
            if environ.get(OPTIONS[option.comes_with].variable) is None:
                continue  # neither of the two: nothing to say
            text = ""  # one without the other: refused as empty
        if option.name == "served":
            values[option.name] = True
        elif text is None:
            values[option.name] = option.absent() if option.absent is not None else option.default
        else:
            values[option.name] = _read(option, text)
    return values


def _read(option: Option[Any], text: str) -> Any:
    if option.parse is None:
        return text
    try:
        return option.parse(text)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(str(exc)) from None


def served_environment(**values: Any) -> dict[str, str]:
    """The variables that tell a game these ``PlaySettings`` values (None: not told)."""
    env = {}
    for name, value in values.items():
        option = OPTIONS[name]
        if not option.variable:
            raise ValueError(f"{name} is not a served variable")
        if value is not None:
            env[option.variable] = option.text(value)
    return env
