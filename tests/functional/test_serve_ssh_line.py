"""``ssh HOST line``: the line mode over SSH, with no terminal (``ssh -T``) and with one."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys

import pytest
from ssh_support import SSH_OPTIONS, PtyClient, connect, make_key, open_game, start_server
from ssh_support.players import Listener

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

pytestmark = [pytest.mark.app, pytest.mark.server_side]  # a war-tui game process (see pyproject.toml's markers)

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)
GAME_TIMEOUT = 30.0
"""The real game starts in a second or two, much more on a busy machine."""
SSH = shutil.which("ssh")


def plain_text(data: bytes) -> bool:
    return all(b >= 0x20 or b == 0x0A for b in data) and 0x7F not in data


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


@pytest.fixture
def server_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    for name, folder in (("HOME", home), ("XDG_DATA_HOME", home / "data"), ("XDG_CONFIG_HOME", home / "config"),
                         ("XDG_STATE_HOME", home / "state"), ("XDG_CACHE_HOME", home / "cache")):
        monkeypatch.setenv(name, str(folder))
    return home


async def test_line_with_no_terminal_plays_in_plain_lines(tmp_path, player, server_home):
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run("line", input=b"\n\nscore\n\x1b[A\nq\n", encoding=None), GAME_TIMEOUT)
    assert result.exit_status == 0, result.stderr
    assert plain_text(result.stdout), result.stdout
    lines = result.stdout.decode().splitlines()
    assert lines[:2] == ["War, seed 3, standard rules.", "You have 26, they have 26."]
    assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in lines
    assert "Your king of hearts beats their eight of diamonds. You have 28, they have 24." in lines
    assert "Battle 2, no wars so far. You have 28, they have 24." in lines
    assert lines[-1] == "Goodbye."
    assert "\n\n" not in result.stdout.decode()  # nothing typed came back


async def test_line_with_a_terminal_takes_single_keys(tmp_path, player, server_home):
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        async with await connect(srv.port, player) as conn:
            game = Listener(conn, await open_game(conn, command="line"))
            await game.until("Keys:")
            game.say(b"\r")
            await game.until("beats")
            game.say(b"q")
            result = await asyncio.wait_for(game.process.wait(), GAME_TIMEOUT)
    text = (bytes(game.seen) + result.stdout).replace(b"\r\n", b"\n")
    assert result.exit_status == 0
    assert plain_text(text), text
    assert b"Your eight of hearts beats their five of diamonds." in text and text.endswith(b"Goodbye.\n")


async def test_accessible_sent_by_the_client_gets_the_line_mode_with_a_terminal_or_without(tmp_path, player, server_home):
    # ssh -o SetEnv=ACCESSIBLE=1 HOST: the line mode, as it is locally.
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        async with await connect(srv.port, player) as conn:
            game = Listener(conn, await open_game(conn, env={"ACCESSIBLE": "1"}))
            await game.until("Keys:")
            game.say(b"\r")
            await game.until("beats")
            game.say(b"q")
            result = await asyncio.wait_for(game.process.wait(), GAME_TIMEOUT)
        async with await connect(srv.port, player) as conn:
            no_terminal = await asyncio.wait_for(conn.run(env={"ACCESSIBLE": "yes"}, input=b"\nq\n", encoding=None),
                                                 GAME_TIMEOUT)
    text = (bytes(game.seen) + result.stdout).replace(b"\r\n", b"\n")
    assert result.exit_status == 0 and plain_text(text), text
    assert b"Your eight of hearts beats their five of diamonds." in text and text.endswith(b"Goodbye.\n")
    assert no_terminal.exit_status == 0, no_terminal.stderr
    assert plain_text(no_terminal.stdout), no_terminal.stdout
    lines = no_terminal.stdout.decode().splitlines()
    assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in lines
    assert lines[-1] == "Goodbye."


async def test_line_takes_no_more_words(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=GAME) as srv:
        said = []
        for command in ("line rm -rf", "line tables", "line table Bad!Name"):
            async with await connect(srv.port, player) as conn:
                said.append(await asyncio.wait_for(conn.run(command), GAME_TIMEOUT))
        result, tables, bad = said
    assert result.exit_status == 1 and "line mode" in result.stderr and "rm" not in result.stderr
    assert tables.exit_status == 1 and "line table NAME" in tables.stderr
    assert bad.exit_status == 1 and "Bad!Name" not in bad.stderr


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")
async def test_openssh_dash_t_line(tmp_path, player, server_home):
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        argv = [SSH, *SSH_OPTIONS, "-o", "LogLevel=ERROR", "-i", str(player.path), "-p", str(srv.port), "-T",
                "player@127.0.0.1", "line"]
        env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", os.defpath)}
        process = await asyncio.create_subprocess_exec(
            *argv, env=env, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(b"\nq\n"), GAME_TIMEOUT)
    assert process.returncode == 0, err
    assert plain_text(out)
    lines = out.decode().splitlines()
    assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in lines
    assert lines[-1] == "Goodbye."


async def slowly(client: PtyClient, pattern: str) -> None:
    """``client.expect``, with the time the real game may take to start on a busy machine."""
    deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT
    while not re.search(pattern, client.text):
        assert asyncio.get_running_loop().time() < deadline, f"no {pattern!r} in {client.text!r}"
        await asyncio.sleep(0.05)


@pytest.mark.terminal
@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")
async def test_openssh_with_a_terminal_line(tmp_path, player, server_home):
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        client = PtyClient()
        argv = [SSH, *SSH_OPTIONS, "-o", "LogLevel=ERROR", "-i", str(player.path), "-p", str(srv.port), "-t",
                "player@127.0.0.1", "line"]
        env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", os.defpath), "TERM": "xterm-256color"}
        try:
            await client.start(argv, env, (80, 24))
            await slowly(client, "Keys:")
            client.type(b"\r")
            await slowly(client, "beats")
            client.type(b"q")
            await slowly(client, "Goodbye")
            assert await asyncio.wait_for(client.wait(), GAME_TIMEOUT) == 0
        finally:
            await client.close()
    text = client.text.replace("\r\n", "\n")
    assert "\x1b" not in text and "Your eight of hearts beats their five of diamonds." in text


async def test_the_end_of_the_input_ends_the_game(tmp_path, player, server_home):
    async with await start_server(tmp_path, [player], argv=(*GAME, "--seed", "3")) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run("line", input=b"\n", encoding=None), GAME_TIMEOUT)
    assert result.exit_status == 0
    lines = result.stdout.decode().splitlines()
    assert "Your eight of hearts beats their five of diamonds. You have 27, they have 25." in lines
    assert lines[-1] == "The input ended. Goodbye."


async def line_client(port: int, user: str, command: str) -> Listener:
    conn = await connect(port, None, username=user)
    process = await conn.create_process(command, encoding=None)
    return Listener(conn, process)


async def test_a_line_player_sits_across_from_a_full_screen_player(tmp_path, monkeypatch):
    from ssh_support.players import MANY, take_a_seat

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    srv = await start_server(tmp_path, None, argv=GAME, **MANY)
    people = []
    try:
        ann = await line_client(srv.port, "ann", "line table oak")
        people.append(ann)
        await ann.until("You sit at table oak in seat 1, as ann; nobody sits across yet.")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        people.append(bob)
        await ann.until("bob")  # the table says bob sat down
        cy = await line_client(srv.port, "cy", "line watch oak")
        people.append(cy)
        await cy.until(r"You are watching table oak: ann against bob\.")
        await bob.glass.until(r"Table oak · ann to flip · bob \(you\) to flip")
        ann.say(b"\n")
        await bob.glass.until(r"Table oak · ann flipped · bob \(you\) to flip")
        bob.type(b" ")
        told = await ann.until(r"beats .*\. You have (\d+), bob has (\d+)\.\n")
        heard = await cy.until(r"beats .*\. Ann has (\d+), bob has (\d+)\.\n")
        await bob.glass.until(r"Battle 1 · Wars")
        counts = re.search(r"You have (\d+), bob has (\d+)\.", told).groups()
        assert re.search(rf"Ann has {counts[0]}, bob has {counts[1]}\.", heard)
        await bob.glass.until(rf"^ ann\s+{counts[0]} [█░]+ {counts[1]}\s+bob\s*$")  # the same counts on the board
        ann.say(b"score\n")
        ties = told.count(" tie: ")  # the table deals a random seed: a war or not
        wars = {0: "no wars", 1: "1 war"}.get(ties, f"{ties} wars")
        await ann.until(rf"Battle 1, {wars} so far\. You have {counts[0]}, bob has {counts[1]}\.")
        cy.say(b"\n")  # a spectator's flip: the table says they are watching
        await cy.until("(?m)^you are watching$")
        ann.say(b"q\n")
        await ann.until("Goodbye.")
        result = await asyncio.wait_for(ann.process.wait(), GAME_TIMEOUT)
        assert result.exit_status == 0
        assert plain_text(bytes(ann.seen)) and plain_text(bytes(cy.seen))
    finally:
        for person in people:
            person.conn.close()
        await srv.server.stop()


async def test_line_players_ask_agree_and_emote_and_a_spectators_t_takes_the_seat_left(tmp_path, monkeypatch):
    from ssh_support.players import MANY

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    srv = await start_server(tmp_path, None, argv=GAME, seat_timeout=1.0, **MANY)
    people: list[Listener] = []

    async def arrive(user: str, command: str) -> Listener:
        conn = await connect(srv.port, make_key(tmp_path, f"{user}_key"), username=user)
        person = Listener(conn, await conn.create_process(command, encoding=None))
        people.append(person)
        return person

    try:
        ann = await arrive("ann", "line table oak")
        await ann.until("You sit at table oak in seat 1, as ann; nobody sits across yet.")
        bob = await arrive("bob", "line table oak")
        await bob.until("You sit at table oak in seat 2, as bob; ann sits across.")
        cy = await arrive("cy", "line watch oak")
        await cy.until(r"You are watching table oak: ann against bob\.")
        bob.say(b"w\n")
        await ann.until("bob asks to stop at wars: w agrees, n declines.")
        await bob.until("You ask to stop at wars; waiting for ann, w again withdraws.")
        await cy.until(r"bob asks to stop at wars\.")
        ann.say(b"war\n")  # the word does what the key does
        for person in (ann, bob, cy):
            await person.until("Auto-play stops at every war now: both players asked.")
        ann.say(b"2\n")
        await ann.until("You say: what a war!")
        await bob.until("ann says: what a war!")
        await cy.until("ann says: what a war!")
        bob.say(b"q\n")
        await cy.until("bob left seat 2")
        sat = "You sit at table oak in seat 2, as cy; ann sits across."
        tries = 0
        while sat not in cy.lines:  # bob's seat is kept for him if he stayed 10 s: t takes it a second later
            if tries:
                await asyncio.sleep(0.5)
            cy.say(b"t\n")
            tries += 1
            await cy.until(rf"(?s)(?:(?:t takes it in \d+ s|{re.escape(sat)})\n.*?){{{tries}}}")
        await ann.until("cy (sits|takes seat|is back)")
        assert all(plain_text(bytes(person.seen)) for person in people)
    finally:
        for person in people:
            person.conn.close()
        await srv.server.stop()
