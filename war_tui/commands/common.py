"""What every command shares: one-line errors with exit status 2, rule flags, seeds."""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import NoReturn

from ..rules import DEFAULT_MAX_BATTLES, MAX_WAR_CARDS, MIN_WAR_CARDS, Gather, Rules, RulesError

EXIT_USAGE = 2
MAX_SEED = 2**63 - 1


class UsageError(Exception):
    """Bad input from the command line; ``main`` prints it as one line and exits 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line on stderr (no usage dump) and exit status 2."""

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


def seed_value(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not '{text}'") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"seed must be from 0 to {MAX_SEED}, not {value}")
    return value


def positive_int(what: str, maximum: int | None = None, *, minimum: int = 1):
    """An argparse type: a whole number from ``minimum`` (1 unless told) up to ``maximum``."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not '{text}'") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{what} must be at most {maximum:,}, not {value}")
        return value

    return parse


MAX_MINUTES = 7 * 24 * 60
"""A week: longer than anyone watches one game or keeps one session open."""


def minutes_value(what: str):
    """An argparse type: minutes above 0 and at most a week (5, 0.5); NaN and infinity are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be minutes (like 5 or 0.5), not '{text}'") from None
        if not math.isfinite(value) or not 0 < value <= MAX_MINUTES:
            raise argparse.ArgumentTypeError(
                f"{what} must be more than 0 and at most {MAX_MINUTES} minutes (a week), not {text}"
            )
        return value

    return parse


def war_cards_value(text: str) -> int:
    value = positive_int("--war-cards")(text)
    if value > MAX_WAR_CARDS:
        raise argparse.ArgumentTypeError(
            f"--war-cards must be from {MIN_WAR_CARDS} to {MAX_WAR_CARDS}, not {value}"
        )
    return value


max_battles_value = positive_int("--max-battles")


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
        "--max-battles", type=max_battles_value, default=DEFAULT_MAX_BATTLES, metavar="N",
        help=f"stop a game after N battles (default {DEFAULT_MAX_BATTLES:,})",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    try:
        return Rules(war_cards=args.war_cards, gather=args.gather, max_battles=args.max_battles)
    except RulesError as exc:
        raise UsageError(str(exc)) from None

