"""Load on ``war-tui serve-ssh``: many players on auto-play at once, and a newcomer still let in promptly.

    python benchmarks/ssh_load.py [--sessions 20] [--seconds 60] [--probes 5]
                                  [--session-command CMD] [-- GAME_FLAGS]   (default: --screensaver)

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
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

CLK_TCK = os.sysconf("SC_CLK_TCK")
STILL_DRAWING = 10.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--probes", type=int, default=5)
    parser.add_argument("--session-command", help="run this instead of the game (e.g. another checkout's)")
    parser.add_argument("game_flags", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    flags = args.game_flags[1:] if args.game_flags[:1] == ["--"] else args.game_flags
    args.game_flags = flags or ["--screensaver"]
    return args


class Server:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        command = [
            sys.executable, "-m", "war_tui", "serve-ssh", "--port", "0", "--public",
            "--host-key", str(workdir / "host_key"),
            "--max-sessions", str(args.sessions + args.probes + 4),
            "--max-attempts-per-minute", "100000",
        ]
        if args.session_command:
            command += ["--session-command", args.session_command]
        command += ["--", *args.game_flags]
        self.log = open(workdir / "server.log", "w+")  # noqa: SIM115 - closed in stop()
        # The games' statistics go to a scratch data folder, not the user's.
        env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=self.log, env=env)
        self.port = 0

    async def wait_listening(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.log.seek(0)
            match = re.search(r"listening on \S+:(\d+):", self.log.read())
            if match:
                self.port = int(match.group(1))
                return
            if self.process.poll() is not None:
                break
            await asyncio.sleep(0.05)
        self.log.seek(0)
        raise SystemExit(f"server did not start:\n{self.log.read()}")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def games_cpu_seconds(self) -> dict[int, float]:
        cpu = {}
        for pid in self.games():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            cpu[pid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
        return cpu

    def games(self) -> list[int]:
        """The server's child processes: one game per session."""
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid and fields[0] != "Z":
                    pids.append(int(entry.name))
        return pids

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def memory_kib(pid: int) -> tuple[int, int] | None:
    """(RSS, PSS) of one process in KiB; PSS shares pages fairly between the processes using them."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    rss = int(re.search(r"^Rss:\s+(\d+)", rollup, re.M).group(1))
    pss = int(re.search(r"^Pss:\s+(\d+)", rollup, re.M).group(1))
    return rss, pss


async def connect(port: int) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, username="bench", known_hosts=None, client_keys=[], agent_path=None
    )


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


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
