"""Auto-play's pace, for a game on this screen and a shared table alike: how often a timer ticks and how many
battles each tick plays."""

from __future__ import annotations

import math

MAX = math.inf
"""The "max" speed: on a screen, as many battles as fit in a frame (a table never plays at it)."""
TICKS_PER_SECOND = 30.0
"""Ticks a second at most: more frames than a terminal over SSH usefully shows, and a table's links carry
a batch a tick. Faster auto-play plays several battles per tick."""


def tick_plan(speed: float) -> tuple[float, float]:
    """(seconds between timer ticks, battles per tick) for an auto-play speed in battles a second.

    Slow speeds tick once per battle; fast ones tick ``TICKS_PER_SECOND`` times a second and play
    several battles per tick, so a screen never queues more frames than it can show.
    """
    if speed == MAX:
        return 1 / TICKS_PER_SECOND, MAX
    if speed <= TICKS_PER_SECOND:
        return 1 / speed, 1.0
    return 1 / TICKS_PER_SECOND, speed / TICKS_PER_SECOND
