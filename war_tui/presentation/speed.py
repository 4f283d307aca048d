"""Auto-play speeds: parsing "0.5" / "4" / "max", stepping faster and slower, and the timer's tick plan."""

from __future__ import annotations

import math


MAX = math.inf
"""The "max" speed: as many battles as fit in a frame."""

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


def speed_limit_text(faster: bool) -> str:
    """What + at max, or - at the slowest, says."""
    if faster:
        return "Already at the fastest: max plays as many battles as fit in a frame"
    return f"Already at the slowest: one battle every {1 / MIN_SPEED:g} s"


def speed_label(speed: float) -> str:
    if speed == MAX:
        return "max"
    return f"{speed:g}/s"


FRAME_RATE = 30.0
"""Frames per second at most: more than a terminal over SSH usefully shows."""


def tick_plan(speed: float) -> tuple[float, float]:
    """(seconds between timer ticks, battles per tick) for an auto-play speed.

    Slow speeds tick once per battle; fast ones tick at the frame rate and play
    several battles per tick, so the screen never queues more frames than it can show.
    """
    if speed == MAX:
        return 1 / FRAME_RATE, MAX
    if speed <= FRAME_RATE:
        return 1 / speed, 1.0
    return 1 / FRAME_RATE, speed / FRAME_RATE
