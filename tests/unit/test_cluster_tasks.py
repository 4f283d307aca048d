"""Background tasks end when the server stops, even one whose first cancel was lost."""

from __future__ import annotations

import asyncio
import contextlib

from war_tui.cluster.tasks import end_tasks


async def test_a_task_that_lost_its_cancel_is_asked_again_and_ends():
    lost = []

    async def loop_that_loses_one_cancel() -> None:
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                if lost:
                    raise
                lost.append(True)  # as asyncio.wait_for can drop a cancel that meets its result

    task = asyncio.get_running_loop().create_task(loop_that_loses_one_cancel())
    await asyncio.sleep(0)
    assert await end_tasks([task], timeout=30)
    assert task.cancelled() and lost == [True]


async def test_a_task_that_never_ends_is_given_up_on_within_the_bound():
    released = asyncio.Event()

    async def deaf() -> None:
        while not released.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0.05)

    task = asyncio.get_running_loop().create_task(deaf())
    await asyncio.sleep(0)
    assert not await end_tasks([task], timeout=0.5)
    released.set()  # the test's own clean-up: the task ends by itself
    await task


async def test_a_loop_that_asks_cancel_requested_ends_after_one_lost_cancel():
    from war_tui.cluster.tasks import cancel_requested

    rounds = []

    async def background_loop() -> None:
        while not cancel_requested():
            rounds.append(1)
            with contextlib.suppress(asyncio.CancelledError):  # lost, as in a library's wait_for
                await asyncio.sleep(0.05)

    task = asyncio.get_running_loop().create_task(background_loop())
    await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.wait_for(task, 5)
    assert task.done() and len(rounds) == 1
