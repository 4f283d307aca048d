"""serve-ssh driven by an asyncssh client: the game on a pty, and nothing but the game."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex

import asyncssh
import pytest
from ssh_support import (
    FAKE_ARGV,
    TIMEOUT,
    connect,
    game_pid,
    make_key,
    open_game,
    process_alive,
    read_until,
    ready_game,
    start_server,
    until,
    wait_gone,
)
from ssh_support.players import game_pids

from war_tui.serving.goodbyes import SHUTTING_DOWN
from war_tui.settings.served import NOTICE_VARIABLE
from war_tui.ssh.session import NO_AGENT, REFUSE_COMMAND, REFUSE_NO_PTY


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


async def test_a_session_plays_the_program_on_its_own_terminal(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--screensaver")) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn, size=(101, 33), term="xterm-kitty")
            seen = bytearray()
            text = await read_until(game.stdout, "READY", seen)
            assert "FOREGROUND True" in text  # the pty is its controlling terminal
            assert "ARGS --screensaver" in text
            assert "SIZE 101x33" in text
            env = shlex.split(re.search(r"ENV (.*)\r\n", text).group(1))
            names = {item.split("=", 1)[0] for item in env}
            assert "TERM=xterm-kitty" in env and "LANG=C.UTF-8" in env
            assert not names & {"COLUMNS", "LINES", "SSH_AUTH_SOCK", "SSH_CONNECTION", "PYTHONPATH"}
            pid = game_pid(text)
            assert os.getpgid(pid) == pid
            home = dict(item.split("=", 1) for item in env)["HOME"]
            assert f"CWD {os.path.realpath(home)}\r\n" in text  # started at home, not in the server's directory

            game.stdin.write(b"a")
            await read_until(game.stdout, "KEY 61", seen)
            game.change_terminal_size(120, 40)
            await read_until(game.stdout, "SIZE 120x40", seen)
            game.stdin.write(b"q")
            await read_until(game.stdout, "KEY 71", seen)
            result = await asyncio.wait_for(game.wait(), TIMEOUT)
            assert result.exit_status == 3
            # The game is over, so is the connection.
            await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        assert await wait_gone(pid)
    disconnect = [line for line in srv.logs if line.startswith("disconnect")]
    assert len(disconnect) == 1 and "user=player" in disconnect[0] and "exit status 3" in disconnect[0]
    connected = [line for line in srv.logs if line.startswith("connect 127.0.0.1:")]
    assert len(connected) == 1 and connected[0].endswith(" user=player")


async def test_a_command_request_is_refused_with_a_message(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run("cat /etc/passwd"), TIMEOUT)
            assert result.exit_status == 1
            assert result.stderr.strip() == REFUSE_COMMAND
            assert result.stdout == ""
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run("ls", term_type="xterm"), TIMEOUT)
            assert result.exit_status == 1
            assert REFUSE_COMMAND in result.stdout
    assert "refused: command" in srv.logs[-1]


async def test_a_session_without_a_terminal_is_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            result = await asyncio.wait_for(conn.run(), TIMEOUT)
            assert result.exit_status == 1
            assert result.stderr.strip() == REFUSE_NO_PTY


async def test_sftp_is_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            with pytest.raises((asyncssh.Error, ConnectionError, OSError)):
                async with conn.start_sftp_client() as sftp:
                    await sftp.listdir(".")
    assert "refused: subsystem 'sftp'" in srv.logs[-1]


async def test_port_forwarding_is_refused_both_ways(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await conn.open_connection("127.0.0.1", srv.port)
            assert refused.value.code == asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED
            assert "only plays War" in refused.value.reason
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", srv.port)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_unix_connection("/run/docker.sock")
    assert "refused: local forwarding, remote forwarding" in srv.logs[-1]


async def test_agent_forwarding_is_refused_and_the_player_told(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        agent = str(tmp_path / "agent.sock")
        async with await connect(srv.port, player, agent_forwarding=True, agent_path=agent) as conn:
            game = await open_game(conn)
            text = await read_until(game.stdout, "READY")
            # Told by the game, on its board: nothing is printed before the game's own screen.
            assert text.startswith("PID ")
            assert f"{NOTICE_VARIABLE}={NO_AGENT}" in text
            assert "SSH_AUTH_SOCK" not in text
            game.stdin.write(b"x")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0
    assert "refused: agent forwarding" in srv.logs[-1]


async def test_only_listed_keys_get_in_and_never_a_password(tmp_path, player):
    stranger = make_key(tmp_path, "stranger_key")
    async with await start_server(tmp_path, [player]) as srv:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(srv.port, stranger)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(srv.port, None, password="hunter2")
        # Keys added to the file count at once, as with sshd.
        keys_file = tmp_path / "authorized_keys"
        keys_file.write_text(keys_file.read_text() + stranger.public_line)
        async with await connect(srv.port, stranger):
            pass
    assert any("user=player" in line and "not authenticated" in line for line in srv.logs)


async def test_public_lets_anyone_in(tmp_path):
    stranger = make_key(tmp_path, "stranger_key")
    async with await start_server(tmp_path, None) as srv:
        for key in (stranger, None):
            async with await connect(srv.port, key) as conn:
                game = await open_game(conn)
                await read_until(game.stdout, "READY")
                game.stdin.write(b"x")
                assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0


async def test_a_dropped_connection_leaves_no_process_behind(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        conn = await connect(srv.port, player)
        game = await open_game(conn)
        pid = game_pid(await read_until(game.stdout, "READY"))
        assert process_alive(pid)
        conn.abort()  # the network goes away: no channel close, no disconnect message
        assert await wait_gone(pid)
        await until(lambda: any("disconnect" in line for line in srv.logs))
    assert "killed by SIGHUP, client left" in srv.logs[-1]


async def test_the_session_cap_holds_and_frees_up(tmp_path, player):
    async with await start_server(tmp_path, [player], max_sessions=2) as srv:
        first, second = await connect(srv.port, player), await connect(srv.port, player)
        for conn in (first, second):
            await read_until((await open_game(conn)).stdout, "READY")
        with pytest.raises(asyncssh.DisconnectError) as full:
            third = await connect(srv.port, player)
            await open_game(third)
        assert "the server is full (2 games in progress)" in full.value.reason
        first.close()
        await first.wait_closed()
        await until(lambda: len(srv.server.admitted) < 2)
        async with await connect(srv.port, player) as again:
            await read_until((await open_game(again)).stdout, "READY")
        second.close()


async def test_one_session_channel_per_connection_and_the_rest_refused_at_once(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await open_game(conn)
            assert "one session per connection" in refused.value.reason
            # A client asking again and again is let go: no channel piles up in the server.
            with contextlib.suppress(asyncssh.Error, OSError):
                for _ in range(200):
                    with contextlib.suppress(asyncssh.ChannelOpenError):
                        await open_game(conn)
            await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        assert sum(len(c.sessions) for c in srv.server.connections) <= 1
    assert "refused: second session, too many refusals" in srv.logs[-1]


async def test_too_many_attempts_from_one_address_are_turned_away(tmp_path, player):
    async with await start_server(tmp_path, [player], max_attempts_per_minute=2) as srv:
        for _ in range(2):
            async with await connect(srv.port, player):
                pass
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await connect(srv.port, player)
        assert "too many connection attempts" in refused.value.reason


async def test_the_session_time_limit_ends_the_game_and_says_so(tmp_path, player):
    async with await start_server(tmp_path, [player], session_seconds=1.0) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            await until(lambda: game_pids(srv))
            pids = game_pids(srv)
            text = await read_until(game.stdout, "time limit")
            assert "the session time limit" in text and "is up. Thanks for playing!" in text
            assert "\x1b[?1049l" in text  # the client's terminal is given back
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0
        for pid in pids:
            assert await wait_gone(pid)
    assert "time limit" in srv.logs[-1], srv.logs


async def test_stopping_the_server_ends_every_game(tmp_path, player):
    srv = await start_server(tmp_path, [player])
    conn = await connect(srv.port, player)
    game = await open_game(conn)
    seen = bytearray()
    pid = game_pid(await read_until(game.stdout, "READY", seen))
    stopping = asyncio.ensure_future(srv.server.stop())
    assert SHUTTING_DOWN in await read_until(game.stdout, "shutting down", seen)
    assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0  # the hung-up game's SIGHUP is not the client's
    conn.close()  # told and shown the exit status, the client leaves, as ssh does
    await asyncio.wait_for(stopping, TIMEOUT)
    assert not process_alive(pid)
    assert not srv.server.connections


async def test_a_game_that_cannot_start_is_reported(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(str(tmp_path / "no-such-game"),)) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            text = await read_until(game.stdout, "cannot start")
            assert "no-such-game" in text
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 127


async def test_a_connection_that_starts_no_game_does_not_keep_its_slot(tmp_path, player):
    async with await start_server(tmp_path, [player], login_timeout=0.5) as srv:
        conn = await connect(srv.port, player)
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        assert not srv.server.admitted
    assert "refused: no game started" in srv.logs[-1]


async def test_a_client_that_stops_reading_holds_the_game_back_not_the_servers_memory(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--flood")) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            await read_until(game.stdout, "READY")
            await asyncio.sleep(1.0)  # the game floods; this client reads nothing meanwhile
            session = next(s for c in srv.server.connections for s in c.sessions)
            buffered = session._chan.get_write_buffer_size()
            assert buffered < 4 * 1024 * 1024
            assert len(await game.stdout.read(65536)) > 0  # and the game is still there, drawing


async def test_a_client_that_never_reads_cannot_hold_up_the_shutdown(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--flood"), shutdown_grace=1.0) as srv:
        stuck = await connect(srv.port, player)
        stuck_game = await open_game(stuck)
        pid = game_pid(await read_until(stuck_game.stdout, "READY"))
        # It never reads again: the window fills, so its goodbye can never be sent.
        await until(lambda: any(
            s._output_paused for c in srv.server.connections for s in c.sessions))
        reader = await connect(srv.port, player)
        game, seen = await ready_game(reader)
        stopping = asyncio.ensure_future(srv.server.stop())
        await read_until(game.stdout, "shutting down", seen)  # the player who reads is told as usual
        await asyncio.wait_for(stopping, TIMEOUT)
        assert not srv.server.connections  # the stuck client was let go at the end of the grace period
        assert not process_alive(pid)
        await asyncio.wait_for(stuck.wait_closed(), TIMEOUT)
        reader.close()
    assert any("did not read its goodbye in time" in line for line in srv.logs)


async def test_a_full_server_of_one_says_so_in_the_singular(tmp_path, player):
    async with await start_server(tmp_path, [player], max_sessions=1) as srv:
        async with await connect(srv.port, player) as first:
            await read_until((await open_game(first)).stdout, "READY")
            with pytest.raises(asyncssh.DisconnectError) as full:
                await connect(srv.port, player)
            assert "the server is full (1 game in progress)" in full.value.reason


async def test_log_lines_show_a_strange_user_name_harmlessly(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(srv.port, None, username="x after 9.9s, exit status 0")
    # One field a name: a user name cannot pass for the rest of the line.
    assert srv.logs[0].endswith(r" user='x\x20after\x209.9s,\x20exit\x20status\x200'")
    assert " user='x" in srv.logs[1] and srv.logs[1].endswith("no game, refused: not authenticated")
