"""Tables outlive their server: a real nats-server keeps them, a restarted server serves them where they were.

The in-process tests stop a server as SIGTERM does and start another on the same NATS; the process test
kills ``war-tui serve-ssh`` with SIGKILL mid-game. Players are SSH clients running the stand-in table game,
which prints what its table tells it.
"""

from __future__ import annotations

import json
import re

import asyncssh
import pytest
from nodes_support import FAKE_TABLE, close, cluster, flip_both, keys, line_player, play, sit
from ssh_support import ServerProcess, start_server, until
from ssh_support.players import MANY, Listener

from war_tui.serving.goodbyes import RESTARTING


async def test_a_stopped_server_tells_its_players_it_restarts_and_the_next_serves_the_table_where_it_was(
    tmp_path, nats_server
):
    config = cluster(nats_server, tmp_path)
    allowed = keys(tmp_path)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=config, **MANY) as srv:
        ann = await sit(srv.port, "ann", "table oak")
        bob = await sit(srv.port, "bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        counts = await play(ann, bob, 5)
        ann.type(b"f")  # ann's flip waits for bob's when the server stops
        await bob.expect(r"BATTLE 5 [^\n]*\n(?:[^\n]*\n)*STATE [^\n]*waiting=2 ")
        await srv.server.stop()
        for seat in (ann, bob):
            await seat.expect(re.escape(RESTARTING))
        await close(ann, bob)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=config, **MANY) as again:
        assert again.server.restoring is not None
        await again.server.restoring  # while the server listens
        assert any("1 table restored: oak" in line for line in again.logs), again.logs
        bob = await sit(again.port, "bob", "table oak")
        await bob.expect(rf"SNAPSHOT you=bob seat=2 game=1 battles=5 counts={counts} ")
        ann = await sit(again.port, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=5 ")
        bob.type(b"f")  # ann's flip from before the restart still stands
        for seat in (ann, bob):
            await seat.expect(r"BATTLE 6 ")
        await close(ann, bob)


async def test_after_a_restart_a_seat_kept_for_its_player_is_awaited_and_plays_at_once_when_they_are_back(
    tmp_path, nats_server
):
    """bob is back first and flips: ann's seat is kept and waited for (before: shown as "the house plays", which
    it did not, the flip waiting the whole seat timeout); ann is back and flips, and the battle plays at once
    (a seat timeout of an hour: a battle that waited for it would never come)."""
    config = cluster(nats_server, tmp_path)
    allowed = keys(tmp_path)
    options = {"cluster": config, "seat_timeout": 3600.0, **MANY}
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, **options) as srv:
        ann = await sit(srv.port, "ann", "table oak")
        bob = await sit(srv.port, "bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        await play(ann, bob, 3)
        await srv.server.stop()
        await close(ann, bob)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, **options) as again:
        bob = await sit(again.port, "bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 game=1 battles=3 [^\n]*seats=ann:awaited,bob:player ")
        bob.type(b"f")
        await bob.expect(r"STATE seats=ann:awaited,bob:player [^\n]*waiting=1 ")
        ann = await sit(again.port, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=3 ")
        ann.type(b"f")
        for seat in (ann, bob):
            await seat.expect(r"BATTLE 4 ")
        assert ":away" not in bob.text
        await close(ann, bob)


async def test_a_stranger_cannot_take_a_restored_seat_kept_for_its_player(tmp_path, nats_server):
    config = cluster(nats_server, tmp_path)
    allowed = keys(tmp_path)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=config, **MANY) as srv:
        ann = await sit(srv.port, "ann", "table oak")
        bob = await sit(srv.port, "bob", "table oak")
        await play(ann, bob, 2)
        await close(ann, bob)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, cluster=config, **MANY) as again:
        eve = await sit(again.port, "eve", "table oak")
        await eve.expect(r"SNAPSHOT you=eve seat=- game=1 battles=2 ")
        await close(eve)


@pytest.mark.app  # the real game, in the line mode
async def test_kill_9_of_the_server_loses_no_battle_and_keeps_the_seats(tmp_path, nats_server):
    """serve-ssh killed with SIGKILL mid-game, started again on the same NATS: the table is at the last battle
    the players read, each back in their seat, and it plays on from there."""
    url = cluster(nats_server, tmp_path).urls[0]
    flags = ("--public", "--port", "0", "--nats", url, "--max-sessions-per-address", "64")
    people: list[Listener] = []
    server = ServerProcess(*flags)
    try:
        port = server.wait_listening()
        ann = await line_player(port, "ann")
        await ann.until("You sit at table oak in seat 1")
        bob = await line_player(port, "bob")
        await bob.until("You sit at table oak in seat 2")
        people += [ann, bob]
        for battle in range(1, 6):
            await flip_both(ann, bob, battle)
    finally:
        server.stop(9)
        for person in people:
            person.conn.close()
    again = ServerProcess(*flags)
    try:
        port = again.wait_listening()
        ann = await line_player(port, "ann")
        bob = await line_player(port, "bob")
        people = [ann, bob]
        await ann.until("You sit at table oak in seat 1")
        await bob.until("You sit at table oak in seat 2")
        # Restored at start, or, when a player asks for it before the start's listing reached it, taken over then.
        await until(lambda: any("1 table restored: oak" in line or "oak taken over from the store" in line
                                for line in again.lines))
        ann.say(b"score\n")
        await ann.until("Battle 5, ")
        await flip_both(ann, bob, 6, heard=1)
    finally:
        for person in people:
            person.conn.close()
        again.stop()


async def test_a_checkpoint_holds_no_address_and_a_restart_still_counts_seats_by_it(tmp_path, nats_server):
    """What the store holds of a player's address is a keyed hash (issue 39): the caps per address compare it,
    across a restart too."""
    config = cluster(nats_server, tmp_path)
    allowed = keys(tmp_path)
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    options = {"cluster": config, "host_key": host_key, "max_seats_per_address": 1, **MANY}
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, **options) as srv:
        ann = await sit(srv.port, "ann", "table oak")
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        store = srv.server.cluster.store
        (stored,) = await store.load_all()
        assert b"127.0.0.1" not in stored.data
        body = json.loads(stored.data)
        assert re.fullmatch(r"at:[0-9a-f]{24}", body["seats"][0]["addr"]) and body["by"][0] == body["seats"][0]["addr"]
        await srv.server.stop()
        await close(ann)
    async with await start_server(tmp_path, allowed, argv=FAKE_TABLE, **options) as again:
        bob = await sit(again.port, "bob", "table oak")  # from ann's address, which holds her kept seat
        await bob.expect(r"NOTICE info you watch: your address holds all the seats it may")
        await close(bob)
