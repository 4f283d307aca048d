"""The web door under the floods of issue 30, one ``war-tui serve --ssh 0 --web 0`` process, the real game.

    python benchmarks/web_flood.py [--big 250] [--idle 5000] [--seconds 5]

A stranger at 127.0.0.2 floods; players at 127.0.0.1 start games during each flood. For each flood the
server's RSS (MB) and open file descriptors before, during and 1 s and 10 s after it closed:

1. Big heads (item 2): ``--big`` connections, each a request line and 126 header lines of 8 KB, never the
   blank line. Goal: a web and an SSH player still play; RSS back within 20 MB of before within 10 s.
2. Idle connections (item 3): ``--idle`` connections that send nothing, or half a header line. Goal: the
   same, and the server's descriptors stay far from its limit.
3. Malformed requests (item 5): requests without a Host header, on 8 connections at once, for ``--seconds``:
   the server's log lines a second (goal: at most 20, plus a summary).
4. A ping flood (item 6) on one game's websocket: how long until the server closes it, and the server's CPU
   over the flood (goal: closed within 1 s).

The server runs as its own process (--public, loopback, a scratch folder); every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from web_load import WAIT, Serve, SshPlayer, WebPlayer

STRANGER = "127.0.0.2"
BIG_LINE = b"X-Big: " + b"a" * 8185 + b"\r\n"  # 8 KB each


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--big", type=int, default=250, help="connections with big heads (at most 1,000)")
    parser.add_argument("--idle", type=int, default=5000, help="idle connections (at most 20,000)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of the malformed-request flood (at most 30)")
    args = parser.parse_args()
    args.big, args.idle, args.seconds = min(args.big, 1000), min(args.idle, 20_000), min(args.seconds, 30.0)
    return args


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def figures(serve: Serve) -> str:
    return f"{serve.rss_kib() / 1000:.0f} MB, {fds(serve.process.pid):,} fds"


async def plays(serve: Serve, n: int) -> str:
    """A web player and an SSH player each start a game and see its board; how long each took."""
    said = []
    player: WebPlayer | SshPlayer
    for kind in (WebPlayer, SshPlayer):
        started = time.monotonic()
        try:
            player = await asyncio.wait_for(kind.open(serve.web_port if kind is WebPlayer else serve.ssh_port, n), WAIT)
            while b"Battle" not in player.seen:
                await asyncio.wait_for(player.more.wait(), WAIT)
                player.more.clear()
            said.append(f"{'web' if kind is WebPlayer else 'ssh'} player plays ({time.monotonic() - started:.2f} s)")
            await player.close()
        except (OSError, TimeoutError, aiohttp.ClientError) as exc:
            said.append(f"{'web' if kind is WebPlayer else 'ssh'} player could NOT play: {exc!r}")
    return ", ".join(said)


def stranger_socket(port: int) -> socket.socket | None:
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((STRANGER, 0))
    try:
        sock.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    except OSError:
        sock.close()
        return None
    return sock


def send_some(sock: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):
        sock.send(data)


async def after_close(serve: Serve, before: str) -> None:
    await asyncio.sleep(1.0)
    one = figures(serve)
    await asyncio.sleep(9.0)
    print(f"   before: {before}; 1 s after closing: {one}; 10 s after: {figures(serve)}")


async def big_heads(serve: Serve, count: int) -> None:
    print(f"1. {count} connections with 126 header lines of 8 KB, never the blank line")
    before = figures(serve)
    sockets = [s for s in (stranger_socket(serve.web_port) for _ in range(count)) if s is not None]
    await asyncio.sleep(0.5)  # accepted, or refused
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + BIG_LINE * 126
    for sock in sockets:
        send_some(sock, head)
    await asyncio.sleep(1.0)
    during = figures(serve)
    print(f"   during: {during}; {await plays(serve, 1)}")
    for sock in sockets:
        sock.close()
    await after_close(serve, before)


async def idle_connections(serve: Serve, count: int) -> None:
    print(f"2. {count:,} idle connections (half send half a header line)")
    before = figures(serve)
    sockets = []
    for n in range(count):
        sock = stranger_socket(serve.web_port)
        if sock is None:
            break
        if n % 2:
            send_some(sock, b"GET / HTTP/1.1\r\nHost: 127.0")
        sockets.append(sock)
        if n % 500 == 499:
            await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    print(f"   during: {figures(serve)}; {await plays(serve, 2)}")
    for sock in sockets:
        sock.close()
    await after_close(serve, before)


async def malformed(serve: Serve, seconds: float) -> None:
    print(f"3. requests without a Host header for {seconds:g} s, 8 connections at a time")
    lines_before = serve.text().count("\n")
    deadline = time.monotonic() + seconds
    sent = 0

    async def one_after_another() -> None:
        nonlocal sent
        while time.monotonic() < deadline:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", serve.web_port, local_addr=(STRANGER, 0)), 5)
                writer.write(b"GET / HTTP/1.1\r\n\r\n")
                await asyncio.wait_for(reader.read(), 5)
                writer.close()
                sent += 1
            except (OSError, TimeoutError):
                await asyncio.sleep(0.01)

    started = time.monotonic()
    await asyncio.gather(*(one_after_another() for _ in range(8)))
    elapsed = time.monotonic() - started
    await asyncio.sleep(1.5)  # the last summary
    lines = serve.text().count("\n") - lines_before
    print(f"   {sent:,} malformed requests in {elapsed:.1f} s: {lines} log lines in {elapsed + 1.5:.1f} s, "
          f"{lines / (elapsed + 1.5):.1f} a second")


async def ping_flood(serve: Serve) -> None:
    print("4. pings as fast as they go on one game's websocket")
    player = await WebPlayer.open(serve.web_port, 4)
    while b"Battle" not in player.seen:
        await asyncio.wait_for(player.more.wait(), WAIT)
        player.more.clear()
    pid = serve.process.pid
    cpu, started = cpu_seconds(pid), time.monotonic()
    pings = 0
    with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):
        while not player.ws.closed and time.monotonic() - started < 10:
            await player.ws.ping(b"p")
            pings += 1
            if pings % 100 == 0:
                await asyncio.sleep(0)
    await asyncio.wait_for(player.pump, WAIT)
    elapsed = time.monotonic() - started
    used = cpu_seconds(pid) - cpu
    print(f"   closed after {pings:,} pings, {elapsed:.2f} s; server CPU {used:.2f} s ({100 * used / elapsed:.0f}%),"
          f" close code {player.ws.close_code}")
    await player.close()


async def main() -> None:
    args = parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as scratch:
        serve = Serve(Path(scratch), 8)
        try:
            await serve.wait_ready()
            await asyncio.sleep(2.0)
            print(f"server at rest: {figures(serve)}; {await plays(serve, 0)}")
            await big_heads(serve, args.big)
            await idle_connections(serve, min(args.idle, hard - 500))  # this process's own descriptors
            await malformed(serve, args.seconds)
            await ping_flood(serve)
        finally:
            if os.environ.get("WEB_FLOOD_LOG"):
                print(serve.text())
            serve.stop()


if __name__ == "__main__":
    asyncio.run(main())
