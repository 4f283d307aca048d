"""war-tui: the card game War, in the terminal."""

from __future__ import annotations

import signal


def run() -> int:
    """The ``war-tui`` command. A Ctrl-C while the program is still loading ends it quietly (exit 130),
    however many follow it: the first one turns the rest off, so none lands in the way out. Once the
    command has returned, Ctrl-C is off too: the way out (flushing the output, the exit handlers of the
    libraries loaded) has nothing left to interrupt, and a KeyboardInterrupt there is a traceback."""
    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not if started with Ctrl-C ignored
    try:
        if ours:
            signal.signal(signal.SIGINT, _first_ctrl_c)
        from .cli import main
    except KeyboardInterrupt:
        return 130
    if ours:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # loaded: each command handles Ctrl-C its own way
    try:
        try:
            return main()
        except KeyboardInterrupt:  # a Ctrl-C landing as the command returns
            return 130
        finally:
            if ours:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:  # a second one, landing as Ctrl-C is turned off
        if ours:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return 130


def _first_ctrl_c(signum: int, frame: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def __getattr__(name: str) -> str:
    """``war_tui.__version__``, computed when first read, not on every start."""
    if name == "__version__":
        from .version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
