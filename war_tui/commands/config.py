"""``war-tui config``: check the preferences file, or say where it is."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from ..settings.options import OPTIONS, add_flags
from ..settings.preferences import default_path, read_config
from ..settings.values import HIGH_CONTRAST_THEME
from .common import EXIT_USAGE, Commands, UsageError


def theme_names() -> list[str]:
    """The themes a preferences file or ``--theme`` may name: Textual's own and the game's high-contrast one."""
    from textual.theme import BUILTIN_THEMES  # only when a theme is really checked: it loads Textual

    return [*BUILTIN_THEMES, HIGH_CONTRAST_THEME]


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "config", help="check the preferences file, or print where it is",
        description="The preferences file keeps names, speed, theme and house rules between runs "
        f"(default {default_path()}). Its keys are the game's flags without the dashes in front.",
    )
    add_flags(parser, [replace(OPTIONS["config"], help="this file instead of the default one", group="", exclusive="")])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--check", action="store_true",
        help="report every problem (file, line, key) on stderr and exit 2; 'ok' and exit 0 when there are none",
    )
    what.add_argument("--path", action="store_true", help="print where the file is (or would be)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = default_path() if args.config is None else args.config
    if args.path:
        print(path)
        return 0
    read = read_config(path, themes=theme_names())
    if not read.found:
        if args.config is not None:
            raise UsageError(f"--config: there is no file at {path}")
        print(f"ok: there is no preferences file at {path}, so the game uses its defaults")
        return 0
    if read.problems:
        for problem in read.problems:
            sys.stderr.write(f"war-tui config: {problem}\n")
        return EXIT_USAGE
    print(f"ok: {path}")
    return 0
