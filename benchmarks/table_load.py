"""Load on ``war-tui serve-ssh``'s shared tables: real SSH clients on ptys, the real game, loopback only.

    python benchmarks/table_load.py [--spectators 20] [--battles 200] [--cpu-seconds 20]
                                    [--tables 8] [--table-spectators 4] [--seconds 60]
                                    [--skip floor,latency,cpu,tables]
    python benchmarks/table_load.py --crowd 300 [--crowd-alone 30] [--crowd-battles 120]

1. latency: one table, 2 players and ``--spectators`` spectators, each an asyncssh client on a 100x30
   pty, first with a stand-in game that prints each battle as one line (the floor: the server, SSH and
   the clients without the game's drawing), then with the real game. ``--battles`` times: player 1
   flips, then player 2; the time from player 2's key to the battle's number in the middle pile's
   frame on every screen (the slowest screen) gives p50 and p99. The pile names its battle at once;
   the status line waits for a war's deciding cards. Goal: p99 < 150 ms.
2. cpu: the same table on auto-play at 4 battles/s for ``--cpu-seconds``: the server process's CPU,
   beside the same connections idle for as long in the same run. Goal: < 5% of one core for the table.
3. tables: ``--tables`` tables of 2 players and ``--table-spectators`` spectators each, auto-play at
   4/s for ``--seconds``: each screen's battle number, sampled every second, against the furthest
   screen of its table (goal: within 1, every sample), and the cores used by the server, the games
   and the clients; then every client leaves and no game process may be left.

``--crowd N`` runs instead: one table of 2 players and N spectators at 4 battles/s (player 1 flips,
player 2 flips 0.1 s later, every 0.25 s, ``--crowd-battles`` times) beside another table of 2 players
flipping at the same pace, on a server whose spectators share one rendering (the default), then on a
``--no-fanout`` server (every spectator a game of its own) with ``--crowd-alone`` spectators, then the
shared server again with that many, in the same run: player 2's flip to the battle on every screen
(p50, p99), screens more than one battle behind the table's furthest screen (sampled every flip), the
other table's flip p50 against its value with nobody at the crowd's table, the processes and the
total PSS of the server's process tree, and the load average. The crowd's spectators keep what arrives
with its time and read it once the flips are over: a battle is on a spectator's screen when the bytes
that draw it reached its SSH client. Read as they arrive (``--read-live``), the clients' terminal work
would share the two cores with the server it measures; a spectator's terminal runs on its own machine.

The server runs as its own process (``--public`` on an ephemeral loopback port, statistics in a
scratch folder); the clients run in this process and share the machine's cores with it and with
the games, so the figures are pessimistic. Every loop is bounded by a count or a time.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import codecs
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from ssh_clients import ServeSsh, connect

SIZE = (100, 30)
TOKEN = re.compile(
    r"\x1b\[([0-9;?>$=]*)([A-Za-z@`])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^\[\]]|[\r\n\b]|[^\x1b\r\n\b]+"
)
CONTROL = re.compile(r"\x1b\[(\d*);(\d*)H|\x1b\[(?:(\d*;\d*))?(r)|\x1bD")
"""What moves rows or the cursor: a cursor placed, a scrolling region set, a row moved up."""
UNFINISHED = re.compile(r"\x1b(?:\[[0-9;?>$=]*|\][^\x07\x1b]*)?\Z")
BOARD_TOP = 8
"""Rows kept: the status line, the seats line, any requests lines and the pile's frame are in the first
four; the rest is room for the rows a scroll of the board brings up from below (each scroll blanks one)."""
GAME = re.compile(r"^ (?:Game [\d,]+ \()?seed (\d+)", re.MULTILINE)
"""The status line's seed: a narrow line gives up the game number first, so games are told apart by seed."""
PILE = re.compile(r"[─━] Battle ([\d,]+) [─━]|[─━] Middle pile [─━]")  # a war's frame is heavy
STAND_IN = Path(__file__).resolve().parent.parent / "tests" / "functional" / "ssh_support" / "fake_table.py"
STAND_IN_LINE = re.compile(rb"SNAPSHOT \S+ \S+ game=(\d+) battles=(\d+)|BATTLE (\d+) |DEAL (\d+)")
CLIENT_CIPHERS = ["aes128-gcm@openssh.com"]
BATTLE_WAIT = 5.0
START_WAIT = 60.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--cpu-seconds", type=float, default=20.0)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--table-spectators", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--skip", default="", help="phases to leave out: floor, latency, cpu, tables")
    parser.add_argument("--crowd", type=int, default=0, help="spectators at one table, shared rendering (0: off)")
    parser.add_argument("--crowd-alone", type=int, default=30, help="spectators with a game each (--no-fanout)")
    parser.add_argument("--crowd-battles", type=int, default=120)
    parser.add_argument(
        "--read-live", action="store_true",
        help="the crowd's spectators read their screens as bytes arrive, on the server's cores (default: later)",
    )
    parser.add_argument("--crowd-worker", help=argparse.SUPPRESS)  # PORT,TABLE,COUNT,FIRST,LIVE: one reading process
    return parser.parse_args()


class Server(ServeSsh):
    """serve-ssh with room for ``sessions`` from one address and at one table, the attempt rate out of the way."""

    def __init__(
        self, workdir: Path, sessions: int, session_command: str | None = None, extra: list[str] | None = None,
    ) -> None:
        flags = [
            "--max-sessions", str(sessions), "--max-sessions-per-address", str(sessions),
            "--max-attempts-per-minute", "100000", "--max-spectators", str(min(sessions, 1000)),
            "--max-server-mb", "4000", "--max-unauthenticated", "1000", *(extra or []),
        ]
        if session_command is not None:
            flags += ["--session-command", session_command]
        super().__init__(workdir, flags)


class Glass:
    """A terminal's rows as they stand, from the bytes drawn to it: enough of a terminal to read the board.

    The game redraws only what changed, placing the cursor first (``ESC [ row ; col H``), so a battle's
    number may arrive alone; this keeps every row as it is on the glass. Rows moving up are a scroll
    (a scrolling region, ``ESC [ top ; bottom r``, and ``ESC D`` or a newline at its bottom margin).
    """

    def __init__(self, width: int, height: int, top: int | None = None) -> None:
        self.top = top
        """Only rows 1 to ``top`` are kept up to date (None: every row); a row scrolled up from below them is blank."""
        self.rows = [[" "] * width for _ in range(height)]
        self.row = self.col = 1
        self.margins = (1, height)
        self._decode = codecs.getincrementaldecoder("utf-8")("replace")
        self._held = ""

    def feed(self, data: bytes) -> None:
        text = self._held + self._decode.decode(data)
        cut = UNFINISHED.search(text)  # an escape sequence split across two reads waits for its end
        text, self._held = (text[: cut.start()], text[cut.start():]) if cut else (text, "")
        if self.top is None:
            self._draw(text)
            return
        # Only the top rows are read: what is drawn below them is skipped between cursor moves and
        # scrolls, unparsed (300 clients in one process parse 300 screens).
        start = 0
        for control in CONTROL.finditer(text):
            if self.row <= self.top:
                self._draw(text[start:control.start()])
            self._control(control)
            start = control.end()
        if self.row <= self.top:
            self._draw(text[start:])

    def _control(self, found: re.Match[str]) -> None:
        if found.group(0) == "\x1bD":
            self._index()
        elif found.group(4) == "r":
            numbers = [int(n) for n in (found.group(3) or "").split(";") if n.isdigit()]
            height = len(self.rows)
            self.margins = (numbers[0], numbers[1]) if len(numbers) == 2 else (1, height)
            self.row = self.col = 1
        else:
            self.row = int(found.group(1) or 1)
            self.col = int(found.group(2) or 1)

    def _index(self) -> None:
        """``ESC D`` or a newline: down a row, or at the region's bottom margin the region moves up a row."""
        first, last = self.margins
        if self.row != last:
            self.row += 1
            return
        width = len(self.rows[0])
        del self.rows[first - 1]
        self.rows.insert(last - 1, [" "] * width)

    def _draw(self, text: str) -> None:
        width, height = len(self.rows[0]), len(self.rows)
        for found in TOKEN.finditer(text):
            text = found.group(0)
            if found.group(2) is not None:
                if found.group(2) in "Hf":
                    numbers = [int(n) if n.isdigit() else 1 for n in (found.group(1) or "").split(";")]
                    self.row = numbers[0] if numbers else 1
                    self.col = numbers[1] if len(numbers) > 1 else 1
                elif found.group(2) == "r":
                    numbers = [int(n) for n in (found.group(1) or "").split(";") if n.isdigit()]
                    self.margins = (numbers[0], numbers[1]) if len(numbers) == 2 else (1, height)
                    self.row = self.col = 1
            elif text == "\r":
                self.col = 1
            elif text in ("\n", "\x1bD"):
                self._index()
            elif text[0] != "\x1b" and text != "\b":
                if 1 <= self.row <= height:
                    cells = self.rows[self.row - 1]
                    for char in text:
                        if 1 <= self.col <= width:
                            cells[self.col - 1] = char
                        self.col += 1
                else:
                    self.col += len(text)

    def text(self, rows: int) -> str:
        return "\n".join("".join(row) for row in self.rows[:rows])


class Screen:
    """One client at a table: reads its game's output and notes when each battle number first shows."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess) -> None:
        self.conn = conn
        self.process = process
        self.first_seen: dict[tuple[int, int], float] = {}
        self.now: tuple[int, int] = (0, -1)
        self.game = 0
        self._games: dict[int, int] = {}
        self._glass = Glass(*SIZE, top=BOARD_TOP)
        self.held: list[tuple[float, bytes]] | None = None
        """While a list, what arrives is kept with its time and read later (``replay``), not read as it comes."""
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncssh.Error, OSError):
            while chunk := await self.process.stdout.read(65536):
                if self.held is not None:
                    self.held.append((loop.time(), chunk))
                else:
                    self._take(chunk, loop.time())

    def replay(self) -> None:
        """Read what was held, each read at the time it arrived: when each battle reached this client."""
        held, self.held = self.held or [], None
        for at, chunk in held:
            self._take(chunk, at)

    def _take(self, chunk: bytes, at: float) -> None:
        if b"SNAPSHOT" in chunk or b"BATTLE" in chunk or b"DEAL" in chunk:  # the stand-in game's lines
            for line in STAND_IN_LINE.finditer(chunk):
                if line.group(1):
                    self.game = int(line.group(1))
                    self._note((self.game, int(line.group(2))), at)
                elif line.group(3) and self.game:
                    self._note((self.game, int(line.group(3))), at)
                elif line.group(4):
                    self.game = int(line.group(4))
                    self._note((self.game, 0), at)
            return
        self._glass.feed(chunk)
        glass = self._glass.text(BOARD_TOP)
        game, pile = GAME.search(glass), PILE.search(glass)
        if game is not None and pile is not None:
            # The n-th seed this screen saw is its n-th game: every screen is at the table before the deal.
            number = self._games.setdefault(int(game.group(1)), len(self._games) + 1)
            self.game = number
            self._note((number, int((pile.group(1) or "0").replace(",", ""))), at)

    def _note(self, key: tuple[int, int], at: float) -> None:
        self.first_seen.setdefault(key, at)
        self.now = key

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)


async def sit(port: int, user: str, command: str) -> Screen:
    # AES-GCM, one call a packet where ChaCha20-Poly1305 takes several: 300 clients share the server's cores.
    conn = await connect(port, user, encryption_algs=CLIENT_CIPHERS)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=SIZE, encoding=None)
    return Screen(conn, process)


async def until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def open_table(port: int, name: str, spectators: int) -> list[Screen]:
    players = [await sit(port, f"{name}-p1", f"table {name}")]
    players.append(await sit(port, f"{name}-p2", f"table {name}"))
    watchers = await asyncio.gather(*(sit(port, f"{name}-w{i}", f"watch {name}") for i in range(spectators)))
    screens = [*players, *watchers]
    if not await until(lambda: all(s.game for s in screens), START_WAIT):
        raise SystemExit(f"table {name}: {sum(1 for s in screens if not s.game)} screens never showed the board")
    return screens


async def leave(screens: list[Screen]) -> None:
    for screen in screens:
        screen.conn.close()
    for screen in screens:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(screen.conn.wait_closed(), 10)
        screen.reader.cancel()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def latency(port: int, spectators: int, battles: int) -> tuple[list[Screen], dict]:
    screens = await open_table(port, "bench", spectators)
    p1, p2 = screens[0], screens[1]
    samples: list[float] = []
    missed = 0
    for _ in range(battles):
        game, battle = p1.now
        p1.type(b"f")
        await asyncio.sleep(0.15)  # player 1's flip reaches the table first
        key = (game, battle + 1)
        pressed = asyncio.get_running_loop().time()
        p2.type(b"f")
        if await until(lambda: all(key in s.first_seen for s in screens), BATTLE_WAIT):
            samples.append(max(s.first_seen[key] for s in screens) - pressed)
            continue
        missed += 1  # the game ended (or the battle was lost from view): deal again
        p1.type(b"r")
        p2.type(b"r")
        await until(lambda: all(s.game > game for s in screens), BATTLE_WAIT)
    result: dict[str, float] = {"battles": len(samples), "missed": missed}
    if samples:
        result |= {"p50_ms": 1000 * statistics.median(samples), "p99_ms": 1000 * percentile(samples, 0.99),
                   "max_ms": 1000 * max(samples)}
    return screens, result


async def cpu(server: Server, screens: list[Screen], seconds: float) -> dict:
    before = server.cpu_seconds()
    await asyncio.sleep(seconds)
    idle = (server.cpu_seconds() - before) / seconds
    start = [s.now for s in screens]
    for player in screens[:2]:
        player.type(b"a")
    await asyncio.sleep(1.0)
    before = server.cpu_seconds()
    await asyncio.sleep(seconds)
    busy = (server.cpu_seconds() - before) / seconds
    for player in screens[:2]:
        player.type(b"a")
    played = [s.now[1] - b[1] if s.now[0] == b[0] else None for s, b in zip(screens, start, strict=True)]
    return {"idle_core_share": idle, "auto_core_share": busy, "table_core_share": busy - idle,
            "battles_played_on_p1": played[0]}


async def tables(server: Server, port: int, count: int, spectators: int, seconds: float) -> dict:
    all_tables = [await open_table(port, f"t{i}", spectators) for i in range(count)]
    for screens in all_tables:
        for player in screens[:2]:
            player.type(b"a")
    samples = behind = 0
    worst = 0
    restarts = 0
    last_move = [time.monotonic()] * count
    last_lead = [(0, 0)] * count
    started = time.monotonic()
    cpu_before = (server.cpu_seconds(), server.games_cpu_seconds(), time.process_time())
    while time.monotonic() - started < seconds:
        await asyncio.sleep(1.0)
        for index, screens in enumerate(all_tables):
            lead = max(s.now for s in screens)
            if lead != last_lead[index]:
                last_lead[index], last_move[index] = lead, time.monotonic()
            elif time.monotonic() - last_move[index] > 3.0:
                # Game over: both deal again, and auto-play carries on (both still want it). A new game
                # standing still at its deal (auto-play off somehow) gets auto-play asked for again.
                restarts += 1
                for player in screens[:2]:
                    player.type(b"a" if lead[1] == 0 else b"r")
                last_move[index] = time.monotonic()
                continue
            for screen in screens:
                samples += 1
                lag = lead[1] - screen.now[1] if screen.now[0] == lead[0] else lead[1] + 1
                worst = max(worst, lag)
                if lag > 1:
                    behind += 1
    elapsed = time.monotonic() - started
    games_cpu = server.games_cpu_seconds()
    shares = {
        "server": (server.cpu_seconds() - cpu_before[0]) / elapsed,
        "games": sum(cpu - cpu_before[1].get(pid, 0.0) for pid, cpu in games_cpu.items()) / elapsed,
        "clients": (time.process_time() - cpu_before[2]) / elapsed,
    }
    games_before = len(server.games())
    for screens in all_tables:
        await leave(screens)
    await until(lambda: not server.games(), 15.0)
    return {"screens": sum(len(t) for t in all_tables), "samples": samples, "samples_behind_by_more_than_1": behind,
            "worst_lag": worst, "restarts": restarts, "games_running": games_before,
            "games_left_after": len(server.games()),
            "core_shares": {name: round(share, 2) for name, share in shares.items()}}


def pss_mib(pid: int) -> float:
    with contextlib.suppress(OSError):
        found = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.MULTILINE)
        return int(found.group(1)) / 1024 if found else 0.0
    return 0.0


def tree_pss_mib(server: Server) -> tuple[float, int]:
    """The total PSS of the server, its game parent and every game (renderers too), and how many processes."""
    pids = [server.process.pid, *(p for p in [server.game_parent()] if p is not None), *server.games()]
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            found = re.search(r"^Pss:\s+(\d+) kB", rollup, re.MULTILINE)
            total += int(found.group(1)) if found else 0
    return total / 1024, len(pids)


async def open_crowd(port: int, name: str, spectators: int) -> list[Screen]:
    """2 players and ``spectators`` spectators, opened 24 at a time (under the unauthenticated cap)."""
    screens = [await sit(port, f"{name}-p1", f"table {name}"), await sit(port, f"{name}-p2", f"table {name}")]
    for start in range(0, spectators, 24):
        batch = range(start, min(spectators, start + 24))
        screens += await asyncio.gather(*(sit(port, f"{name}-w{i}", f"watch {name}") for i in batch))
    if not await until(lambda: all(s.game for s in screens), START_WAIT + spectators * 0.2):
        raise SystemExit(f"table {name}: {sum(1 for s in screens if not s.game)} screens never showed the board")
    return screens


async def flips(
    tables_: list[list[Screen]], battles: int, crowd: list[Screen] | None, seen_elsewhere: list | None = None,
    at_end=None,
) -> tuple[list[dict], int]:
    """``battles`` flips at 4/s at every table at once; per table the flip → every screen samples; lag samples."""
    loop = asyncio.get_running_loop()
    pending: list[list[tuple[tuple[int, int], float]]] = [[] for _ in tables_]
    behind = 0
    # Each pair of flips plays the table's next battle: counted from the battle on show at the start (the
    # screens may lag behind the table, so the battle on show is no guide once the flips begin).
    bases = [max(s.now for s in screens) for screens in tables_]
    played = [0] * len(tables_)
    ticks: list[float] = []
    for _ in range(battles):
        tick = loop.time()
        ticks.append(tick)
        if crowd is not None:
            lead = max(s.now for s in crowd)
            behind += sum(1 for s in crowd if (lead[1] - s.now[1] if s.now[0] == lead[0] else lead[1] + 1) > 1)
        keys = []
        for index, screens in enumerate(tables_):
            played[index] += 1
            keys.append((bases[index][0], bases[index][1] + played[index]))
            screens[0].type(b"f")
        await asyncio.sleep(0.1)
        pressed = loop.time()
        for index, screens in enumerate(tables_):
            screens[1].type(b"f")
            pending[index].append((keys[index], pressed))
        await asyncio.sleep(max(0.0, tick + 0.25 - loop.time()))
        for index, screens in enumerate(tables_):
            lead = max(s.now for s in screens)
            if lead[0] > bases[index][0]:  # a new game was dealt: count its battles from its deal
                bases[index], played[index] = (lead[0], 0), 0
            elif loop.time() - max(max(s.first_seen.values()) for s in screens) > 1.5:
                for player in screens[:2]:
                    player.type(b"r")  # nothing moved for a while: the game is over, deal again
    if at_end is not None:
        at_end()  # while every spectator is still there
    await asyncio.sleep(2.0)
    results = []
    for index, screens in enumerate(tables_):
        seen = [s.first_seen for s in screens]
        if index == 0 and seen_elsewhere is not None:
            seen += await seen_elsewhere[0](ticks)  # the first table's spectators, read by other processes
        samples = [max(s[key] for s in seen) - pressed
                   for key, pressed in pending[index] if all(key in s for s in seen)
                   and min(s[key] for s in seen) >= pressed]
        result: dict = {"battles": len(samples), "missed": len(pending[index]) - len(samples)}
        if samples:
            result |= {"p50_ms": round(1000 * statistics.median(samples)),
                       "p99_ms": round(1000 * percentile(samples, 0.99))}
        results.append(result)
    return results, behind


async def crowd_run(label: str, spectators: int, battles: int, extra: list[str], live: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="table-crowd-") as scratch:
        server = Server(Path(scratch), sessions=spectators + 16, extra=extra)
        try:
            await server.wait_listening()
            other = await open_crowd(server.port, "other", 0)
            [alone], _ = await flips([other], min(battles, 60), None)
            server_before = pss_mib(server.process.pid)
            crowd = await open_crowd(server.port, "crowd", 0)
            workers = Workers(server.port, "crowd", spectators, max(1, -(-spectators // 75)), live)
            await workers.ready()
            server_after = pss_mib(server.process.pid)
            await asyncio.sleep(2.0)
            started = time.monotonic()
            cpu_before = (server.cpu_seconds(), sum(server.games_cpu_seconds().values()), time.process_time())
            end: dict = {}

            def at_end() -> None:
                end["elapsed"] = time.monotonic() - started
                end["pss"] = tree_pss_mib(server)
                end["cpu"] = (server.cpu_seconds() - cpu_before[0],
                              sum(server.games_cpu_seconds().values()) - cpu_before[1])

            logins: list[float] = []

            async def login_probe() -> None:
                """How long the server takes to let a client in meanwhile: how busy its event loop is."""
                while True:
                    began = time.monotonic()
                    conn = await connect(server.port, "probe")
                    logins.append(time.monotonic() - began)
                    conn.close()
                    await asyncio.sleep(2.0)

            prober = asyncio.create_task(login_probe())
            try:
                (at_crowd, beside), _ = await flips([crowd, other], battles, None, [workers.collect], at_end)
            finally:
                prober.cancel()
            behind = workers.behind
            elapsed, (pss, processes), cpu = end["elapsed"], end["pss"], end["cpu"]
            ratio = beside.get("p50_ms", 0) / alone["p50_ms"] if alone.get("p50_ms") else float("nan")
            print(
                f"{label}, 2 players + {spectators} spectators at 4/s: flip -> every screen {at_crowd}; "
                f"screens behind by more than 1: {behind} of {battles * spectators} samples; other table alone "
                f"{alone}, beside {beside} (ratio {ratio:.2f}); a login meanwhile: median "
                f"{1000 * statistics.median(logins) if logins else float('nan'):.0f} ms; {processes} processes, PSS {pss:.0f} MiB (the server "
                f"{server_before:.0f} -> {server_after:.0f} MiB with the spectators in); "
                f"cores: server {cpu[0] / elapsed:.2f}, games {cpu[1] / elapsed:.2f}, clients "
                f"{(workers.cpu + time.process_time() - cpu_before[2]) / elapsed:.2f}; {load()}", flush=True,
            )
            await leave(crowd)
            await leave(other)
        finally:
            server.stop()


def lag_samples(seen: list[dict[tuple[int, int], float]], ticks: list[float]) -> int:
    """How many (screen, tick) samples show a battle more than 1 behind the furthest screen at that tick."""
    timelines = [sorted((t, key) for key, t in screen.items()) for screen in seen]
    behind = 0
    for tick in ticks:
        shown = []
        for line in timelines:
            at = bisect.bisect_right(line, (tick, (1 << 62, 0)))
            shown.append(line[at - 1][1] if at else (0, -1))
        lead = max(shown)
        behind += sum(1 for now in shown if (lead[1] - now[1] if now[0] == lead[0] else lead[1] + 1) > 1)
    return behind


class Workers:
    """Spectators read by ``count`` worker processes (one process cannot read 300 screens on time)."""

    def __init__(self, port: int, table: str, spectators: int, count: int, live: bool) -> None:
        share = -(-spectators // count)
        self.processes = [
            subprocess.Popen(
                [sys.executable, __file__, "--crowd-worker",
                 f"{port},{table},{min(share, spectators - first)},{first},{int(live)}"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            for first in range(0, spectators, share)
        ]
        self.behind = 0
        self.cpu = 0.0

    async def ready(self) -> None:
        for process in self.processes:
            assert process.stdout is not None  # piped
            line = await asyncio.to_thread(process.stdout.readline)
            if line.strip() != "ready":
                raise SystemExit(f"a worker did not start: {line!r}")

    async def collect(self, ticks: list[float]) -> list[dict[tuple[int, int], float]]:
        seen: list[dict[tuple[int, int], float]] = []
        for process in self.processes:
            out, _ = await asyncio.to_thread(process.communicate, "stop\n", 120)
            report = json.loads(out.splitlines()[-1])
            self.cpu += report["cpu"]
            seen += [{(g, b): t for g, b, t in screen} for screen in report["screens"]]
        self.behind = lag_samples(seen, ticks)
        return seen


async def crowd_worker(spec: str) -> None:
    port, table, count, first, live = spec.split(",")
    screens: list[Screen] = []
    for start in range(0, int(count), 24):
        batch = range(int(first) + start, int(first) + min(int(count), start + 24))
        screens += await asyncio.gather(*(sit(int(port), f"{table}-w{i}", f"watch {table}") for i in batch))
    if not await until(lambda: all(s.game for s in screens), START_WAIT + int(count) * 0.2):
        print("some screens never showed the board", flush=True)
        return
    if live == "0":
        for screen in screens:
            screen.held = []
    print("ready", flush=True)
    cpu = time.process_time()
    await asyncio.to_thread(sys.stdin.readline)
    cpu = time.process_time() - cpu  # the flips: what the screens are read with, after them, is not counted
    for screen in screens:
        screen.replay()
    report = {"cpu": cpu,
              "screens": [[[g, b, t] for (g, b), t in s.first_seen.items()] for s in screens]}
    print(json.dumps(report), flush=True)
    for screen in screens:
        screen.conn.close()


def load() -> str:
    return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def crowds(args: argparse.Namespace) -> None:
    print(f"cores {os.cpu_count()}; {load()}; goals: p99 <= 100 ms, nobody behind by more than 1, "
          "the other table's p50 <= 1.5x alone", flush=True)
    live = args.read_live
    await crowd_run("shared rendering", args.crowd, args.crowd_battles, [], live)
    await crowd_run("a game per spectator (--no-fanout)", args.crowd_alone, args.crowd_battles, ["--no-fanout"], live)
    await crowd_run("shared rendering", args.crowd_alone, args.crowd_battles, [], live)


async def main() -> None:
    args = parse_args()
    if args.crowd_worker:
        await crowd_worker(args.crowd_worker)
        return
    if args.crowd:
        await crowds(args)
        return
    skip = set(filter(None, args.skip.split(",")))
    if "latency" not in skip and "floor" not in skip:
        with tempfile.TemporaryDirectory(prefix="table-load-floor-") as scratch:
            floor = Server(Path(scratch), sessions=args.spectators + 6, session_command=f"{sys.executable} {STAND_IN}")
            try:
                await floor.wait_listening()
                screens, result = await latency(floor.port, args.spectators, args.battles)
                print(f"floor: latency with a stand-in game that prints each battle as one line: {result}", flush=True)
                await leave(screens)
            finally:
                floor.stop()
    with tempfile.TemporaryDirectory(prefix="table-load-") as scratch:
        server = Server(Path(scratch), sessions=max(args.spectators + 2, args.tables * (args.table_spectators + 2)) + 4)
        try:
            await server.wait_listening()
            print(f"server pid {server.process.pid} on port {server.port}; cores {os.cpu_count()}; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
            screens = []
            if "latency" not in skip:
                screens, result = await latency(server.port, args.spectators, args.battles)
                print(f"latency, 2 players + {args.spectators} spectators: {result}  (goal p99 < 150 ms)", flush=True)
            if "cpu" not in skip:
                if not screens:
                    screens = await open_table(server.port, "bench", args.spectators)
                result = await cpu(server, screens, args.cpu_seconds)
                print(f"server cpu, same table, auto-play 4/s for {args.cpu_seconds:g} s: {result}  "
                      f"(goal table < 0.05 of a core)", flush=True)
            if screens:
                await leave(screens)
                await until(lambda: not server.games(), 15.0)
            if "tables" not in skip:
                result = await tables(server, server.port, args.tables, args.table_spectators, args.seconds)
                print(f"{args.tables} tables x (2 + {args.table_spectators}), auto-play 4/s for {args.seconds:g} s: "
                      f"{result}  (goal: no sample behind by more than 1; no game left)", flush=True)
            print(f"load at the end {os.getloadavg()[0]:.1f}")
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
