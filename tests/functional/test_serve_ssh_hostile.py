"""serve-ssh against hostile clients: every buffer, size, count and rate a client can push is bounded by us."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from ssh_support import (
    FAKE_ARGV,
    FAKE_GAME,
    SERVED_NICENESS,
    TIMEOUT,
    ServerProcess,
    connect,
    make_key,
    open_game,
    read_until,
    ready_game,
    start_server,
    until,
)
from support.present import present

from war_tui.serving.goodbyes import GAME_CRASHED, INPUT_FLOOD, OUT_OF_MEMORY, TERMINAL_RESET

FAKE_COMMAND = f"{sys.executable} {FAKE_GAME}"
MiB = 1024 * 1024


@pytest.fixture
def player(tmp_path):
    return make_key(tmp_path, "player_key")


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(present(re.search(r"^VmRSS:\s+(\d+)", status, re.M)).group(1))


# -- 1. input floods -------------------------------------------------------------------------------------


async def test_lines_piped_to_line_past_the_cap_end_the_game_in_plain_text(tmp_path, player):
    # ssh -T HOST line < moves: lines sent before the game is up wait for it, within the same cap as keys
    # a game is slow to take; past it the game ends with a plain-text goodbye (no terminal reset).
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--deaf")) as srv:
        async with await connect(srv.port, player) as conn:
            moves = b"flip\n" * (200 * 1024 // 5)
            result = await asyncio.wait_for(conn.run("line", input=moves, encoding=None), TIMEOUT)
    assert INPUT_FLOOD.format(size="64 KiB").encode() + b"\n" in result.stdout
    assert TERMINAL_RESET not in result.stdout and result.exit_status == 1
    assert any("refused: input flood" in line for line in srv.logs), srv.logs


@pytest.mark.parametrize("compression", [None, "zlib@openssh.com"], ids=["plain", "zlib"])
async def test_a_flood_of_keys_ends_the_game_and_the_server_holds_no_more_than_its_cap(tmp_path, compression):
    # A client pastes faster than the game reads: the server holds only the cap.
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"),
            "--session-command", FAKE_COMMAND, "--", "--slow")
    with ServerProcess(*args) as server:
        port = server.wait_listening()
        options = {"compression_algs": [compression, "none"]} if compression else {}  # the server offers none
        async with await connect(port, None, **options) as conn:
            game, seen = await ready_game(conn)
            before = rss_kib(server.process.pid)
            chunk = (b"\x1b[200~" + b"a" * (64 * 1024 - 12) + b"\x1b[201~") if not compression else bytes(64 * 1024)
            sent = 0
            with contextlib.suppress(asyncssh.Error, OSError):
                while sent < 64 * MiB and not game.stdin.is_closing():
                    game.stdin.write(chunk)
                    await asyncio.wait_for(game.stdin.drain(), TIMEOUT)
                    sent += len(chunk)
            grown = rss_kib(server.process.pid) - before
            assert grown < 16 * 1024, f"the server grew {grown:,} KiB"
            text = await read_until(game.stdout, "game was ended", seen)
        assert INPUT_FLOOD.format(size="64 KiB") in text
        assert sent < 16 * MiB  # ended long before the client was done
    assert any("refused: input flood" in line for line in server.lines), server.lines


async def test_the_server_offers_no_compression_so_a_client_cannot_inflate_what_it_sends(tmp_path):
    # zlib would turn a few megabytes on the wire into a gigabyte of input.
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--session-command", FAKE_COMMAND)
    with ServerProcess(*args) as server:
        port = server.wait_listening()
        with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.DisconnectError)):
            async with await connect(port, None, compression_algs=["zlib@openssh.com", "zlib"]):
                pass


# -- 2. window sizes and resizes ---------------------------------------------------------------------------


async def test_huge_window_sizes_are_clamped_to_a_real_terminals(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn, size=(65535, 65535))
            assert "SIZE 500x200\r\n" in seen.decode()
            game.change_terminal_size(100, 40)
            await read_until(game.stdout, "SIZE 100x40", seen)
            game.change_terminal_size(65535, 65535)
            await read_until(game.stdout, r"SIZE 100x40\r\n(.|\n)*SIZE 500x200", seen)


async def test_a_storm_of_resizes_reaches_the_game_as_a_few_ending_with_the_last(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        async with await connect(srv.port, player) as conn:
            game, seen = await ready_game(conn)
            for i in range(3000):
                game.change_terminal_size(60 + i % 40, 20 + i % 10)
            game.change_terminal_size(123, 45)
            await read_until(game.stdout, "SIZE 123x45", seen)
            await asyncio.sleep(0.3)
            sizes = re.findall(r"SIZE (\d+x\d+)", seen.decode())
            assert sizes[-1] == "123x45"
            assert len(sizes) < 30, len(sizes)  # a handful a second, not one per change


# -- 3. fair shares -----------------------------------------------------------------------------------------


async def test_one_address_gets_its_share_and_another_address_still_gets_in(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:  # the default: 4 games per address
        conns = [await connect(srv.port, player) for _ in range(4)]
        for conn in conns:
            await read_until((await open_game(conn)).stdout, "READY")
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await connect(srv.port, player)
        assert "your address already has 4 games in progress here" in refused.value.reason
        async with await connect(srv.port, player, local_addr=("127.0.0.2", 0)) as other:
            await read_until((await open_game(other)).stdout, "READY")
        for conn in conns:
            conn.close()
    assert any("refused: address full" in line for line in srv.logs)


async def test_connections_that_do_not_log_in_are_capped_oldest_dropped_first(tmp_path, player):
    srv = await start_server(tmp_path, [player], max_attempts_per_minute=1000)  # the default: 64 unauthenticated
    idle = []
    try:
        for i in range(70):
            idle.append(await asyncio.open_connection("127.0.0.1", srv.port, local_addr=(f"127.0.3.{i + 1}", 0)))
        await asyncio.sleep(0.2)
        for reader, _ in idle[:6]:  # the six oldest were let go ...
            await asyncio.wait_for(reader.read(), TIMEOUT)  # (their version line, then the end)
            assert reader.at_eof()
        for reader, _ in idle[6:]:  # ... the 64 newest are still waiting
            assert not reader.at_eof()
        async with await connect(srv.port, player) as conn:  # and a real player still gets in
            await read_until((await open_game(conn)).stdout, "READY")
    finally:
        for _, writer in idle:
            writer.close()
        await srv.server.stop()


@pytest.mark.serial  # on a quiet machine the flood is over in a second or two: the bound below is then tight
async def test_a_flood_of_connections_logs_a_summary_not_a_line_each(tmp_path):
    srv = await start_server(tmp_path, None, max_attempts_per_minute=1000)
    sockets = []
    try:
        began = time.monotonic()
        for i in range(400):
            address = f"127.0.{4 + i // 250}.{i % 250 + 1}"
            sockets.append(await asyncio.open_connection("127.0.0.1", srv.port, local_addr=(address, 0)))
        await until(lambda: any(line.startswith("flood: held back") for line in srv.logs))  # the second's summary
        # At most a burst of lines and a summary in each second the flood took (the seconds counted here, so a
        # slow machine is slow, not wrong); a line per connection would be 400.
        seconds = math.ceil(time.monotonic() - began) + 1
        assert len(srv.logs) <= (srv.server.flood_log.burst + 1) * seconds, (seconds, srv.logs)
        assert any(line.startswith("flood: held back") for line in srv.logs), srv.logs
        assert not [line for line in srv.logs if line.startswith("error")], srv.logs
    finally:
        for _, writer in sockets:
            writer.close()
        await srv.server.stop()


# -- 6, 7. keys as the operator says --------------------------------------------------------------------


async def test_emptying_or_deleting_the_keys_file_revokes_every_key(tmp_path, player):
    async with await start_server(tmp_path, [player]) as srv:
        keys_file = tmp_path / "authorized_keys"
        async with await connect(srv.port, player):
            pass
        for emptied in ("", "# everyone is away\n"):
            keys_file.write_text(emptied)
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(srv.port, player)
        keys_file.unlink()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(srv.port, player)
        keys_file.write_text("this is not a key\n" + player.public_line)
        async with await connect(srv.port, player):  # the line that parses applies
            pass
    warnings = [line for line in srv.logs if line.startswith("WARNING")]
    assert any("no keys in authorized keys" in line and "nobody could log in" in line for line in warnings)
    assert any("cannot read authorized keys" in line and "no such file" in line for line in warnings)
    assert any("line 1: not a public key: line skipped" in line for line in srv.logs)


async def test_expired_keys_and_keys_meant_for_a_command_are_refused(tmp_path):
    keys = {name: make_key(tmp_path, name) for name in ("expired", "command", "restricted", "valid", "future")}
    lines = {
        "expired": 'expiry-time="20200101" ',
        "command": 'command="/bin/false",no-pty ',
        "restricted": "restrict ",
        "valid": 'from="127.0.0.1" ',
        "future": 'expiry-time="29991231" ',
    }
    async with await start_server(tmp_path, [keys["valid"]]) as srv:
        (tmp_path / "authorized_keys").write_text("".join(lines[n] + keys[n].public_line for n in lines))
        for name in ("expired", "command", "restricted"):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(srv.port, keys[name])
        for name in ("valid", "future"):
            async with await connect(srv.port, keys[name]):
                pass
    refusals = " ".join(line for line in srv.logs if line.startswith("disconnect"))
    for words in ("refused: expired key", "refused: key with command=, no-pty", "refused: key with restrict"):
        assert words in refusals, srv.logs
    assert any("line 2: a key with command=, no-pty is refused" in line for line in srv.logs)


async def test_sha1_signatures_are_refused(tmp_path):
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    path = tmp_path / "rsa_key"
    path.write_bytes(rsa.export_private_key())
    from ssh_support import ClientKey

    key = ClientKey(rsa, path)
    async with await start_server(tmp_path, [key]) as srv:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(srv.port, key, signature_algs=["ssh-rsa"])
        async with await connect(srv.port, key, signature_algs=["rsa-sha2-256"]):
            pass


# -- 2, 9. games at their limits: a goodbye for the player, the details for the operator -------------------


async def test_a_game_past_its_memory_limit_ends_with_a_goodbye_at_lower_priority(tmp_path, player):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--hog", "400"), game_memory_mb=128,
                                  game_nice=SERVED_NICENESS) as srv:
        async with await connect(srv.port, player) as conn:
            game = await open_game(conn)
            seen = bytearray()
            text = await read_until(game.stdout, "Sorry!", seen)
            assert OUT_OF_MEMORY.format(size="128 MiB") in text
            assert "HOGGED" not in text and "Traceback" not in text and "MemoryError" not in text
            assert f"NICE {min(os.nice(0) + SERVED_NICENESS, 19)}" in text  # below the server's priority (19 is the lowest there is)
            assert (await asyncio.wait_for(game.wait(), TIMEOUT)).exit_status == 1
    assert any("crashed (exit status 1): MemoryError at fake_game.py:" in line for line in srv.logs), srv.logs
    assert "exit status 1, out of memory" in srv.logs[-1]


async def test_a_crash_report_reaches_the_log_only_as_one_line_whole_at_debug_level(tmp_path, player):
    for debug in (False, True):
        async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--crash"), debug=debug) as srv:
            async with await connect(srv.port, player) as conn:
                game = await open_game(conn)
                text = await read_until(game.stdout, "Sorry!")
                assert GAME_CRASHED in text
                assert "Traceback" not in text and str(FAKE_GAME) not in text
                await asyncio.wait_for(game.wait(), TIMEOUT)
        crashed = [line for line in srv.logs if "crashed" in line and not line.startswith("disconnect")]
        assert crashed == [f"game of {crashed[0].split()[2]} crashed (exit status 1): "
                           f"RuntimeError: the fake game fell over at fake_game.py:{crashed[0].rsplit(':', 1)[1]}"]
        assert ("  | Traceback (most recent call last):" in srv.logs) is debug, srv.logs
        assert ("  | RuntimeError: the fake game fell over" in srv.logs) is debug


# -- 10. a client closing while the game draws ---------------------------------------------------------


async def drain(stream) -> None:
    with contextlib.suppress(asyncssh.Error, OSError):
        while await stream.read(65536):
            pass


async def test_quick_closes_while_the_game_draws_log_no_error(tmp_path, player, caplog):
    async with await start_server(tmp_path, [player], argv=(*FAKE_ARGV, "--flood"), max_attempts_per_minute=1000) as srv:
        caplog.set_level(logging.WARNING)
        for i in range(30):
            conn = await connect(srv.port, player)
            game = await open_game(conn)
            await read_until(game.stdout, "READY")
            reading = asyncio.ensure_future(drain(game.stdout))  # the game draws as fast as it is read
            await asyncio.sleep(0.02 * (i % 5))
            game.close()  # the player's end closes while the server is writing
            await asyncio.sleep(0.01)
            conn.close()
            reading.cancel()
        await until(lambda: not srv.server.connections)
        await asyncio.sleep(0.3)
    assert not [line for line in srv.logs if line.startswith("error")], srv.logs
    assert not [r for r in caplog.records if "BrokenPipe" in r.getMessage() or r.exc_info], caplog.text
