"""``war-tui`` with no command: the full-screen game. Flags are checked before any screen opens."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Collection, Mapping
from typing import Any, TextIO

from ..settings.preferences import ConfigRead, Preferences, default_path, key_for, read_config
from ..core.pace import MAX
from ..presentation.speed import DEFAULT_SPEED, SpeedError, parse_speed, speed_label
from ..core.rules import Rules
from ..settings.play import DEFAULT_NAMES, PlaySettings
from ..settings.served import (
    MAX_PLAYER_ID, PLAYER_ID_VARIABLE, SESSION_PLAYER_PREFIX, NOTICE_VARIABLE, SERVED_VARIABLE, SESSION_MINUTES_VARIABLE, TABLE_FD_VARIABLE, TABLE_MODE_VARIABLE, TABLE_MODES, TOP_SPEED_VARIABLE,
)
from ..settings.values import HIGH_CONTRAST_THEME, deck_value, names_value
from ..stats import StatsStore
from ..settings.values import MAX_MINUTES, MAX_SEED, minutes_value, seed_value
from .common import UsageError, add_rule_flags, rules_from_args
from .config import config_path_value, theme_names
from . import line as line_cmd
from .line import add_line_flags
from .game import add_packet_flags, packets_from_args
from .stats import add_stats_flags, check_stats_flags, store_from_args


def speed_value(text: str) -> float:
    try:
        return parse_speed(text)
    except SpeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_play_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("playing (the full-screen game)")
    group.add_argument(
        "--seed", type=seed_value, help=f"shuffle the first game with this seed, 0 to {MAX_SEED} (replays a deal)"
    )
    add_packet_flags(group)  # the first game from hand-made packets, as war-tui game takes them
    group.add_argument("--auto", action="store_true", help="start with auto-play on")
    group.add_argument(
        "--speed", type=speed_value, metavar="S",
        help=f"auto-play battles per second, 0.5 to 1000, or 'max' (default {speed_label(DEFAULT_SPEED)})",
    )
    group.add_argument(
        "--screensaver", action="store_true",
        help="auto-play forever: show each result for a few seconds, then deal again",
    )
    group.add_argument(
        "--pause-on-war", action=argparse.BooleanOptionalAction, help="stop auto-play at every war (or not)"
    )
    group.add_argument(
        "--time-limit", type=minutes_value("--time-limit"), metavar="MINUTES",
        help=f"end each game as stopped after this many minutes (more than 0, at most {MAX_MINUTES:,}),"
        " naming the leader",
    )
    group.add_argument("--names", nargs=2, metavar=("A", "B"), help="the players' names")
    group.add_argument(
        "--two-players", action="store_true",
        help="two people at one keyboard: player 1 flips with f (or Left), player 2 with j (or Right);"
        " the battle is played when both have flipped",
    )
    group.add_argument(
        "--ascii", action=argparse.BooleanOptionalAction, help="letters for suits and ASCII borders (or not)"
    )
    group.add_argument(
        "--deck", type=deck_value, metavar="COLOURS",
        help="two-colour (hearts and diamonds red, the default) or four-colour (diamonds blue, clubs green too)",
    )
    group.add_argument(
        "--theme", metavar="NAME",
        help=f"the colours: '{HIGH_CONTRAST_THEME}' (every text at WCAG AA contrast) or one of Textual's themes",
    )
    add_line_flags(parser)
    add_rule_flags(parser)
    # Only a flag actually given overrides the preferences file: unset, each of these is None.
    parser.set_defaults(war_cards=None, gather=None, max_battles=None)
    add_config_flags(parser)
    add_stats_flags(parser)


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "preferences", f"names, speed, theme and house rules kept between runs (default file: {default_path()})"
    )
    which = group.add_mutually_exclusive_group()
    which.add_argument("--config", type=config_path_value, metavar="PATH", help="read and save preferences in this file")
    which.add_argument("--no-config", action="store_true", help="neither read nor save a preferences file")
    group.add_argument(
        "--config-read-only", action="store_true",
        help="read the preferences file but save nothing to it: changes last for this session (serve-ssh games)",
    )


def read_preferences(args: argparse.Namespace, themes: Collection[str] | None = None) -> ConfigRead:
    """The preferences file the flags point at; ``--config`` naming no file is a usage error."""
    path = default_path() if args.config is None else args.config
    if args.no_config:
        return ConfigRead(path)
    read = read_config(path, themes=themes)
    if args.config is not None and not read.found:
        raise UsageError(f"--config: there is no file at {path}")
    return read


_RULES = Rules()
PREFERENCE_DEFAULTS: dict[str, object] = {
    "names": DEFAULT_NAMES, "speed": DEFAULT_SPEED, "pause_on_war": False, "ascii": False, "theme": None,
    "deck": "two-colour",
    "war_cards": _RULES.war_cards, "gather": _RULES.gather, "max_battles": _RULES.max_battles,
}
"""What each preference is when neither a flag nor the file sets it (one entry per key of the file)."""


def merged(args: argparse.Namespace, read: ConfigRead) -> argparse.Namespace:
    """The flags given, then the file, then the defaults: one value for each preference."""
    chosen = argparse.Namespace(**vars(args))
    for name, default in PREFERENCE_DEFAULTS.items():
        given = getattr(args, name, None)
        setattr(chosen, name, given if given is not None else read.values.get(key_for(name), default))
    return chosen


def served_settings(environ: Mapping[str, str]) -> dict[str, Any]:  # PlaySettings fields and values
    """What the SSH server said about this game (see ``war_tui.settings.play``); nothing when not served."""
    if environ.get(SERVED_VARIABLE) != "1":
        return {}
    top = environ.get(TOP_SPEED_VARIABLE, "")
    try:
        top_speed = parse_speed(top) if top else MAX
    except SpeedError as exc:
        raise UsageError(f"{TOP_SPEED_VARIABLE}: {exc}") from None
    said = environ.get(NOTICE_VARIABLE, "")
    notice = said if said.isprintable() and 0 < len(said) <= 200 else None
    return {
        "served": True, "top_speed": top_speed, "notice": notice, "session_minutes": session_minutes(environ),
        "player": served_player(environ), **served_table(environ),
    }


def served_player(environ: Mapping[str, str]) -> str:
    """Who plays this served game (``WAR_TUI_PLAYER_ID``); without it, an identity of this session alone,
    so its statistics show this session's games and nobody else's."""
    player = environ.get(PLAYER_ID_VARIABLE)
    if player is None:
        import secrets

        return SESSION_PLAYER_PREFIX + secrets.token_hex(16)
    if not (0 < len(player) <= MAX_PLAYER_ID and player.isascii() and player.isprintable()):
        raise UsageError(f"{PLAYER_ID_VARIABLE} must be 1 to {MAX_PLAYER_ID} printable ASCII characters")
    return player


def session_minutes(environ: Mapping[str, str]) -> float | None:
    """The session limit the server running this game set (``serve-ssh --max-session-minutes``), or None."""
    text = environ.get(SESSION_MINUTES_VARIABLE)
    if text is None:
        return None
    try:
        return minutes_value(SESSION_MINUTES_VARIABLE)(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None


MAX_FD = 65535


def served_table(environ: Mapping[str, str]) -> dict[str, Any]:
    """The shared table the server joined this game to (``WAR_TUI_TABLE_FD`` and ``_MODE``); nothing without one."""
    fd_text = environ.get(TABLE_FD_VARIABLE)
    mode = environ.get(TABLE_MODE_VARIABLE)
    if fd_text is None and mode is None:
        return {}
    if fd_text is None or not fd_text.isascii() or not fd_text.isdigit() or not 3 <= int(fd_text) <= MAX_FD:
        raise UsageError(f"{TABLE_FD_VARIABLE} must be a file descriptor number from 3 to {MAX_FD}")
    if mode not in TABLE_MODES:
        raise UsageError(f"{TABLE_MODE_VARIABLE} must be one of {', '.join(TABLE_MODES)}")
    return {"table_fd": int(fd_text), "table_mode": mode}


NOT_AT_A_TABLE = {
    "screensaver": "--screensaver", "time_limit": "--time-limit", "seed": "--seed",
}
"""Flags of a solo game that mean nothing at a table (the table deals, plays and ends its games)."""


def check_table_flags(args: argparse.Namespace, served: Mapping[str, object]) -> None:
    """Refuse what makes no sense with --two-players or at a served table, in one line."""
    at_table = "table_fd" in served
    if args.two_players and at_table:
        raise UsageError("--two-players is for two people at one keyboard, not for a game served at a table")
    if not (args.two_players or at_table):
        return
    where = "--two-players" if args.two_players else "a game at a shared table"
    refused = [flag for dest, flag in NOT_AT_A_TABLE.items() if getattr(args, dest) not in (None, False)
               and not (dest == "seed" and args.two_players)]
    if refused:
        verb = "makes" if len(refused) == 1 else "make"
        raise UsageError(f"{' and '.join(refused)} {verb} no sense with {where}: the table deals and plays its games")


def settings_from_args(
    args: argparse.Namespace, environ: Mapping[str, str] | None = None, *, themes: Collection[str] | None = None
) -> PlaySettings:
    """The session the flags, the preferences file and (for a served game) the SSH server ask for.

    ``themes``: the names a theme may take. A served game reads the server user's preferences
    but never saves into them: the player is not that user.
    """
    served = served_settings(environ or {})
    read = read_preferences(args, themes)
    chosen = merged(args, read)
    try:
        names = names_value(chosen.names)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_table_flags(args, served)
    check_theme(args, themes)
    save = not (args.no_config or args.config_read_only or served)
    packets = packets_from_args(args)
    return PlaySettings(
        seed=args.seed,
        packets=packets,
        rules=rules_from_args(chosen),
        auto=args.auto,
        speed=chosen.speed,
        screensaver=args.screensaver,
        pause_on_war=chosen.pause_on_war,
        time_limit=args.time_limit,
        names=names,
        ascii=chosen.ascii,
        theme=chosen.theme,
        deck=chosen.deck,
        config_problems=read.problems,
        preferences=Preferences(read.path, {"speed": chosen.speed, "theme": chosen.theme}, themes=themes)
        if save else None,
        two_players=args.two_players,
        **served,
    )


def check_theme(args: argparse.Namespace, themes: Collection[str] | None) -> None:
    """``--theme`` names a theme there is (the file's ``theme`` is checked as the file is read)."""
    theme = getattr(args, "theme", None)
    if theme is None or themes is None or theme in themes:
        return
    import difflib

    close = difflib.get_close_matches(theme, themes, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"try '{HIGH_CONTRAST_THEME}' or the palette's 'Change theme'"
    raise UsageError(f"--theme: there is no theme called '{theme[:40]}' ({hint})")


HEADLESS = "try 'war-tui game' (one game as text) or 'war-tui simulate'"


def terminal_problem(environ: Mapping[str, str], stdin: TextIO, stdout: TextIO) -> str | None:
    """Why the full screen cannot be drawn here, or None: it needs a terminal on stdin and stdout
    that can place the cursor (drawn into a file or a dumb terminal, it is escape codes forever)."""
    if not (_is_tty(stdin) and _is_tty(stdout)):
        return "the full-screen game needs a terminal on stdin and stdout"
    term = environ.get("TERM", "").strip()
    if not term:
        return "TERM is not set, so the full-screen game cannot tell what the terminal can do"
    if term == "dumb" or not _places_cursor(term, stdout):
        return f"TERM={term} cannot place the cursor, which the full-screen game needs"
    return None


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _places_cursor(term: str, stdout: TextIO) -> bool:
    """False only when the terminal database knows ``term`` and says it has no cursor addressing;
    a terminal it does not know (newer than the database, say) gets the benefit of the doubt."""
    try:
        import curses

        curses.setupterm(term, stdout.fileno())
        return curses.tigetstr("cup") is not None
    except Exception:  # noqa: BLE001 (no curses here, or a terminal the database does not know)
        return True


def run(args: argparse.Namespace) -> int:
    wanted = line_cmd.line_wanted(args, os.environ)
    problem = None if wanted else terminal_problem(os.environ, sys.stdin, sys.stdout)
    # The line mode never loads Textual, not even for the names of its themes.
    settings = settings_from_args(args, os.environ, themes=None if wanted or problem else theme_names())
    check_stats_flags(args)
    if problem and not line_cmd.line_possible(settings):
        raise UsageError(f"{problem}; {HEADLESS}")
    if not (wanted or problem or settings.served):  # a server's flags are for its line sessions too
        line_cmd.check_full_screen_flags(args)
    if wanted or problem:
        line_cmd.check_line_flags(args, settings)
        store = store_from_args(args)
        code = line_cmd.run_line_mode(args, settings, store, problem)
        return keep_unsaved_games(store) or code
    store = store_from_args(args)
    if settings.two_players or settings.table_fd is not None:
        from ..ui.table_run import run_table  # Textual loads only when a screen is really wanted

        code = run_table(settings, store)
    else:
        from ..ui.app import WarApp  # Textual loads only when a screen is really wanted

        app = WarApp(settings, stats=store)
        app.run()
        code = app.return_code or 0
    return keep_unsaved_games(store) or code


def keep_unsaved_games(store: StatsStore) -> int:
    """Games the statistics file still refuses after the quit go to the recovery file beside it,
    where the next run finds them; say where on stderr. The exit status: 0 when nothing was left."""
    if not store.pending or store.save_pending(within=0.2):
        return 0
    try:
        rescued = store.rescue()
    except OSError as exc:
        sys.stderr.write(
            f"war-tui: {store.pending} finished games could not be saved: {store.path} stayed locked"
            f" and the recovery file could not be written ({exc.strerror or exc})\n"
        )
        return 1
    if rescued is None:
        return 0
    count, where = rescued
    games = "1 finished game" if count == 1 else f"{count:,} finished games"
    sys.stderr.write(
        f"war-tui: {store.path} stayed locked by another program; {games} are kept in {where}"
        " and saved by the next war-tui that records statistics\n"
    )
    return 1
