"""The ``war-tui`` command: the full-screen game by default, headless subcommands beside it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .commands import config as config_cmd
from .commands import export as export_cmd
from .commands import game as game_cmd
from .commands import play as play_cmd
from .commands import replay as replay_cmd
from .commands import serve as serve_cmd
from .commands import serve_ssh as serve_ssh_cmd
from .commands import simulate as simulate_cmd
from .commands import stats as stats_cmd
from .commands.common import EXIT_USAGE, GIVEN, Parser, UsageError
from .version import version

SUBCOMMANDS = (game_cmd, simulate_cmd, stats_cmd, replay_cmd, export_cmd, serve_ssh_cmd, serve_cmd, config_cmd)

# Flags before a command are the game's, refused (the command's defaults would win) but for these.
ACCEPTED_BEFORE = {"stats": {"--stats-db"}}
# serve-ssh refuses them itself, saying they go after its '--'.
REFUSES_ITS_OWN = {"serve-ssh", "serve"}


class _Watched(argparse.Namespace):
    """The top parser's namespace, which keeps what the flags before a command's name set.

    argparse names the command, then writes every value of the command's parser (its defaults too) over
    the top parser's: without this, ``war-tui --seed 5 game`` would play a random seed unnoticed.
    """

    __slots__ = ("before", "written")

    def __init__(self) -> None:
        self.before: dict[str, object] | None = None  # the values when the command was named
        self.written: set[str] = set()  # the names the command's parser wrote after that
        super().__init__()

    def __setattr__(self, name: str, value: object) -> None:
        if name in _Watched.__slots__:
            object.__setattr__(self, name, value)
            return
        if self.before is not None:
            self.written.add(name)
        elif name == "command" and value is not None:
            self.before = dict(vars(self))
        super().__setattr__(name, value)


class _Version(argparse.Action):
    """``--version``: the package's version, looked up only when asked for (the metadata is slow to load)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help="show the version and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"war-tui {version()}\n")
        parser.exit()


class _TopParser(Parser):
    """The ``war-tui`` parser: explains a third ``--names`` word, which argparse takes for a command."""

    commands: tuple[str, ...] = ()  # the commands' names, as registered (the tests run each one)

    def parse_known_args(self, args=None, namespace=None):
        self._argv = list(sys.argv[1:] if args is None else args)
        if namespace is not None:
            return super().parse_known_args(args, namespace)
        watched = _Watched()
        parsed, extra = super().parse_known_args(args, watched)
        result = argparse.Namespace(**vars(parsed))
        if watched.before is not None:
            self._note_flags_before(watched.before, watched.written, result)
        return result, extra

    def _note_flags_before(self, before: dict[str, object], written: set[str], args: argparse.Namespace) -> None:
        """Note the flags given before the command's name (``flags_before_command``: each flag, and whether
        the command takes it too), refusing one given both before and after it."""
        noted = []
        for dest, value in before.items():
            if dest not in ("command", GIVEN) and value != self.get_default(dest):
                noted.append(("--" + dest.replace("_", "-"), dest in written))
        kept = before.get(GIVEN)
        given_before: set[str] = kept if isinstance(kept, set) else set()
        given_after: set[str] = getattr(args, GIVEN, set()) if GIVEN in written else set()
        for dest in sorted(given_before & given_after):
            self.error(f"--{dest.replace('_', '-')} given twice (before and after {args.command})")
        setattr(args, GIVEN, given_before | given_after)
        args.flags_before_command = noted

    def error(self, message: str):
        argv = getattr(self, "_argv", [])
        for i, word in enumerate(argv[:-3]):
            if word == "--names" and "invalid choice: " + repr(argv[i + 3]) in message:
                message = (
                    f"--names takes exactly two names, so {argv[i + 3]!r} is one too many"
                    ' (quote a name with spaces: --names "Ann Lee" Bob)'
                )
                break
        super().error(message)


def full_screen_only(flags: list[str], command: str) -> str:
    verb = "is" if len(flags) == 1 else "are"
    return (f"{' and '.join(flags)} {verb} for the full-screen game only"
            f" (war-tui {' '.join(flags)}, with no command), not for {command}")


def misplaced_flags(args: argparse.Namespace) -> str | None:
    """What is wrong with play flags given before ``args.command``, or None."""
    if args.command in REFUSES_ITS_OWN:
        return None
    allowed = ACCEPTED_BEFORE.get(args.command, set())
    before = [(f, ok) for f, ok in getattr(args, "flags_before_command", []) if f not in allowed]
    if not before:
        return None
    refused = [f for f, ok in before if not ok]
    if refused:
        return full_screen_only(refused, args.command)
    flags = [f for f, _ in before]
    return (f"put {' and '.join(flags)} after the command: war-tui {args.command} "
            + " ".join(f"{f} ..." for f in flags)
            + " (flags before a command are for the full-screen game only)")


def build_parser() -> _TopParser:
    parser = _TopParser(
        prog="war-tui",
        description="The card game War in your terminal. With no command, starts the full-screen game.",
    )
    parser.add_argument("--version", action=_Version)
    play_cmd.add_play_flags(parser)
    # serve-ssh checks the game flags it passes on with this parser (no import back).
    parser.set_defaults(top_parser=build_parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    parser.commands = tuple(subparsers.choices)
    for subparser in subparsers.choices.values():
        subparser.add_argument("--version", action=_Version)
    return parser


def play_flags() -> set[str]:
    """The full-screen game's flags, named from their destinations as argparse names them."""
    probe = argparse.ArgumentParser(add_help=False)
    play_cmd.add_play_flags(probe)
    return {"--" + dest.replace("_", "-") for dest in vars(probe.parse_args([]))}


def play_flags_after(command: str | None, extra: list[str], play_flags: set[str]) -> str | None:
    """The words for play flags argparse could not place after a command: the same as before it."""
    if command is None or command in REFUSES_ITS_OWN:
        return None
    found = [word.split("=", 1)[0] for word in extra if word.split("=", 1)[0] in play_flags]
    return full_screen_only(list(dict.fromkeys(found)), command) if found else None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
    except KeyboardInterrupt:
        return 130
    if extra:
        problem = play_flags_after(args.command, extra, play_flags())
        if problem is None:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        sys.stderr.write(f"war-tui {args.command}: {problem}\n")
        return EXIT_USAGE
    try:
        if args.command is None:
            return play_cmd.run(args)
        problem = misplaced_flags(args)
        if problem:
            raise UsageError(problem)
        return args.run(args)
    except UsageError as exc:
        line = f"war-tui {args.command or ''}".rstrip() + f": {exc}"
        if getattr(args, "log_format", "text") == "json":  # a server that cannot start, read by a log collector
            from .serving.log_format import LogLine, format_line

            line = format_line(LogLine(line, "cannot_start", level="error"), "json").rstrip("\n")
        sys.stderr.write(f"{line}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `war-tui game --trace | head` closed the pipe: nothing went wrong for the user.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
