"""``war-tui`` with no command: the full-screen game. Flags are checked before any screen opens."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Mapping
from typing import TextIO

from ..presentation import DEFAULT_SPEED, SpeedError, cell_width, parse_speed, speed_label
from ..settings import DEFAULT_NAMES, MAX_NAME_LENGTH, PlaySettings
from .common import MAX_SEED, UsageError, shown, add_rule_flags, rules_from_args, seed_value
from ..stats import StatsStore
from .stats import add_stats_flags, check_stats_flags, store_from_args

MAX_TIME_LIMIT = 7 * 24 * 60  # minutes: a week is longer than anyone watches one game


def speed_value(text: str) -> float:
    try:
        return parse_speed(text)
    except SpeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def minutes_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time-limit must be minutes (like 5 or 0.5), not '{shown(text)}'") from None
    if not math.isfinite(value) or not 0 < value <= MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(
            f"--time-limit must be more than 0 and at most {MAX_TIME_LIMIT:,} minutes, not {shown(text)}"
        )
    return value


def add_play_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("playing (the full-screen game)")
    group.add_argument(
        "--seed", type=seed_value, help=f"shuffle the first game with this seed, 0 to {MAX_SEED} (replays a deal)"
    )
    group.add_argument("--auto", action="store_true", help="start with auto-play on")
    group.add_argument(
        "--speed", type=speed_value, default=DEFAULT_SPEED, metavar="S",
        help=f"auto-play battles per second, 0.5 to 1000, or 'max' (default {speed_label(DEFAULT_SPEED)})",
    )
    group.add_argument(
        "--screensaver", action="store_true",
        help="auto-play forever: show each result for a few seconds, then deal again",
    )
    group.add_argument("--pause-on-war", action="store_true", help="stop auto-play at every war")
    group.add_argument(
        "--time-limit", type=minutes_value, metavar="MINUTES",
        help=f"end each game as stopped after this many minutes (more than 0, at most {MAX_TIME_LIMIT:,}),"
        " naming the leader",
    )
    group.add_argument("--names", nargs=2, metavar=("A", "B"), help="the players' names")
    group.add_argument("--ascii", action="store_true", help="letters for suits and ASCII borders")
    add_rule_flags(parser)
    add_stats_flags(parser)


def settings_from_args(args: argparse.Namespace) -> PlaySettings:
    names = tuple(args.names) if args.names else DEFAULT_NAMES
    for name in names:
        if not name.strip() or not name.isprintable():
            raise UsageError("--names must be two printable, non-blank names")
        if cell_width(name) > MAX_NAME_LENGTH:
            raise UsageError(
                f"--names: '{name}' is wider than {MAX_NAME_LENGTH} columns (wide characters such as 山 take two)"
            )
    names = (names[0].strip(), names[1].strip())
    if names[0].casefold() == names[1].casefold():
        raise UsageError("--names: the two players need different names")
    return PlaySettings(
        seed=args.seed,
        rules=rules_from_args(args),
        auto=args.auto,
        speed=args.speed,
        screensaver=args.screensaver,
        pause_on_war=args.pause_on_war,
        time_limit=args.time_limit,
        names=names,
        ascii=args.ascii,
    )


HEADLESS = "try 'war-tui game' (one game as text) or 'war-tui simulate'"


def terminal_problem(environ: Mapping[str, str], stdin: TextIO, stdout: TextIO) -> str | None:
    """Why the full screen cannot be drawn here, or None: it needs a terminal on stdin and stdout
    that can place the cursor (drawn into a file or a dumb terminal, it is escape codes forever)."""
    if not (_is_tty(stdin) and _is_tty(stdout)):
        return f"the full-screen game needs a terminal on stdin and stdout; {HEADLESS}"
    term = environ.get("TERM", "").strip()
    if not term:
        return f"TERM is not set, so the full-screen game cannot tell what the terminal can do; {HEADLESS}"
    if term == "dumb" or not _places_cursor(term, stdout):
        return f"TERM={term} cannot place the cursor, which the full-screen game needs; {HEADLESS}"
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
    except Exception:  # no curses here, or a terminal the database does not know
        return True


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    check_stats_flags(args)
    problem = terminal_problem(os.environ, sys.stdin, sys.stdout)
    if problem:
        raise UsageError(problem)
    from ..app import WarApp  # Textual loads only when a screen is really wanted

    store = store_from_args(args)
    app = WarApp(settings, stats=store)
    app.run()
    return keep_unsaved_games(store) or app.return_code or 0


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
