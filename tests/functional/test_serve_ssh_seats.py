"""serve-ssh's seats belong to identities: who sat keeps the seat, whatever name another types; cheap
connections lock nobody out; spectators, key attempts and auto-play speed are bounded.

The stand-in game (ssh_support/fake_table.py) prints what the table tells it, one line per update.
"""

from __future__ import annotations

import re
import sys

import asyncssh
import pytest
from ssh_support import FAKE_TABLE_ARGV, Seat, connect, make_key, read_until, start_server

from war_tui.settings.served import PLAYER_ID_VARIABLE
from war_tui.ssh.server import MAX_AUTH_TRIES

MANY = {"max_sessions_per_address": 64, "max_attempts_per_minute": 1000}
CONFUSABLES = ["ann", "ANN", "ann!", "a\u200bnn", "\uff41\uff4e\uff4e", "\u24d0\u24dd\u24dd", "\u202eann"]
"""The same name, a name that folds to it, and names that only look like it: none of them is ann's key."""


async def arrive(port: int, user: str, command: str, key=None, **options) -> Seat:
    conn = await connect(port, key, username=user, **options)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(100, 30), encoding=None)
    return Seat(conn, process)


async def test_another_key_never_takes_an_away_players_seat_whatever_name_it_types(tmp_path, monkeypatch):
    # asyncssh's client refuses some of these names; another client might not.
    monkeypatch.setattr(asyncssh.connection, "saslprep", lambda text: text)
    ann_key, bob_key, eve_key = (make_key(tmp_path, name) for name in ("ann_key", "bob_key", "eve_key"))
    async with await start_server(tmp_path, [ann_key, bob_key, eve_key], argv=FAKE_TABLE_ARGV, **MANY) as srv:
        ann = await arrive(srv.port, "ann", "table oak", ann_key)
        bob = await arrive(srv.port, "bob", "table oak", bob_key)
        srv.people += [ann, bob]
        await ann.expect(r"STATE seats=ann:player,bob:player")
        ann.type(b"f")  # the table moved: ann's seat is kept when she goes
        await bob.expect(r"waiting=2 ")
        await ann.leave()
        await bob.expect(r"STATE seats=ann:away,bob:player")
        for name in CONFUSABLES:
            eve = await arrive(srv.port, name, "table oak", eve_key)
            srv.people.append(eve)
            snapshot = await eve.expect(r"SNAPSHOT you=(\S+) seat=(\S) ")
            assert snapshot.group(2) == "-", (name, eve.text)  # she watches
            assert snapshot.group(1).casefold() != "ann"  # a name that is ann's gets a suffix
        lobby = await arrive(srv.port, "lou", "tables", eve_key)
        srv.people.append(lobby)
        await lobby.expect(r"LOBBY 1/16 full=False oak:-/bob\+")  # whom the seat is kept for is not shown
        back = await arrive(srv.port, "ann", "table oak", ann_key)
        srv.people.append(back)
        await back.expect(r"SNAPSHOT you=ann seat=1 ")
        await bob.expect(r"NOTICE joined ann is back at seat 1")
    ann_id = f"key:{ann_key.key.get_fingerprint('sha256')}"
    assert any(line == f"table oak: ann sits at seat 1 [{ann_id}]" for line in srv.logs), srv.logs
    assert any(line == f"table oak: ann left seat 1, kept for 300 s [{ann_id}]" for line in srv.logs)
    assert any(line == f"table oak: ann is back at seat 1 [{ann_id}]" for line in srv.logs)


async def test_a_player_back_in_her_kept_seat_keeps_it_again_when_she_drops_at_once(tmp_path):
    """ann played, left, came back and lost her connection again a moment later: her seat is kept for her again,
    and eve (another key) watches rather than sitting down with ann's cards (before: "ann left seat 1 after 0 s,
    before any flip: the seat is not kept", and eve sat there)."""
    ann_key, bob_key, eve_key = (make_key(tmp_path, name) for name in ("ann_key", "bob_key", "eve_key"))
    async with await start_server(tmp_path, [ann_key, bob_key, eve_key], argv=FAKE_TABLE_ARGV, **MANY) as srv:
        ann = await arrive(srv.port, "ann", "table oak", ann_key)
        bob = await arrive(srv.port, "bob", "table oak", bob_key)
        srv.people += [ann, bob]
        await ann.expect(r"STATE seats=ann:player,bob:player")
        await bob.expect(r"SNAPSHOT")  # both games are up (keys typed before may wait in a cooked pty)
        ann.type(b"f")
        bob.type(b"f")
        await bob.expect(r"BATTLE 1 ")
        await ann.leave()
        await bob.expect(r"STATE seats=ann:away,bob:player")
        back = await arrive(srv.port, "ann", "table oak", ann_key)
        srv.people.append(back)
        await back.expect(r"SNAPSHOT you=ann seat=1 ")
        await bob.expect(r"NOTICE joined ann is back at seat 1")
        await back.leave()
        await bob.expect(r"NOTICE left ann left seat 1: the house plays it until they return")
        await bob.expect(r"STATE seats=ann:away,bob:player")
        eve = await arrive(srv.port, "eve", "table oak", eve_key)
        srv.people.append(eve)
        await eve.expect(r"SNAPSHOT you=eve seat=- ")
        again = await arrive(srv.port, "ann", "table oak", ann_key)
        srv.people.append(again)
        await again.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=1 ")
    ann_id = f"key:{ann_key.key.get_fingerprint('sha256')}"
    assert srv.logs.count(f"table oak: ann left seat 1, kept for 300 s [{ann_id}]") == 2, srv.logs
    assert not any("the seat is not kept" in line for line in srv.logs)


async def test_the_same_key_from_a_second_terminal_takes_the_seat_and_the_game_goes_on(tmp_path):
    ann_key, bob_key = (make_key(tmp_path, name) for name in ("ann_key", "bob_key"))
    async with await start_server(tmp_path, [ann_key, bob_key], argv=FAKE_TABLE_ARGV, **MANY) as srv:
        ann = await arrive(srv.port, "ann", "table dup", ann_key)
        bob = await arrive(srv.port, "bob", "table dup", bob_key)
        srv.people += [ann, bob]
        for person in (ann, bob):
            await person.expect(r"STATE seats=ann:player,bob:player")
        ann.type(b"f")
        bob.type(b"f")
        await bob.expect(r"BATTLE 1 ")
        again = await arrive(srv.port, "ann", "table dup", ann_key)
        srv.people.append(again)
        await again.expect(r"SNAPSHOT you=ann seat=1 game=1 battles=1 ")
        await ann.expect(r"NOTICE closing you sat down at this table again from another connection: the game goes on")
        await ann.expect(r"TABLE END")
        await bob.expect(r"NOTICE joined ann plays on at seat 1 from another connection")
        await again.expect(r"NOTICE joined ann plays on at seat 1")
        again.type(b"f")
        bob.type(b"f")
        await bob.expect(r"BATTLE 2 ")
        await again.expect(r"BATTLE 2 ")
        assert "house" not in bob.text and "away" not in bob.text
    ann_id = f"key:{ann_key.key.get_fingerprint('sha256')}"
    assert f"table dup: ann plays on at seat 1 from another connection [{ann_id}]" in srv.logs, srv.logs


async def test_in_public_mode_a_key_or_else_the_address_keeps_the_seat(tmp_path):
    stranger = make_key(tmp_path, "stranger_key")
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, **MANY) as srv:
        ann = await arrive(srv.port, "ann", "table oak", local_addr=("127.0.0.2", 0))  # no key
        bob = await arrive(srv.port, "bob", "table oak", stranger)  # any key a client holds lets it in
        srv.people += [ann, bob]
        await ann.expect(r"STATE seats=ann:player,bob:player")
        ann.type(b"f")
        await bob.expect(r"waiting=2 ")
        await ann.leave()
        await bob.expect(r"STATE seats=ann:away,bob:player")
        elsewhere = await arrive(srv.port, "ann", "table oak", local_addr=("127.0.0.3", 0))
        keyed = await arrive(srv.port, "ann", "table oak", make_key(tmp_path, "other_key"),
                             local_addr=("127.0.0.2", 0))
        srv.people += [elsewhere, keyed]
        for person in (elsewhere, keyed):
            await person.expect(r"SNAPSHOT you=\S+ seat=- ")
        back = await arrive(srv.port, "ann", "table oak", local_addr=("127.0.0.2", 0))
        srv.people.append(back)
        await back.expect(r"SNAPSHOT you=ann seat=1 ")
        await bob.leave()
        bob_back = await arrive(srv.port, "robert", "table oak", stranger, local_addr=("127.0.0.3", 0))
        srv.people.append(bob_back)
        await bob_back.expect(r"SNAPSHOT you=robert seat=2 ")  # the key, from anywhere, under any name
    bob_id = f"key:{stranger.key.get_fingerprint('sha256')}"
    assert any(line == f"table oak: robert is back at seat 2 [{bob_id}]" for line in srv.logs), srv.logs


async def test_in_public_mode_two_keyless_people_at_one_address_are_two_people(tmp_path):
    """One home behind one router, no keys: ann and bob sit across from each other and neither takes the
    other's seat; the same name from the same address is the same person (before: the address alone was
    the person, so bob sat in ann's seat)."""
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, **MANY) as srv:
        home = ("127.0.0.2", 0)
        ann = await arrive(srv.port, "ann", "table oak", local_addr=home)
        srv.people.append(ann)
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        bob = await arrive(srv.port, "bob", "table oak", local_addr=home)
        srv.people.append(bob)
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        await ann.expect(r"STATE seats=ann:player,bob:player")
        ann.type(b"f")  # the table moved: ann's seat is kept when she goes
        await bob.expect(r"waiting=2 ")
        await ann.leave()
        await bob.expect(r"STATE seats=ann:away,bob:player")
        eve = await arrive(srv.port, "eve", "table oak", local_addr=home)
        srv.people.append(eve)
        await eve.expect(r"SNAPSHOT you=eve seat=- ")  # ann's seat is kept for ann, not for her address
        back = await arrive(srv.port, "Ann", "table oak", local_addr=home)
        srv.people.append(back)
        await back.expect(r"SNAPSHOT you=Ann seat=1 ")  # the same name (as names compare), the same address
        await bob.expect(r"STATE seats=Ann:player,bob:player")


async def test_someone_who_came_to_sit_and_watches_is_told_why_on_a_game_of_their_own(tmp_path):
    """``table NAME`` ending as a spectator (both seats taken, or an address holding all the seats it may) is told
    why at once, on a game of its own (before: it watched the table's shared rendering, which shows nothing of
    one connection, and only t said why)."""
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, fanout=True, max_seats_per_address=2, **MANY) as srv:
        home = ("127.0.0.2", 0)
        ann = await arrive(srv.port, "ann", "table oak", local_addr=home)
        bob = await arrive(srv.port, "bob", "table oak", local_addr=home)
        srv.people += [ann, bob]
        await bob.expect(r"STATE seats=ann:player,bob:player")
        cy = await arrive(srv.port, "cy", "table oak", local_addr=("127.0.0.3", 0))
        srv.people.append(cy)
        await cy.expect(r"SNAPSHOT you=cy seat=- ")
        await cy.expect(r"NOTICE info both seats are taken: you are watching")
        dee = await arrive(srv.port, "dee", "table elm", local_addr=home)
        srv.people.append(dee)
        await dee.expect(r"SNAPSHOT you=dee seat=- ")
        await dee.expect(r"NOTICE info you watch: your address holds all the seats it may")
        assert srv.server.fanout is not None and srv.server.fanout.started == 0  # each a game of their own


async def test_each_game_is_told_who_its_player_is(tmp_path):
    key = make_key(tmp_path, "key")
    script = tmp_path / "show_id.py"
    script.write_text(
        "import os, sys, tty\n"
        "tty.setraw(0)\n"
        f"os.write(1, ('ID ' + os.environ.get({PLAYER_ID_VARIABLE!r}, '-') + ' END\\r\\n').encode())\n"
        "os.read(0, 1)\n"
    )
    async with await start_server(tmp_path, None, argv=(sys.executable, str(script)), **MANY) as srv:
        for client_key, pattern in ((key, r"ID key:SHA256:\S+ END"), (None, r"ID addr:[0-9a-f]{24} END")):
            async with await connect(srv.port, client_key) as conn:
                game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                text = await read_until(game.stdout, pattern)
                if client_key is not None:
                    assert f"ID key:{key.key.get_fingerprint('sha256')} END" in text
                game.stdin.write(b"q")


async def test_table_spam_from_two_addresses_does_not_lock_out_an_honest_player(tmp_path):
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, max_attempts_per_minute=1000) as srv:
        for n in range(32):  # each asks for a table of its own and leaves at once
            spam = await arrive(srv.port, "spam", f"table s{n}", local_addr=(f"127.0.0.{2 + n % 2}", 0))
            await spam.expect(r"SNAPSHOT|war-tui: ")
            await spam.leave()
        assert len(srv.server.tables.registry.tables) <= 8  # at most 4 tables opened from each address
        honest = await arrive(srv.port, "ann", "table mine", local_addr=("127.0.0.4", 0))
        await honest.expect(r"SNAPSHOT you=ann seat=1 ")
        sitter = await arrive(srv.port, "bob", "table s0", local_addr=("127.0.0.5", 0))
        await sitter.expect(r"SNAPSHOT you=bob seat=1 ")  # the spammer kept no seat at the table it opened
        honest.conn.close()
        sitter.conn.close()
    assert any("you already opened 4 of the tables open here" in line or "refused: table" in line
               for line in srv.logs)


async def test_a_table_refuses_one_spectator_too_many_in_one_line(tmp_path):
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, max_spectators=1, **MANY) as srv:
        for user in ("ann", "bob"):
            srv.people.append(await arrive(srv.port, user, "table oak"))
        watcher = await arrive(srv.port, "cy", "watch oak")
        srv.people.append(watcher)
        await watcher.expect(r"SNAPSHOT you=cy seat=- ")
        for command in ("watch oak", "table oak"):
            late = await arrive(srv.port, "dee", command)
            srv.people.append(late)
            assert await late.finish() == 1
            assert late.text.count("\r\n") == 1
            assert "war-tui: table oak has 1 spectator, the most it takes; try again later" in late.text


async def test_a_full_lobby_refuses_one_reader_too_many_in_one_line(tmp_path):
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, max_lobby=1, **MANY) as srv:
        first = await arrive(srv.port, "lou", "tables")
        await first.expect(r"LOBBY 0/16")
        late = await arrive(srv.port, "lee", "tables")
        assert await late.finish() == 1
        assert "war-tui: the lobby is full (1 reader); try again later or name a table" in late.text
        first.conn.close()
        late.conn.close()


async def test_a_table_keeps_to_the_servers_top_speed_whatever_a_game_asks(tmp_path):
    async with await start_server(tmp_path, None, argv=FAKE_TABLE_ARGV, max_speed=60.0, **MANY) as srv:
        for user in ("ann", "bob"):
            srv.people.append(await arrive(srv.port, user, "table oak"))
        ann, bob = srv.people
        await ann.expect(r"STATE seats=ann:player,bob:player")
        await bob.expect(r"SNAPSHOT")  # both games are up (keys typed before may wait in a cooked pty)
        ann.type(b"m")  # auto-play at "max": an infinite speed
        bob.type(b"m")
        state = await ann.expect(r"STATE .* auto=([0-9.]+)\r\n")
        assert float(state.group(1)) == 60.0


async def test_key_attempts_are_capped_per_connection_and_logged_as_one_line(tmp_path):
    player = make_key(tmp_path, "player_key")
    strangers = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(20)]
    async with await start_server(tmp_path, [player], **MANY) as srv:
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
            await connect(srv.port, None, client_keys=[*strangers, player.key])
        few = strangers[: MAX_AUTH_TRIES - 1]  # within the cap, the listed key still gets in
        async with await connect(srv.port, None, client_keys=[*few, player.key]):
            pass
    capped = [line for line in srv.logs if "keys refused" in line]
    assert len(capped) == 1, srv.logs
    assert f"{MAX_AUTH_TRIES} keys refused" in capped[0] and f"at most {MAX_AUTH_TRIES} tries" in capped[0]


async def test_a_player_who_dropped_never_agrees_to_stop_the_game_and_no_stopped_game_is_recorded(tmp_path):
    """Issue 38: a seat kept for a player whose connection went counted as the house's, which agreed to anything:
    the other player's r stopped the game, recorded "stopped by agreement" though nobody at the seat agreed."""
    from war_tui.stats import StatsStore

    ann_key, bob_key = (make_key(tmp_path, name) for name in ("ann_key", "bob_key"))
    db = tmp_path / "served.sqlite3"
    async with await start_server(tmp_path, [ann_key, bob_key], argv=FAKE_TABLE_ARGV, stats=lambda: StatsStore.open(db),
                                  **MANY) as srv:
        ann = await arrive(srv.port, "ann", "table oak", ann_key)
        bob = await arrive(srv.port, "bob", "table oak", bob_key)
        srv.people += [ann, bob]
        await ann.expect(r"STATE seats=ann:player,bob:player")
        await bob.expect(r"SNAPSHOT")  # both games are up (keys typed before may wait in a cooked pty)
        ann.type(b"f")
        await bob.expect(r"waiting=2 ")
        bob.type(b"f")
        await ann.expect(r"BATTLE 1 ")
        await bob.leave()
        await ann.expect(r"STATE seats=ann:player,bob:away")
        ann.type(b"r")  # stop this game and deal again: bob's seat is his, and he is not there to agree
        ann.type(b"a")  # auto-play, likewise
        ann.type(b"g")  # a line the table refuses: it read her r and a before it
        await ann.expect(r"NOTICE refused refused a line that is not JSON")
        assert "DEAL 2" not in ann.text and "NOTICE agreed" not in ann.text, ann.text
        assert not any(re.match(r"BATTLE 2 ", line) for line in ann.text.splitlines()), ann.text
    assert srv.server.tables.recorded == 0
    assert not any(line.startswith("table game over") for line in srv.logs), srv.logs
    recent = StatsStore.open(db, read_only=True).recent() if db.exists() else []
    assert recent == [], recent
