"""What a player reads when their game ends from outside, whichever door they came through."""

from __future__ import annotations

from ..presentation.words import plural
from .config import GameConfig

GAME_FAILED = "war-tui: the game could not start; please tell the server's operator."
TIME_UP = "war-tui: the session time limit ({minutes}) is up. Thanks for playing!"
SHUTTING_DOWN = "war-tui: the server is shutting down. Thanks for playing!"
RESTARTING = "war-tui: the server is restarting: reconnect in a moment. Tables go on where they were."
"""The shutdown goodbye of a server that keeps its tables (``GameConfig.cluster``): they come back with it."""
INPUT_FLOOD = "war-tui: more keys arrived at once than a game takes ({size}); the game was ended."
OUT_OF_MEMORY = (
    "war-tui: the game needed more memory than this server gives a game ({size}) and had to end. Sorry!"
)
GAME_CRASHED = "war-tui: the game ended with an error; the server's operator has the details. Sorry!"
TABLE_BROKEN = (
    "war-tui: the game stopped speaking the table's language and was ended; the server's operator has the details."
)
IDLE_END = (
    "war-tui: no keys for {minutes}, so the session was ended to free its place. Come back any time!"
)
# After a game was ended from outside it could not restore the client's terminal: do it for it
# (attributes, mouse and focus reporting, bracketed paste, cursor, keypad, then the main screen).
# CAN first: the game's output may have been cut off inside an escape sequence, which would swallow ours.
TERMINAL_RESET = (
    b"\x18\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[?25h\x1b>\x1b[?1049l"
)
SHUTDOWN = "shutdown"
"""The reason every door gives for the games it ends because the server stops (its logs say it too)."""
STOP_STATUSES = {"time limit": 0, "idle": 0, SHUTDOWN: 0, "input flood": 1, "table protocol": 1}
"""The exit status a session ended from outside reports, whatever the hung-up game's own: 0 when the server
ended it and the player did nothing wrong (a signal instead would leave OpenSSH's ``ssh`` exiting 255, as if
the connection had failed)."""


def size_words(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB" if size >= 1024 * 1024 else f"{size // 1024} KiB"


def describe_minutes(seconds: float) -> str:
    return plural(seconds / 60, "minute")


def goodbye(reason: str | None, config: GameConfig, idle_seconds: float | None) -> str | None:
    """The goodbye for a game ended from outside for ``reason``; None for a reason only its door knows.

    ``idle_seconds`` is the door's own idle limit (each door has one).
    """
    if reason == "time limit":
        return TIME_UP.format(minutes=describe_minutes(config.session_seconds or 0))
    if reason == "input flood":
        return INPUT_FLOOD.format(size=size_words(config.input_limit))
    if reason == "table protocol":
        return TABLE_BROKEN
    if reason == "idle":
        return IDLE_END.format(minutes=describe_minutes(idle_seconds or 0))
    if reason == SHUTDOWN:
        return RESTARTING if config.cluster is not None else SHUTTING_DOWN
    return None


def crash_goodbye(errors: bytes, config: GameConfig) -> str:
    """What a player whose game crashed reads: never why, only that it did (or ran out of memory)."""
    if b"MemoryError" in errors:
        return OUT_OF_MEMORY.format(size=size_words(config.game_memory_mb * 1024 * 1024))
    return GAME_CRASHED
