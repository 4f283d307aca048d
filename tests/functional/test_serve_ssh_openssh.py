"""serve-ssh with the OpenSSH client, driven through a pseudo-terminal like a person at a terminal."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal

import pytest
from ssh_support import (
    FAKE_ARGV,
    FAKE_TABLE_ARGV,
    SSH_OPTIONS,
    TIMEOUT,
    PtyClient,
    ServerProcess,
    game_pid,
    make_key,
    process_alive,
    start_server,
    until,
    wait_gone,
)
from ssh_support.players import KEYLESS_SSH_OPTIONS
from support.present import present

from war_tui.serving.goodbyes import RESTARTING, SHUTTING_DOWN, TERMINAL_RESET
from war_tui.settings.served import NOTICE_VARIABLE
from war_tui.ssh.session import NO_AGENT, REFUSE_COMMAND, refuse_subsystem

SSH = shutil.which("ssh")
SFTP = shutil.which("sftp")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


def client_env(tmp_path, **extra) -> dict[str, str]:
    # A HOME of its own, so the user's ~/.ssh (config, keys, agent) plays no part.
    return {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", os.defpath), "TERM": "xterm-256color", **extra}


def ssh_argv(port: int, key, *extra: str, log_level: str = "ERROR") -> list[str]:
    return [
        present(SSH), *SSH_OPTIONS, "-o", f"LogLevel={log_level}", "-i", str(key.path), "-p", str(port), *extra,
        "player@127.0.0.1",
    ]


async def run(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[int, str]:
    # Never subprocess.run: the server lives in this event loop and must answer.
    process = await asyncio.create_subprocess_exec(
        *argv, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(stdin), TIMEOUT)
    return present(process.returncode), out.decode(errors="replace")


async def test_ssh_lands_in_the_program_which_follows_keys_and_resizes(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv, PtyClient() as client:
        await client.start(ssh_argv(srv.port, player), client_env(tmp_path), (90, 30))
        text = await client.expect("READY")
        assert "SIZE 90x30" in text and "TERM=xterm-256color" in text and "FOREGROUND True" in text
        pid = game_pid(text)
        client.type(b"a")
        await client.expect("KEY 61")
        client.process.resize(132, 43)  # the terminal window grows: ssh gets SIGWINCH and tells the server
        await client.expect("SIZE 132x43")
        client.type(b"q")
        assert await client.wait() == 3  # ssh exits with the program's status
        assert await wait_gone(pid)


async def test_ssh_with_a_command_is_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        status, out = await run(ssh_argv(srv.port, player, "-T") + ["cat", "/etc/passwd"], client_env(tmp_path))
        assert status == 1
        assert out.strip() == REFUSE_COMMAND


@pytest.mark.skipif(SFTP is None, reason="needs OpenSSH's sftp")
async def test_sftp_is_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        argv = [SFTP, *SSH_OPTIONS, "-i", str(player.path), "-P", str(srv.port), "-b", "-", "player@127.0.0.1"]
        status, out = await run(argv, client_env(tmp_path), b"ls\n")
        assert status != 0
        assert refuse_subsystem("sftp") in out


async def test_port_forwarding_is_refused_both_ways(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        # -W forwards through stdin/stdout: a direct-tcpip channel, refused.
        status, out = await run(ssh_argv(srv.port, player, "-W", f"127.0.0.1:{srv.port}", log_level="INFO"), client_env(tmp_path))
        assert status == 255
        assert "administratively prohibited" in out and "only plays War" in out
        status, out = await run(
            ssh_argv(srv.port, player, "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:22"),
            client_env(tmp_path),
        )
        assert status == 255
        assert "remote port forwarding failed" in out


@pytest.mark.skipif(shutil.which("ssh-agent") is None, reason="needs OpenSSH's ssh-agent")
async def test_agent_forwarding_is_refused_and_said(tmp_path, player):
    # ssh asks to forward an agent only when it can reach one.
    sock = tmp_path / "agent.sock"
    agent = await asyncio.create_subprocess_exec(
        shutil.which("ssh-agent"), "-D", "-a", str(sock), stdout=asyncio.subprocess.DEVNULL
    )
    try:
        async with await start_server(tmp_path, [player]) as srv, PtyClient() as client:
            await until(sock.exists)  # the agent is listening
            env = client_env(tmp_path, SSH_AUTH_SOCK=str(sock))
            await client.start(ssh_argv(srv.port, player, "-A"), env, (80, 24))
            text = await client.expect("READY")
            # Nothing printed before the game's screen: the game says it on its board.
            assert text.startswith("PID ")
            assert f"{NOTICE_VARIABLE}={NO_AGENT}" in text and "SSH_AUTH_SOCK" not in text
            client.type(b"x")
            assert await client.wait() == 0
    finally:
        agent.terminate()
        await agent.wait()


async def test_x11_forwarding_is_refused(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv, PtyClient() as client:
        await client.start(ssh_argv(srv.port, player, "-X"), client_env(tmp_path, DISPLAY=":99"), (80, 24))
        text = await client.expect("READY")
        assert "X11 forwarding request failed" in text and "DISPLAY" not in text.split("ENV")[1]
        client.type(b"x")
        assert await client.wait() == 0
    assert "refused: X11 forwarding" in srv.logs[-1], srv.logs


async def test_a_key_not_listed_is_refused(tmp_path, player):
    stranger = make_key(tmp_path, "stranger_key")
    async with await start_server(tmp_path, [player]) as srv:
        status, out = await run(ssh_argv(srv.port, stranger, "-T"), client_env(tmp_path))
        assert status == 255
        assert "Permission denied (publickey)" in out


async def test_public_lets_a_stranger_in(tmp_path):
    stranger = make_key(tmp_path, "stranger_key")
    async with await start_server(tmp_path, None) as srv, PtyClient() as client:
        await client.start(ssh_argv(srv.port, stranger), client_env(tmp_path), (80, 24))
        await client.expect("READY")
        client.type(b"x")
        assert await client.wait() == 0


async def test_a_killed_client_leaves_no_game_behind(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv, PtyClient() as client:
        await client.start(ssh_argv(srv.port, player), client_env(tmp_path), (80, 24))
        pid = game_pid(await client.expect("READY"))
        assert process_alive(pid)
        os.kill(client.process.pid, signal.SIGKILL)
        assert await wait_gone(pid)


async def test_players_on_slow_terminals_get_their_terminal_back_when_the_server_stops(tmp_path, player):
    # Clients behind a fast game: stopping the server still resets and says goodbye.
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--flood")) as srv, \
            PtyClient() as one, PtyClient() as two:
        clients = [one, two]
        for client in clients:
            await client.start(ssh_argv(srv.port, player), client_env(tmp_path), (80, 24))
            await client.expect("READY")
        for client in clients:
            client.process.pause_output()  # the terminal is busy: ssh's output backs up, then the server's
        await asyncio.sleep(0.5)
        stopping = asyncio.ensure_future(srv.server.stop())
        await asyncio.sleep(0.5)
        for client in clients:
            client.process.resume_output()  # the terminals catch up, within the server's grace period
        await asyncio.wait_for(stopping, TIMEOUT)
        goodbye = TERMINAL_RESET + SHUTTING_DOWN.encode() + b"\r\n"
        for client in clients:
            await client.wait()
            assert bytes(client.output[-len(goodbye):]) == goodbye, bytes(client.output[-120:])


async def test_at_sigterm_every_session_gets_its_goodbye_and_ssh_exits_0(tmp_path):
    # Players (solo and seated), a spectator, the lobby and the line mode: each is told and ends with a status.
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--max-sessions-per-address", "16",
            "--session-command", " ".join(FAKE_TABLE_ARGV))
    server = ServerProcess(*args, env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    sessions = {  # who: (ssh's terminal flag and command, what shows they are in)
        "sol": (["-t"], "TABLE none"), "ann": (["-t", "table", "oak"], "SNAPSHOT you=ann seat=1"),
        "cy": (["-t", "watch", "oak"], "SNAPSHOT you=spectators"), "dee": (["-t", "tables"], "LOBBY"),
        "eve": (["-T", "line"], "TABLE none"),
    }
    clients: dict[str, PtyClient] = {}
    try:
        port = server.wait_listening()
        for user, (words, shown) in sessions.items():
            argv = [present(SSH), *KEYLESS_SSH_OPTIONS, "-o", "LogLevel=ERROR", "-p", str(port), "-l", user,
                    *words[:1], "127.0.0.1", *words[1:]]
            clients[user] = await PtyClient().start(argv, client_env(tmp_path), (100, 30))
            await clients[user].expect(shown)
        server.process.send_signal(signal.SIGTERM)
        for user, client in clients.items():
            assert await client.wait() == 0, (user, client.text[-200:], server.lines)
            assert client.text.endswith(RESTARTING + "\r\n"), (user, client.text[-200:])
        assert await asyncio.to_thread(server.process.wait, TIMEOUT) == 0
    finally:
        for client in clients.values():
            await client.close()
        server.stop(signal.SIGKILL)
    for user in sessions:
        [line] = [line for line in server.lines if f" user={user} " in line and "disconnect" in line]
        assert "shutdown" in line, line
