"""war-tui: the card game War, in the terminal."""

__version__ = "0.1.0"
