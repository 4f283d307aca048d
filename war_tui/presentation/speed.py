"""Auto-play speeds as a person sets them: parsing "0.5" / "4" / "max", stepping faster and slower, and their words.

The timer's tick plan for a speed is ``war_tui.core.pace``'s, shared with the tables.
"""

from __future__ import annotations

import math

from ..core.pace import MAX as MAX  # "max" is a speed people set

SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, MAX)
MIN_SPEED = SPEEDS[0]
MAX_NUMERIC_SPEED = 1000.0
DEFAULT_SPEED = 4.0


class SpeedError(ValueError):
    """A speed nobody can use; the message is fit to show a person."""


def parse_speed(text: str) -> float:
    """``0.5``, ``4``, ``max``: battles per second."""
    raw = text.strip().lower()
    if raw == "max":
        return MAX
    try:
        value = float(raw)
    except ValueError:
        raise SpeedError(f"speed must be battles per second (like 0.5 or 4) or 'max', not '{text}'") from None
    if not math.isfinite(value) or not MIN_SPEED <= value <= MAX_NUMERIC_SPEED:
        raise SpeedError(
            f"speed must be from {MIN_SPEED:g} to {MAX_NUMERIC_SPEED:g} battles per second, or 'max', not {text}"
        )
    return value


def faster(speed: float) -> float:
    for step in SPEEDS:
        if step > speed:
            return step
    return MAX


def slower(speed: float) -> float:
    for step in reversed(SPEEDS):
        if step < speed:
            return step
    return MIN_SPEED


def speed_limit_text(faster: bool, top: float = MAX) -> str:
    """What + at the top speed (``top``: "max", or the server's cap), or - at the slowest, says."""
    if faster and top == MAX:
        return "Already at the top speed: max plays as many battles as fit in a frame"
    if faster:
        return f"Already at the top speed: {speed_label(top)} is this server's fastest"
    return f"Already at the slowest: one battle every {1 / MIN_SPEED:g} s"


def speed_label(speed: float) -> str:
    if speed == MAX:
        return "max"
    return f"{speed:g}/s"
