"""A soak of shared tables through both doors at once: do screens and keys keep up with their table, under load?

    python benchmarks/table_soak.py [--tables 6] [--seconds 60] [--busy 2] [--gap 0.04,0.4] [--settle 20]
                                    [--auto-stops 2] [--auto-seconds 3]

One ``war-tui serve --ssh 0 --web 0 --public`` process, the real game, default flags. Each of ``--tables``
tables has two players, each with an identity of their own (player 1 an SSH key, player 2 a browser's
cookie over the web door's websocket), two spectators (one over SSH, one over the web door), all on 100x30
terminals, and a line-mode spectator over SSH (``line watch NAME``) whose sentences give the table's
battles, its game overs and its auto-play going on and off. Each player flips with a random gap from
``--gap`` (40 to 400 ms by default); once a game is over both ask to deal again. Then, ``--auto-stops``
times at every table, both players press ``a`` and auto-play runs (4/s) for ``--auto-seconds`` before
player 1's ``a`` stops it. ``--busy N`` runs N busy loops at nice 0 beside it all for the whole run (each
stops by itself at the end of the run, and is ended with it).

Every screen's (game, battle) is read from its pile's frame and status line, as ``table_load.py`` reads it
(its ``Glass``), with the time each first showed, and which players its seats line says have flipped. The
table's battle at a moment is the furthest any of its screens (the line-mode spectator's included) had
shown by then. Sampled every ``--tick`` seconds from the first flip to the last stop:

- each screen's lag behind its table, in battles, and in seconds (how long the table had been past what
  the screen showed): the worst, and each player's screen's p99;
- the battles each table played while the players flipped (all its games);
- each flip key's time to act: from the key to the first screen of its table showing that player's flip
  counted (the seats line says they flipped, or the next battle comes), for keys pressed while the table
  waited for that player's flip (a key after their flip counted adds nothing); a key the table drops
  acts with the player's next one, so its time includes the wait for it;
- each auto-play stop: from player 1's ``a`` to the line-mode spectator saying "Auto-play off.";
- after it all, within ``--settle`` seconds: the screens that never showed their table's last battle
  (never caught up).

Goals (issue 40): every player's screen within 2 s of its table (p99); every key acting within 1 s (p99);
every table at >= 0.8x the median table's battles; ``a`` stopping auto-play within 1 s; every screen ends
on its table's battle (the exit status is 1 where one did not). The clients run in this process and share
the machine's cores with the server, the games and the busy loops, so the figures are pessimistic. Every
loop is bounded by a count or a time.
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
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp
import asyncssh
from ssh_clients import connect
from table_load import BOARD_TOP, CLIENT_CIPHERS, SIZE, Screen, load, until
from web_load import Serve

START_WAIT = 60.0
BUSY_LOOP = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
"""A busy loop that stops by itself after ``seconds``."""
LINE_GAME = re.compile(r"^Game ([\d,]+)(?:, battle ([\d,]+)\.| is dealt\.)")
LINE_BATTLE = re.compile(r" beats |wins? the battle\.")
SEAT = re.compile(r"(soak\d+[ab])(?: \(you\))? (flipped|to flip)")
"""A seat on a seats line, and whether its player has flipped for the coming battle."""
DEALING = re.compile(r"^(\S+) (no longer )?asks to deal again\.$")
"""A player asking to deal again, or no longer."""
DEAL_AGAIN = 2.0
"""Seconds between a player's asks to deal again: a result holds against a key that comes too soon after another."""
AUTO_WAIT = 20.0
"""Seconds a table's auto-play gets to start (and, once asked, to stop) before the run goes on without it."""
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
    parser.add_argument("--auto-stops", type=int, default=2, help="times each table's auto-play is started and stopped")
    parser.add_argument("--auto-seconds", type=float, default=3.0, help="seconds auto-play runs before its stop")
    parser.add_argument("--keep-log", type=Path, default=None, help="where to copy the server's log at the end")
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
    if not 0 <= args.auto_stops <= 100 or not 0.5 <= args.auto_seconds <= 600.0:
        parser.error("--auto-stops goes from 0 to 100, --auto-seconds from 0.5 to 600")
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


class SoakScreen(Screen):
    """A screen that also notes, for each (game, battle) it showed, when its seats line first said a player flipped."""

    def __init__(self, conn: asyncssh.SSHClientConnection | None, process: asyncssh.SSHClientProcess | None) -> None:
        self.flipped: dict[tuple[Key, str], float] = {}
        super().__init__(conn, process)  # type: ignore[arg-type]  # a web screen has neither

    def _note(self, key: Key, at: float) -> None:
        game, battle = key
        if self.now[0] and game > self.now[0] and battle == self.now[1] > 0:
            return  # a new deal's seed beside the last game's pile: a frame read before it was all drawn
        super()._note(key, at)

    def _take(self, chunk: bytes, at: float) -> None:
        super()._take(chunk, at)
        if self.now[1] < 0:
            return
        seats = {name: state == "flipped" for name, state in SEAT.findall(self._glass.text(2))}
        if sum(seats.values()) == 1:  # one flipped, the other not: a state of this battle, never a frame between two
            name = next(name for name, flipped in seats.items() if flipped)
            self.flipped.setdefault((self.now, name), at)


class WebScreen(SoakScreen):
    """A screen over the web door: the websocket's binary messages are the terminal's bytes."""

    def __init__(self, client: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.client = client
        self.ws = ws
        super().__init__(None, None)  # no SSH connection: the reader is the websocket

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
        self.auto: list[tuple[float, bool]] = []
        """When it said auto-play went on (True) or off (False)."""
        self.withdrawn: list[float] = []
        """When it said a player no longer asks for auto-play."""
        self.said: deque[str] = deque(maxlen=50)
        """Its last sentences."""
        self.dealing: set[str] = set()
        """The players it last heard asking to deal again."""
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
        self.said.append(line)
        found = LINE_GAME.match(line)
        if found is not None:
            self.over = False
            self._note((int(found[1].replace(",", "")), int((found[2] or "0").replace(",", ""))), at)
        elif LINE_BATTLE.search(line) and self.now[0]:
            self._note((self.now[0], self.now[1] + 1), at)
        if line.startswith("Game over:") or line == "That game is over.":
            self.over = True
        asking = DEALING.match(line)
        if asking is not None:
            (self.dealing.discard if asking[2] else self.dealing.add)(asking[1])
        if found is not None:
            self.dealing.clear()
        if line.startswith("Auto-play on:") or line == "Auto-play off.":
            self.auto.append((at, line != "Auto-play off."))
        if line.endswith("no longer asks for auto-play."):
            self.withdrawn.append(at)

    def _note(self, key: Key, at: float) -> None:
        self.first_seen.setdefault(key, at)
        self.now = key


async def ssh_screen(port: int, user: str, command: str, key: asyncssh.SSHKey | None = None) -> SoakScreen:
    conn = await connect(port, user, encryption_algs=CLIENT_CIPHERS, client_keys=[key] if key else [])
    process = await conn.create_process(command, term_type="xterm-256color", term_size=SIZE, encoding=None)
    return SoakScreen(conn, process)


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

    def __init__(self, name: str, screens: list[SoakScreen], line: LineWatcher) -> None:
        self.name = name
        self.screens = screens
        self.labels = ["p1 ssh", "p2 web", "watch ssh", "watch web"]
        self.line = line
        self.keys: tuple[list[tuple[float, bytes]], list[tuple[float, bytes]]] = ([], [])
        """Each player's keys, with when they were typed."""
        self.stops: list[float | None] = []
        """Each auto-play stop's time from player 1's ``a`` to "Auto-play off." (None: it never came)."""

    @property
    def players(self) -> list[SoakScreen]:
        return self.screens[:2]

    def type(self, player: int, keys: bytes) -> None:
        self.keys[player].append((asyncio.get_running_loop().time(), keys))
        self.players[player].type(keys)

    def deal_again(self, player: int) -> None:
        """At game over: ``r``, unless the table says this player asks already or their last ``r`` was too soon (a
        result holds against a key soon after another, so one that came too soon is pressed again)."""
        name = f"{self.name}{'ab'[player]}"
        last = next((at for at, keys in reversed(self.keys[player]) if keys == b"r"), None)
        if name not in self.line.dealing and (last is None or asyncio.get_running_loop().time() - last >= DEAL_AGAIN):
            self.type(player, b"r")

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
    keys = 0
    loop = asyncio.get_running_loop()
    while loop.time() < stop_at:
        await asyncio.sleep(rng.uniform(*gaps))
        if table.line.over:
            table.deal_again(player)
        else:
            table.type(player, b" ")
        keys += 1
    return keys


async def auto_stops(table: Table, stops: int, seconds: float) -> None:
    """``stops`` times: both players press ``a``, auto-play runs ``seconds``, player 1's ``a`` stops it (timed, from
    the key to the line-mode spectator's "Auto-play off."), and player 2's withdraws their ask."""
    loop = asyncio.get_running_loop()
    line = table.line
    for _ in range(stops):
        for _ in range(int(AUTO_WAIT / DEAL_AGAIN)):
            if not line.over:
                break
            for player in (0, 1):
                table.deal_again(player)
            await asyncio.sleep(DEAL_AGAIN)
        said = len(line.auto)
        for player in (0, 1):
            table.type(player, b"a")
        if not await until(lambda: any(on for _, on in line.auto[said:]), AUTO_WAIT):
            table.stops.append(None)
            continue
        await asyncio.sleep(seconds)
        said, pressed = len(line.auto), loop.time()
        table.type(0, b"a")
        off = await until(lambda: any(not on for _, on in line.auto[said:]), AUTO_WAIT)
        table.stops.append(next(t for t, on in line.auto[said:] if not on) - pressed if off else None)
        withdrawn = len(line.withdrawn)
        table.type(1, b"a")
        await until(lambda: len(line.withdrawn) > withdrawn, AUTO_WAIT)


def shown_at(line: list[tuple[float, Key]], at: float) -> Key:
    index = bisect.bisect_right(line, (at, (1 << 62, 0)))
    return line[index - 1][1] if index else (0, -1)


def lags(table: Table, start: float, end: float, tick: float) -> tuple[list[tuple[int, float]], list[list[float]]]:
    """Each screen's worst lag behind its table over the run (battles, seconds), and its lag in seconds at each
    sample."""
    timelines = [sorted((t, key) for key, t in seen.items()) for seen in table.timelines()]
    merged = sorted(item for line in timelines for item in line)
    worst = [(0, 0.0) for _ in table.screens]
    samples: list[list[float]] = [[] for _ in table.screens]
    at = start
    while at <= end:
        shown = [shown_at(line, at) for line in timelines]
        lead = max(shown)
        for index, now in enumerate(shown[: len(table.screens)]):
            if now >= lead:
                samples[index].append(0.0)
                continue
            battles = lead[1] - now[1] if now[0] == lead[0] else lead[1] + 1
            since = next(t for t, key in merged if key > now)  # when the table was first seen past it
            seconds = max(0.0, at - since)
            samples[index].append(seconds)
            worst[index] = (max(worst[index][0], battles), max(worst[index][1], seconds))
        at += tick
    return worst, samples


def p99(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def flip_times(table: Table, end: float) -> tuple[list[float], int]:
    """Each flip key's time to act, and the keys that never did by ``end``: from the key to the first screen of its
    table showing that player flipped for the battle the table was at, or showing a later battle. Keys pressed once
    a screen had shown their player flipped for that battle are left out (they add nothing)."""
    merged = sorted((t, key) for seen in table.timelines() for key, t in seen.items())
    flipped: dict[tuple[Key, str], float] = {}
    for screen in table.screens:
        for mark, t in screen.flipped.items():
            flipped[mark] = min(t, flipped.get(mark, t))
    times: list[float] = []
    never = 0
    for player, name in enumerate((f"{table.name}a", f"{table.name}b")):
        for pressed, keys in table.keys[player]:
            if keys != b" ":
                continue
            now = shown_at(merged, pressed)
            seen = flipped.get((now, name))
            if seen is not None and seen <= pressed:
                continue
            later = next((t for t, key in merged if key > now and t > pressed), None)
            acted = min(t for t in (seen, later) if t is not None) if seen is not None or later is not None else None
            if acted is None or acted > end:
                never += 1
            else:
                times.append(acted - pressed)
    return times, never


def lead_of(table: Table) -> Key:
    """The furthest (game, battle) any of the table's screens (or its line-mode spectator) has shown: the table's."""
    return max(max(seen, default=(0, -1)) for seen in table.timelines())


def battles_played(table: Table, by: float) -> int:
    """The battles the table played by ``by``: each game's furthest battle seen by then, summed."""
    furthest: dict[int, int] = {}
    for seen in table.timelines():
        for (game, battle), at in seen.items():
            if at <= by:
                furthest[game] = max(furthest.get(game, 0), battle)
    return sum(furthest.values())


def busy_loops(count: int, seconds: float) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=seconds)]) for _ in range(count)]


async def soak(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    print(f"cores {os.cpu_count()}; {load()}; {args.tables} tables x (2 players + 2 spectators + a line "
          f"spectator) over SSH and the web door; {args.busy} busy loops; flips every "
          f"{args.gaps[0] * 1000:.0f}-{args.gaps[1] * 1000:.0f} ms for {args.seconds:g} s, then auto-play "
          f"stopped {args.auto_stops} times a table", flush=True)
    with tempfile.TemporaryDirectory(prefix="table-soak-") as scratch:
        server = SoakServer(Path(scratch), sessions=6 * args.tables + 8)
        busy: list[subprocess.Popen[bytes]] = []
        tables: list[Table] = []
        try:
            await server.wait_ready()
            for index in range(args.tables):
                tables.append(await open_table(server, index))
            loop = asyncio.get_running_loop()
            busy = busy_loops(args.busy, args.seconds + args.auto_stops * (args.auto_seconds + 5.0) + 10.0)
            start = loop.time()
            stop_at = start + args.seconds
            await asyncio.gather(*(play(t, p, args.gaps, stop_at, rng) for t in tables for p in (0, 1)))
            flipped = loop.time()
            await asyncio.gather(*(auto_stops(t, args.auto_stops, args.auto_seconds) for t in tables))
            end = loop.time()
            caught = await until(lambda: all(s.now == lead_of(t) for t in tables for s in t.screens), args.settle)
            settled = loop.time() - end
            last = [lead_of(t) for t in tables]
            report(args, tables, (start, flipped, end), last, caught, settled)
            for table in tables:
                await table.leave()
        finally:
            for loop_process in busy:
                loop_process.terminate()
                loop_process.wait()
            if args.keep_log is not None:
                args.keep_log.write_text(server.text())
            server.stop()
    return 0 if caught else 1


def report(args, tables: list[Table], times: tuple[float, float, float], last: list[Key], caught: bool,
           settled: float) -> None:
    """One line a table, then the goals beside the figures."""
    start, flipped, end = times
    played = [battles_played(t, flipped) for t in tables]
    median = statistics.median(played) if played else 0
    worst_s, player_p99, keys, never, stops = 0.0, 0.0, [], 0, []
    for table, count, lead in zip(tables, played, last, strict=True):
        worst, samples = lags(table, start, end, args.tick)
        shown = ", ".join(
            f"{label} {battles} battles / {seconds:.1f} s" for label, (battles, seconds) in zip(table.labels, worst)
        )
        worst_s = max([worst_s, *(seconds for _, seconds in worst)])
        players = [p99(samples[index]) for index in (0, 1)]
        player_p99 = max([player_p99, *players])
        times_, missed = flip_times(table, end)
        keys += times_
        never += missed
        stops += table.stops
        ratio = count / median if median else float("nan")
        taken = ", ".join("never" if s is None else f"{s:.2f}" for s in table.stops)
        print(f"table {table.name}: {count} battles flipped ({ratio:.2f}x the median), last game {lead[0]} battle "
              f"{lead[1]}; players' lag p99 {players[0]:.1f} s / {players[1]:.1f} s; flips acted p50 "
              f"{statistics.median(times_) if times_ else float('nan'):.2f} s, p99 {p99(times_):.2f} s "
              f"({len(times_)} keys, {missed} never); auto-play stops: {taken} s; worst lag: {shown}", flush=True)
    behind = [f"{t.name} {label} at game {s.now[0]} battle {s.now[1]} (table: {lead[0]}, {lead[1]})"
              for t, lead in zip(tables, last) for label, s in zip(t.labels, t.screens) if s.now != lead]
    print(f"every screen on its table's last battle: {'yes' if caught else 'no'}, {settled:.1f} s after the "
          f"last stop" + ("" if caught else f"; never caught up: {'; '.join(behind)}"), flush=True)
    for table, lead in zip(tables, last):
        for label, screen in zip(table.labels, table.screens):
            if screen.now != lead:  # what it shows instead, for whoever looks into why
                print(f"  {table.name} {label}'s top rows:", *screen._glass.text(BOARD_TOP).splitlines(), sep="\n  | ")
        if any(screen.now != lead for screen in table.screens):
            print(f"  {table.name}'s line-mode spectator last said:", *list(table.line.said)[-12:], sep="\n  | ")
    least = min(played) / median if median else float("nan")
    stopped = [s for s in stops if s is not None]
    slowest = f"{max(stopped):.2f} s" if stopped else "none"
    print(f"goals: players' screens' lag p99 {player_p99:.1f} s at worst (<= 2 s); flips acted p99 {p99(keys):.2f} s "
          f"(<= 1 s; {never} of {len(keys) + never} never); least table {least:.2f}x the median (>= 0.8); "
          f"auto-play stopped in {slowest} at worst ({len(stops) - len(stopped)} of {len(stops)} never; <= 1 s); "
          f"worst lag of any screen {worst_s:.1f} s; {load()}", flush=True)


def main() -> int:
    return asyncio.run(soak(parse_args()))


if __name__ == "__main__":
    sys.exit(main())
