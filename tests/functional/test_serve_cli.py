"""``war-tui serve``: which doors, the web door's flags and their ranges, each mistake in one line."""

from __future__ import annotations

import pytest
from cli_helpers import run_main


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["serve"], "say which door to open: --ssh PORT, --web PORT, or both"),
        (["serve", "--web", "70000"], "port must be from 0 to 65535"),
        (["serve", "--web", "0", "--web-max-sessions", "0"], "--web-max-sessions must be"),
        (["serve", "--web", "0", "--web-max-sessions-per-address", "99999999"], "--web-max-sessions-per-address must be"),
        (["serve", "--web", "0", "--web-idle-minutes", "nan"], "--web-idle-minutes must be from 0"),
        (["serve", "--web", "0", "--web-message-kb", "2000"], "--web-message-kb must be"),
        (["serve", "--web", "0", "--web-messages-per-second", "0"], "--web-messages-per-second must be"),
        (["serve", "--web", "0", "--web-backlog-kb", "1"], "--web-backlog-kb must be"),
        (["serve", "--web", "0", "--web-max-pending", "0"], "--web-max-pending must be"),
        (["serve", "--web", "0", "--web-max-pending-per-address", "99999999"], "--web-max-pending-per-address must be"),
        (["serve", "--web", "0", "--web-header-seconds", "0.5"], "--web-header-seconds must be from 1 to 300"),
        (["serve", "--web", "0", "--web-keepalive-seconds", "inf"], "--web-keepalive-seconds must be from 1"),
        (["serve", "--web", "0", "--web-cert", "/nonexistent.pem"], "--web-cert and --web-key go together"),
        (["serve", "--ssh", "0", "--web-key", "/k.pem"], "--web-cert and --web-key are for the web door"),
        (["serve", "--ssh", "2000", "--web", "2000"], "--ssh and --web cannot share port 2000"),
        (["serve", "--web", "0", "--web-cert", "/nonexistent.pem", "--web-key", "/nonexistent.key"],
         "cannot use --web-cert /nonexistent.pem"),
        (["serve", "--web", "0", "--", "--bogus"], "game flags after '--'"),
        (["serve", "--web", "0", "--web-host", "evil.test/x"], "--web-host must be a host name"),
        (["serve", "--web", "0", "--web-host", "http://war.test:8080/play"], "--web-host must be a host name"),
        (["serve", "--web", "0", "--web-host", "war_test"], "--web-host must be a host name"),
        (["serve", "--web", "0", "--web-host", "ftp://war.test"], "--web-host takes http:// or https://"),
        (["serve", "--web", "0", "--web-host", "war.test:70000"], "--web-host's port must be from 1 to 65535"),
        (["serve", "--ssh", "0", "--web-host", "war.test"], "--web-host is for the web door"),
    ],
)
def test_serve_refuses_bad_flags_in_one_line(argv, says, capsys):
    code, out, err = run_main(argv, capsys)
    assert code == 2, err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [["serve", "--ssh", "0", "--web", "0"], ["serve", "--ssh", "0"], ["serve-ssh", "--port", "0"]],
    ids=["both doors", "ssh door", "serve-ssh"],
)
def test_without_a_keys_file_the_ssh_door_says_what_to_give_and_nothing_is_served(argv, capsys, private_home):
    # The README's first command on a machine with no ~/.ssh/authorized_keys: neither door half-starts.
    code, out, err = run_main(argv, capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"cannot read authorized keys {private_home / '.ssh' / 'authorized_keys'}: no such file" in err
    assert "--authorized-keys PATH" in err and "--public" in err
    assert not any(private_home.rglob("*_key")), "no host key is made by a start that serves nothing"


@pytest.mark.long_wait  # a server process's start-up and shutdown; each state waited for
@pytest.mark.parametrize("ssh", [True, False], ids=["both doors", "web door alone"])
async def test_one_serve_process_opens_its_doors_and_ends_their_games_on_sigterm(tmp_path, ssh):
    import re
    import subprocess
    import sys

    import aiohttp
    from ssh_support import FAKE_GAME, TIMEOUT, connect, open_game, read_until

    server = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve", *(["--ssh", "0"] if ssh else []), "--web", "0", "--public",
         "--host-key", str(tmp_path / "key"), "--session-command", f"{sys.executable} {FAKE_GAME}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines = []
        while len([line for line in lines if "listening on" in line]) < 1 + ssh:
            line = server.stderr.readline()
            assert line, lines
            lines.append(line)
        web_port = int(re.search(r"listening on \S+:(\d+): open http://", "".join(lines))[1])
        conn = game = None
        if ssh:
            ssh_port = int(re.search(r"listening on \S+:(\d+): ssh", "".join(lines))[1])
            conn = await connect(ssh_port, None)
            game = await open_game(conn)
            await read_until(game.stdout, "READY")
        else:
            assert not any(": ssh -p" in line or "PUBLIC" in line for line in lines), lines
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            async with client.get(f"http://127.0.0.1:{web_port}/") as page:  # the page issues the identity
                assert page.status == 200
            ws = await client.ws_connect(f"http://127.0.0.1:{web_port}/ws",
                                         headers={"Origin": f"http://127.0.0.1:{web_port}"})
            seen = b""
            while b"READY" not in seen:
                seen += (await ws.receive(TIMEOUT)).data
            server.terminate()
            async for message in ws:
                if message.type is aiohttp.WSMsgType.BINARY:
                    seen += message.data
            assert b"the server is restarting" in seen  # its tables come back with it
        if game is not None:
            await read_until(game.stdout, "restarting")
            conn.close()
        assert server.wait(TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
