"""``war-tui`` with no command: the full-screen game. Flags are checked before any screen opens."""

from __future__ import annotations

import argparse
import os
from collections.abc import Collection, Mapping
from dataclasses import replace

from ..config import ConfigRead, Preferences, default_path, key_for, read_config
from ..presentation.speed import DEFAULT_SPEED, SpeedError, parse_speed, speed_label
from ..rules import Rules
from ..settings import DEFAULT_NAMES, SESSION_MINUTES_VARIABLE, PlaySettings, names_value
from .common import UsageError, add_rule_flags, minutes_value, rules_from_args, seed_value
from .config import config_path_value, theme_names
from .game import add_packet_flags, packets_from_args
from .stats import add_stats_flags, store_from_args


def speed_value(text: str) -> float:
    try:
        return parse_speed(text)
    except SpeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_play_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("playing (the full-screen game)")
    group.add_argument("--seed", type=seed_value, help="shuffle the first game with this seed (replays a deal)")
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
        help="end each game as stopped after this many minutes, naming the leader",
    )
    group.add_argument("--names", nargs=2, metavar=("A", "B"), help="the players' names")
    group.add_argument(
        "--ascii", action=argparse.BooleanOptionalAction, help="letters for suits and ASCII borders (or not)"
    )
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


def settings_from_args(args: argparse.Namespace, *, themes: Collection[str] | None = None) -> PlaySettings:
    """The session the flags and the preferences file ask for; ``themes``: the names a theme may take."""
    read = read_preferences(args, themes)
    chosen = merged(args, read)
    try:
        names = names_value(chosen.names)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    save = not (args.no_config or args.config_read_only)
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
        config_problems=read.problems,
        preferences=Preferences(read.path, {"speed": chosen.speed, "theme": chosen.theme}, themes=themes)
        if save else None,
    )


def session_minutes(environ: Mapping[str, str]) -> float | None:
    """The session limit a server running this game set (``serve-ssh --max-session-minutes``), or None."""
    text = environ.get(SESSION_MINUTES_VARIABLE)
    if text is None:
        return None
    try:
        return minutes_value(SESSION_MINUTES_VARIABLE)(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args, themes=theme_names())
    settings = replace(settings, session_minutes=session_minutes(os.environ))
    from ..app import WarApp  # Textual loads only when a screen is really wanted

    app = WarApp(settings, stats=store_from_args(args))
    app.run()
    return app.return_code or 0
