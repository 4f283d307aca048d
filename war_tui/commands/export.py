"""``war-tui export GAME_ID``: a game from the statistics (or a game file) as JSON (docs/replay-format.md), text,
or an asciicast v2 recording of its replay; and ``ssh HOST export GAME_ID --format F``, a served game written to
the client's output whole or not at all.

A served export is made in the game process and held until it is whole: at most ``MOST_EXPORT_BYTES`` (16 MiB,
the largest game file ``war-tui replay --file`` reads back), past which the player gets one line instead of a
cut file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import re
import sys
from collections.abc import Iterator, Mapping

from ..core.events import GameOver
from ..line.sentences import BattleTeller, Voice, ending
from ..serving.commands import LARGEST_CAST as LARGEST
from ..serving.commands import SMALLEST_CAST as SMALLEST
from ..serving.commands import CommandRefused, GameRefused, ReplayCommand, cast_size, cast_speed, parse_export
from ..settings.served import EXPORT_VARIABLE, PLAYER_ID_VARIABLE
from ..settings.values import shown
from ..stats.export import MOST_FILE_BYTES, json_chunks
from ..stats.replay import Replay
from .common import EXIT_USAGE, Commands, UsageError
from .replay import served_game
from .replays import add_game_argument, game_from_args

FORMATS = ("json", "text", "cast")
_SIZE = re.compile(r"[0-9]{1,4}x[0-9]{1,4}")
MOST_EXPORT_BYTES = MOST_FILE_BYTES


def speed_value(text: str) -> int:
    """--speed: battles a second, as the replay's + and - give them (``cast_speed``, as a served export's)."""
    try:
        return cast_speed(text.strip())
    except GameRefused:
        raise argparse.ArgumentTypeError(
            f"--speed must be 1, 2, 4 or 8 (battles a second), not '{shown(text)}'"
        ) from None


def size_value(text: str) -> tuple[int, int]:
    """--size: COLUMNSxROWS of at most four digits each, from 40x12 to 300x100 (``cast_size``, as a served
    export's)."""
    if _SIZE.fullmatch(text.strip().lower()):
        with contextlib.suppress(GameRefused):
            return cast_size(text.strip())
    raise argparse.ArgumentTypeError(
        f"--size must be COLUMNSxROWS from {SMALLEST[0]}x{SMALLEST[1]} to {LARGEST[0]}x{LARGEST[1]}, not '{shown(text)}'"
    )


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "export", help="write a finished game out, every battle, as JSON, text or an asciicast recording",
        description="Write a game from the statistics out: JSON (its rules, seed, players and every battle;"
        " war-tui replay --file reads it back), text, one line a battle as the line mode says it, or cast, an"
        " asciicast v2 recording of its replay playing (asciinema play game.cast).",
    )
    add_game_argument(parser, file=True)
    parser.add_argument("--format", choices=FORMATS, default="json", help="json (default), text or cast")
    parser.add_argument("--speed", type=speed_value, metavar="N",
                        help="cast: battles a second, 1, 2, 4 or 8 (default 1), as the replay plays them")
    parser.add_argument("--size", type=size_value, metavar="COLSxROWS",
                        help="cast: the terminal it is drawn for, 40x12 to 300x100 (default 80x24)")
    parser.add_argument("--ascii", action="store_true", help="cast: draw with ASCII characters only")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.format != "cast" and (args.speed is not None or args.size is not None or args.ascii):
        raise UsageError("--speed, --size and --ascii are for --format cast")
    replay, names = game_from_args(args)
    if args.format == "cast":
        if "textual" not in sys.modules:  # read once, as Textual loads: each frame drawn at once (ui/cast.py)
            os.environ.setdefault("TEXTUAL_FPS", "1000")
        from ..ui.cast import write_cast  # Textual loads only for a recording

        asyncio.run(write_cast(replay, names, sys.stdout, speed=args.speed or 1, size=args.size or (80, 24),
                               ascii=args.ascii, game_id=args.game_id))
        sys.stdout.flush()
        return 0
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



class TooLarge(Exception):
    """The export passed ``MOST_EXPORT_BYTES``."""


class Held(io.StringIO):
    """What is written, held up to ``MOST_EXPORT_BYTES`` (counted in characters, each at least a byte)."""

    def write(self, text: str) -> int:
        if self.tell() + len(text) > MOST_EXPORT_BYTES:
            raise TooLarge
        return super().write(text)


def run_served_export(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    """The export, written whole to stdout (exit status 0), or one line and exit status 2."""
    held = Held()
    try:
        wanted = parse_export(environ.get(EXPORT_VARIABLE, "").split())
        replay, names = served_game(args, ReplayCommand(wanted.game_id), environ.get(PLAYER_ID_VARIABLE))
        if wanted.format == "cast":
            from ..ui.cast import write_cast  # Textual loads only for a recording

            asyncio.run(write_cast(replay, names, held, speed=wanted.speed, size=wanted.size, ascii=False,
                                   game_id=wanted.game_id))
        else:
            for chunk in json_chunks(replay, names) if wanted.format == "json" else text_lines(replay, names):
                held.write(chunk)
        data = held.getvalue().encode()
        if len(data) > MOST_EXPORT_BYTES:
            raise TooLarge
    except (CommandRefused, UsageError) as refusal:
        return refuse(str(refusal))
    except TooLarge:
        return refuse(f"game {wanted.game_id}'s export is longer than the server writes ({MOST_EXPORT_BYTES // 2**20} MiB)")
    out = sys.stdout.buffer
    out.write(data)
    out.flush()
    return 0


def refuse(reason: str) -> int:
    sys.stdout.write(f"war-tui: {reason}\n")
    sys.stdout.flush()
    return EXIT_USAGE
