"""War TV's link (``serving.tables.tv``) over a real registry: tunes in, counts as a spectator, moves on, skips."""

from __future__ import annotations

import asyncio

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.serving.tables.tv import TvLink, ends_game
from war_tui.serving.tv import ALL_FULL, NO_TABLE
from war_tui.tables import Flip, Link, PlayHouse, ProtocolError, Registry, Snapshot, TableOptions, encode
from war_tui.tables.link import NOT_ON_TV
from war_tui.tables.messages import EventBatch, NextTable, Notice, Tuned
from war_tui.tables.protocol import update_reader

BATTLES = 3
TIMEOUT = 30.0


def registry(**options) -> Registry:
    return Registry(deal=lambda name: Game.deal(21, Rules(max_battles=BATTLES)),
                    options=TableOptions(rules=Rules(max_battles=BATTLES), **options))


def house_table(reg: Registry, name: str, user: str) -> Link:
    """``user`` alone at ``name`` with the house, one battle played: a live table."""
    link = Link(reg, user)
    link.join(name)
    link.receive(encode(PlayHouse()))
    link.receive(encode(Flip()))
    link.take()
    return link


def tv(reg: Registry, **options) -> TvLink:
    link = TvLink(lambda: Link(reg, "viewer"), reg.lobby, **options)
    link.start()
    return link


def heard(link: TvLink) -> list:
    out = update_reader().feed(link.take())
    assert not any(isinstance(m, ProtocolError) for m in out)
    return out


async def until_tuned(link: TvLink, seen: list) -> Tuned:
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        seen += heard(link)
        tuned = [m for m in seen if isinstance(m, Tuned)]
        if tuned:
            return tuned[-1]
        assert asyncio.get_running_loop().time() < deadline, seen
        await asyncio.sleep(0.02)


async def test_tv_says_there_is_no_table_then_tunes_in_when_a_game_is_under_way():
    reg = registry()
    link = tv(reg)
    seen: list = []
    assert await until_tuned(link, seen) == Tuned(None, NO_TABLE)
    ann = house_table(reg, "oak", "ann")
    seen.clear()
    assert (await until_tuned(link, seen)).table == "oak"
    assert any(isinstance(m, Snapshot) and m.state.table == "oak" and m.you.watching for m in seen + heard(link))
    assert reg.table("oak").watching == 1  # counted as any spectator (the lobby shows it)
    assert reg.lobby().tables[0].spectators == 1
    ann.close()
    link.close()


async def test_n_skips_to_the_next_table_and_tv_moves_on_once_the_game_on_show_ends():
    reg = registry()
    players = {"oak": house_table(reg, "oak", "ann"), "elm": house_table(reg, "elm", "bob")}
    link = tv(reg)
    seen: list = []
    first = (await until_tuned(link, seen)).table
    assert first in players
    second = "elm" if first == "oak" else "oak"
    link.receive(encode(NextTable()))
    seen.clear()
    assert (await until_tuned(link, seen)).table == second
    assert reg.table(first).watching == 0 and reg.table(second).watching == 1
    while not reg.table(second).game.over:  # its game to the battle cap
        players[second].receive(encode(Flip()))
    seen.clear()
    assert (await until_tuned(link, seen)).table == first  # MOVE_AFTER after the end, on the other live table
    link.receive(encode(NextTable()))  # the only live table left: War TV stays and says so
    await asyncio.sleep(0.05)
    assert any(isinstance(m, Notice) and "stays at table" in m.text for m in heard(link))
    assert link.table == first
    for player in players.values():
        player.close()
    link.close()


async def test_a_table_with_all_its_spectators_is_passed_over_and_tv_says_why():
    reg = registry(max_spectators=1)
    ann = house_table(reg, "oak", "ann")
    cy = Link(reg, "cy")
    cy.join("oak", watch=True)
    link = tv(reg, max_spectators=1)
    seen: list = []
    assert await until_tuned(link, seen) == Tuned(None, ALL_FULL)
    cy.close(), ann.close(), link.close()


def test_a_game_over_is_read_from_a_batch_or_a_snapshot_and_n_is_refused_off_tv():
    reg = registry()
    ann = house_table(reg, "oak", "ann")
    while not reg.table("oak").game.over:
        ann.receive(encode(Flip()))
    cy = Link(reg, "cy")
    cy.join("oak", watch=True)
    assert ends_game(cy.take()) is True  # a snapshot of a game over
    dee = Link(reg, "dee")
    dee.join("oak", watch=True)
    dee.take()
    dee.receive(encode(NextTable()))
    assert any(isinstance(m, Notice) and m.text == NOT_ON_TV for m in update_reader().feed(dee.take()))
    assert ends_game(encode(EventBatch(1, ()))) is None  # a batch with neither a deal nor an end says neither
