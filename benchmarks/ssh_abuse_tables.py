"""Abuse of ``war-tui serve-ssh``'s shared tables with its default limits: real SSH clients, the real game.

    python benchmarks/ssh_abuse_tables.py [--spam 32] [--honest 5] [--spectators 30] [--battles 40]
                                          [--skip spam,spectators]

(b) spam: ``--spam`` connections from two addresses (127.0.0.2 and 127.0.0.3), each asking for a table
    of its own (``table sN``) and leaving at once, as fast as the per-address limits let them; then an
    honest player from a third address opens a table: how long until the server seated them (its log
    line) and until their board shows (the real game), ``--honest`` times from fresh addresses, beside
    the same on the server before the spam. Goal: seated within 2 s.
(c) spectators: one table on auto-play at the server's top speed (``--max-speed 60``), then
    ``--spectators`` clients ask to watch it (past ``--max-spectators``, 10 by default, they are
    refused); meanwhile a flip at another table (player 2's key to the battle on both screens), p50 over
    ``--battles``, and a late spectator's board at that other table, beside the same before the busy
    table started. Goal: flip p50 within a small factor of the idle one.

The server runs as its own process (``--public`` on a loopback port, statistics in a scratch folder);
the clients run in this process and share the machine's two cores with it. Every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from ssh_clients import ServeSsh, connect
from table_load import SIZE, Screen, leave, until

SEATED = re.compile(r"(\S+): table (\S+) seat \d as ")
START_WAIT = 60.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spam", type=int, default=32)
    parser.add_argument("--honest", type=int, default=5)
    parser.add_argument("--spectators", type=int, default=30)
    parser.add_argument("--battles", type=int, default=40)
    parser.add_argument("--max-spectators", type=int, default=None, help="the server's flag (default: its default, 10)")
    parser.add_argument("--skip", default="", help="phases to leave out: spam, spectators")
    return parser.parse_args()


async def sit(port: int, user: str, command: str, source: str = "127.0.0.1") -> Screen:
    conn = await connect(port, user, source)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=SIZE, encoding=None)
    return Screen(conn, process)


def games_rss_mb(server: ServeSsh) -> float:
    total = 0
    for pid in server.games():
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


# -- (b) table spam ------------------------------------------------------------------------------------


async def knock(port: int, source: str, table: str) -> str:
    """One spam connection: ask for a table and leave at once. Returns what became of it."""
    try:
        conn = await connect(port, "spam", source)
    except (asyncssh.Error, OSError) as error:
        return type(error).__name__
    try:
        await conn.create_process(f"table {table}", term_type="xterm", term_size=(80, 24), encoding=None)
        return "asked"
    except (asyncssh.Error, OSError) as error:
        return type(error).__name__
    finally:
        conn.close()


async def spam(port: int, count: int) -> dict:
    started = time.monotonic()
    outcomes: dict[str, int] = {}

    async def stream(source: str, tables: list[str]) -> None:
        for table in tables:
            outcome = await knock(port, source, table)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1

    await asyncio.gather(*(stream(f"127.0.0.{2 + a}", [f"s{n}" for n in range(a, count, 2)]) for a in range(2)))
    return {"connections": count, "seconds": round(time.monotonic() - started, 2), "outcomes": outcomes}


async def honest(server: ServeSsh, port: int, source: str, table: str) -> tuple[float | None, float | None]:
    """(seconds until the server seated them, seconds until their board showed); None: never."""
    log = Path(server.log.name)
    mark = len(log.read_text())
    started = time.monotonic()
    screen = await sit(port, "honest", f"table {table}", source)
    seated = board = None
    deadline = started + START_WAIT
    while time.monotonic() < deadline and (seated is None or board is None):
        if seated is None and any(m.group(2) == table for m in SEATED.finditer(log.read_text()[mark:])):
            seated = time.monotonic() - started
        if board is None and screen.game:
            board = time.monotonic() - started
        if screen.process.exit_status is not None:
            break
        await asyncio.sleep(0.01)
    await leave([screen])
    return seated, board


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


async def spam_phase(workdir: Path, args: argparse.Namespace) -> None:
    server = ServeSsh(workdir, [])  # every limit at its default
    try:
        await server.wait_listening()
        print(f"(b) server pid {server.process.pid}, default limits; load {os.getloadavg()[0]:.2f}", flush=True)
        before = [await honest(server, server.port, f"127.0.0.{10 + i}", f"calm{i}") for i in range(args.honest)]
        await asyncio.sleep(31.0)  # their tables, empty, close after 30 s: the spam meets the server as it started
        result = await spam(server.port, args.spam)
        await asyncio.sleep(0.5)
        tables_open = len(re.findall(r": table s\d+ seat", Path(server.log.name).read_text()))
        after = [await honest(server, server.port, f"127.0.0.{20 + i}", f"mine{i}") for i in range(args.honest)]
        refused = sum(1 for s, _ in after if s is None)
        print(f"(b) spam: {result}; spam seats taken {tables_open}", flush=True)
        for label, runs in (("before the spam", before), ("after the spam", after)):
            print(f"(b) honest player {label}: seated median {median([s for s, _ in runs])} s, "
                  f"board median {median([b for _, b in runs])} s, runs {runs}", flush=True)
        print(f"(b) refused after the spam: {refused} of {len(after)}  (goal: seated within 2 s, none refused)")
    finally:
        server.stop()


# -- (c) spectators ------------------------------------------------------------------------------------


async def flips(p1: Screen, p2: Screen, battles: int) -> list[float]:
    samples = []
    for _ in range(battles):
        game, battle = p1.now
        p1.type(b"f")
        await asyncio.sleep(0.15)
        key = (game, battle + 1)
        pressed = asyncio.get_running_loop().time()
        p2.type(b"f")
        if await until(lambda key=key: key in p1.first_seen and key in p2.first_seen, 5.0):
            samples.append(max(p1.first_seen[key], p2.first_seen[key]) - pressed)
        else:
            p1.type(b"r")
            p2.type(b"r")
            await until(lambda game=game: p1.game > game and p2.game > game, 5.0)
    return samples


async def late_board(port: int, table: str) -> float | None:
    started = time.monotonic()
    screen = await sit(port, "late", f"watch {table}")
    ok = await until(lambda: bool(screen.game), START_WAIT)
    took = time.monotonic() - started if ok else None
    await leave([screen])
    return took


async def spectators_phase(workdir: Path, args: argparse.Namespace) -> None:
    sessions = args.spectators + 16
    flags = ["--max-sessions", str(sessions), "--max-sessions-per-address", str(sessions),
             "--max-attempts-per-minute", "100000", "--max-speed", "60"]
    if args.max_spectators is not None:
        flags += ["--max-spectators", str(args.max_spectators)]
    server = ServeSsh(workdir, flags)
    everyone: list[Screen] = []
    try:
        await server.wait_listening()
        print(f"(c) server pid {server.process.pid}; load {os.getloadavg()[0]:.2f}", flush=True)
        calm = [await sit(server.port, "c1", "table calm"), await sit(server.port, "c2", "table calm")]
        everyone += calm
        if not await until(lambda: all(s.game for s in calm), START_WAIT):
            raise SystemExit("the calm table never showed its board")
        idle = await flips(calm[0], calm[1], args.battles)
        idle_late = await late_board(server.port, "calm")
        busy = [await sit(server.port, "b1", "table busy"), await sit(server.port, "b2", "table busy")]
        everyone += busy
        if not await until(lambda: all(s.game for s in busy), START_WAIT):
            raise SystemExit("the busy table never showed its board")
        for player in busy:
            # Faster up to "max" (the server's top speed) first, then auto-play at that speed: a "+" typed
            # right after "a" may come before the table says auto-play is asked for, and is not sent on.
            player.type(b"+" * 20 + b"a")

        rates: list[float] = []

        async def deal_again() -> None:  # at game over both deal again; auto-play carries on
            last, at = busy[0].now, time.monotonic()
            while True:
                await asyncio.sleep(1.0)
                now = busy[0].now
                if now[0] == last[0] and now[1] > last[1]:  # battles a second on player 1's screen
                    rates.append((now[1] - last[1]) / (time.monotonic() - at))
                last, at = now, time.monotonic()
                for player in busy:
                    player.type(b"r")

        dealer = asyncio.create_task(deal_again())
        watchers = await asyncio.gather(
            *(sit(server.port, f"w{i}", "watch busy") for i in range(args.spectators)), return_exceptions=True
        )
        screens = [w for w in watchers if isinstance(w, Screen)]
        everyone += screens
        await until(lambda: all(s.game or s.process.exit_status is not None for s in screens), START_WAIT)
        watching = sum(1 for s in screens if s.game)
        refused = sum(1 for s in screens if not s.game and s.process.exit_status is not None)
        await asyncio.sleep(2.0)
        busy_flips = await flips(calm[0], calm[1], args.battles)
        busy_late = await late_board(server.port, "calm")
        dealer.cancel()
        memory = games_rss_mb(server)
        load = os.getloadavg()[0]
        rate = f"median {statistics.median(rates):.0f} battles/s" if rates else "not measured"
        print(f"(c) busy table: {watching} spectators watching, {refused} refused; player 1's screen moved at "
              f"{rate}; games' memory {memory:,.0f} MB; load {load:.2f}", flush=True)
        p50_idle, p50_busy = statistics.median(idle) * 1000, statistics.median(busy_flips) * 1000
        print(f"(c) flip at another table, p50: idle {p50_idle:.0f} ms, busy {p50_busy:.0f} ms, "
              f"ratio {p50_busy / p50_idle:.2f}; max busy {max(busy_flips) * 1000:.0f} ms "
              f"({len(busy_flips)} battles)", flush=True)
        print(f"(c) late spectator's board at the other table: idle {idle_late:.2f} s, busy {busy_late:.2f} s",
              flush=True)
    finally:
        await leave(everyone)
        server.stop()


async def main() -> None:
    args = parse_args()
    skip = set(filter(None, args.skip.split(",")))
    print(f"cores {os.cpu_count()}; load at the start {os.getloadavg()[0]:.2f}", flush=True)
    if "spam" not in skip:
        with tempfile.TemporaryDirectory(prefix="abuse-tables-b-") as scratch:
            await spam_phase(Path(scratch), args)
    if "spectators" not in skip:
        with tempfile.TemporaryDirectory(prefix="abuse-tables-c-") as scratch:
            await spectators_phase(Path(scratch), args)
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
