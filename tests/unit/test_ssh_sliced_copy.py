"""A renderer's reads reach every spectator, in order, a slice per turn of the loop, with room between."""

from __future__ import annotations

import asyncio

from war_tui.ssh.sliced_copy import SlicedCopy


class Crowd:
    """Spectators by number, what each got, and what the copy told."""

    def __init__(self, count: int) -> None:
        self.people = list(range(count))
        self.got: dict[int, list[bytes]] = {n: [] for n in self.people}
        self.finished: list[bytes] = []
        self.paused = 0
        self.resumed = 0

    def copy(self, slice_size: int = 25) -> SlicedCopy[int]:
        return SlicedCopy(
            lambda: self.people, lambda n, data: self.got[n].append(data), self.finished.append,
            self._pause, self._resume, slice_size,
        )

    def _pause(self) -> None:
        self.paused += 1

    def _resume(self) -> None:
        self.resumed += 1

    def having(self, data: bytes) -> int:
        return sum(1 for n in self.people if data in self.got[n])


async def turn() -> None:
    await asyncio.sleep(0)


async def test_a_read_goes_to_a_slice_at_once_and_the_rest_a_slice_a_turn_while_others_run_between():
    crowd = Crowd(60)
    copy = crowd.copy()
    loop = asyncio.get_running_loop()
    seen: list[int] = []

    def other_table(turns: int) -> None:  # another table's work, once every turn of the loop
        seen.append(crowd.having(b"battle 1"))
        if turns:
            loop.call_soon(other_table, turns - 1)

    copy.copy(b"battle 1")
    assert crowd.having(b"battle 1") == 25 and crowd.paused == 1  # the first slice at once, the source held
    other_table(3)
    for _ in range(4):
        await turn()
    assert seen[:3] == [25, 50, 60]  # it ran between the slices, not after all of them
    assert crowd.finished == [b"battle 1"] and not copy.busy and crowd.resumed == 1


async def test_reads_reach_everyone_in_order_and_one_is_finished_before_the_next_starts():
    crowd = Crowd(30)
    copy = crowd.copy(slice_size=10)
    copy.copy(b"a")
    copy.copy(b"b")
    copy.copy(b"c")
    for _ in range(20):
        await turn()
    assert all(crowd.got[n] == [b"a", b"b", b"c"] for n in crowd.people)
    assert crowd.finished == [b"a", b"b", b"c"]
    assert (crowd.paused, crowd.resumed) == (1, 1)  # held once, for the three reads


async def test_a_newcomer_gets_the_rest_of_the_read_in_flight_and_one_who_left_gets_nothing_more():
    crowd = Crowd(30)
    copy = crowd.copy(slice_size=10)
    copy.copy(b"battle 2")
    crowd.people.remove(25)  # leaves before the read reaches them
    crowd.people.append(99)  # arrives meanwhile
    crowd.got[99] = []
    for _ in range(5):
        await turn()
    assert crowd.got[99] == [b"battle 2"] and crowd.got[25] == []
    assert crowd.finished == [b"battle 2"]


async def test_a_closed_copy_sends_nothing_more():
    crowd = Crowd(30)
    copy = crowd.copy(slice_size=10)
    copy.copy(b"last")
    copy.close()
    for _ in range(5):
        await turn()
    assert crowd.having(b"last") == 10 and crowd.finished == [] and not copy.busy
