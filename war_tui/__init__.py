"""war-tui: the card game War, in the terminal."""

from __future__ import annotations


def run() -> int:
    """The ``war-tui`` command. A Ctrl-C while the program is still loading ends it quietly (exit 130)."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        return 130
    return main()


def __getattr__(name: str) -> str:
    """``war_tui.__version__``, computed when first read, not on every start."""
    if name == "__version__":
        from .version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
