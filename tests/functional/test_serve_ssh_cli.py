"""``war-tui serve-ssh`` as a process: start-up, its host key, bad input, and stopping cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest
from ssh_support import (
    FAKE_GAME,
    SERVED_NICENESS,
    TIMEOUT,
    ServerProcess,
    connect,
    game_pid,
    make_key,
    read_until,
    until,
    wait_gone,
)

from war_tui.cluster.leases import LeaseBucket, node_key
from war_tui.serving.goodbyes import RESTARTING, TERMINAL_RESET

FAKE_COMMAND = f"{sys.executable} {FAKE_GAME}"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", *args],
        capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


@pytest.fixture
def keys_file(tmp_path, player):
    path = tmp_path / "authorized_keys"
    path.write_text(player.public_line)
    return path


def data_home_env(tmp_path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}


async def test_the_host_key_is_made_once_at_0600_and_kept(tmp_path, player, keys_file):
    env = data_home_env(tmp_path)
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--session-command", FAKE_COMMAND)
    seen = []
    for _ in range(2):
        with ServerProcess(*args, env=env) as server:
            port = server.wait_listening()
            async with await connect(port, player) as conn:
                seen.append(conn.get_server_host_key().export_public_key())
        assert server.process.returncode == 0
    key_file = tmp_path / "data" / "war-tui" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert seen[0] == seen[1]
    assert seen[0].startswith(b"ssh-ed25519 ")


async def test_public_says_so_and_game_flags_reach_every_session(tmp_path, player):
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--session-command", FAKE_COMMAND,
            "--", "--screensaver", "--seed", "7")
    with ServerProcess(*args) as server:
        port = server.wait_listening()
        assert any("PUBLIC: anyone" in line for line in server.lines)
        async with await connect(port, None) as conn:
            game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            text = await read_until(game.stdout, "READY")
            assert "ARGS --screensaver --seed 7" in text
            game.stdin.write(b"x")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0


@pytest.mark.parametrize("nice", [None, "0", "3"])
async def test_games_run_as_far_below_the_server_as_game_nice_says(tmp_path, nice):
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--session-command", FAKE_COMMAND,
            *(("--game-nice", nice) if nice is not None else ()))
    with ServerProcess(*args, game_nice=None) as server:
        async with await connect(server.wait_listening(), None) as conn:
            game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            text = await read_until(game.stdout, "READY")
            below = SERVED_NICENESS if nice is None else int(nice)
            assert f"NICE {min(os.nice(0) + below, 19)}" in text
            game.stdin.write(b"x")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_server_and_its_games(tmp_path, player, keys_file, sig):
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND)
    server = ServerProcess(*args)
    try:
        port = server.wait_listening()
        conn = await connect(port, player)
        game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        seen = bytearray()
        pid = game_pid(await read_until(game.stdout, "READY", seen))
        server.process.send_signal(sig)
        # serve-ssh keeps its tables in NATS: they come back with the next start
        assert RESTARTING in await read_until(game.stdout, "restarting", seen)
        await asyncio.wait_for(game.wait(), TIMEOUT)
        conn.close()  # the session is over: the client leaves, as ssh does
        assert await asyncio.to_thread(server.process.wait, TIMEOUT) == 0
        assert await wait_gone(pid)
    finally:
        server.stop(signal.SIGKILL)
    assert server.lines[-1].endswith(" stopped")
    assert any("disconnect 127.0.0.1:" in line and "user=player" in line for line in server.lines)


def one_line_exit_2(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("war-tui serve-ssh: ")
    for word in words:
        assert word in lines[0]


@pytest.mark.no_server
def test_game_flags_before_serve_ssh_are_not_silently_dropped(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "war_tui", "--screensaver", "serve-ssh", "--public", "--host-key", str(tmp_path / "hk")],
        capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
    )
    one_line_exit_2(result, "-- --screensaver")


@pytest.mark.no_server
def test_a_port_in_use_is_one_line_and_exit_2(tmp_path, keys_file):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for _ in range(4):  # again and again on one data folder: each stops its tables' NATS and exits
            result = serve("--port", str(port), "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"))
            one_line_exit_2(result, f"cannot listen on 127.0.0.1:{port}: address already in use")
    assert not (tmp_path / "hk").exists()  # a start that failed leaves no new host key behind


@pytest.mark.no_server
def test_a_metrics_port_in_use_is_one_line_and_exit_2_before_anything_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", "0", "--public", "--metrics", str(port), "--host-key", str(tmp_path / "hk"))
        one_line_exit_2(result, f"--metrics: cannot listen on 127.0.0.1:{port}: address already in use")
    assert not (tmp_path / "hk").exists()


@pytest.mark.no_server
def test_a_host_name_that_does_not_resolve_is_one_clear_line(tmp_path, keys_file):
    result = serve("--host", "nosuchhost.invalid", "--port", "0", "--authorized-keys", str(keys_file),
                   "--host-key", str(tmp_path / "hk"))
    one_line_exit_2(result, "cannot listen on nosuchhost.invalid: the host name cannot be resolved")
    assert "unknown error" not in result.stderr and ":0" not in result.stderr
    assert not (tmp_path / "hk").exists()


def test_a_failed_start_keeps_a_host_key_that_was_already_there(tmp_path, player, keys_file):
    env = data_home_env(tmp_path)
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--session-command", FAKE_COMMAND)
    with ServerProcess(*args, env=env) as server:
        server.wait_listening()
    key_file = tmp_path / "data" / "war-tui" / "ssh_host_ed25519_key"
    kept = key_file.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--host", "nosuchhost.invalid", *args],
        capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=env,
    )
    one_line_exit_2(result, "cannot be resolved")
    assert key_file.read_bytes() == kept


@pytest.mark.no_server
def test_an_unreadable_host_key_is_one_line_and_exit_2(tmp_path, keys_file):
    garbage = tmp_path / "garbage_key"
    garbage.write_text("not a key\n")
    one_line_exit_2(serve("--host-key", str(garbage), "--authorized-keys", str(keys_file)), "cannot read host key")
    one_line_exit_2(serve("--host-key", str(tmp_path), "--authorized-keys", str(keys_file)), "host key")
    missing_dir = tmp_path / "file" / "key"
    (tmp_path / "file").write_text("")
    one_line_exit_2(serve("--host-key", str(missing_dir), "--authorized-keys", str(keys_file)), "host key")


@pytest.mark.no_server
def test_unusable_authorized_keys_are_one_line_and_exit_2(tmp_path, player):
    hk = str(tmp_path / "hk")
    one_line_exit_2(serve("--host-key", hk, "--authorized-keys", str(tmp_path / "none")), "no such file")
    empty = tmp_path / "empty"
    empty.write_text("# nobody yet\n")
    one_line_exit_2(serve("--host-key", hk, "--authorized-keys", str(empty)), "no keys")
    bad = tmp_path / "bad"
    bad.write_text("ssh-ed25519 !!!notbase64\n")
    one_line_exit_2(
        serve("--host-key", hk, "--authorized-keys", str(bad)),
        f"war-tui serve-ssh: no valid keys in authorized keys {bad}: nobody could log in (line 1: not a public key)",
    )
    quote = tmp_path / "quote"
    quote.write_text('from="10.0.0.1 ' + player.public_line)
    one_line_exit_2(
        serve("--host-key", hk, "--authorized-keys", str(quote)),
        f"no valid keys in authorized keys {quote}: nobody could log in (line 1: unbalanced quote in options)",
    )
    assert not (tmp_path / "hk").exists()  # nothing made when the server cannot start anyway


@pytest.mark.no_server
@pytest.mark.parametrize(
    "args, words",
    [
        (["--port", "70000"], ["port must be from 0 to 65535"]),
        (["--max-sessions", "0"], ["--max-sessions must be at least 1"]),
        (["--max-sessions", "10001"], ["--max-sessions must be at most 10,000"]),
        (["--max-sessions-per-address", "0"], ["--max-sessions-per-address must be at least 1"]),
        (["--max-unauthenticated", "99999999999999999999"], ["--max-unauthenticated must be at most"]),
        (["--game-memory-mb", "64"], ["--game-memory-mb must be at least 128"]),
        (["--game-memory-mb", "lots"], ["--game-memory-mb must be a whole number"]),
        (["--game-nice", "20"], ["--game-nice must be at most 19"]),
        (["--game-nice", "-1"], ["--game-nice must be at least 0"]),
        (["--max-speed", "max"], ["--max-speed must be battles per second"]),
        (["--max-speed", "0.5"], ["--max-speed must be from 1 to 1000"]),
        (["--max-speed", "nan"], ["--max-speed must be from 1 to 1000"]),
        (["--max-attempts-per-minute", "10000000"], ["--max-attempts-per-minute must be at most"]),
        (["--max-session-minutes", "soon"], ["--max-session-minutes must be minutes"]),
        (["--idle-minutes", "-1"], ["--idle-minutes must be from 0 to 10080 minutes"]),
        (["--idle-minutes", "inf"], ["--idle-minutes must be from 0 to 10080"]),
        (["--max-server-mb", "16"], ["--max-server-mb must be at least 32"]),
        (["--max-server-mb", "2000000"], ["--max-server-mb must be at most 1,048,576"]),
        (["--log-level", "trace"], ["--log-level", "invalid choice"]),
        (["--log-format", "yaml"], ["--log-format", "invalid choice"]),
        (["--public", "--idle-exempt-screensaver"], ["--idle-exempt-screensaver", "-- --screensaver"]),
        (["--public", "--authorized-keys", "x"], ["not allowed with"]),
        (["--bogus"], ["unrecognized arguments: --bogus"]),
        (["--public", "--", "--no-such-game-flag"], ["game flags", "--no-such-game-flag"]),
        (["--public", "--", "game"], ["cannot name a command"]),
        (["--public", "--", "--help"], ["not a game flag"]),
        (["--public", "--", "--names", "Ann", "ann"], ["game flags", "different names"]),
        (["--public", "--", "--war-cards", "9"], ["game flags", "--war-cards"]),
        (["--served-stats-rows", "999"], ["--served-stats-rows must be a whole number from 1,000 to 10,000,000"]),
        (["--served-stats-rows", "10000001"], ["--served-stats-rows must be a whole number from 1,000"]),
        (["--served-stats-rows", "lots"], ["--served-stats-rows must be a whole number"]),
        (["--public", "--", "--stats-rows", "5000"], ["--served-stats-rows, not a game flag"]),
        (["--nats", "http://10.0.0.5:4222"], ["--nats must be a nats:// or tls:// URL with a host and a port"]),
        (["--nats", "nats://10.0.0.5"], ["--nats must be a nats:// or tls:// URL"]),
        (["--nats", "nats://10.0.0.5:70000"], ["--nats must be", "its port is not a number from 1 to 65535"]),
        (["--nats", "nats://:4222"], ["--nats must be"]),
        (["--nats", "nats://10.0.0.5:4222/tables"], ["--nats must be"]),
        (["--nats", "nats://h\x1b[2J:4222"], ["--nats must be"]),
        (["--nats", "nats://" + "h" * 5000 + ":4222"], ["--nats must be", "longer than 2,048 characters"]),
        (["--node-lease", "1"], ["--node-lease must be at least 2"]),
        (["--node-lease", "61"], ["--node-lease must be at most 60"]),
        (["--metrics", "70000"], ["--metrics", "port must be from 0 to 65535"]),
        (["--metrics", "nine"], ["--metrics", "port must be a whole number"]),
        (["--public", "--metrics-host", "0.0.0.0"], ["--metrics-host is for the metrics listener: add --metrics"]),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(tmp_path, args, words):
    result = serve(*args, "--host-key", str(tmp_path / "hk")) if "--" not in args else serve(
        "--host-key", str(tmp_path / "hk"), *args
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.no_server
def test_a_test_marked_no_server_cannot_start_one(tmp_path):
    with pytest.raises(AssertionError, match="no_server"):
        ServerProcess("--public", "--port", "0", "--host-key", str(tmp_path / "hk"))
    assert not (tmp_path / "hk").exists()


async def test_even_a_killed_server_leaves_no_game_behind(tmp_path, player, keys_file):
    # No clean-up runs on SIGKILL: the kernel hangs up the pty as its master closes.
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND)
    server = ServerProcess(*args)
    try:
        port = server.wait_listening()
        conn = await connect(port, player)
        game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        pid = game_pid(await read_until(game.stdout, "READY"))
        server.process.kill()
        assert await wait_gone(pid)
        conn.close()
    finally:
        server.stop(signal.SIGKILL)


def nats_servers_of(pid: int) -> list[int]:
    """The nats-server processes ``pid`` started (its children running the wheel's nats-server)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                if b"nats-server" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(int(child))
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
async def test_serve_ssh_runs_its_own_nats_server_and_never_leaves_it_behind(tmp_path, player, keys_file, sig):
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND)
    server = ServerProcess(*args, env=data_home_env(tmp_path))
    try:
        server.wait_listening()
        [nats] = nats_servers_of(server.process.pid)
        [line] = [line for line in server.lines if "tables kept in NATS" in line]
        assert "embedded nats-server on nats://127.0.0.1:" in line
        assert str(tmp_path / "data" / "war-tui" / "cluster") in line
        assert (tmp_path / "data" / "war-tui" / "cluster" / "jetstream").is_dir()
        code = server.stop(sig)
        assert code == (0 if sig == signal.SIGTERM else -signal.SIGKILL)
        assert await wait_gone(nats)  # stopped with the server, or by the kernel when the server was killed
    finally:
        server.stop(signal.SIGKILL)


async def test_serve_ssh_with_nats_uses_that_cluster_and_starts_no_nats_server(tmp_path, keys_file, nats_server):
    url = nats_server.url.replace("nats://", f"nats://{nats_server.token}@")  # a token before the host
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND, "--nats", url)
    with ServerProcess(*args, env=data_home_env(tmp_path)) as server:
        server.wait_listening()
        assert nats_servers_of(server.process.pid) == []
        [line] = [line for line in server.lines if "tables kept in NATS" in line]
        assert f"nats://***@127.0.0.1:{nats_server.port}" in line and nats_server.token not in line
        node = (tmp_path / "data" / "war-tui" / "cluster" / "node-id").read_text().strip()
        assert f"node {node}" in line
        client = await nats_server.client()  # the server holds its node's lease in that cluster
        assert (await (await LeaseBucket.open(client)).read(node_key(node))).value is not None
    assert server.process.returncode == 0


@pytest.mark.no_server
def test_a_nats_that_cannot_be_reached_is_one_line_and_exit_2(tmp_path, keys_file):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: connections are refused
        result = serve("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
                       "--nats", f"nats://127.0.0.1:{port}", "--nats", f"nats://user:secret@127.0.0.1:{port}")
    one_line_exit_2(result, f"cannot reach NATS at nats://127.0.0.1:{port}, nats://***@127.0.0.1:{port}:",
                    "connection refused")
    assert "secret" not in result.stderr
    assert not (tmp_path / "hk").exists()


@pytest.mark.no_server
def test_a_nats_server_that_cannot_start_is_one_line_with_its_reason_and_exit_2(tmp_path, keys_file):
    cluster = tmp_path / "data" / "war-tui" / "cluster"
    cluster.mkdir(parents=True)
    (cluster / "jetstream").write_text("not a folder\n")  # where its store goes
    result = subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--port", "0", "--authorized-keys", str(keys_file),
         "--host-key", str(tmp_path / "hk")],
        capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=data_home_env(tmp_path),
    )
    one_line_exit_2(result, f"cannot start NATS in {cluster}:", "storage directory is not a directory")


async def read_slowly(stream, into: bytearray, until: asyncio.Event) -> None:
    """A player whose terminal is slower than the game, then catches up once the game is stopped.

    (An asyncssh client keeps taking data while its reader lags, so a backlog builds up in the client;
    a player's terminal needs all of it, and the goodbye after it.)
    """
    while True:
        try:
            chunk = await stream.read(8192)
        except (asyncssh.Error, OSError):
            return  # the connection was dropped: what arrived until then is the player's screen
        if not chunk:
            return
        into.extend(chunk)
        if not until.is_set():
            await asyncio.sleep(0.002)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_stopping_under_a_flood_of_output_still_gives_every_player_their_terminal_back(
    tmp_path, player, keys_file, sig
):
    # At Ctrl-C the reset and goodbye follow the game's queued output, then close.
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND, "--", "--flood")
    server = ServerProcess(*args)
    try:
        port = server.wait_listening()
        conns, outputs, readers = [], [], []
        stopped = asyncio.Event()
        for _ in range(2):
            conn = await connect(port, player)
            game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            seen = bytearray()
            await read_until(game.stdout, "READY", seen)
            conns.append(conn)
            outputs.append(seen)
            readers.append(asyncio.ensure_future(read_slowly(game.stdout, seen, stopped)))
        await asyncio.sleep(1.0)  # a backlog builds up behind the slow readers
        server.process.send_signal(sig)
        stopped.set()
        await asyncio.wait_for(asyncio.gather(*readers), TIMEOUT)
        goodbye = TERMINAL_RESET + RESTARTING.encode() + b"\r\n"
        for seen in outputs:
            assert bytes(seen[-len(goodbye):]) == goodbye, (bytes(seen[-120:]), server.lines)
        for conn in conns:
            conn.close()  # the player leaves once the session ended, as ssh does
        assert await asyncio.to_thread(server.process.wait, TIMEOUT) == 0
    finally:
        server.stop(signal.SIGKILL)


@pytest.mark.no_server
def test_every_limit_is_in_the_help():
    result = subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--help"], capture_output=True, text=True, timeout=TIMEOUT
    )
    for flag in ("--max-sessions-per-address", "--max-unauthenticated", "--game-memory-mb", "--game-nice", "--max-speed",
                 "--idle-minutes", "--idle-exempt-screensaver", "--max-server-mb", "--log-level",
                 "--log-format",
                 "--served-stats-rows"):
        assert flag in result.stdout


async def test_the_open_files_limit_is_raised_to_the_hard_limit(tmp_path, keys_file):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 256:
        pytest.skip("needs a finite hard limit above 256")
    args = ("--port", "0", "--authorized-keys", str(keys_file), "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND)
    script = (
        "import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit("
        "resource.RLIMIT_NOFILE)[1])); sys.argv = ['war-tui', *sys.argv[1:]]; "
        "runpy.run_module('war_tui', run_name='__main__')"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script, "serve-ssh", *args], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        for line in process.stderr:
            if "listening on" in line:
                break
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        max_files = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert max_files.split()[3] == str(hard), max_files
    finally:
        process.terminate()
        process.wait(TIMEOUT)


@pytest.mark.no_server
def test_served_games_go_to_a_capped_file_of_their_own(tmp_path, monkeypatch):
    from war_tui.cli import build_parser
    from war_tui.commands.serve_ssh import game_flags, served_stats_flags, served_stats_path, table_settings
    from war_tui.stats import default_path, served_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    args = build_parser().parse_args(["serve-ssh", "--served-stats-rows", "5000", "--", "--screensaver"])
    flags, parsed = game_flags(args)
    path = served_stats_path(parsed)
    assert path == served_path() and path.parent == default_path().parent and path != default_path()
    assert served_stats_flags(path, 5000, parsed) == ["--stats-db", str(path), "--stats-rows", "5000"]
    _, opener = table_settings(parsed, 5000)
    store = opener()
    assert (store.path, store.max_rows) == (path, 5000)
    chosen = tmp_path / "mine.sqlite3"
    _, parsed = game_flags(build_parser().parse_args(["serve-ssh", "--", "--stats-db", str(chosen)]))
    assert served_stats_path(parsed) == chosen  # the operator's file, capped too
    assert served_stats_flags(chosen, 100_000, parsed) == ["--stats-rows", "100000"]
    _, parsed = game_flags(build_parser().parse_args(["serve-ssh", "--", "--no-stats"]))
    assert served_stats_path(parsed) is None and table_settings(parsed)[1] is None


async def _screen_until(game, seen: bytearray, words: str, timeout: float = TIMEOUT) -> None:
    """Read the game's output until ``words`` are on it, escape codes aside."""
    import re

    escapes = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
    deadline = asyncio.get_running_loop().time() + timeout
    while words not in escapes.sub(b"", bytes(seen)).decode(errors="replace"):
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"never saw {words!r}"
        with contextlib.suppress(TimeoutError):
            seen += await asyncio.wait_for(game.stdout.read(65536), min(left, 1.0))


def _games_recorded(path: Path) -> int:
    from war_tui.stats import StatsStore

    return len(StatsStore.open(path, read_only=True).recent(5) or []) if path.exists() else 0


async def test_a_served_player_sees_only_their_own_games_in_a_file_of_their_own(tmp_path):
    from war_tui.stats import StatsStore

    env = data_home_env(tmp_path)
    data = tmp_path / "data" / "war-tui"
    ann, eve = make_key(tmp_path, "ann"), make_key(tmp_path, "eve")
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--", "--p1", "AS", "--p2", "2C")
    with ServerProcess(*args, env=env) as server:
        port = server.wait_listening()
        async with await connect(port, ann) as conn:  # ann plays one game (one battle: the ace takes it)
            game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            seen = bytearray()
            await _screen_until(game, seen, "Battle")
            game.stdin.write(b" ")
            await _screen_until(game, seen, "Player 1 wins")
            await until(lambda: _games_recorded(data / "served-stats.sqlite3"))  # written off the screen's thread
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
        async with await connect(port, eve) as conn:  # eve has played nothing: her screen says so
            game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            seen = bytearray()
            await _screen_until(game, seen, "Battle")
            game.stdin.write(b"s")
            await _screen_until(game, seen, "No games recorded yet")
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
    assert not (data / "stats.sqlite3").exists()  # the server user's own statistics are left alone
    store = StatsStore.open(data / "served-stats.sqlite3", read_only=True)
    [played] = store.recent(5)
    assert played.p1_player is not None and played.p1_player.startswith("key:SHA256:")
    assert store.summary(player=played.p1_player).totals.games == 1
    assert any("served-stats.sqlite3 (at most 100,000 games)" in line for line in server.lines)


@pytest.mark.no_server
@pytest.mark.parametrize("command", ["serve-ssh", "serve"])
def test_no_leaderboard_is_told_to_every_game(tmp_path, monkeypatch, command):
    from war_tui.cli import build_parser
    from war_tui.commands.serve_ssh import prepare_server
    from war_tui.serving.environment import served_variables

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for flags, on in (([], True), (["--no-leaderboard"], False)):
        args = build_parser().parse_args([command, "--host-key", str(tmp_path / "hk"), "--public", *flags])
        server, banner, _ = prepare_server(args, 0)
        assert server.config.leaderboard is on
        assert any("no leaderboard (--no-leaderboard)" in line for line in banner) is not on
        told = served_variables(60, None, leaderboard=server.config.leaderboard)
        assert told["WAR_TUI_LEADERBOARD"] == ("1" if on else "0")
