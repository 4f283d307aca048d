"""serve-ssh end to end with the real game: two players (one on OpenSSH) and a spectator share one truth.

The same emote beside the same name, the same game and the same tally on every screen.
"""

from __future__ import annotations

import pytest
from ssh_support import start_server
from ssh_support.players import GAME, GAME_TIMEOUT, MANY, SSH, Glass, openssh_at_oak, take_a_seat

from war_tui.core.rules import Rules

pytestmark = [
    pytest.mark.app,
    pytest.mark.server_side,
    pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client"),
]


def glass_of(client) -> Glass:
    glass = Glass((100, 30))
    glass.feed(bytes(client.output))
    return glass


async def all_show(pattern: str, client, *players) -> None:
    """Every screen shows ``pattern``: the OpenSSH client's and each asyncssh player's."""
    import asyncio

    for player in players:
        await player.glass.until(pattern)
    deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT
    while glass_of(client).find(pattern) is None:
        assert asyncio.get_running_loop().time() < deadline, glass_of(client).text
        await asyncio.sleep(0.1)


async def test_two_players_and_a_spectator_see_the_same_emote_and_the_same_tally(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with await start_server(tmp_path, None, argv=GAME, table_rules=Rules(max_battles=2), **MANY) as srv:
        try:
            async with openssh_at_oak(tmp_path, srv.port) as ann:
                await all_show(r"Table oak · ann \(you\) to flip", ann)
                bob = await take_a_seat(srv.port, "bob", "table oak")
                cy = await take_a_seat(srv.port, "cy", "watch oak")
                srv.people += [bob, cy]
                await all_show(r"bob( \(you\))? to flip", ann, bob, cy)
                ann.type(b"4")  # wow
                await all_show(r'ann( \(you\))? "wow"', ann, bob, cy)
                await all_show(r"ann: wow", ann, bob, cy)
                bob.type(b"3")  # again?
                await all_show(r'bob( \(you\))? "again\?"', ann, bob, cy)
                for battle in (1, 2):
                    ann.type(b" ")
                    await bob.glass.until(r"ann flipped")
                    bob.type(b" ")
                    await all_show(rf"Battle {battle}\b", ann, bob, cy)
                # The 2-battle cap stops the game: one stopped game in every screen's tally.
                await all_show(r"Tally\s+ann 0 · bob 0 · draws 0 · stopped 1", ann, bob, cy)
                ann.type(b"q")
        except AssertionError:
            print("\n".join(srv.logs))
            raise
