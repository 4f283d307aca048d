"""What every command shares: one-line errors with exit status 2, numbers with ranges, rule flags, seeds."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn, Protocol

from ..core.rules import Rules, RulesError
from ..settings.options import RULES, add_flags

EXIT_USAGE = 2


class Commands(Protocol):
    """What a command registers itself with: the object ``add_subparsers()`` returns."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


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


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    add_flags(parser, RULES)


def rules_from_args(args: argparse.Namespace) -> Rules:
    try:
        return Rules(war_cards=args.war_cards, gather=args.gather, max_battles=args.max_battles)
    except RulesError as exc:
        raise UsageError(str(exc)) from None

