"""``ssh HOST replay GAME_ID[@BATTLE]``: a finished game of the served statistics on the replay screen, and its
one-line refusals (an unknown, malformed or hidden game, a battle past the end)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys

import aiohttp
import pytest
from replay_support import served_stats
from ssh_support import connect, make_key, open_game, start_server
from ssh_support.players import Player
from web_support import closed, open_socket, origin, read_lines, read_screen, served, signed, web_client

from war_tui.commands.serve_ssh import GAME_BOOTSTRAP
from war_tui.web.server import COOKIE

pytestmark = [pytest.mark.app, pytest.mark.server_side]  # a war-tui game process (see pyproject.toml's markers)

GAME = (sys.executable, "-c", GAME_BOOTSTRAP)
GAME_TIMEOUT = 60.0


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


async def test_replay_opens_a_table_game_at_the_battle_asked_and_q_leaves(tmp_path, player, server_home):
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            game = Player(conn, await open_game(conn, size=(100, 30), command="replay 1@5"), (100, 30))
            await game.glass.until(f"battle 5 of {battles}")
            assert "Replay of game 1: [i]ann v bo" in game.glass.text  # the name as typed, never markup
            await game.glass.until(rf"ssh -t -p {srv.port} 127\.0\.0\.1 replay 1@5")  # the address it reached
            game.type(b"\x1b[C")
            await game.glass.until(f"battle 6 of {battles}")
            await game.glass.until(rf"ssh -t -p {srv.port} 127\.0\.0\.1 replay 1@6")  # the battle on show
            game.type(b"q")
            result = await asyncio.wait_for(game.process.wait(), GAME_TIMEOUT)  # q leaves: the replay is the one screen
    assert result.exit_status == 0


@pytest.mark.parametrize(("command", "status", "said"), [
    ("replay 99", 2, "war-tui: there is no game 99 on this server"),
    ("replay 2", 2, "war-tui: there is no game 2 on this server"),  # another player's solo game
    ("replay 1@{past}", 2, "war-tui: game 1 has {battles} battles: there is no battle {past}"),
    ("replay 1x", 1, "war-tui: a game's id is a whole number from 1 to 9223372036854775807"),
    ("replay 1@0", 1, "war-tui: a battle is a whole number from 1 to 1,000,000 after the '@'"),
    ("replay", 1, "war-tui: 'replay' takes one game"),
])
async def test_a_game_that_cannot_be_replayed_is_one_line(tmp_path, player, server_home, command, status, said):
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    past = battles + 1
    command, said = command.format(past=past), said.format(battles=battles, past=past)
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            process = await open_game(conn, command=command)
            result = await asyncio.wait_for(process.wait(), GAME_TIMEOUT)
        refusals = dict(srv.server.counts.refusals)
    out = (result.stdout + result.stderr).decode().replace("\r\n", "\n")
    assert result.exit_status == status, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(said), out
    assert (refusals["game_id"], refusals["bad_input"]) == ((1, 0) if status == 1 else (0, 0))  # the server's refusals


async def test_the_web_page_replays_the_game_at_the_battle_of_its_address(tmp_path, server_home):
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    async with served(tmp_path, {"argv": (*GAME, "--stats-db", str(stats))}) as (srv, door):
        async with aiohttp.ClientSession() as client:
            async with client.get(origin(door) + "/replay/1") as response:
                assert response.status == 200 and "xterm" in await response.text()
        async with web_client() as client:
            ws = await open_socket(client, door, "/replay/1@5", cols=100, rows=30)  # page.js: /replay/1#b=5
            seen = bytearray()
            await read_screen(ws, f"battle 5 of {battles}", seen)
            await read_screen(ws, re.escape(f"{origin(door)}/replay/1#b=5"), seen)  # as the browser named the door
            await ws.close()
            unknown = await open_socket(client, door, "/replay/99")
            assert "war-tui: there is no game 99 on this server" in await closed(unknown)
            malformed = await open_socket(client, door, "/replay/1@x")
            assert "war-tui: a battle is a whole number from 1 to 1,000,000" in await closed(malformed)
            assert door.server.counts.refusals["game_id"] == 1  # the door's own refusal: the malformed address


@pytest.mark.parametrize("form", ["json", "text"])
async def test_export_writes_the_same_file_as_the_local_command_with_no_terminal(tmp_path, player, server_home, form):
    stats = tmp_path / "served-stats.sqlite3"
    served_stats(stats)
    local = subprocess.run([sys.executable, "-m", "war_tui", "export", "1", "--format", form, "--stats-db", str(stats)],
                           capture_output=True, timeout=GAME_TIMEOUT, check=True).stdout
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run(f"export 1 --format {form}", encoding=None), GAME_TIMEOUT)
    assert result.exit_status == 0, result.stdout
    assert result.stdout == local and b"[i]ann" in local  # byte for byte: "\n", never "\r\n"; the name as text


@pytest.mark.parametrize(("command", "flags", "size"), [
    ("export 1 --format=cast", (), (80, 24)),
    ("export 1 --size 100x30 --format cast --speed 4", ("--speed", "4", "--size", "100x30"), (100, 30)),
])
async def test_export_as_a_recording_is_an_asciicast(tmp_path, player, server_home, command, flags, size):
    """At the speed and size asked: the recording the local command makes of the same game, as long and as large."""
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    local = subprocess.run([sys.executable, "-m", "war_tui", "export", "1", "--format", "cast", *flags, "--stats-db",
                            str(stats)], capture_output=True, timeout=GAME_TIMEOUT * 2, check=True).stdout
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run(command, encoding=None), GAME_TIMEOUT * 2)
    assert result.exit_status == 0, result.stdout[-500:]
    header, *frames = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert header["version"] == 2 and (header["width"], header["height"]) == size
    assert header == json.loads(local.decode().splitlines()[0])  # its duration too: the speed asked
    assert len(frames) > battles and all(kind == "o" for _, kind, _ in frames)


@pytest.mark.parametrize(("command", "status", "said"), [
    ("export 99", 2, "war-tui: there is no game 99 on this server"),
    ("export 2 --format text", 2, "war-tui: there is no game 2 on this server"),
    ("export 1 --format pdf", 1, "war-tui: 'export' takes a game's id and --format json, text or cast"),
    ("export x", 1, "war-tui: a game's id is a whole number from 1 to 9223372036854775807"),
    ("export 1 --format cast --speed 3", 1, "war-tui: a recording's speed is 1, 2, 4 or 8 (battles a second)"),
    ("export 1 --format cast --size 20x10", 1, "war-tui: a recording's size is COLSxROWS from 40x12 to 300x100"),
    ("export 1 --speed 4", 1, "war-tui: --speed and --size are for --format cast"),
])
async def test_an_export_that_cannot_be_made_is_one_line(tmp_path, player, server_home, command, status, said):
    stats = tmp_path / "served-stats.sqlite3"
    served_stats(stats)
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run(command, encoding=None), GAME_TIMEOUT)
        refusals = dict(srv.server.counts.refusals)
    out = (result.stdout + result.stderr).decode()
    assert result.exit_status == status, out
    assert out.endswith("\n") and out.count("\n") == 1 and out.startswith(said), out
    assert (refusals["game_id"], refusals["bad_input"]) == ((1, 0) if status == 1 else (0, 0))  # the server's refusals


async def test_the_web_door_offers_the_exports_as_downloads(tmp_path, server_home):
    stats = tmp_path / "served-stats.sqlite3"
    served_stats(stats)
    local = subprocess.run([sys.executable, "-m", "war_tui", "export", "1", "--format", "text", "--stats-db", str(stats)],
                           capture_output=True, timeout=GAME_TIMEOUT, check=True).stdout
    async with served(tmp_path, {"argv": (*GAME, "--stats-db", str(stats))}) as (srv, door):
        async with aiohttp.ClientSession() as client:
            async with client.get(origin(door) + "/export/1.json") as response:
                assert response.status == 403  # no cookie: the page first
        async with web_client() as client:
            client.cookie_jar.update_cookies({COOKIE: signed(door)})
            async with client.get(origin(door) + "/export/1.txt") as response:
                assert response.status == 200 and response.content_type == "text/plain"
                assert "attachment" in response.headers["Content-Disposition"]
                assert await response.read() == local
            async with client.get(origin(door) + "/export/1.json") as response:
                assert response.status == 200 and (await response.json())["players"] == ["[i]ann", "bo"]
            async with client.get(origin(door) + "/export/99.cast") as response:
                assert response.status == 404
                assert await response.text() == "war-tui: there is no game 99 on this server\n"
            async with client.get(origin(door) + "/export/1.pdf") as response:
                assert response.status == 404 and "/export/GAME_ID.json, .txt or .cast" in await response.text()
            async with client.get(origin(door) + "/export/1.cast?speed=4&size=100x30") as response:
                assert response.status == 200 and 'filename="war-tui-game-1-4x-100x30.cast"' in response.headers[
                    "Content-Disposition"]
                header = json.loads((await response.read()).decode().splitlines()[0])
                assert (header["width"], header["height"]) == (100, 30)
            for query, said in (("1.cast?speed=3", "war-tui: a recording's speed is 1, 2, 4 or 8 (battles a second)\n"),
                                ("1.cast?size=300x101", "war-tui: a recording's size is COLSxROWS from 40x12 to 300x100\n"),
                                ("1.json?speed=4", "war-tui: a download's query is speed and size, each once, and only"
                                 " for a .cast\n")):
                async with client.get(origin(door) + "/export/" + query) as response:
                    assert response.status == 400 and await response.text() == said
            assert door.server.counts.refusals["game_id"] == 4  # the door's own refusals: a name, three queries
            async with client.get(origin(door) + "/replay/1") as response:  # the replay's page offers them all
                page = await response.text()
            assert 'href="/export/1.json"' in page and 'href="/export/1.txt"' in page
            assert 'action="/export/1.cast"' in page and '<select id="cast-speed" name="speed">' in page
            assert 'name="size" value="80x24"' in page
            async with client.get(origin(door) + "/line/replay/1") as response:
                assert 'action="/export/1.cast"' in await response.text()
            async with client.get(origin(door) + "/table/oak") as response:
                assert "/export/" not in await response.text()


async def test_line_replay_with_no_terminal_says_the_battle_asked_in_plain_lines(tmp_path, player, server_home):
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    async with await start_server(tmp_path, [player], argv=(*GAME, "--stats-db", str(stats))) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run("line replay 1@5", input=b"\n\nq\n", encoding=None), GAME_TIMEOUT)
    assert result.exit_status == 0, result.stdout
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith(f"Replay of seed 0, standard rules, {battles} battles.")
    assert [line.split(":")[0] for line in lines[1:3]] == [f"battle 5 of {battles}", f"battle 6 of {battles}"]


async def test_the_plain_text_page_replays_the_game(tmp_path, server_home):
    stats = tmp_path / "served-stats.sqlite3"
    battles, _ = served_stats(stats)
    async with served(tmp_path, {"argv": (*GAME, "--stats-db", str(stats))}) as (srv, door):
        async with web_client() as client:
            ws = await open_socket(client, door, "/line/replay/1")
            await read_lines(ws, "Replay of seed 0")
            await ws.send_str("")
            said = await read_lines(ws, f"battle 1 of {battles}: ")
            assert any("[i]ann" in line for line in said), said  # the name as text
            await ws.close()
