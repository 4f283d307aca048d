"""``war-tui export GAME_ID``: a game from the statistics (or a game file) as JSON (docs/replay-format.md) or text."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from ..core.events import GameOver
from ..line.sentences import BattleTeller, Voice, ending
from ..stats.export import json_chunks
from ..stats.replay import Replay
from .common import Commands
from .replays import add_game_argument, game_from_args

FORMATS = ("json", "text")


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "export", help="write a finished game out, every battle, as JSON or text",
        description="Write a game from the statistics out: JSON (its rules, seed, players and every battle;"
        " war-tui replay --file reads it back) or text, one line a battle as the line mode says it.",
    )
    add_game_argument(parser, file=True)
    parser.add_argument("--format", choices=FORMATS, default="json", help="json (default) or text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    replay, names = game_from_args(args)
    chunks = json_chunks(replay, names) if args.format == "json" else text_lines(replay, names)
    out = sys.stdout
    for chunk in chunks:
        out.write(chunk)
    out.flush()
    return 0


def text_lines(replay: Replay, names: tuple[str, str]) -> Iterator[str]:
    """One line a battle, "battle 12 of 340: ...", then how the game ended, each in the line mode's words."""
    teller = BattleTeller(Voice(names, me=None), replay.rules.war_cards)
    total = replay.battles
    told_end = False
    for battle in replay.played():
        said = teller.on_event(battle.event)
        told_end = isinstance(battle.event, GameOver)  # the battle a war ended short: it says the end itself
        yield f"battle {battle.battle:,} of {total:,}: {said}\n"
    if told_end:
        return
    if replay.ended is not None:
        yield teller.game_over(replay.ended) + "\n"
    else:
        yield f"{ending(replay.result, replay.reason, teller.voice)}\n"
