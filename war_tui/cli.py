"""The ``war-tui`` command: the full-screen game by default, headless subcommands beside it."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import __version__
from .commands import game as game_cmd
from .commands import play as play_cmd
from .commands import serve_ssh as serve_ssh_cmd
from .commands import simulate as simulate_cmd
from .commands import stats as stats_cmd
from .commands.common import EXIT_USAGE, Parser, UsageError

SUBCOMMANDS = (game_cmd, simulate_cmd, stats_cmd, serve_ssh_cmd)


def build_parser() -> Parser:
    parser = Parser(
        prog="war-tui",
        description="The card game War in your terminal. With no command, starts the full-screen game.",
    )
    parser.add_argument("--version", action="version", version=f"war-tui {__version__}")
    play_cmd.add_play_flags(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    for subparser in subparsers.choices.values():
        subparser.add_argument("--version", action="version", version=f"war-tui {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            return play_cmd.run(args)
        return args.run(args)
    except UsageError as exc:
        sys.stderr.write(f"war-tui {args.command or ''}".rstrip() + f": {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `war-tui game --trace | head` closed the pipe: nothing went wrong for the user.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
