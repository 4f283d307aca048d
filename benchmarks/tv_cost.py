"""War TV against a spectator of the same table: what each costs, and how soon War TV moves on at a game's end.

    python benchmarks/tv_cost.py [--rounds 3] [--seconds 20] [--moves 6]

1. cost: one table (2 players on auto-play at 4 battles/s, 100x30 ptys) on a ``serve-ssh`` of its own, as
   shipped (spectators share a rendering). Each round measures ``--seconds`` of the server's and its games' CPU
   with nobody watching, then with one spectator (``watch oak``), then with one War TV viewer (``tv``, on the
   only table: oak); the viewer's own cost is its window's CPU less the round's unwatched window. At each game's
   end the players deal again half a second later. Goal: a TV screen costs no more than a spectator's (the
   median ratio <= 1).
2. move-on: two tables on auto-play at 4/s whose games end at 40 battles (``-- --max-battles 40``), one started
   about 5 s after the other, and a War TV viewer: for ``--moves`` game ends of the table on show, the time from
   the viewer's screen showing the end ("the battle limit was reached") to its seats line naming the other
   table. Goal: <= 2 s.

The server runs as its own process (``ssh_clients.ServeSsh``); the clients run in this process, their CPU not
counted. Every loop is bounded by a count or a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import pyte
from ssh_clients import ServeSsh, connect

SIZE = (100, 30)
FLAGS = ["--max-sessions", "32", "--max-sessions-per-address", "32", "--max-attempts-per-minute", "100000"]
WAIT = 60.0
ENDED = r"the battle limit was reached|ran out of cards|could not finish a war"
"""How the result says a game ended (``presentation.words.reason_text``)."""


class Screen:
    """One client on a pty, its screen read through pyte as it arrives."""

    def __init__(self, conn, process) -> None:
        self.conn, self.process = conn, process
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.pump = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.stream.feed(chunk)

    def find(self, pattern: str) -> re.Match | None:
        return re.search(pattern, "\n".join(self.screen.display), re.M)

    async def until(self, pattern: str, timeout: float = WAIT) -> re.Match:
        deadline = time.monotonic() + timeout
        while (found := self.find(pattern)) is None:
            if time.monotonic() > deadline:
                raise SystemExit(f"no {pattern!r} on the screen:\n" + "\n".join(self.screen.display))
            await asyncio.sleep(0.01)
        return found

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    async def leave(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 10)
        self.pump.cancel()


async def sit(port: int, user: str, command: str) -> Screen:
    conn = await connect(port, user)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=SIZE, encoding=None)
    return Screen(conn, process)


async def auto_table(port: int, table: str) -> list[Screen]:
    """Two players at ``table``, both asking for auto-play at 4/s, its first battle played."""
    players = [await sit(port, f"{table}-1", f"table {table}"), await sit(port, f"{table}-2", f"table {table}")]
    for player in players:
        await player.until(rf"Table {table} · ")
    for player in players:
        player.type(b"a")
    await players[0].until(r"Battle [1-9]")
    return players


async def keep_dealing(players: list[Screen]) -> None:
    """At each game's end both players deal again (r), half a second later: auto-play plays the next deal."""
    while True:
        await players[0].until(ENDED, timeout=3600)
        await asyncio.sleep(0.5)
        for player in players:
            player.type(b"r")
        while players[0].find(ENDED):
            await asyncio.sleep(0.05)


async def window(server: ServeSsh, seconds: float) -> float:
    """Cores the server and its games used over ``seconds`` (games that start or end inside it count from 0)."""
    before_server, before_games = server.cpu_seconds(), server.games_cpu_seconds()
    await asyncio.sleep(seconds)
    games = server.games_cpu_seconds()
    spent = server.cpu_seconds() - before_server + sum(cpu - before_games.get(pid, 0.0) for pid, cpu in games.items())
    return spent / seconds


async def viewer_costs(workdir: Path, rounds: int, seconds: float) -> dict:
    server = ServeSsh(workdir, FLAGS)
    await server.wait_listening()
    try:
        players = await auto_table(server.port, "oak")
        dealer = asyncio.ensure_future(keep_dealing(players))
        rows = []
        for _ in range(rounds):
            alone = await window(server, seconds)
            watcher = await sit(server.port, "watcher", "watch oak")
            await watcher.until(r"Table oak|oak · ")
            await asyncio.sleep(2.0)  # its renderer's start is past
            spectator = await window(server, seconds)
            await watcher.leave()
            await asyncio.sleep(2.0)  # its renderer has ended
            viewer = await sit(server.port, "viewer", "tv")
            await viewer.until(r"Table oak · .*on War TV|Table oak · .*spectator")
            await asyncio.sleep(2.0)
            tv = await window(server, seconds)
            await viewer.leave()
            await asyncio.sleep(2.0)
            rows.append({"alone": alone, "spectator": spectator - alone, "tv": tv - alone})
        dealer.cancel()
        for player in players:
            await player.leave()
    finally:
        server.stop()
    ratios = [row["tv"] / row["spectator"] for row in rows if row["spectator"] > 0]
    return {
        "rounds": [{name: round(value, 4) for name, value in row.items()} for row in rows],
        "spectator_cores_median": round(statistics.median(row["spectator"] for row in rows), 4),
        "tv_cores_median": round(statistics.median(row["tv"] for row in rows), 4),
        "tv_over_spectator_median": round(statistics.median(ratios), 2) if ratios else None,
    }


async def move_on(workdir: Path, moves: int) -> dict:
    server = ServeSsh(workdir, [*FLAGS, "--", "--max-battles", "40"])
    await server.wait_listening()
    seconds: list[float] = []
    stayed = 0
    try:
        oak = await auto_table(server.port, "oak")
        dealers = [asyncio.ensure_future(keep_dealing(oak))]
        await asyncio.sleep(5.0)
        elm = await auto_table(server.port, "elm")
        dealers.append(asyncio.ensure_future(keep_dealing(elm)))
        viewer = await sit(server.port, "viewer", "tv")
        shown = (await viewer.until(r"Table (oak|elm) · ")).group(1)
        deadline = time.monotonic() + moves * 40
        while len(seconds) + stayed < moves and time.monotonic() < deadline:
            await viewer.until(ENDED, timeout=60)
            ended = time.monotonic()
            other = "elm" if shown == "oak" else "oak"
            found = await viewer.until(rf"Table ({other}) · |No table is playing|Table {shown} · .*Battle [1-9]\b",
                                       timeout=30)
            if found.group(1) == other:
                seconds.append(time.monotonic() - ended)
                shown = other
            else:
                stayed += 1
            while viewer.find(ENDED):
                await asyncio.sleep(0.05)
        await viewer.leave()
        for dealer in dealers:
            dealer.cancel()
        for person in oak + elm:
            await person.leave()
    finally:
        server.stop()
    return {
        "moves": len(seconds), "stayed_or_waited": stayed,
        "seconds_median": round(statistics.median(seconds), 2) if seconds else None,
        "seconds_max": round(max(seconds), 2) if seconds else None,
        "seconds": [round(s, 2) for s in seconds],
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, choices=range(1, 21), metavar="1-20")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves", type=int, default=6, choices=range(1, 51), metavar="1-50")
    parser.add_argument("--skip", default="", help="cost, move-on")
    args = parser.parse_args()
    if not 1.0 <= args.seconds <= 600.0:
        parser.error("--seconds is from 1 to 600")
    results: dict = {"load": Path("/proc/loadavg").read_text().split()[:3]}
    with tempfile.TemporaryDirectory() as scratch:
        if "cost" not in args.skip:
            (Path(scratch) / "cost").mkdir()
            results["cost"] = await viewer_costs(Path(scratch) / "cost", args.rounds, args.seconds)
        if "move-on" not in args.skip:
            (Path(scratch) / "move").mkdir()
            results["move_on"] = await move_on(Path(scratch) / "move", args.moves)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
