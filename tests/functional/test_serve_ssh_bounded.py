"""serve-ssh bounds what a client makes it hold: env requests, idle slots, resizes, bad bytes, its own memory."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
import weakref

import asyncssh
import pytest
from asyncssh.packet import String
from ssh_support import (
    FAKE_ARGV,
    FAKE_TABLE_ARGV,
    TIMEOUT,
    connect,
    make_key,
    open_game,
    read_until,
    ready_game,
    start_server,
    until,
)

from war_tui.serving.goodbyes import GAME_CRASHED, IDLE_END
from war_tui.ssh.server import OUT_OF_MEMORY

KiB = 1024


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


@contextlib.contextmanager
def no_cycle_collector():
    """Whatever is freed meanwhile is freed by reference counting alone."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def send_env(game: asyncssh.SSHClientProcess, name: str, value: bytes) -> None:
    # A hostile client's env request at any time, not only before the shell.
    game.channel._send_request(b"env", String(name), String(value), want_reply=True)


# -- env requests ----------------------------------------------------------------------------------------


async def test_env_requests_keep_only_what_a_game_reads(tmp_path, player):
    env = {"COLORTERM": "truecolor", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "NO_COLOR": "1"}
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn, env=env)
            text = seen.decode()
            assert "COLORTERM=truecolor" in text and "NO_COLOR=1" in text and "LANG=C.UTF-8" in text
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
    # An OpenSSH client's usual LANG and LC_* are taken quietly, not counted.
    assert "refused" not in srv.logs[-1], srv.logs


async def test_a_flood_of_env_requests_is_refused_ends_the_connection_and_is_freed_at_once(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        with no_cycle_collector():
            conn = await connect(srv.port, player)
            game, _ = await ready_game(conn)
            link = next(iter(srv.server.connections))
            session = weakref.ref(link.sessions[0])
            link = weakref.ref(link)
            with contextlib.suppress(asyncssh.Error, OSError):
                for i in range(200):  # 6 MiB, far past the refusal limit; each one a variable of its own
                    send_env(game, f"FLOOD_{i}", b"x" * (30 * KiB))
                    await game.stdin.drain()
                await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
            await until(lambda: not srv.server.connections and not srv.server._tasks)
            with contextlib.suppress(AssertionError):  # the last callbacks of the closed connection
                await until(lambda: session() is None and link() is None)
            assert session() is None, gc.get_referrers(session())
            assert link() is None, gc.get_referrers(link())
            conn.close()
    disconnect = [line for line in srv.logs if line.startswith("disconnect")][-1]
    assert "refused: environment, too many refusals" in disconnect, srv.logs


async def test_env_requests_after_the_game_started_are_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            refused = await game.channel._make_request(b"env", String("COLORTERM"), String("truecolor"))
            assert refused is False
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
    assert "refused: environment" in srv.logs[-1], srv.logs


# -- idle sessions ---------------------------------------------------------------------------------------


async def test_a_session_that_sends_no_keys_is_ended_with_a_goodbye(tmp_path, player):
    async with await start_server(tmp_path, [player], idle_seconds=0.5) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            text = await read_until(game.stdout, "Come back any time", seen)
            assert IDLE_END.format(minutes="0.00833333 minutes") in text
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0
    assert srv.logs[-1].endswith(", idle"), srv.logs


async def test_keys_keep_a_session_alive(tmp_path, player):
    async with await start_server(tmp_path, [player], idle_seconds=1.5) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            for _ in range(25):  # 2.5 s of typing, a key every 0.1 s
                game.stdin.write(b"k")
                await asyncio.sleep(0.1)
            game.stdin.write(b"q")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 3
    assert "idle" not in srv.logs[-1], srv.logs


async def test_a_screensaver_is_exempt_only_when_the_operator_says_so(tmp_path, player):
    async with await start_server(tmp_path, [player], idle_seconds=0.3, idle_exempt_screensaver=True) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            await asyncio.sleep(1.0)
            game.stdin.write(b"q")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 3
    assert "idle" not in srv.logs[-1], srv.logs


async def test_the_screensaver_exemption_spares_no_table_session(tmp_path, player):
    options = {"idle_seconds": 0.5, "idle_exempt_screensaver": True}
    async with await start_server(tmp_path, [player], argv=FAKE_TABLE_ARGV, **options) as srv:
        for command, where in (("tables", "lobby"), ("table oak", "table oak seat 1 as player")):
            async with await connect(srv.port, player) as conn:
                game = await conn.create_process(command, term_type="xterm", term_size=(80, 24), encoding=None)
                await read_until(game.stdout, "Come back any time")
                assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0
            await until(lambda: srv.logs[-1].startswith("disconnect"))
            assert srv.logs[-1].endswith(f", idle, {where}"), srv.logs


async def test_a_full_server_says_how_many_slots_idle_sessions_hold(tmp_path, player):
    async with await start_server(tmp_path, [player], max_sessions=1, idle_note_seconds=0) as srv:
        async with await connect(srv.port, player) as conn:
            await ready_game(conn)
            with pytest.raises(asyncssh.DisconnectError):
                await connect(srv.port, player)
    assert "server full: 1 game in progress, 1 of them idle (no keys for 0 s or more)" in srv.logs, srv.logs


# -- resizes -----------------------------------------------------------------------------------------------


async def test_a_size_that_comes_back_to_the_one_on_show_costs_no_redraw(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            for i in range(200):
                game.change_terminal_size(*((500, 200) if i % 2 == 0 else (80, 24)))
            await asyncio.sleep(0.5)
            game.stdin.write(b"k")
            text = await read_until(game.stdout, "KEY 6b", seen)
            assert text.count("SIZE") == 1, text  # the one at start
            game.change_terminal_size(100, 30)  # a real change still arrives
            await read_until(game.stdout, "SIZE 100x30", seen)


# -- bytes that are not UTF-8 ---------------------------------------------------------------------------


async def test_bytes_that_are_not_utf8_reach_the_game_as_replacement_characters(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            game.stdin.write(b"\xe9a")  # é from a Latin-1 terminal, then a
            await read_until(game.stdout, "KEY 61", seen)
            game.stdin.write(b"\xc3")  # é in UTF-8, split between two packets
            await game.stdin.drain()
            await asyncio.sleep(0.1)
            game.stdin.write(b"\xa9")
            text = await read_until(game.stdout, "KEY a9", seen)
            keys = re.findall(r"KEY (\w\w)", text)
            assert keys == ["ef", "bf", "bd", "61", "c3", "a9"], keys
            game.stdin.write(b"q")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 3


async def test_a_game_that_wrote_a_traceback_and_exited_0_is_logged_as_a_crash(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--crash-zero")) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            text = await read_until(game.stdout, "Sorry!")
            assert GAME_CRASHED in text
            await asyncio.wait_for(game.wait(), TIMEOUT)
    crashed = [line for line in srv.logs if " crashed (" in line]
    assert len(crashed) == 1 and "crashed (exit status 0): UnicodeDecodeError: 'utf-8' codec" in crashed[0], srv.logs
    assert "exit status 0, crashed" in srv.logs[-1]
    assert len(srv.logs) == 3, srv.logs  # connect, the crash, disconnect: no traceback


# -- the server's own memory -----------------------------------------------------------------------------


async def test_past_its_memory_ceiling_the_server_refuses_new_connections(tmp_path, player):
    async with await start_server(tmp_path, [player], max_server_mb=32) as srv:  # a test process is larger
        for _ in range(3):
            with pytest.raises(asyncssh.DisconnectError) as refused:
                await connect(srv.port, player)
            assert OUT_OF_MEMORY in refused.value.reason
    noted = [line for line in srv.logs if line.startswith("memory:")]
    assert len(noted) == 1 and "past --max-server-mb 32: new connections are refused" in noted[0], srv.logs


async def test_crash_lines_are_counted_with_the_other_floods(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--crash")) as srv:
        srv.server.flood_log.burst = 0  # as if the second's share of lines were used up already
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            await read_until(game.stdout, "Sorry!")
            await asyncio.wait_for(game.wait(), TIMEOUT)
        srv.server.flood_log.flush()
    assert not [line for line in srv.logs if " crashed (" in line], srv.logs
    assert any("held back" in line and "1 game crash lines" in line for line in srv.logs), srv.logs
