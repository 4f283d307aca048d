"""What every command shares: one-line errors with exit status 2, numbers with ranges, rule flags, seeds."""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import NoReturn

from ..rules import DEFAULT_MAX_BATTLES, MAX_WAR_CARDS, MIN_WAR_CARDS, Gather, Rules, RulesError

EXIT_USAGE = 2
MAX_SEED = 2**63 - 1
# A battle cap far beyond any real game (the longest of a million seeds is under 10,000 battles) that
# still lets a game that never ends stop within minutes.
MAX_MAX_BATTLES = 10**9


class UsageError(Exception):
    """Bad input from the command line; ``main`` prints it as one line and exits 2."""


GIVEN = "flags_given"  # the namespace attribute naming the flags one parser has seen (dests)


class _Once(argparse.Action):
    """Stores a flag's value, refusing the flag a second time instead of silently keeping the last."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, GIVEN, None)
        if given is None:
            given = set()
            setattr(namespace, GIVEN, given)
        if self.option_strings and self.dest in given:
            raise argparse.ArgumentError(self, f"{option_string} given twice")
        given.add(self.dest)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


class _OnceTrue(_Once):
    """``store_true`` given at most once."""

    def __init__(self, option_strings, dest, default=False, required=False, help=None, deprecated=False):
        super().__init__(option_strings, dest, nargs=0, const=True, default=default, required=required, help=help)


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line on stderr (no usage dump) and exit status 2,
    and a flag given twice is a mistake (the first value is not silently dropped)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)
        self.register("action", "store_true", _OnceTrue)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {_flag_once(message)} (see {self.prog} --help)\n")
        sys.exit(EXIT_USAGE)


_ARGUMENT = re.compile(r"argument (?P<names>[^:]+): (?P<rest>.*)", re.S)


def _flag_once(message: str) -> str:
    """argparse's "argument --games: --games must be ..." reads as "--games must be ..."."""
    found = _ARGUMENT.fullmatch(message)
    if found is None:
        return message
    rest = found["rest"]
    for name in found["names"].split("/"):
        if rest.startswith(name + " "):
            return rest
        bare = name.lstrip("-")
        if name.startswith("-") and rest.startswith(bare + " "):  # "seed must be ..." under --seed
            return name + rest[len(bare):]
    return message


_WHOLE = re.compile(r"\s*[+-]?\d+\s*")
SHOWN = 24  # characters of a bad value an error repeats: a pasted wall of digits is not echoed whole


def shown(text: str) -> str:
    """A bad value as an error repeats it, cut short when long."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def positive_int(what: str, maximum: int, *, minimum: int = 1, span: str | None = None):
    """An argparse type: a whole number from ``minimum`` (1 unless told) to ``maximum``.

    The bound is mandatory: every number a flag takes has a range, and whatever reaches SQLite
    fits in its signed 64-bit integers. ``span`` words the range in errors ("from 1 to 3").
    """
    if not -(2**63) <= minimum <= maximum <= 2**63 - 1:
        raise ValueError(f"{what}: the range {minimum} to {maximum} does not fit in 64 bits")

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            if not _WHOLE.fullmatch(text):
                raise argparse.ArgumentTypeError(f"{what} must be a whole number, not '{shown(text)}'") from None
            value = None  # more digits than Python reads: far out of any range
        negative = text.strip().startswith("-")
        if value is not None and minimum <= value <= maximum:
            return value
        if span is not None:
            wrong = span
        else:
            wrong = f"at least {minimum}" if negative or (value is not None and value < minimum) else f"at most {maximum:,}"
        raise argparse.ArgumentTypeError(f"{what} must be {wrong}, not {shown(text.strip())}")

    return parse


MAX_MINUTES = 7 * 24 * 60
"""A week: longer than anyone watches one game or keeps one session open."""


def minutes_value(what: str):
    """An argparse type: minutes above 0 and at most a week (5, 0.5); NaN and infinity are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be minutes (like 5 or 0.5), not '{shown(text)}'") from None
        if not math.isfinite(value) or not 0 < value <= MAX_MINUTES:
            raise argparse.ArgumentTypeError(
                f"{what} must be more than 0 and at most {MAX_MINUTES:,} minutes (a week), not {shown(text)}"
            )
        return value

    return parse


def number_value(flag: str, low: float, high: float, unit: str, example: str):
    """An argparse type: a finite number from ``low`` to ``high`` (NaN and infinity refused)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be {unit} (like {example}), not '{shown(text)}'") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{flag} must be from {low:g} to {high:g} {unit}, not {shown(text)}")
        return value

    return parse


seed_value = positive_int("seed", MAX_SEED, minimum=0, span=f"from 0 to {MAX_SEED}")
war_cards_value = positive_int(
    "--war-cards", MAX_WAR_CARDS, minimum=MIN_WAR_CARDS, span=f"from {MIN_WAR_CARDS} to {MAX_WAR_CARDS}"
)


def path_value(flag: str):
    """An argparse type for a file path: anything but empty (an empty one would mean the current folder)."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{flag} must be a path, not empty")
        return text

    return parse


max_battles_value = positive_int("--max-battles", MAX_MAX_BATTLES)


def gather_value(text: str) -> Gather:
    try:
        return Gather(text.lower())
    except ValueError:
        names = ", ".join(g.value for g in Gather)
        raise argparse.ArgumentTypeError(f"unknown gather order '{text}' (choose from {names})") from None


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("house rules")
    group.add_argument(
        "--war-cards", type=war_cards_value, default=1, metavar="N",
        help=f"cards laid face down in each war, {MIN_WAR_CARDS}-{MAX_WAR_CARDS} (default 1)",
    )
    group.add_argument(
        "--gather", type=gather_value, default=Gather.WINNER_FIRST, metavar="ORDER",
        help="order the won pile goes under the packet: "
        + ", ".join(g.value for g in Gather) + " (default winner-first)",
    )
    group.add_argument(
        "--max-battles", type=max_battles_value, default=DEFAULT_MAX_BATTLES,
        metavar="N", help=f"stop a game after N battles, 1 to {MAX_MAX_BATTLES:,} (default {DEFAULT_MAX_BATTLES:,})",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    try:
        return Rules(war_cards=args.war_cards, gather=args.gather, max_battles=args.max_battles)
    except RulesError as exc:
        raise UsageError(str(exc)) from None

