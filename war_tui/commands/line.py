"""``war-tui --line``: the game as plain sentences (see ``war_tui.line``), and when it is chosen.

It is chosen by ``--line``, by ``ACCESSIBLE=1``, by a served game told ``WAR_TUI_LINE``, and instead of
refusing when there is no terminal that can place the cursor (a pipe, ``TERM=dumb``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from dataclasses import replace

from ..core.engine import Game
from ..line.player import LinePlayer, LineSettings
from ..line.run import LineOutput, run_line
from ..settings.options import DEFAULT_NAMES, DEFAULT_PACE, LINE_MODE, OPTIONS, PLAY
from ..settings.play import PlaySettings
from ..settings.served import LINE_INPUTS, LINE_VARIABLE, SERVED_VARIABLE, accessible
from ..stats import StatsStore
from ..stats.records import GameRecord, Source
from .common import UsageError


def line_wanted(args: argparse.Namespace, environ: Mapping[str, str]) -> bool:
    served_line = environ.get(SERVED_VARIABLE) == "1" and environ.get(LINE_VARIABLE) in LINE_INPUTS
    return bool(args.line) or accessible(environ) or served_line


def line_possible(settings: PlaySettings) -> bool:
    """What the line mode plays without being asked for: a solo game (no table, no two players at one keyboard)."""
    return not settings.two_players and settings.table_fd is None


LINE_REFUSES = ("two_players", "screensaver", "time_limit", "pause_on_war")


def check_line_flags(args: argparse.Namespace, settings: PlaySettings) -> None:
    """One line for a flag the line mode cannot honour, before anything is said. A served game's flags are the
    operator's, given for every game: the line mode leaves out those it cannot honour."""
    if settings.table_fd is not None and settings.table_mode == "lobby":
        raise UsageError("the line mode reaches a table by its name: line table NAME or line watch NAME")
    if settings.served:
        return
    refused = [OPTIONS[name].flag_name for name in LINE_REFUSES if getattr(args, name, None)]
    if args.speed is not None:
        refused.append("--speed (the line mode takes --pace SECONDS)")
    if refused:
        verb = "is" if len(refused) == 1 else "are"
        raise UsageError(f"{' and '.join(refused)} {verb} for the full-screen game, not the line mode")


LINE_ONLY = tuple(option for option in PLAY if option.group == LINE_MODE and option.name != "line")
"""The line mode's own flags, which mean nothing on the full screen."""


def check_full_screen_flags(args: argparse.Namespace) -> None:
    """The line mode's own flags on the full screen: one line saying they need ``--line``."""
    given = [option.flag_name for option in LINE_ONLY if getattr(args, option.name, None)]
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise UsageError(f"{' and '.join(given)} {verb} for the line mode: add --line (or set ACCESSIBLE=1)")


def line_settings(args: argparse.Namespace, settings: PlaySettings) -> LineSettings:
    return LineSettings(
        seed=settings.seed, packets=settings.packets, rules=settings.rules,
        names=None if settings.names == DEFAULT_NAMES else settings.names,
        terse=bool(args.terse), auto=settings.auto,
        pace=args.pace if args.pace is not None else DEFAULT_PACE,
        announce=args.announce or "all",
    )


def run_line_mode(args: argparse.Namespace, settings: PlaySettings, store: StatsStore, why: str | None) -> int:
    """Play in lines on stdin and stdout; ``why``: the reason the full screen was not drawn, said first."""
    if os.name == "nt":  # select() on a console: POSIX only
        raise UsageError("the line mode needs Linux, macOS or another POSIX system")
    names = settings.names

    def record(game: Game, seconds: float, auto: bool) -> None:
        if not store.enabled:
            return
        source = Source.AUTO if auto else Source.INTERACTIVE
        rec = GameRecord.from_game(game, names, seconds, source)
        if settings.player is not None:
            rec = replace(rec, p1_player=settings.player, p2_player=settings.player)
        store.record(rec)

    import time

    lines = settings.line_input == "lines"
    if settings.table_fd is not None:
        from ..line.table import TableLine, run_table_line
        from ..tables import RemoteGame

        table = TableLine(RemoteGame(), terse=bool(args.terse), pace=args.pace or DEFAULT_PACE, top=settings.top_speed)
        return run_table_line(table, sys.stdin.fileno(), settings.table_fd, LineOutput(sys.stdout.buffer),
                              lines=lines or None)
    player = LinePlayer(line_settings(args, settings), record, now=time.monotonic())
    first = [f"war-tui: {why}, so this is the line mode (war-tui --line chooses it anywhere)."] if why else []
    return run_line(player, sys.stdin.fileno(), LineOutput(sys.stdout.buffer), lines=lines or None, first=first)
