"""``war-tui replay GAME_ID`` (or ``--file``): a finished game on the replay screen, any battle of it."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from ..serving.commands import CommandRefused, ReplayCommand, parse_replay
from ..settings.options import read_served
from ..settings.served import LINE_VARIABLE, PLAYER_ID_VARIABLE, REPLAY_VARIABLE, accessible
from ..stats import StatsStore
from ..stats.records import GameRecord, Source
from ..stats.replay import Replay, ReplayError
from .common import EXIT_USAGE, Commands, UsageError
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


def run_served(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    """The replay a server asked for (``ssh HOST replay GAME_ID[@BATTLE]``, ``/replay/GAME_ID``) from the served
    statistics the game flags name. A refusal is one line on the player's screen and exit status 2: a served
    game's stderr is the server's log."""
    try:
        wanted = parse_replay(environ.get(REPLAY_VARIABLE, ""))
        replay, names = served_game(args, wanted, environ.get(PLAYER_ID_VARIABLE))
    except (CommandRefused, UsageError) as refusal:
        sys.stdout.write(f"war-tui: {refusal}\n")
        sys.stdout.flush()
        return EXIT_USAGE
    start = wanted.battle or 1
    if LINE_VARIABLE in environ:
        return run_line_replay(replay, names, start)
    from ..ui.replay_app import run_replay

    try:
        told = read_served(environ)
    except ValueError:
        told = {}
    return run_replay(replay, names, ascii=bool(getattr(args, "ascii", False)), game_id=wanted.game_id, start=start,
                      local=False, reached_at=(told.get("ssh_at"), told.get("web_at")))


def served_game(args: argparse.Namespace, wanted: ReplayCommand, player: str | None) -> tuple[Replay, tuple[str, str]]:
    """The served game ``wanted`` names, rebuilt, if this player may see it: a table game is anyone's (its
    players were on the lobby and the leaderboard), a solo game only its own player's. UsageError otherwise."""
    if getattr(args, "no_stats", False):
        raise UsageError("this server keeps no statistics, so it has no games to replay")
    store = StatsStore.open(getattr(args, "stats_db", None), read_only=True)
    found = store.game(wanted.game_id)
    if found is None:
        raise UsageError("the server's statistics cannot be read just now")
    if not found or not visible(found[0], player):
        raise UsageError(f"there is no game {wanted.game_id} on this server")
    record = found[0]
    try:
        replay = Replay.of_record(record)
    except ReplayError as error:
        raise UsageError(str(error)) from None
    if wanted.battle is not None and wanted.battle > replay.battles:
        raise UsageError(f"game {wanted.game_id} has {replay.battles:,} battles: there is no battle {wanted.battle:,}")
    return replay, (record.p1_name, record.p2_name)


def visible(record: GameRecord, player: str | None) -> bool:
    """Whether ``player`` may replay ``record``: any table game, or a game they played."""
    return record.source == Source.TABLE or (player is not None and player in (record.p1_player, record.p2_player))


def screen_possible() -> bool:
    """A terminal that can place the cursor, on both ends: otherwise the line mode, rather than a refusal."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") not in ("", "dumb")


def run_line_replay(replay: Replay, names: tuple[str, str], start: int = 1) -> int:
    """The line mode on stdin and stdout: keys (or lines) in, one sentence for each, plain text out; enter
    first says battle ``start``."""
    if os.name == "nt":  # select() on a console: POSIX only
        raise UsageError("the line mode needs Linux, macOS or another POSIX system")
    from ..line.replay import ReplayLine, run_replay_line
    from ..line.run import LineOutput

    teller = ReplayLine(replay, names)
    teller.at = start - 1  # the battle before the first one said
    return run_replay_line(teller, sys.stdin.fileno(), LineOutput(sys.stdout.buffer))
