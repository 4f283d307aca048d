"""Games forked from the preloaded game parent: each its own process, limits and fate; the parent restarted.

These run with the parent in every variant of the suite (the rest of the serve-ssh tests run both ways).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest
import ssh_support
from ssh_support import (
    FAKE_GAME,
    PRELOAD_ARGV,
    SERVED_NICENESS,
    TIMEOUT,
    ServerProcess,
    connect,
    game_pid,
    make_key,
    process_alive,
    read_until,
    ready_game,
    start_server,
    until,
    wait_gone,
)
from support.present import present

from war_tui.serving.goodbyes import OUT_OF_MEMORY

FAKE_COMMAND = f"{sys.executable} {FAKE_GAME}"


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def address_limit(pid: int) -> str:
    limits = Path(f"/proc/{pid}/limits").read_text()
    return present(re.search(r"^Max address space\s+(\S+)\s+(\S+)", limits, re.MULTILINE)).group(0)


async def test_a_forked_game_has_its_own_limits_and_a_memory_hog_ends_only_itself(tmp_path, player):
    async with await start_server(
        tmp_path, [player], preload_argv=PRELOAD_ARGV, game_memory_mb=128, game_nice=SERVED_NICENESS
    ) as srv:
        parent = srv.server.game_parent.pid
        async with await connect(srv.port, player) as one, await connect(srv.port, player) as other:
            calm, calm_seen = await ready_game(one)
            hog, hog_seen = await ready_game(other)
            pids = [game_pid(calm_seen.decode()), game_pid(hog_seen.decode())]
            for pid, seen in zip(pids, (calm_seen, hog_seen)):
                assert parent_of(pid) == parent  # forked from the parent, not started by the server
                assert address_limit(pid).split()[-2:] == ["134217728", "134217728"]
                assert f"NICE {min(os.nice(0) + SERVED_NICENESS, 19)}" in seen.decode()
                assert f"PGID {pid} SID {pid} FOREGROUND True" in seen.decode()  # its own session and terminal
            assert address_limit(parent).split()[-2:] == ["unlimited", "unlimited"]
            hog.stdin.write(b"m")
            text = await read_until(hog.stdout, "Sorry!", hog_seen)
            assert OUT_OF_MEMORY.format(size="128 MiB") in text and "HOGGED" not in text
            assert (await asyncio.wait_for(hog.wait(), TIMEOUT)).exit_status == 1
            calm.stdin.write(b"k")
            await read_until(calm.stdout, "KEY 6b", calm_seen)  # the other game plays on
            assert process_alive(parent)
            calm.stdin.write(b"q")
            assert (await asyncio.wait_for(calm.wait(), TIMEOUT)).exit_status == 3
    assert any("crashed (exit status 1): MemoryError at fake_game.py:" in line for line in srv.logs), srv.logs
    assert sum("exit status 1, out of memory" in line for line in srv.logs) == 1, srv.logs
    assert sum("exit status 3" in line for line in srv.logs) == 1, srv.logs


async def test_games_start_the_old_way_while_a_killed_parent_is_restarted(tmp_path, player):
    async with await start_server(tmp_path, [player], preload_argv=PRELOAD_ARGV) as srv:
        game_parent = srv.server.game_parent
        first_parent = game_parent.pid
        async with await connect(srv.port, player) as conn:
            before, before_seen = await ready_game(conn)
            assert parent_of(game_pid(before_seen.decode())) == first_parent
            os.kill(first_parent, signal.SIGKILL)
            await until(lambda: not game_parent.ready)
            async with await connect(srv.port, player) as meanwhile_conn:
                meanwhile, seen = await ready_game(meanwhile_conn)
                assert parent_of(game_pid(seen.decode())) == os.getpid()  # started the old way, by the server
                meanwhile.stdin.write(b"q")
                assert (await asyncio.wait_for(meanwhile.wait(), TIMEOUT)).exit_status == 3
            before.stdin.write(b"k")  # the game of the dead parent plays on ...
            await read_until(before.stdout, "KEY 6b", before_seen)
            before.stdin.write(b"q")  # ... and its end is seen, its status unknown
            await asyncio.wait_for(before.wait(), TIMEOUT)
        await until(lambda: game_parent.ready)
        assert game_parent.pid != first_parent
        async with await connect(srv.port, player) as conn:
            after, seen = await ready_game(conn)
            assert parent_of(game_pid(seen.decode())) == game_parent.pid
            after.stdin.write(b"q")
            assert (await asyncio.wait_for(after.wait(), TIMEOUT)).exit_status == 3
    died = [line for line in srv.logs if line.startswith(f"game parent (pid {first_parent}) killed by signal 9")]
    assert len(died) == 1 and "games start the old way" in died[0], srv.logs
    assert any(line.startswith("game parent ready again") for line in srv.logs), srv.logs


MARKER = b"zq7marker9"


def memory_holds(pid: int, needle: bytes) -> bool:
    """Whether any readable, writable mapping of ``pid`` holds ``needle`` (its heap, its stacks)."""
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("rw"):
                continue
            start, end = (int(part, 16) for part in span.split("-"))
            try:
                mem.seek(start)
                if needle in mem.read(end - start):
                    return True
            except OSError:
                continue
    return False


async def test_the_parent_holds_no_client_data(tmp_path, player):
    async with await start_server(tmp_path, [player], preload_argv=PRELOAD_ARGV) as srv:
        parent = srv.server.game_parent.pid
        assert not memory_holds(parent, MARKER)
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn, term="xterm-" + MARKER.decode())
            pid = game_pid(seen.decode())
            assert f"TERM=xterm-{MARKER.decode()}" in seen.decode()
            assert memory_holds(pid, MARKER)  # the game has it: the search finds what is there
            assert not memory_holds(parent, MARKER)
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)
        assert await wait_gone(pid)
        assert not memory_holds(parent, MARKER)


@pytest.mark.parametrize("preload", [True, False])
async def test_serve_ssh_forks_games_from_its_parent_unless_told_no_preload(tmp_path, monkeypatch, preload):
    monkeypatch.setenv(ssh_support.PRELOAD_VARIABLE, "1")  # the flags below are the test's, whatever the suite's mode
    args = ["--port", "0", "--public", "--host-key", str(tmp_path / "host_key"), "--session-command", FAKE_COMMAND]
    with ServerProcess(*args, *([] if preload else ["--no-preload"])) as server:
        port = server.wait_listening()
        if preload:
            await until(lambda: any("game parent ready (pid" in line for line in server.lines))
        async with await connect(port, None) as conn:
            game, seen = await ready_game(conn)
            pid = game_pid(seen.decode())
            parent = parent_of(pid)
            if preload:
                assert parent != server.process.pid and parent_of(parent) == server.process.pid
                assert b"war_tui.preload" in Path(f"/proc/{parent}/cmdline").read_bytes()
            else:
                assert parent == server.process.pid
            game.stdin.write(b"q")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 3
    assert any(line.endswith("exit status 3") for line in server.lines), server.lines
    assert any("game parent" in line for line in server.lines) is preload, server.lines


@pytest.mark.app
async def test_the_warmed_parent_runs_one_thread_and_its_games_draw_the_board(tmp_path, player):
    from war_tui.commands.serve_ssh import GAME_BOOTSTRAP

    game_argv = (sys.executable, "-c", GAME_BOOTSTRAP)
    async with await start_server(tmp_path, [player], argv=game_argv, preload_argv=(*PRELOAD_ARGV, "--warm")) as srv:
        parent = srv.server.game_parent.pid
        assert os.listdir(f"/proc/{parent}/task") == [str(parent)]  # no threads: the warm-up's loop is gone
        async with await connect(srv.port, player) as conn:
            game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            await read_until(game.stdout, r"\x1b\[30;1H")  # a whole board, to the last row
            assert len(children := [p for p in os.listdir("/proc") if p.isdigit() and p != str(parent)
                                    and parent_of_safe(int(p)) == parent]) == 1, children
            game.stdin.write(b"q")
            await asyncio.wait_for(game.wait(), TIMEOUT)


def parent_of_safe(pid: int) -> int | None:
    try:
        return parent_of(pid)
    except (OSError, IndexError, ValueError):
        return None


async def test_the_server_says_it_listens_once_its_game_parent_is_ready(tmp_path, monkeypatch):
    # A player who connects the moment the "listening" line appears gets a forked game, and the log no note.
    monkeypatch.setenv(ssh_support.PRELOAD_VARIABLE, "1")
    args = ["--port", "0", "--public", "--host-key", str(tmp_path / "host_key"), "--session-command", FAKE_COMMAND]
    with ServerProcess(*args) as server:
        port = server.wait_listening()
        async with await connect(port, None) as conn:
            game, seen = await ready_game(conn)
            game.stdin.write(b"q")
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 3
    lines = server.lines
    listening = next(i for i, line in enumerate(lines) if "listening on" in line)
    # Ready, or (on a machine too busy to load it within the bound) said not to be: either way, before.
    settled = [i for i, line in enumerate(lines) if re.match(r"\S+ game parent (ready \(pid|not ready after)", line)]
    assert settled and settled[0] < listening, lines
    assert not any("game parent not ready: " in line for line in lines), lines


def parent_logging_to(lines: list[str], argv: list[str]):
    from war_tui.serving.environment import session_environment
    from war_tui.serving.game_parent import GameParent

    return GameParent(argv, session_environment(None, {}), str(Path.cwd()), lines.append)


@pytest.mark.parametrize(
    ("code", "says"),
    [("import sys; sys.exit(1)", "game parent (pid {pid}) exit status 1; games start the old way"),
     ("import time; time.sleep(60)", "game parent not ready after 0.5 s: games start the old way until it is")],
    ids=["dies", "never ready"],
)
async def test_a_parent_that_fails_its_first_start_is_said_once_and_the_server_goes_on(code, says):
    lines: list[str] = []
    parent = parent_logging_to(lines, [sys.executable, "-c", code])
    try:
        await parent.start()
        assert await asyncio.wait_for(parent.first_start(0.5 if "sleep" in code else TIMEOUT), TIMEOUT) is False
        assert len(lines) == 1 and lines[0].startswith(says.format(pid=parent.pid)), lines
        # The first game asks while it is not ready: it starts the old way, with nothing more in the log.
        assert await parent.fork([sys.executable, "-c", "pass"], {}, "/", 1 << 30, 0, [0], []) is None
        assert len(lines) == 1, lines
    finally:
        await parent.stop()
