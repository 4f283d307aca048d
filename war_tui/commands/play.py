"""``war-tui`` with no command: the full-screen game. Flags are checked before any screen opens."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Collection, Mapping
from typing import Any, TextIO

from ..core.plural import counted
from ..settings.options import LINE_MODE, OPTIONS, PLAY, PREFERENCE_OPTIONS, PREFERENCES, add_flags, read_served
from ..settings.play import PlaySettings
from ..settings.preferences import ConfigRead, Preferences, default_path, key_for, read_config
from ..settings.served import EXPORT_VARIABLE, REPLAY_VARIABLE, SERVED_VARIABLE
from ..settings.values import HIGH_CONTRAST_THEME, names_value
from ..stats import StatsStore
from . import line as line_cmd
from .common import UsageError, rules_from_args
from .config import theme_names
from .game import packets_from_args
from .stats import check_stats_flags, store_from_args


def add_play_flags(parser: argparse.ArgumentParser) -> None:
    """The full-screen game's flags, from the option table; a preference's flag is None unless given."""
    described = f"names, speed, theme and house rules kept between runs (default file: {default_path()})"
    add_flags(parser, PLAY, unset=True, descriptions={PREFERENCES: described})


def read_preferences(args: argparse.Namespace, themes: Collection[str] | None = None) -> ConfigRead:
    """The preferences file the flags point at; ``--config`` naming no file is a usage error."""
    path = default_path() if args.config is None else args.config
    if args.no_config:
        return ConfigRead(path)
    read = read_config(path, themes=themes)
    if args.config is not None and not read.found:
        raise UsageError(f"--config: there is no file at {path}")
    return read


PREFERENCE_DEFAULTS: dict[str, object] = {option.name: option.default for option in PREFERENCE_OPTIONS}
"""What each preference is when neither a flag nor the file sets it (one entry per key of the file)."""


def merged(args: argparse.Namespace, read: ConfigRead) -> argparse.Namespace:
    """The flags given, then the file, then the defaults: one value for each preference."""
    chosen = argparse.Namespace(**vars(args))
    for name, default in PREFERENCE_DEFAULTS.items():
        given = getattr(args, name, None)
        setattr(chosen, name, given if given is not None else read.values.get(key_for(name), default))
    return chosen


def served_settings(environ: Mapping[str, str]) -> dict[str, Any]:  # PlaySettings fields and values
    """What the SSH server said about this game (``war_tui.settings.options``' served variables); nothing when not served."""
    try:
        return read_served(environ)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


NOT_AT_A_TABLE = ("screensaver", "time_limit")
"""Flags of a solo game that mean nothing at a table (the table deals, plays and ends its games)."""
NOT_SERVED = "--two-players is for two people at one keyboard, not for SSH sessions (each player connects on their own)"


def check_table_flags(args: argparse.Namespace, served: Mapping[str, object]) -> None:
    """Refuse what makes no sense with --two-players, in one line.

    A served table or lobby leaves the solo flags out instead (--screensaver, --time-limit, --seed,
    --p1/--p2, --auto: ``settings_from_args``): they are serve-ssh's game flags, given for its solo
    sessions (``serve-ssh -- --screensaver``, a kiosk), and nobody at a table chose them.
    """
    if "table_fd" in served:
        if args.two_players:
            raise UsageError(NOT_SERVED)
        return
    if not args.two_players:
        return
    refused = [OPTIONS[name].flag_name for name in NOT_AT_A_TABLE if getattr(args, name) not in (None, False)]
    if refused:
        verb = "makes" if len(refused) == 1 else "make"
        raise UsageError(
            f"{' and '.join(refused)} {verb} no sense with --two-players: the table deals and plays its games"
        )


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
    # The file's two-players is this keyboard's; its screensaver and time limit a solo game's.
    two_players = bool(args.two_players or (chosen.two_players and not served))
    at_table = "table_fd" in served
    solo = not two_players and not at_table
    return PlaySettings(
        seed=None if at_table else args.seed,
        packets=None if at_table else packets,
        rules=rules_from_args(chosen),
        auto=bool(chosen.auto) and not at_table,
        speed=chosen.speed,
        screensaver=bool((args.screensaver and not at_table) or (chosen.screensaver and solo)),
        pause_on_war=chosen.pause_on_war,
        time_limit=None if at_table else args.time_limit if args.time_limit is not None else
        chosen.time_limit if solo else None,
        names=names,
        ascii=chosen.ascii,
        theme=chosen.theme,
        deck=chosen.deck,
        config_problems=read.problems,
        preferences=Preferences(read.path, {"speed": chosen.speed, "theme": chosen.theme}, themes=themes)
        if save else None,
        two_players=two_players,
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


LINE_KEYS = tuple(option.name for option in PREFERENCE_OPTIONS if option.group == LINE_MODE)
"""The line mode's preferences: its flags read them from the file before it decides whether to run."""


def with_line_preferences(args: argparse.Namespace) -> argparse.Namespace:
    """The flags, with the file's line-mode keys where no flag was given (a flag given wins)."""
    try:
        values = read_preferences(args).values
    except UsageError:
        return args  # --config naming no file: settings_from_args says so
    chosen = argparse.Namespace(**vars(args))
    for name in LINE_KEYS:
        if getattr(args, name, None) in (None, False) and name in values:
            setattr(chosen, name, values[name])
    return chosen


def run(args: argparse.Namespace) -> int:
    if os.environ.get(SERVED_VARIABLE) == "1" and EXPORT_VARIABLE in os.environ:  # ssh HOST export GAME_ID
        from .export import run_served_export

        return run_served_export(args, os.environ)
    if os.environ.get(SERVED_VARIABLE) == "1" and REPLAY_VARIABLE in os.environ:  # ssh HOST replay GAME_ID
        from .replay import run_served

        return run_served(args, os.environ)
    args = with_line_preferences(args)
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
    from ..ui.run import run_game  # Textual loads only when a screen is really wanted

    code = run_game(settings, store)
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
            f"war-tui: {counted(store.pending, 'finished game', 'could', 'could')} not be saved: {store.path} stayed locked"
            f" and the recovery file could not be written ({exc.strerror or exc})\n"
        )
        return 1
    if rescued is None:
        return 0
    count, where = rescued
    sys.stderr.write(
        f"war-tui: {store.path} stayed locked by another program;"
        f" {counted(count, 'finished game', 'is', 'are')} kept in {where}"
        " and saved by the next war-tui that records statistics\n"
    )
    return 1
