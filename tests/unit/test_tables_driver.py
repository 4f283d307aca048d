"""The asyncio driver of table timers: it stops when its host cancels it, whatever woke it meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from war_tui.tables.driver import run_timers


class Later:
    """Always has a deadline a while off, so the driver is waiting with a timeout."""

    def __init__(self) -> None:
        self.polls = 0

    def next_deadline(self) -> float:
        return 1010.0

    def poll(self) -> None:
        self.polls += 1


@pytest.mark.parametrize("deadline", [True, False], ids=["waiting-for-a-deadline", "waiting-only-for-a-wake"])
async def test_a_cancel_that_comes_with_a_wake_still_stops_the_driver(deadline):
    # Closing the tables wakes the driver, then cancels it, in one turn.
    timed = Later()
    if not deadline:
        timed.next_deadline = lambda: None
    wake = asyncio.Event()
    task = asyncio.create_task(run_timers(timed, wake, clock=lambda: 1000.0))
    for _ in range(5):
        await asyncio.sleep(0)
    wake.set()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=2.0)
    assert task in done and task.cancelled()
