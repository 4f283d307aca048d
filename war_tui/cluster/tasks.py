"""Ending background tasks for sure, within a bound.

A cancel can be lost: Python 3.11's ``asyncio.wait_for`` (which nats-py's requests use) drops a cancel that
arrives as its inner future completes, and a loop that then sleeps again never ends, so whoever awaited the
cancelled task hangs. ``end_tasks`` asks again until each task is done, and gives up after ``timeout``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

STOP_TIMEOUT = 5.0
"""Seconds ``end_tasks`` waits at most."""
ASK_AGAIN = 0.2
"""Seconds between cancels of a task that did not end."""


async def end_tasks(tasks: Iterable[asyncio.Task[Any]], timeout: float = STOP_TIMEOUT) -> bool:
    """Cancel ``tasks`` until each has ended (True), or ``timeout`` passed (False); never raises their errors."""
    pending = {task for task in tasks if not task.done()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while pending and loop.time() < deadline:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=min(ASK_AGAIN, max(0.0, deadline - loop.time())))
    for task in tasks if isinstance(tasks, (list, tuple, set)) else ():
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: a task that failed while stopping is not reported as never retrieved
    return not pending


def cancel_requested() -> bool:
    """Whether the running task was asked to stop: a background loop's condition, so one cancel is enough
    even when a library's ``wait_for`` dropped it (the task's ``cancelling()`` still counts it)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
