"""``war-tui stats``: the lifetime statistics without a screen, as text or JSON (its shape: docs/commands.md).

Also ``store_from_args``, so the game and this command open the file ``--stats-db`` / ``--no-stats`` name alike.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace

from ..presentation.cells import cell_width, pad_cells
from ..presentation.words import deepest_war_text, duration_text, number, plural
from ..settings.options import OPTIONS, add_flags
from ..settings.values import positive_int
from ..stats import StatsStore
from ..stats.records import GameRecord, Histogram, Totals
from ..stats.recovery import recovery_path
from ..stats.text import (
    NO_GAMES,
    outcome,
    percent,
    replay_command,
    result_label,
    rules_short,
    when,
)
from .common import Commands, UsageError

JSON_FORMAT = 1
REPORT_BINS = 12  # histogram bins of both the text and the JSON report: they show the same picture
BAR_WIDTH = 30
MAX_RECENT = 1_000_000  # more rows than anyone reads; sqlite3 itself is the tool for every row


def check_stats_flags(args: argparse.Namespace) -> None:
    """UsageError for statistics flags that contradict each other, before anything is opened."""
    if getattr(args, "no_stats", False) and getattr(args, "stats_db", None) is not None:
        raise UsageError("--stats-db and --no-stats contradict each other: give one of them")


def store_from_args(args: argparse.Namespace) -> StatsStore:
    """The store the flags ask for; a bad file gives a store that is off, with a reason.

    Raises UsageError only for flags that contradict each other (``--stats-db`` with ``--no-stats``).
    """
    check_stats_flags(args)
    if getattr(args, "no_stats", False):
        return StatsStore.off("--no-stats was given")
    return StatsStore.open(getattr(args, "stats_db", None), max_rows=getattr(args, "stats_rows", None))



def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "stats", help="show lifetime statistics of the games played",
        description="Show the statistics of every game recorded: results, lengths, wars, recent games.",
    )
    # SUPPRESS: --stats-db works before and after `stats`.
    add_flags(parser, [replace(
        OPTIONS["stats_db"], default=argparse.SUPPRESS, group="", help="read this statistics file instead of the default one"
    )])
    parser.add_argument("--json", action="store_true", help="print one JSON object (shape: see docs/commands.md)")
    parser.add_argument(
        "--recent", type=positive_int("--recent", MAX_RECENT, minimum=0), default=10, metavar="N",
        help=f"how many recent games to list, 0 (none) to {MAX_RECENT:,} (default 10)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store = StatsStore.open(getattr(args, "stats_db", None), read_only=True)
    summary = store.summary(recent=args.recent, bins=REPORT_BINS)
    if summary is None:
        raise UsageError(f"cannot read statistics: {store.disabled_reason}")
    kept_aside = store.kept_aside()
    out = sys.stdout
    if args.json:
        data: dict[str, object] = {"format": JSON_FORMAT, "db": str(store.path)}
        data.update(summary.totals.to_dict())
        data["histogram"] = summary.histogram.to_dict()
        data["recent"] = [record.to_dict() for record in summary.recent]
        data["unsaved_games"] = kept_aside
        out.write(json.dumps(data) + "\n")
        return 0
    out.write(f"Statistics in {store.path}\n")
    if kept_aside:
        waits, them = ("waits", "it") if kept_aside == 1 else ("wait", "them")
        out.write(f"{plural(kept_aside, 'more finished game')} {waits} in {recovery_path(store.path)}"
                  f" (the file was locked); the next game that records statistics adds {them}.\n")
    if summary.totals.games == 0:
        out.write(NO_GAMES + " Finished games of war-tui are recorded here.\n")
        return 0
    out.write("\n".join(text_report(summary.totals, summary.histogram, summary.recent)) + "\n")
    return 0


def text_report(totals: Totals, histogram: Histogram, recent: tuple[GameRecord, ...]) -> list[str]:
    assert totals.longest and totals.shortest and totals.most_wars and totals.deepest_war, "asked once games > 0"
    lines = [
        f"{plural(totals.games, 'game')}, {when(totals.first_at)} to {when(totals.last_at)},"
        f" {duration_text(totals.seconds_played)} played",
        "",
    ]
    for result, count in totals.results.items():  # every result, then any this version does not know
        lines.append(f"  {result_label(result):<14} {count:>9,}  {percent(totals.share(result)):>6}")
    lines += [
        "",
        f"Battles per game: mean {number(totals.mean_battles)}, median {number(totals.median_battles)},"
        f" {totals.total_battles:,} in all",
        f"Longest game:     {_game_line(totals.longest, plural(totals.longest.battles, 'battle'))}",
        f"Shortest game:    {_game_line(totals.shortest, plural(totals.shortest.battles, 'battle'))}",
        f"Most wars:        {_game_line(totals.most_wars, plural(totals.most_wars.wars, 'war') + ' in one game')}",
        f"Deepest war:      {_game_line(totals.deepest_war, deepest_war_text(totals.deepest_war.longest_war))}",
        "",
        "Game lengths (battles per game):",
    ]
    lines += histogram_lines(histogram.merged(REPORT_BINS))
    if recent:
        lines += ["", "Recent games:"]
        lines += recent_lines(recent)
    return lines


def recent_lines(recent: Sequence[GameRecord]) -> list[str]:
    """The recent games as columns sized to what they hold; rules last, so a long one never shifts the rest."""
    rows = [
        (
            "-" if r.id is None else str(r.id), when(r.finished_at), "-" if r.seed is None else str(r.seed), outcome(r),
            f"{r.battles:,}", f"{r.wars:,}", rules_short(r),
        )
        for r in recent
    ]
    header = ("id", "finished", "seed", "result", "battles", "wars", "rules")  # id: what replay and export take
    right = (True, False, True, False, True, True, False)
    widths = [max(cell_width(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        parts = [pad_cells(cell, width, right=align) for cell, width, align in zip(cells, widths, right, strict=True)]
        return ("  " + "  ".join(parts)).rstrip()

    return [line(header)] + [line(row) for row in rows]


def histogram_lines(histogram: Histogram) -> list[str]:
    bins = list(histogram.bins) + ([histogram.overflow] if histogram.overflow else [])
    peak = max((b.count for b in bins), default=0) or 1
    labels = [f"{b.low:,}-{b.high:,}" for b in bins]
    if histogram.overflow:
        labels[-1] = f"{histogram.overflow.low:,}+"
    width = max(map(len, labels), default=0)
    return [
        f"  {label:>{width}}  {'█' * round(b.count / peak * BAR_WIDTH):<{BAR_WIDTH}}  {b.count:,}"
        for label, b in zip(labels, bins, strict=True)
    ]


def _game_line(record: GameRecord, what: str) -> str:
    replay = replay_command(record)
    where = f"seed {record.seed}, {when(record.finished_at)}" if record.seed is not None else when(record.finished_at)
    return f"{what} ({where})" + (f"  replay: {replay}" if replay else "")
