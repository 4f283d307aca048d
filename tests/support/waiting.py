"""The one wait of the tests: until a condition holds, within a generous bound (a busy machine is slow, not wrong)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

TIMEOUT = 30.0
"""Seconds a test waits for what it expects before it fails: a bound, never a measure."""

START = 90.0
"""Seconds a process a test starts has to say it listens: its imports and first bytecode compile cost a few
seconds of CPU, which a machine at a load of 20 on two cores spreads over tens of seconds."""


async def until(
    condition: Callable[[], Any],
    timeout: float = TIMEOUT,
    *,
    what: str | Callable[[], str] = "the condition never held",
    every: float = 0.02,
    wait: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> Any:
    """Wait until ``condition()`` (awaited when it gives an awaitable) is true, and return it.

    After ``timeout`` seconds the test fails with ``what`` (or what it returns then: the state it found). ``wait``
    lets the loop run between looks (``pilot.pause`` lets an app under ``run_test`` settle as well).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if loop.time() >= deadline:
            raise AssertionError(what() if callable(what) else what)
        await wait(every)
