"""ctrl+l draws the whole screen again over whatever garbled the client's terminal, for every kind of session
over SSH: a solo game, a table's player, the lobby, a spectator (whose first key leaves the shared rendering for
a game of their own, drawn whole: so the second ctrl+l is the game's own redraw)."""

from __future__ import annotations

import asyncio

import pytest
from redraw_support import CTRL_L, garble, mended
from ssh_support import start_server
from ssh_support.players import GAME, GAME_TIMEOUT, MANY, Player, take_a_seat

pytestmark = pytest.mark.app

SETTLED = 1.0
"""Seconds with nothing drawn before the junk: the first frames (the screen's size settling) are drawn whole,
and junk written meanwhile would go with them, ctrl+l or not."""


@pytest.fixture
def private_data(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def settled(person: Player) -> None:
    loop = asyncio.get_running_loop()
    drawn, since = len(person.glass.raw), loop.time()
    while loop.time() - since < SETTLED:
        await asyncio.sleep(0.05)
        if len(person.glass.raw) != drawn:
            drawn, since = len(person.glass.raw), loop.time()


async def garbled_then_ctrl_l(person: Player, shown: str) -> tuple[list[str], list[str]]:
    """Once ``shown`` is on the client's screen and the game drew nothing for a while: junk over that screen,
    then ctrl+l. The screen before the junk, and once ctrl+l mended it (or the time was up)."""
    await person.glass.until(shown)
    await settled(person)
    before = person.glass.rows
    garble(person.glass)
    person.type(CTRL_L)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_TIMEOUT
    while not mended(before, person.glass.rows) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return before, person.glass.rows


async def test_ctrl_l_draws_a_served_solo_games_screen_whole_again(tmp_path, private_data):
    async with await start_server(tmp_path, None, argv=(*GAME, "--seed", "1"), **MANY) as srv:
        ann = await take_a_seat(srv.port, "ann", None)
        before, after = await garbled_then_ctrl_l(ann, r"Battle 0")
        assert mended(before, after), "\n".join(after)
        assert after == before


async def test_ctrl_l_draws_a_table_players_screen_whole_again(tmp_path, private_data):
    async with await start_server(tmp_path, None, argv=GAME, **MANY) as srv:
        ann = await take_a_seat(srv.port, "ann", "table oak")
        before, after = await garbled_then_ctrl_l(ann, r"Table oak · ann \(you\)")
        assert mended(before, after), "\n".join(after)


@pytest.mark.parametrize(
    ("command", "shown"), [("tables", r"oak"), ("watch oak", r"oak · ann to flip")], ids=["lobby", "spectator"]
)
async def test_ctrl_l_draws_the_lobbys_and_a_spectators_screen_whole_again_each_time(
    tmp_path, private_data, command, shown
):
    async with await start_server(tmp_path, None, argv=GAME, **MANY) as srv:
        ann = await take_a_seat(srv.port, "ann", "table oak")
        await ann.glass.until(r"Table oak · ann \(you\)")
        bob = await take_a_seat(srv.port, "bob", command)
        for _ in range(2):  # shared, then the game of bob's own that his first key started
            before, after = await garbled_then_ctrl_l(bob, shown)
            assert mended(before, after), "\n".join(after)
