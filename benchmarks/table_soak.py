"""A soak of shared tables through both doors at once: do screens keep up with their table, under load?

    python benchmarks/table_soak.py [--tables 6] [--seconds 60] [--busy 2] [--gap 0.04,0.4] [--settle 20]

One ``war-tui serve --ssh 0 --web 0 --public`` process, the real game. Each of ``--tables`` tables has two
players, each with an identity of their own (player 1 an SSH key, player 2 a browser's cookie over the web
door's websocket), two spectators (one over SSH, one over the web door), all on 100x30 terminals, and a
line-mode spectator over SSH (``line watch NAME``) whose sentences give the table's battles and its game
overs. Each player flips with a random gap from ``--gap`` (40 to 400 ms by default); once a game is over
both ask to deal again. ``--busy N`` runs N busy loops at nice 0 beside it all for the whole run (each
stops by itself at the end of the run, and is ended with it).

Every screen's (game, battle) is read from its pile's frame and status line, as ``table_load.py`` reads it
(its ``Glass``), with the time each first showed. The table's battle at a moment is the furthest any of
its screens (the line-mode spectator's included) had shown by then. Sampled every ``--tick`` seconds:

- each screen's worst lag behind its table, in battles, and in seconds (how long the table had been past
  what the screen showed);
- the battles each table played (all its games);
- after the flips stop, within ``--settle`` seconds: the screens that never showed their table's last
  battle (never caught up).

Goals (issue 29): no screen behind its table by 5 s or more; every table within 0.7x of the median
table's battles; every screen ends on its table's battle (the exit status is 1 where one did not). The
clients run in this process and share the machine's cores with the server, the games and the busy
loops, so the figures are pessimistic. Every loop is bounded by a count or a time.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp
import asyncssh
from ssh_clients import connect
from table_load import CLIENT_CIPHERS, SIZE, Screen, load, until
from web_load import Serve

START_WAIT = 60.0
BUSY_LOOP = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
"""A busy loop that stops by itself after ``seconds``."""
LINE_GAME = re.compile(r"^Game ([\d,]+)(?:, battle ([\d,]+)\.| is dealt\.)")
LINE_BATTLE = re.compile(r" beats |wins? the battle\.")
Key = tuple[int, int]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the players flip")
    parser.add_argument("--busy", type=int, default=0, help="busy loops at nice 0 for the whole run (at most 16)")
    parser.add_argument("--gap", default="0.04,0.4", help="a player's gap between flips: LOW,HIGH seconds")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds the screens get to catch up at the end")
    parser.add_argument("--tick", type=float, default=0.25, help="seconds between lag samples")
    parser.add_argument("--seed", type=int, default=None, help="the random gaps' seed")
    args = parser.parse_args()
    try:
        low, high = (float(part) for part in args.gap.split(","))
    except ValueError:
        parser.error(f"--gap must be LOW,HIGH in seconds, not {args.gap!r}")
    if not (0.0 < low <= high <= 10.0):
        parser.error("--gap needs 0 < LOW <= HIGH <= 10 seconds")
    if not 1 <= args.tables <= 50 or not 0 <= args.busy <= 16:
        parser.error("--tables goes from 1 to 50 and --busy from 0 to 16")
    if not 1.0 <= args.seconds <= 3600.0 or not 1.0 <= args.settle <= 600.0 or not 0.05 <= args.tick <= 5.0:
        parser.error("--seconds goes from 1 to 3600, --settle from 1 to 600, --tick from 0.05 to 5")
    args.gaps = (low, high)
    return args


class SoakServer(Serve):
    """Both doors in one process, with room for every client of the run (all from 127.0.0.1)."""

    def __init__(self, workdir: Path, sessions: int) -> None:
        many = str(sessions)
        command = [
            sys.executable, "-m", "war_tui", "serve", "--ssh", "0", "--web", "0", "--public",
            "--host-key", str(workdir / "host_key"), "--max-sessions", many, "--max-sessions-per-address", many,
            "--web-max-sessions", many, "--web-max-sessions-per-address", many,
            "--max-attempts-per-minute", "100000", "--max-server-mb", "4000", "--max-unauthenticated", "1000",
            "--max-seats-per-address", many, "--max-tables-per-address", many, "--max-spectators", many,
        ]
        self.log = open(workdir / "server.log", "w+")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
        # A session of its own, as a daemon runs (the kernel shares the CPU between sessions first).
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=self.log, env=env,
                                        start_new_session=True)
        self.ssh_port = self.web_port = 0


class WebScreen(Screen):
    """A screen over the web door: the websocket's binary messages are the terminal's bytes."""

    def __init__(self, client: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.client = client
        self.ws = ws
        super().__init__(None, None)  # type: ignore[arg-type]  # no SSH connection: the reader is the websocket

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(aiohttp.ClientError, OSError):
            async for message in self.ws:
                if message.type is aiohttp.WSMsgType.BINARY:
                    self._take(message.data, loop.time())

    def type(self, keys: bytes) -> None:
        if not self.ws.closed:
            asyncio.ensure_future(self.ws.send_bytes(keys))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        await self.client.close()
        self.reader.cancel()


class LineWatcher:
    """``line watch NAME``: the table's battles and game overs in sentences, without drawing anything."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess) -> None:
        self.conn, self.process = conn, process
        self.first_seen: dict[Key, float] = {}
        self.now: Key = (0, -1)
        self.over = False
        self._partial = b""
        self.reader = asyncio.create_task(self._read())

    @property
    def game(self) -> int:
        return self.now[0]

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncssh.Error, OSError):
            while chunk := await self.process.stdout.read(65536):
                *lines, self._partial = (self._partial + chunk).split(b"\n")
                for line in lines:
                    self._said(line.decode(errors="replace"), loop.time())

    def _said(self, line: str, at: float) -> None:
        found = LINE_GAME.match(line)
        if found is not None:
            self.over = False
            self._note((int(found[1].replace(",", "")), int((found[2] or "0").replace(",", ""))), at)
        elif LINE_BATTLE.search(line) and self.now[0]:
            self._note((self.now[0], self.now[1] + 1), at)
        if line.startswith("Game over:") or line == "That game is over.":
            self.over = True

    def _note(self, key: Key, at: float) -> None:
        self.first_seen.setdefault(key, at)
        self.now = key


async def ssh_screen(port: int, user: str, command: str, key: asyncssh.SSHKey | None = None) -> Screen:
    conn = await connect(port, user, encryption_algs=CLIENT_CIPHERS, client_keys=[key] if key else [])
    process = await conn.create_process(command, term_type="xterm-256color", term_size=SIZE, encoding=None)
    return Screen(conn, process)


async def web_screen(port: int, who: int, name: str, place: str) -> WebScreen:
    """A browser of its own (``who`` names it only in the caller's labels): the page issues its signed identity."""
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # keeps 127.0.0.1's cookie
    async with client.get(f"http://127.0.0.1:{port}/") as page:
        await page.read()
    ws = await client.ws_connect(
        f"http://127.0.0.1:{port}/ws{place}?name={name}&cols={SIZE[0]}&rows={SIZE[1]}",
        headers={"Origin": f"http://127.0.0.1:{port}"}, max_msg_size=0,
    )
    return WebScreen(client, ws)


class Table:
    """One table's clients: player 1 (SSH, a key), player 2 (web, a cookie), two spectators, the line watcher."""

    def __init__(self, name: str, screens: list[Screen], line: LineWatcher) -> None:
        self.name = name
        self.screens = screens
        self.labels = ["p1 ssh", "p2 web", "watch ssh", "watch web"]
        self.line = line

    @property
    def players(self) -> list[Screen]:
        return self.screens[:2]

    def timelines(self) -> list[dict[Key, float]]:
        return [s.first_seen for s in self.screens] + [self.line.first_seen]

    async def leave(self) -> None:
        for screen in self.screens:
            if isinstance(screen, WebScreen):
                await screen.close()
            else:
                screen.conn.close()
                screen.reader.cancel()
        self.line.conn.close()
        self.line.reader.cancel()


async def open_table(server: SoakServer, index: int) -> Table:
    name = f"soak{index}"
    key = asyncssh.generate_private_key("ssh-ed25519")
    p1 = await ssh_screen(server.ssh_port, f"{name}a", f"table {name}", key)
    if not await until(lambda: p1.game, START_WAIT):
        raise SystemExit(f"table {name}: player 1's screen never showed the board")
    p2 = await web_screen(server.web_port, 2 * index + 1, f"{name}b", f"/table/{name}")
    watchers = [await ssh_screen(server.ssh_port, f"{name}c", f"watch {name}"),
                await web_screen(server.web_port, 1000 + index, f"{name}d", f"/watch/{name}")]
    conn = await connect(server.ssh_port, f"{name}e", encryption_algs=CLIENT_CIPHERS)
    line = LineWatcher(conn, await conn.create_process(f"line watch {name}", encoding=None))
    screens = [p1, p2, *watchers]
    if not await until(lambda: all(s.game for s in screens) and line.game, START_WAIT):
        raise SystemExit(f"table {name}: {sum(1 for s in screens if not s.game)} screens never showed the board")
    return Table(name, screens, line)


async def play(table: Table, player: int, gaps: tuple[float, float], stop_at: float, rng: random.Random) -> int:
    """One player's keys until ``stop_at``: a flip after each random gap, and a deal once the game is over."""
    screen, keys = table.players[player], 0
    asked_deal = 0
    loop = asyncio.get_running_loop()
    while loop.time() < stop_at:
        await asyncio.sleep(rng.uniform(*gaps))
        if table.line.over:
            if asked_deal != table.line.game:  # ask once per game over; the table deals once both asked
                screen.type(b"r")
                asked_deal = table.line.game
        else:
            screen.type(b" ")
        keys += 1
    return keys


def shown_at(line: list[tuple[float, Key]], at: float) -> Key:
    index = bisect.bisect_right(line, (at, (1 << 62, 0)))
    return line[index - 1][1] if index else (0, -1)


def lags(table: Table, start: float, end: float, tick: float) -> list[tuple[int, float]]:
    """Each screen's worst lag behind its table over the run: (battles, seconds)."""
    timelines = [sorted((t, key) for key, t in seen.items()) for seen in table.timelines()]
    merged = sorted(item for line in timelines for item in line)
    worst = [(0, 0.0) for _ in table.screens]
    at = start
    while at <= end:
        shown = [shown_at(line, at) for line in timelines]
        lead = max(shown)
        for index, now in enumerate(shown[: len(table.screens)]):
            if now >= lead:
                continue
            battles = lead[1] - now[1] if now[0] == lead[0] else lead[1] + 1
            since = next(t for t, key in merged if key > now)  # when the table was first seen past it
            seconds = max(0.0, at - since)
            worst[index] = (max(worst[index][0], battles), max(worst[index][1], seconds))
        at += tick
    return worst


def lead_of(table: Table) -> Key:
    """The furthest (game, battle) any of the table's screens (or its line-mode spectator) has shown: the table's."""
    return max(max(seen, default=(0, -1)) for seen in table.timelines())


def battles_played(table: Table) -> int:
    """The battles the table played in the run: each game's furthest battle seen, summed."""
    furthest: dict[int, int] = {}
    for seen in table.timelines():
        for game, battle in seen:
            furthest[game] = max(furthest.get(game, 0), battle)
    return sum(furthest.values())


def busy_loops(count: int, seconds: float) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=seconds)]) for _ in range(count)]


async def soak(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    print(f"cores {os.cpu_count()}; {load()}; {args.tables} tables x (2 players + 2 spectators + a line "
          f"spectator) over SSH and the web door; {args.busy} busy loops; flips every "
          f"{args.gaps[0] * 1000:.0f}-{args.gaps[1] * 1000:.0f} ms for {args.seconds:g} s", flush=True)
    with tempfile.TemporaryDirectory(prefix="table-soak-") as scratch:
        server = SoakServer(Path(scratch), sessions=6 * args.tables + 8)
        busy: list[subprocess.Popen[bytes]] = []
        tables: list[Table] = []
        try:
            await server.wait_ready()
            for index in range(args.tables):
                tables.append(await open_table(server, index))
            loop = asyncio.get_running_loop()
            busy = busy_loops(args.busy, args.seconds + 5.0)
            start = loop.time()
            stop_at = start + args.seconds
            await asyncio.gather(*(play(t, p, args.gaps, stop_at, rng) for t in tables for p in (0, 1)))
            end = loop.time()
            caught = await until(lambda: all(s.now == lead_of(t) for t in tables for s in t.screens), args.settle)
            settled = loop.time() - end
            last = [lead_of(t) for t in tables]
            report(args, tables, start, end, last, caught, settled)
            for table in tables:
                await table.leave()
        finally:
            for loop_process in busy:
                loop_process.terminate()
                loop_process.wait()
            server.stop()
    return 0 if caught else 1


def report(args, tables: list[Table], start: float, end: float, last: list[Key], caught: bool,
           settled: float) -> None:
    played = [battles_played(t) for t in tables]
    median = statistics.median(played) if played else 0
    worst_s = 0.0
    for table, count, lead in zip(tables, played, last, strict=True):
        worst = lags(table, start, end, args.tick)
        shown = ", ".join(
            f"{label} {battles} battles / {seconds:.1f} s" for label, (battles, seconds) in zip(table.labels, worst)
        )
        worst_s = max([worst_s, *(seconds for _, seconds in worst)])
        ratio = count / median if median else float("nan")
        print(f"table {table.name}: {count} battles ({ratio:.2f}x the median), last game {lead[0]} battle "
              f"{lead[1]}; worst lag: {shown}", flush=True)
    behind = [f"{t.name} {label} at game {s.now[0]} battle {s.now[1]} (table: {lead[0]}, {lead[1]})"
              for t, lead in zip(tables, last) for label, s in zip(t.labels, t.screens) if s.now != lead]
    print(f"every screen on its table's last battle: {'yes' if caught else 'no'}, {settled:.1f} s after the "
          f"flips stopped" + ("" if caught else f"; never caught up: {'; '.join(behind)}"), flush=True)
    least = min(played) / median if median else float("nan")
    print(f"goals: worst lag {worst_s:.1f} s (< 5 s); least table {least:.2f}x the median (>= 0.7); "
          f"{load()}", flush=True)


def main() -> int:
    return asyncio.run(soak(parse_args()))


if __name__ == "__main__":
    sys.exit(main())
