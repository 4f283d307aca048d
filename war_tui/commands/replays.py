"""What ``replay`` and ``export`` share: the game a command line names, by its id in the statistics or as a file."""

from __future__ import annotations

import argparse

from ..settings.values import positive_int
from ..stats import StatsStore
from ..stats.replay import Replay, ReplayError
from .common import UsageError

MOST_GAME_ID = 2**63 - 1
game_id_value = positive_int("GAME_ID", MOST_GAME_ID)


def add_game_argument(parser: argparse.ArgumentParser, *, file: bool) -> None:
    """GAME_ID (``war-tui stats --json`` lists them), and ``--file`` for a command that reads an export too."""
    parser.add_argument(
        "game_id", type=game_id_value, nargs="?" if file else None, metavar="GAME_ID",
        help="the game's id in the statistics (war-tui stats --json lists each recent game with its id)",
    )
    parser.add_argument("--stats-db", metavar="PATH", help="read this statistics file instead of the default one")
    if file:
        parser.add_argument("--file", metavar="PATH", help="the game in a file written by war-tui export --format json")


def game_from_args(args: argparse.Namespace) -> tuple[Replay, tuple[str, str]]:
    """The game the arguments name, rebuilt; UsageError (one line, exit 2) when it cannot be."""
    path = getattr(args, "file", None)
    if path is not None and args.game_id is not None:
        raise UsageError("give a GAME_ID or --file, not both")
    try:
        if path is not None:
            from ..stats.export import read_game_file

            return read_game_file(path)
        if args.game_id is None:
            raise UsageError("give a game's GAME_ID (war-tui stats --json lists them), or --file")
        store = StatsStore.open(args.stats_db, read_only=True)
        found = store.game(args.game_id)
        if found is None:
            raise UsageError(f"cannot read statistics: {store.disabled_reason}")
        if not found:
            raise UsageError(f"no game {args.game_id} in {store.path} (war-tui stats --json lists each game's id)")
        record = found[0]
        return Replay.of_record(record), (record.p1_name, record.p2_name)
    except ReplayError as error:
        raise UsageError(str(error)) from None
