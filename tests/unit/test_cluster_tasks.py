"""Background tasks end when the server stops, even one whose first cancel was lost."""

from __future__ import annotations

import asyncio

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
    async def deaf() -> None:
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue

    task = asyncio.get_running_loop().create_task(deaf())
    await asyncio.sleep(0)
    assert not await end_tasks([task], timeout=0.5)
    task.cancel()  # the test's own clean-up: it still runs; cancel once more and forget it
