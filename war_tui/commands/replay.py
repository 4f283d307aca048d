"""``war-tui replay GAME_ID`` (or ``--file``): a finished game on the replay screen, any battle of it."""

from __future__ import annotations

import argparse
import os
import sys

from ..settings.served import accessible
from ..stats.replay import Replay
from .common import Commands, UsageError
from .replays import add_game_argument, game_from_args


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a finished game, battle by battle, with a scrubber",
        description="Replay a finished game from the statistics (its GAME_ID: war-tui stats --json) or from a"
        " file written by war-tui export --format json: the board at any battle, a scrubber under it.",
    )
    add_game_argument(parser, file=True)
    parser.add_argument("--ascii", action="store_true", help="draw with ASCII characters only")
    parser.add_argument(
        "--line", action="store_true",
        help="the line mode: a line typed, one sentence a battle (chosen too without a terminal, or with ACCESSIBLE=1)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    replay, names = game_from_args(args)  # every refusal before a screen opens
    if args.line or accessible(os.environ) or not screen_possible():
        return run_line_replay(replay, names)
    from ..ui.replay_app import run_replay  # Textual loads only when a screen is really wanted

    return run_replay(replay, names, ascii=args.ascii, game_id=args.game_id)


def screen_possible() -> bool:
    """A terminal that can place the cursor, on both ends: otherwise the line mode, rather than a refusal."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") not in ("", "dumb")


def run_line_replay(replay: Replay, names: tuple[str, str]) -> int:
    """The line mode on stdin and stdout: keys (or lines) in, one sentence for each, plain text out."""
    if os.name == "nt":  # select() on a console: POSIX only
        raise UsageError("the line mode needs Linux, macOS or another POSIX system")
    from ..line.replay import ReplayLine, run_replay_line
    from ..line.run import LineOutput

    return run_replay_line(ReplayLine(replay, names), sys.stdin.fileno(), LineOutput(sys.stdout.buffer))
