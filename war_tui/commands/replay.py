"""``war-tui replay GAME_ID`` (or ``--file``): a finished game on the replay screen, any battle of it."""

from __future__ import annotations

import argparse

from .common import Commands
from .replays import add_game_argument, game_from_args


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a finished game, battle by battle, with a scrubber",
        description="Replay a finished game from the statistics (its GAME_ID: war-tui stats --json) or from a"
        " file written by war-tui export --format json: the board at any battle, a scrubber under it.",
    )
    add_game_argument(parser, file=True)
    parser.add_argument("--ascii", action="store_true", help="draw with ASCII characters only")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    replay, names = game_from_args(args)  # every refusal before a screen opens
    from ..ui.replay_app import run_replay  # Textual loads only when a screen is really wanted

    return run_replay(replay, names, ascii=args.ascii)
