"""Load on ``war-tui serve-ssh``: many players on auto-play at once, and a newcomer still let in promptly.

    python benchmarks/ssh_load.py [--sessions 20] [--seconds 60] [--probes 5]
                                  [--session-command CMD] [-- GAME_FLAGS]   (default: --screensaver)
    python benchmarks/ssh_load.py --abuse a|b|c|d|e|env|idle|resize|all [--seconds 60] [--clients N]

``--abuse`` runs the load and abuse scenarios against ``serve-ssh --public`` with its default limits,
each against its goal (loopback only; every loop is bounded by time or count):
(a) 8 clients flood input for ``--seconds`` (plain, then zlib), reconnecting whenever a game is
    ended: the server's RSS against 200 MB, and after they left against its idle size + 20%;
(b) 5 clients ask for 65535x65535: each game's RSS against the game memory limit, the server's
    against 200 MB;
(c) one address opens 40 sessions: how many it gets (goal 4), and whether a second address gets in;
(d) 1,100 idle TCP connections from distinct addresses: a real client's first board (goal 2 s) and
    the log lines written meanwhile (goal under 100);
(e) 20 sessions on auto-play at the default speed plus 4 at max: a newcomer's first board (goal 1.5 s).
Issue 19's scenarios (``all`` runs them too):
(env) one client sends 1 GiB of ``env`` requests (255 KiB each), one connection at a time, reconnecting
    whenever the server lets it go (the attempt limit lifted for it): the server's RSS against 100 MB,
    and 5 s after it left against its idle size + 10%;
(idle) 32 sessions (8 addresses x 4) that send nothing, with ``--idle-minutes 1``: every slot free
    within 70 s of the last one starting, then an honest client gets in;
(resize) 16 sessions alternate 500x200 and 499x199 as fast as they can send: an honest newcomer's
    first board against 1.5 s, beside the same on the idle server.
``--clients`` scales (env): MiB sent (1024), (idle): sessions (32), (resize): storming sessions (16),
for a quick check; the figures in docs/performance.md come from the full counts.
Clients come from distinct 127.x addresses where one address would hit the per-address cap.

``--preload`` compares games forked from the preloaded game parent (the default) with ``--no-preload``,
two servers in the same run: a newcomer's first whole board on the idle servers (``--probes`` each,
interleaved), the CPU a game used up to it, and with ``--sessions`` games on auto-play at 4/s on each
server in turn (after ``--seconds``), each game's PSS and USS from ``/proc/PID/smaps_rollup``. The load
average is printed beside each figure: the machine may be shared.

``--solo-crowd IDLE,AUTO`` (e.g. ``200,30``) starts IDLE solo games that stay idle and AUTO on auto-play
at 4/s, 16 at a time, on a forked (default) server and then on a ``--no-preload`` one: then
``--probes`` newcomers' first whole board each, and the total PSS of the server's process tree.

The rest of this note is about the default (load) run.

Starts the server as its own process (``--public`` on an ephemeral loopback port), then:
1. idle: ``--probes`` newcomers, one at a time, each timed to "authenticated" and to the game's first
   screen output, then gone;
2. loaded: ``--sessions`` asyncssh clients each open a 100x30 game on auto-play and keep reading it for
   ``--seconds``; meanwhile the same newcomer probe runs ``--probes`` times, spread over the window, and
   the game processes' memory (RSS and PSS) and the server's CPU are sampled;
3. every loaded session must still be open and still receiving frames at the end, and every game process
   must be gone within seconds of the clients leaving.

The games record their statistics in a scratch folder. The idle and loaded probes are measured in the same run, side by side; medians are reported. The clients
run in this process, on the same machine, so they compete for the same cores as the server.
``--session-command`` replaces the game (as serve-ssh's hidden flag of that name does), for checkouts
where the full-screen game is not built yet.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh
from ssh_clients import ServeSsh, connect, cpu_of

STILL_DRAWING = 10.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--abuse", choices=["a", "b", "c", "d", "e", "env", "idle", "resize", "all"])
    parser.add_argument("--storm", type=int, metavar="PORT", help=argparse.SUPPRESS)  # (resize)'s clients
    parser.add_argument("--clients", type=int, help="(a): flooding clients (8); (d): idle connections (1100)")
    parser.add_argument("--preload", action="store_true", help="forked games against --no-preload, side by side")
    parser.add_argument("--solo-crowd", metavar="IDLE,AUTO", help="idle and auto-play solo games, then newcomers")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--probes", type=int, default=5)
    parser.add_argument("--session-command", help="run this instead of the game (e.g. another checkout's)")
    parser.add_argument("game_flags", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    flags = args.game_flags[1:] if args.game_flags[:1] == ["--"] else args.game_flags
    args.game_flags = flags or ["--screensaver"]
    return args


class Server(ServeSsh):
    """serve-ssh for the load run: room for every session and probe, the attempt rate out of the way."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        flags = ["--max-sessions", str(args.sessions + args.probes + 4), "--max-attempts-per-minute", "100000"]
        if args.session_command:
            flags += ["--session-command", args.session_command]
        super().__init__(workdir, [*flags, "--", *args.game_flags])


def memory_kib(pid: int) -> tuple[int, int] | None:
    """(RSS, PSS) of one process in KiB; PSS shares pages fairly between the processes using them."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    rss, pss = re.search(r"^Rss:\s+(\d+)", rollup, re.M), re.search(r"^Pss:\s+(\d+)", rollup, re.M)
    return None if rss is None or pss is None else (int(rss.group(1)), int(pss.group(1)))


async def probe(port: int) -> tuple[float, float]:
    """Seconds to authenticated, and to the game's first output, for one newcomer."""
    start = time.perf_counter()
    conn = await asyncio.wait_for(connect(port), 30)
    authenticated = time.perf_counter() - start
    try:
        game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        await asyncio.wait_for(game.stdout.read(1), 30)
        first_output = time.perf_counter() - start
    finally:
        conn.close()
        await conn.wait_closed()
    return authenticated, first_output


class Player:
    """One loaded session: reads everything the game draws, notes if it ever ends."""

    def __init__(self) -> None:
        self.bytes = 0
        self.last_output = time.monotonic()
        self.ended: str | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self, port: int) -> None:
        self.conn = await asyncio.wait_for(connect(port), 60)
        game = await self.conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        self.task = asyncio.create_task(self._read(game))

    async def _read(self, game: asyncssh.SSHClientProcess) -> None:
        try:
            while chunk := await game.stdout.read(65536):
                self.bytes += len(chunk)
                self.last_output = time.monotonic()
            self.ended = f"output ended, exit status {game.exit_status}"
        except (asyncssh.Error, OSError) as exc:
            self.ended = f"{type(exc).__name__}: {exc}"

    async def leave(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.conn is not None:
            self.conn.close()


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


async def main() -> int:
    args = parse_args()
    if args.storm:
        return await storm(args.storm, args.clients or 16, args.seconds)
    if args.abuse:
        return await run_abuse(args)
    if args.preload:
        return await compare_preload(args)
    if args.solo_crowd:
        return await solo_crowd(args)
    with tempfile.TemporaryDirectory(prefix="war-ssh-load-") as tmp:
        server = Server(args, Path(tmp))
        try:
            await server.wait_listening()
            return await measure(args, server)
        finally:
            server.stop()


async def measure(args: argparse.Namespace, server: Server) -> int:
    port = server.port
    await probe(port)  # warm-up: imports cached, page cache hot
    idle = []
    for _ in range(args.probes):
        idle.append(await probe(port))
        await asyncio.sleep(0.3)

    players = [Player() for _ in range(args.sessions)]
    started = time.perf_counter()
    await asyncio.gather(*(p.start(port) for p in players))
    all_connected = time.perf_counter() - started
    await asyncio.sleep(min(5.0, args.seconds / 4))  # let every game draw its first screens
    cpu_start, wall_start = server.cpu_seconds(), time.perf_counter()
    games_start = server.games_cpu_seconds()
    bytes_start = sum(p.bytes for p in players)

    loaded, memory = [], []
    interval = args.seconds / (args.probes + 1)
    for _ in range(args.probes):
        await asyncio.sleep(interval)
        samples = [m for m in map(memory_kib, server.games()) if m]
        if samples:
            memory.append(samples)
        loaded.append(await probe(port))
    await asyncio.sleep(interval)
    cpu_used, wall = server.cpu_seconds() - cpu_start, time.perf_counter() - wall_start
    games_end = server.games_cpu_seconds()
    games_cpu = sum(games_end[pid] - games_start[pid] for pid in games_end if pid in games_start)
    bytes_per_second = (sum(p.bytes for p in players) - bytes_start) / wall / len(players)
    alive = [p for p in players if p.ended is None]
    # Within the last STILL_DRAWING seconds: longer than the screensaver's pause between games.
    drawing = [p for p in alive if time.monotonic() - p.last_output < STILL_DRAWING]

    for player in players:
        await player.leave()
    left = time.perf_counter()
    while server.games() and time.perf_counter() - left < 15:
        await asyncio.sleep(0.1)
    teardown = time.perf_counter() - left
    leftovers = server.games()

    rss = [kib for sample in memory for kib, _ in sample]
    pss = [kib for sample in memory for _, kib in sample]
    game = args.session_command or f"{sys.executable} -m war_tui"
    print(f"ssh_load: {args.sessions} sessions for {wall:.0f} s of {game} {' '.join(args.game_flags)}")
    print(f"all {args.sessions} sessions connected and started in {all_connected:.2f} s")
    print()
    head = f"newcomer (median of {args.probes})"
    loaded_head = f"{args.sessions} sessions"
    print(f"| {head:<28} | idle server | {loaded_head:>11} | ratio |")
    print(f"|{'-' * 30}|-------------|{'-' * 13}|-------|")
    for label, index in (("connected and authenticated", 0), ("first output of its game", 1)):
        a, b = [v[index] for v in idle], [v[index] for v in loaded]
        ratio = statistics.median(b) / statistics.median(a)
        print(f"| {label:<28} | {median_ms(a):>11} | {median_ms(b):>11} | {ratio:4.1f}x |")
    print()
    if rss:
        print(f"memory per game process: RSS median {statistics.median(rss) / 1024:.1f} MiB, "
              f"PSS median {statistics.median(pss) / 1024:.1f} MiB "
              f"({len(memory)} samples of {len(memory[-1])} processes)")
    print(f"server CPU under load: {100 * cpu_used / wall:.1f}% of one core "
          f"({cpu_used:.2f} s over {wall:.0f} s); output {bytes_per_second / 1024:.1f} KiB/s per session")
    print(f"the {len(games_end)} games together: {100 * games_cpu / wall:.0f}% of one core "
          f"({100 * games_cpu / wall / max(1, len(games_end)):.1f}% each)")
    print(f"at the end: {len(alive)}/{len(players)} sessions open, {len(drawing)}/{len(players)} drew in the last "
          f"{STILL_DRAWING:.0f} s; "
          f"all game processes gone {teardown:.2f} s after the clients left" if not leftovers
          else f"LEFT BEHIND: {leftovers}")
    failures = [p.ended for p in players if p.ended]
    for reason in sorted(set(failures)):
        print(f"  ended early: {reason}")
    ok = len(alive) == len(players) and len(drawing) == len(players) and not leftovers
    return 0 if ok else 1


# -- forked from the preloaded parent, or started afresh ------------------------------------------------


def smaps_kib(pid: int) -> tuple[int, int] | None:
    """(PSS, USS) of one process in KiB; USS is what it alone holds (its private pages)."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    fields = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+):\s+(\d+) kB", rollup, re.MULTILINE)}
    return fields["Pss"], fields["Private_Clean"] + fields["Private_Dirty"]


def load_average() -> str:
    return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def board_and_cpu(server: ServeSsh) -> tuple[float, float]:
    """A newcomer's first whole board on an idle server, and the CPU its game used up to it."""
    start = time.perf_counter()
    conn = await asyncio.wait_for(connect(server.port), 30)
    try:
        game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        seen = bytearray()
        while not whole_board(seen, 30):
            chunk = await asyncio.wait_for(game.stdout.read(65536), 30)
            if not chunk:
                raise RuntimeError("the game ended before its board")
            seen += chunk
        board = time.perf_counter() - start
        games = server.games()
        cpu = cpu_of(games[0]) if len(games) == 1 else float("nan")
        return board, cpu
    finally:
        conn.close()
        await conn.wait_closed()
        deadline = time.monotonic() + 10
        while server.games() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)


async def memory_on_auto_play(server: ServeSsh, sessions: int, seconds: float) -> tuple[list[int], list[int], str]:
    """PSS and USS (KiB) of each of ``sessions`` games on auto-play at the default 4/s, after ``seconds``."""
    conns, tasks = [], []
    try:
        for n in range(sessions):
            conn = await asyncio.wait_for(connect(server.port, source=address(n)), 60)
            game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            seen = bytearray()
            while not whole_board(seen, 30):
                seen += await asyncio.wait_for(game.stdout.read(65536), 60)
            game.stdin.write(b"a")
            conns.append(conn)
            tasks.append(asyncio.create_task(drain(game)))
        await asyncio.sleep(seconds)
        samples = [m for m in map(smaps_kib, server.games()) if m]
        when = load_average()
    finally:
        for task in tasks:
            task.cancel()
        for conn in conns:
            conn.close()
    deadline = time.monotonic() + 20
    while server.games() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return [p for p, _ in samples], [u for _, u in samples], when


def tree_pss_mib(server: ServeSsh) -> tuple[float, int]:
    pids = [server.process.pid, *(p for p in [server.game_parent()] if p is not None), *server.games()]
    return sum((m[0] for m in map(smaps_kib, pids) if m), 0) / 1024, len(pids)


async def solo_crowd(args: argparse.Namespace) -> int:
    idle, auto = (int(n) for n in args.solo_crowd.split(","))
    flags = ["--max-sessions", str(idle + auto + args.probes + 8), "--max-attempts-per-minute", "100000",
             "--max-sessions-per-address", "1000", "--max-server-mb", "4000"]
    print(f"ssh_load --solo-crowd: {idle} idle solo games + {auto} on auto-play (4/s), then {args.probes} newcomers; "
          f"goal: first board <= 0.5 s", flush=True)
    for label, extra in (("forked (default)", []), ("--no-preload", ["--no-preload"])):
        with tempfile.TemporaryDirectory(prefix="war-ssh-solo-crowd-") as tmp:
            server = ServeSsh(Path(tmp), [*flags, *extra])
            conns: list[asyncssh.SSHClientConnection] = []
            tasks: list[asyncio.Task[int]] = []
            try:
                await server.wait_listening()
                deadline = time.monotonic() + 60
                while not extra and "game parent ready" not in server.log_text() and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                started = time.monotonic()

                async def start(n: int) -> None:
                    conn = await asyncio.wait_for(connect(server.port, source=address(n)), 120)
                    game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
                    seen = bytearray()
                    while not whole_board(seen, 30):
                        seen += await asyncio.wait_for(game.stdout.read(65536), 120)
                    if n >= idle:
                        game.stdin.write(b"a")
                    conns.append(conn)
                    tasks.append(asyncio.create_task(drain(game)))

                for first in range(0, idle + auto, 16):
                    await asyncio.gather(*(start(n) for n in range(first, min(idle + auto, first + 16))))
                took = time.monotonic() - started
                await asyncio.sleep(15.0)  # the crowd settled: every game past its start, auto-play under way
                boards = []
                for _ in range(args.probes):
                    boards.append(await first_board(server.port))
                    await asyncio.sleep(0.5)
                pss, processes = tree_pss_mib(server)
                print(f"{label}: {len(conns)} sessions started in {took:.0f} s; newcomer's first board median "
                      f"{statistics.median(boards) * 1000:.0f} ms (each: {[round(b * 1000) for b in boards]}); "
                      f"{processes} processes, total PSS {pss:.0f} MiB ({pss / max(1, processes - 2):.1f} per game); "
                      f"{load_average()}", flush=True)
            finally:
                for task in tasks:
                    task.cancel()
                for conn in conns:
                    conn.close()
                server.stop()
    return 0


async def compare_preload(args: argparse.Namespace) -> int:
    flags = ["--max-sessions", str(args.sessions + 4), "--max-attempts-per-minute", "100000",
             "--max-sessions-per-address", "1000"]
    with tempfile.TemporaryDirectory(prefix="war-ssh-preload-") as tmp:
        (Path(tmp) / "fork").mkdir()
        (Path(tmp) / "exec").mkdir()
        forked = ServeSsh(Path(tmp) / "fork", flags)
        afresh = ServeSsh(Path(tmp) / "exec", [*flags, "--no-preload"])
        servers = {"forked": forked, "afresh": afresh}
        try:
            for server in servers.values():
                await server.wait_listening()
            deadline = time.monotonic() + 60
            while "game parent ready" not in forked.log_text() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            parent = forked.game_parent()
            parent_cpu = cpu_of(parent) if parent else float("nan")
            for server in servers.values():
                await board_and_cpu(server)  # warm-up: page cache hot
            boards: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
            for _ in range(args.probes):
                for name, server in servers.items():
                    boards[name].append(await board_and_cpu(server))
                    await asyncio.sleep(0.2)
            idle_load = load_average()
            memory: dict[str, tuple[list[int], list[int], str]] = {}
            for name, server in servers.items():
                memory[name] = await memory_on_auto_play(server, args.sessions, args.seconds)
            parent_memory = smaps_kib(parent) if parent else None
        finally:
            for server in servers.values():
                server.stop()
    med = {name: statistics.median(b for b, _ in values) for name, values in boards.items()}
    cpu = {name: statistics.median(c for _, c in values) for name, values in boards.items()}
    print(f"ssh_load --preload: {args.probes} interleaved probes per server, then {args.sessions} games on auto-play "
          f"(4/s) on each in turn for {args.seconds:.0f} s")
    print("| | forked (default) | --no-preload | ratio | goal |")
    print("|---|---|---|---|---|")
    print(f"| connect -> first full board, idle, median ({idle_load}) | {med['forked'] * 1000:.0f} ms | "
          f"{med['afresh'] * 1000:.0f} ms | {med['forked'] / med['afresh']:.2f}x | <= 120 ms and <= 0.3x |")
    print(f"| CPU of the game up to its first board, median | {cpu['forked'] * 1000:.0f} ms | "
          f"{cpu['afresh'] * 1000:.0f} ms | {cpu['forked'] / cpu['afresh']:.2f}x | <= 80 ms |")
    for label, index in (("PSS", 0), ("USS", 1)):
        kib = {name: memory[name][:2][index] for name in servers}  # of (PSS, USS, load)
        row = [f"{statistics.median(kib[name]) / 1024:.1f} MiB" if kib[name] else "-" for name in servers]
        goal = "<= 20 MiB" if label == "PSS" else "(reported)"
        print(f"| {label} per game, {args.sessions} on auto-play, median | {row[0]} ({memory['forked'][2]}) | "
              f"{row[1]} ({memory['afresh'][2]}) | | {goal} |")
    if parent_memory:
        print(f"the game parent: its warm-up {parent_cpu:.2f} s of CPU once; PSS {parent_memory[0] / 1024:.1f} MiB, "
              f"USS {parent_memory[1] / 1024:.1f} MiB")
    print("every board (ms):", {name: [round(b * 1000) for b, _ in values] for name, values in boards.items()})
    return 0


# -- the abuse scenarios (a)-(e) -------------------------------------------------------------------------

BOARD = re.compile(rb"\x1b\[(\d+);1H")  # the game drew a row: rows down to the last mean a whole board ...
FOOTER_MARK = b"palette"
"""... once its footer's keys are on it too (their last words, the command palette's key, as in ui_speed.py)."""


def whole_board(seen: bytes | bytearray, rows: int) -> bool:
    """Whether the output so far holds a whole board of ``rows`` rows, its footer's keys included."""
    return FOOTER_MARK in seen and any(int(m.group(1)) >= rows for m in BOARD.finditer(seen))


def rss_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    found = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
    return int(found.group(1)) / 1024 if found else 0.0


def address(n: int) -> str:
    """A loopback address of its own for client ``n`` (127.0.0.1 is left to the newcomers)."""
    return f"127.{20 + n // 62500}.{n // 250 % 250}.{n % 250 + 1}"


async def first_board(port: int, source: str | None = None, size=(100, 30), timeout: float = 30.0) -> float:
    """Seconds from connecting to the game's first whole board (its last row drawn, its footer's keys on it)."""
    start = time.perf_counter()
    conn = await asyncio.wait_for(connect(port, source=source), timeout)
    try:
        game = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        seen = bytearray()
        while not whole_board(seen, size[1]):
            chunk = await asyncio.wait_for(game.stdout.read(65536), timeout)
            if not chunk:
                raise RuntimeError("the game ended before its board")
            seen += chunk
        return time.perf_counter() - start
    finally:
        conn.close()


class AbuseServer(ServeSsh):
    """serve-ssh --public with every limit at its default, unless a scenario names flags of its own."""

    def __init__(self, workdir: Path, flags: list[str] | None = None) -> None:
        super().__init__(workdir, flags or [])

    def log_lines(self) -> int:
        self.log.seek(0)
        return len(self.log.readlines())

    def peak_game_rss(self) -> float:
        return max((rss_mib(pid) for pid in self.games()), default=0.0)


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


async def abuse_a(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    clients = args.clients or 8
    idle = rss_mib(server.process.pid)
    rows = []
    for phase, compression in enumerate((None, "zlib@openssh.com")):
        options: dict[str, Any] = {"compression_algs": [compression, "none"]} if compression else {}  # zlib first
        deadline = time.monotonic() + args.seconds
        peak, sent, games = idle, [0], [0]
        chunk = bytes(64 * 1024) if compression else b"\x1b[200~" + b"a" * (64 * 1024 - 12) + b"\x1b[201~"

        async def flood(n: int) -> None:
            while time.monotonic() < deadline:
                try:
                    # Addresses of each phase's own: the attempt limit of the last minute starts afresh.
                    source = address(phase * 100 + n)
                    async with await asyncio.wait_for(connect(server.port, source=source, **options), 10) as conn:
                        game = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                        games[0] += 1
                        while time.monotonic() < deadline and not game.stdin.is_closing():
                            game.stdin.write(chunk)
                            await asyncio.wait_for(game.stdin.drain(), 10)
                            sent[0] += len(chunk)
                except (asyncssh.Error, OSError):
                    await asyncio.sleep(0.5)  # refused (attempt rate) or ended: knock again shortly

        tasks = [asyncio.create_task(flood(n)) for n in range(clients)]
        while time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            peak = max(peak, rss_mib(server.process.pid))
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(5)
        after = rss_mib(server.process.pid)
        name = "zlib" if compression else "plain"
        ended = server.log_lines()
        server.log.seek(0)
        floods = sum("input flood" in line for line in server.log)
        rows.append(f"(a) {clients} clients flooding {args.seconds:.0f} s, {name}: {sent[0] / 2**20:,.0f} MiB sent "
                    f"in {games[0]} games ({floods} ended by the input cap so far, {ended} log lines); server RSS idle {idle:.0f} MB, peak {peak:.0f} MB (goal < 200: "
                    f"{verdict(peak < 200)}), 5 s after {after:.0f} MB (goal <= {idle * 1.2:.0f}: "
                    f"{verdict(after <= idle * 1.2)})")
    return rows


async def abuse_b(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    conns, peak_game, peak_server = [], 0.0, 0.0
    try:
        for n in range(5):
            conn = await connect(server.port, source=address(n))
            game = await conn.create_process(term_type="xterm", term_size=(65535, 65535), encoding=None)
            conns.append((conn, asyncio.create_task(drain(game))))
        deadline = time.monotonic() + min(args.seconds, 30)
        while time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            peak_game = max(peak_game, server.peak_game_rss())
            peak_server = max(peak_server, rss_mib(server.process.pid))
    finally:
        for conn, task in conns:
            task.cancel()
            conn.close()
    return [f"(b) 5 clients at 65535x65535 for {min(args.seconds, 30):.0f} s: largest game RSS {peak_game:.0f} MB "
            f"(limit 512: {verdict(peak_game < 512)}), server peak {peak_server:.0f} MB (goal < 200: "
            f"{verdict(peak_server < 200)})"]


async def drain(game) -> int:
    total = 0
    with contextlib.suppress(asyncssh.Error, OSError):
        while chunk := await game.stdout.read(65536):
            total += len(chunk)
    return total


async def abuse_c(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    got, conns = 0, []
    for _ in range(40):
        try:
            conn = await connect(server.port, source="127.0.0.2")
            await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            conns.append(conn)
            got += 1
        except (asyncssh.Error, OSError):
            pass
    try:
        other = await first_board(server.port, "127.0.0.3")
        other_text = f"in, first board {other:.2f} s"
    except (asyncssh.Error, OSError, RuntimeError) as exc:
        other, other_text = None, f"NOT in ({exc})"
    for conn in conns:
        conn.close()
    return [f"(c) one address opening 40 sessions: got {got} (goal 4: {verdict(got == 4)}); "
            f"a second address: {other_text} ({verdict(other is not None)})"]


async def abuse_d(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    count = args.clients or 1100
    before = server.log_lines()
    sockets = []
    try:
        for n in range(count):
            with contextlib.suppress(OSError):
                sockets.append(await asyncio.open_connection("127.0.0.1", server.port, local_addr=(address(n), 0)))
        await asyncio.sleep(0.5)
        board = await first_board(server.port)
        await asyncio.sleep(1.5)  # the flood's summary lines
        lines = server.log_lines() - before
    finally:
        for _, writer in sockets:
            writer.close()
    return [f"(d) {len(sockets):,} idle TCP connections: a real client's first board in {board:.2f} s "
            f"(goal 2: {verdict(board < 2)}); {lines} log lines meanwhile (goal < 100: {verdict(lines < 100)})"]


async def abuse_e(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    idle = statistics.median([await first_board(server.port, address(900 + n)) for n in range(3)])
    conns = []
    try:
        for n in range(24):
            conn = await connect(server.port, source=address(n))
            game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            seen = bytearray()
            while not whole_board(seen, 30):  # keys only once it listens
                seen += await asyncio.wait_for(game.stdout.read(65536), 30)
            game.stdin.write(b"a")  # auto-play at the default speed ...
            if n >= 20:
                await asyncio.sleep(0.2)
                game.stdin.write(b"+" * 12)  # ... the last 4 at max (the server's top speed)
            conns.append((conn, asyncio.create_task(drain(game))))
        await asyncio.sleep(10)
        cpu0, wall0 = server.cpu_seconds(), time.perf_counter()
        games0 = server.games_cpu_seconds()
        loaded = [await first_board(server.port, address(950 + n)) for n in range(5)]
        wall = time.perf_counter() - wall0
        games1 = server.games_cpu_seconds()
        games_cpu = sum(games1[p] - games0[p] for p in games1 if p in games0)
        server_cpu = server.cpu_seconds() - cpu0
    finally:
        for conn, task in conns:
            task.cancel()
            conn.close()
    worst, median = max(loaded), statistics.median(loaded)
    return [f"(e) 20 sessions on auto-play at 4/s + 4 at max: a newcomer's first board median {median:.2f} s, "
            f"worst {worst:.2f} s of 5 (idle server: {idle:.2f} s; goal 1.5: {verdict(worst < 1.5)}); "
            f"meanwhile the games used {100 * games_cpu / wall:.0f}% of one core, the server "
            f"{100 * server_cpu / wall:.0f}%"]


ENV_VALUE = 255 * 1024  # a whole request fits in asyncssh's largest packet (256 KiB)


async def abuse_env(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    goal_bytes = (args.clients or 1024) * 2**20
    logging.getLogger("asyncio").setLevel(logging.ERROR)  # the client writing into connections the server closed
    await first_board(server.port, "127.0.0.3")  # warm-up: what any first connection loads, before "idle"
    await asyncio.sleep(2)
    idle = rss_mib(server.process.pid)
    peak, sent, connections, refused_before_game = idle, 0, 0, 0
    value = "x" * ENV_VALUE
    per_connection = {f"FLOOD_{i}": value for i in range(20)}  # past the 16 refusals a connection gets
    started = time.perf_counter()
    deadline = time.monotonic() + 180
    sampler_done = asyncio.Event()

    async def sample() -> None:
        nonlocal peak
        while not sampler_done.is_set():
            peak = max(peak, rss_mib(server.process.pid))
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    try:
        while sent < goal_bytes and time.monotonic() < deadline:
            connections += 1
            try:
                conn = await asyncio.wait_for(connect(server.port, source="127.0.0.2"), 10)
            except (asyncssh.Error, OSError):
                await asyncio.sleep(0.1)
                continue
            try:
                # The env requests go before the shell request, all at once, as a client's own would.
                await conn.create_process(term_type="xterm", term_size=(80, 24), env=per_connection, encoding=None)
            except (asyncssh.Error, OSError):
                refused_before_game += 1
            sent += len(per_connection) * ENV_VALUE
            conn.close()
            with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), 10)
        flood_seconds = time.perf_counter() - started
        await asyncio.sleep(5)
    finally:
        sampler_done.set()
        await sampler
    after = rss_mib(server.process.pid)
    server.log.seek(0)
    refusals = sum("too many refusals" in line for line in server.log)
    return [f"(env) {sent / 2**20:,.0f} MiB of env requests offered in {flood_seconds:.0f} s over {connections} "
            f"connections from one address ({refusals} let go for too many refusals, {refused_before_game} without "
            f"a game); server RSS idle {idle:.0f} MB, peak {peak:.0f} MB (goal < 100: {verdict(peak < 100)}), "
            f"5 s after {after:.0f} MB = {after / idle:.2f}x idle (goal <= 1.10x: {verdict(after <= idle * 1.1)})"]


async def abuse_idle(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    count = args.clients or 32
    conns, ends = [], []
    start = time.perf_counter()

    async def sit(n: int) -> None:
        conn = await asyncio.wait_for(connect(server.port, source=address(n // 4)), 60)
        conns.append(conn)
        game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        await drain(game)  # reads what it is shown, never sends a key
        await conn.wait_closed()  # the slot is free once the server let go of the connection
        ends.append(time.perf_counter())

    tasks = [asyncio.create_task(sit(n)) for n in range(count)]
    try:
        while len(server.games()) < count and time.perf_counter() - start < 120:
            await asyncio.sleep(0.2)
        all_in = time.perf_counter()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 120)
        freed = (max(ends) if len(ends) == count else time.perf_counter()) - all_in
        await asyncio.sleep(0.5)  # the server's last disconnect lines
        try:
            board = await first_board(server.port, "127.0.0.3")
            honest = f"an honest client's first board then {board:.2f} s"
        except (asyncssh.Error, OSError, RuntimeError) as exc:
            honest = f"an honest client NOT in ({exc})"
    finally:
        for task in tasks:
            task.cancel()
        for conn in conns:
            conn.close()
    server.log.seek(0)
    idle_ends = sum(" disconnect " in line and line.rstrip().endswith(", idle") for line in server.log)
    first = min(ends) - start if ends else float("nan")
    return [f"(idle) {count} sessions sending nothing, --idle-minutes 1: all {count} started {all_in - start:.1f} s "
            f"after the first knock; the first connection closed by the server {first:.1f} s after it, every slot "
            f"free {freed:.1f} s after the last started (goal 70: {verdict(freed <= 70 and len(ends) == count)}); "
            f"{idle_ends} ended as idle; {honest}"]


STORM_RATE = 100
"""Window changes a storming session sends a second: 25 times what reaches its game."""


async def storm(port: int, count: int, seconds: float) -> int:
    """The storming clients, in a process of their own (``--storm``) so they do not slow the honest client's loop.

    They still take CPU from the same machine (on a real server it would be the attackers' own), so the
    report says how much.
    """
    conns: list[asyncssh.SSHClientConnection] = []
    tasks: list[asyncio.Task[Any]] = []
    sent = [0]

    async def alternate(game) -> None:
        big = True
        while True:
            game.change_terminal_size(*((500, 200) if big else (499, 199)))
            big = not big
            sent[0] += 1
            await asyncio.sleep(1 / STORM_RATE)

    games = []
    for n in range(count):
        conn = await connect(port, source=address(n // 4))
        game = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        conns.append(conn)
        games.append(game)
        tasks.append(asyncio.create_task(drain(game)))
    print("CONNECTED", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # the quiet phase is measured
    tasks += [asyncio.create_task(alternate(game)) for game in games]
    print("STORMING", flush=True)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    print(f"SENT {sent[0] / (time.perf_counter() - started):.0f}", flush=True)
    for conn in conns:
        conn.close()
    return 0


async def abuse_resize(server: AbuseServer, args: argparse.Namespace) -> list[str]:
    count = args.clients or 16
    idle = [await first_board(server.port, address(900 + n)) for n in range(5)]
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--storm", str(server.port), "--clients", str(count), "--seconds", "40",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None  # both piped
    try:
        line = await asyncio.wait_for(child.stdout.readline(), 120)
        if not line.startswith(b"CONNECTED"):
            raise RuntimeError(f"the storming clients did not start: {line!r}")
        await asyncio.sleep(5)
        quiet = [await first_board(server.port, address(920 + n)) for n in range(5)]
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        line = await asyncio.wait_for(child.stdout.readline(), 120)
        await asyncio.sleep(5)
        cpu0, wall0, games0 = server.cpu_seconds(), time.perf_counter(), server.games_cpu_seconds()
        loaded = [await first_board(server.port, address(950 + n)) for n in range(5)]
        await asyncio.sleep(max(0.0, 10 - (time.perf_counter() - wall0)))
        wall = time.perf_counter() - wall0
        games1 = server.games_cpu_seconds()
        storm_cpu = [games1[p] - games0[p] for p in games1 if p in games0]
        server_cpu = server.cpu_seconds() - cpu0
        client_cpu = cpu_of(child.pid)
        rate = (await asyncio.wait_for(child.stdout.readline(), 120)).decode().split()
    finally:
        if child.returncode is None:
            child.terminate()
        await child.wait()
    worst, median = max(loaded), statistics.median(loaded)
    per_game = statistics.median(storm_cpu) / wall * 100 if storm_cpu else 0.0
    sent = rate[1] if len(rate) == 2 else "?"
    return [f"(resize) {count} sessions alternating 500x200/499x199 ({sent} changes/s in all): an honest "
            f"newcomer's first board median {median:.2f} s, worst {worst:.2f} s of 5 (goal 1.5: "
            f"{verdict(worst < 1.5)}); the same {count} sessions not storming: median "
            f"{statistics.median(quiet):.2f} s, worst {max(quiet):.2f} s (storm/quiet {median / statistics.median(quiet):.1f}x); "
            f"idle server median {statistics.median(idle):.2f} s; each storming game {per_game:.0f}% of a core "
            f"(median), the server {100 * server_cpu / wall:.0f}%; the storming clients {client_cpu:.0f} s of CPU in all"]


SCENARIOS = {
    "a": abuse_a, "b": abuse_b, "c": abuse_c, "d": abuse_d, "e": abuse_e,
    "env": abuse_env, "idle": abuse_idle, "resize": abuse_resize,
}
SCENARIO_FLAGS = {
    "env": ["--max-attempts-per-minute", "100000"],
    "idle": ["--idle-minutes", "1"],
}


async def run_abuse(args: argparse.Namespace) -> int:
    chosen = [*"abcde", "env", "idle", "resize"] if args.abuse == "all" else [args.abuse]
    report = []
    for name in chosen:
        with tempfile.TemporaryDirectory(prefix="war-ssh-abuse-") as tmp:
            server = AbuseServer(Path(tmp), SCENARIO_FLAGS.get(name))
            try:
                await server.wait_listening()
                await asyncio.sleep(1.0)
                rows = await SCENARIOS[name](server, args)
            finally:
                server.stop()
        for row in rows:
            print(row, flush=True)
        report += rows
    return 0 if not any("MISSED" in row or "NOT in" in row for row in report) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
