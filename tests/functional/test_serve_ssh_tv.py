"""War TV over real SSH: ``ssh -t HOST tv`` waits for a live table, tunes in, and moves on when its game ends."""

from __future__ import annotations

import re

import pytest
from ssh_support import connect
from ssh_support.players import GAME, MANY, Listener, served, take_a_seat

from war_tui.core.rules import Rules

pytestmark = [pytest.mark.app, pytest.mark.server_side]

BATTLES = 4
"""Each table's games end after this many battles (the battle cap): a game ends within a test's few keys."""


async def house_game(port: int, user: str, table: str):
    """``user`` alone at ``table``, the house in the other seat, one battle played: a live table."""
    player = await take_a_seat(port, user, f"table {table}")
    await player.glass.until(rf"Table {table} · {user} \(you\)")
    player.type(b"h")
    await player.glass.until(r"the house plays seat 2")
    player.type(b" ")
    await player.glass.until(r"Battle 1 · Wars")
    return player


async def test_tv_waits_for_a_live_table_then_moves_on_when_its_game_ends(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, argv=GAME, table_rules=Rules(max_battles=BATTLES), **MANY) as (srv, people):
        tv = await take_a_seat(srv.port, "viewer", "tv")
        people.append(tv)
        await tv.glass.until(r"No table is playing now")

        ann = await house_game(srv.port, "ann", "oak")
        people.append(ann)
        await tv.glass.until(r"^ Table oak · .*· 1 spectator")  # which table, and how many watch it
        await ann.glass.until(r"1 spectator")  # the viewer counts as any spectator

        bob = await house_game(srv.port, "bob", "elm")
        people.append(bob)
        await tv.glass.until(r"^ Table oak · ")  # oak is still under way: War TV stays

        for battle in range(2, BATTLES + 1):  # oak's game to its cap
            ann.type(b" ")
            await ann.glass.until(rf"Battle {battle} · Wars")
        await tv.glass.until(r"^ Table elm · .*· 1 spectator")  # moved on to the live table
        await bob.glass.until(r"1 spectator")
    assert any(": table elm watching as viewer (on War TV) [addr:" in line for line in srv.logs), srv.logs


async def test_line_tv_says_which_table_in_sentences_and_next_skips(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, argv=GAME, table_rules=Rules(max_battles=BATTLES), **MANY) as (srv, people):
        ann = await house_game(srv.port, "ann", "oak")
        bob = await house_game(srv.port, "bob", "elm")
        people += [ann, bob]
        conn = await connect(srv.port, None, username="lou")
        try:
            lou = Listener(conn, await conn.create_process("line tv", encoding=None))
            said = await lou.until(r"War TV: table (oak|elm), .*\n(.|\n)*You are watching table (oak|elm)")
            first = re.search(r"War TV: table (\w+)", said).group(1)
            other = "elm" if first == "oak" else "oak"
            assert "n (or next) the next table" in await lou.until(r"Keys: n")
            lou.say(b"next\n")
            await lou.until(rf"War TV: table {other}, (.|\n)*You are watching table {other}")
        finally:
            conn.close()
