"""What keeping tables in NATS adds to the CPU of a move: kept (the default) beside memory only, and against
what a played battle costs in all.

    python benchmarks/cluster_cpu.py [--runs 5] [--battles 300] [--real-battles 40]

Each run starts servers one after the other, in an order that alternates from run to run: an SSH server
(``SshServer``, ``--public`` on an ephemeral loopback port) in a process of its own, its tables kept in NATS
(``ClusterConfig()``: an embedded nats-server, ``sync_interval: always``, as ``serve-ssh`` runs by default)
or in memory only (``cluster=None``, as the in-process tests of the other server parts run), and plays:

1. **the stand-in game** (``tests/functional/ssh_support/fake_table.py``, one line per update): two SSH
   clients in this process sit at one table and flip ``--battles`` battles, both at once, each flip after
   the last battle reached both screens, at a fresh table every 20 battles. The server's own work per
   battle with none of the game's drawing: what keeping adds to a move is read here, the server's CPU kept
   less memory-only, plus the nats-server's. Before its first table each of these servers is left ``IDLE``
   seconds past its start and measured idle for as long: what a node costs a second, tables or not;
2. **the real game** (``serve-ssh``'s own configuration: the game forked from its preloaded parent): ann
   flips, bob 0.15 s later, until the battle is on both boards (read off the screens as
   ``table_load.py`` reads them), ``--real-battles`` battles at a fresh table every 20, each table's
   battles followed by as long with nobody flipping, whose CPU the games spend is taken off theirs (their
   clocks tick every second). Both players' games, with the server's and the nats-server's CPU per battle
   as the stand-in measured them (kept; without what every second costs a node), are **a played battle**:
   the denominator of the goal. The real game's server and nats-server figures count every second's work
   at this pace (the node's lease, its lobby), so they are shown, not used.

Reported: the medians of the runs per battle (each run's in brackets) for the server, its games and its
nats-server, kept and memory-only; the ratio of the server's CPU kept / memory; and what keeping adds to
a move (the stand-in's server kept less memory-only, plus its nats-server) as a share of a played battle
with the real game (goal: at most 5%). The stand-in's flips come together, so holding the battle until
its write splits the table's output into more reads and SSH packets than memory-only sends: its ratio
overstates what keeping costs a game that draws. Also the store's writes per battle (the tables' openings
and closings counted) and the load average.

Measured from ``/proc/<pid>/task/*/schedstat`` (every thread; the games are the server's descendants,
those running at both ends of a spell) over the battles only. Linux only (``/proc``). Every loop is bounded
by a count; every wait by a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKE_TABLE = (sys.executable, str(ROOT / "tests" / "functional" / "ssh_support" / "fake_table.py"))
WAIT = 60.0
BATCH = 20
PAUSE = 0.15
"""Seconds between ann's flip and bob's with the real game: each board draws the first flip, then the battle."""
IDLE = 2.0
"""Seconds each stand-in server is left after its start, then measured idle, before its first table."""
SETTLE = 3.0
"""Seconds a real table's boards get to finish starting (their first frames, the freeze of their start-up objects
after 2 s) before its battles are measured."""


def descendants(pid: int) -> list[int]:
    """``pid``'s children, theirs, and so on (the games, and the preloaded parent they are forked from)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo and len(found) < 10_000:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_seconds(pid: int | None) -> float:
    """CPU of ``pid``'s threads (its children not included), in nanoseconds' resolution (``/proc/<pid>/stat``
    counts in ticks of 10 ms, too coarse for a few hundred battles); 0 without one, or once it is gone."""
    return running_cpu(pid) or 0.0


def running_cpu(pid: int | None) -> float | None:
    """``cpu_seconds``, or None once the process is gone (a game that ended)."""
    if pid is None:
        return None
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    total = 0
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e9


# ----------------------------------------------------------------------------- the server's process


def real_game_config(folder: Path):
    """``serve-ssh``'s configuration as its defaults make it (the real game, preloaded), its files in ``folder``."""
    for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        os.environ[variable] = str(folder / variable.lower())  # the games' statistics are not the user's
    from war_tui.cli import build_parser
    from war_tui.commands.serve_ssh import prepare_server

    args = build_parser().parse_args([
        "serve-ssh", "--port", "0", "--public", "--host-key", str(folder / "host_key"), "--max-sessions", "64",
        "--max-sessions-per-address", "64", "--max-attempts-per-minute", "100000", "--max-tables", "64",
    ])
    made, _banner, _forget = prepare_server(args, 0)
    return made.config


async def serve(kept: bool, folder: Path, real: bool) -> None:
    """The server: prints one JSON line (its port, its nats-server's pid), runs until stdin closes."""
    sys.path.insert(0, str(ROOT))
    from dataclasses import replace

    import asyncssh

    from war_tui.cluster.config import ClusterConfig
    from war_tui.ssh.server import ServerConfig, SshServer

    cluster = ClusterConfig(directory=folder / "cluster") if kept else None
    if real:
        config = replace(real_game_config(folder), cluster=cluster, max_tables_per_address=64, max_seats_per_address=64)
    else:
        config = ServerConfig(
            host_key=asyncssh.generate_private_key("ssh-ed25519"), session_argv=FAKE_TABLE, authorized_keys=None,
            port=0, max_sessions_per_address=64, max_tables=64, max_tables_per_address=64, max_seats_per_address=64,
            game_nice=0, cluster=cluster,
        )
    server = SshServer(config, log=lambda line: None)
    await server.start()
    nodes = server.cluster
    nats = nodes.embedded.pid if nodes is not None and nodes.embedded is not None else None
    print(json.dumps({"port": server.port, "nats": nats}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    keeper = server.tables.keeper
    print(json.dumps({"written": keeper.written if keeper is not None else 0}), flush=True)
    await server.stop()


# ----------------------------------------------------------------------------- the clients


class Player:
    def __init__(self, process) -> None:
        self.process = process
        self.seen = bytearray()

    async def until(self, pattern: bytes) -> None:
        regex = re.compile(pattern)

        async def read() -> None:
            while not regex.search(self.seen):
                chunk = await self.process.stdout.read(4096)
                if not chunk:
                    raise RuntimeError(f"the session ended before {pattern!r}")
                self.seen.extend(chunk)

        try:
            await asyncio.wait_for(read(), WAIT)
        except TimeoutError:
            raise RuntimeError(f"no {pattern!r} within {WAIT:g} s; the end of the screen: {bytes(self.seen[-300:])!r}") from None


async def sit(port: int, user: str, table: str):
    import asyncssh

    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=[], agent_path=None, password="",
    ), WAIT)
    process = await conn.create_process(f"table {table}", term_type="xterm-256color", term_size=(100, 30), encoding=None)
    return conn, Player(process)


class Cpu:
    """CPU seconds per battle, summed over the measured battles: the server, its games, its nats-server."""

    def __init__(self, server: int, nats: int | None) -> None:
        self.pids = (server, nats)
        self.server = self.games = self.nats = 0.0
        self.battles = 0

    def read(self) -> tuple[float, dict[int, float], float]:
        server, nats = self.pids
        games = {pid: cpu for pid in descendants(server) if pid != nats and (cpu := running_cpu(pid)) is not None}
        return cpu_seconds(server), games, cpu_seconds(nats)

    def add(self, before: tuple[float, dict[int, float], float], battles: int) -> None:
        """The CPU since ``before`` over ``battles`` more battles. The games are those running at both ends (a game
        of the table before, ending meanwhile, is not counted)."""
        after = self.read()
        self.server += after[0] - before[0]
        self.games += self._games(before, after)
        self.nats += after[2] - before[2]
        self.battles += battles

    def idle_games(self, before: tuple[float, dict[int, float], float]) -> None:
        """Take off what the games spent since ``before`` with nobody flipping (their clocks tick every second)."""
        self.games -= self._games(before, self.read())

    @staticmethod
    def _games(before: tuple[float, dict[int, float], float], after: tuple[float, dict[int, float], float]) -> float:
        return sum(cpu - before[1][pid] for pid, cpu in after[1].items() if pid in before[1])

    def per_battle(self) -> dict[str, float]:
        battles = max(1, self.battles)
        return {"server": self.server / battles, "games": self.games / battles, "nats": self.nats / battles}


async def stand_in_batches(port: int, battles: int, cpu: Cpu, conns: list) -> None:
    """Both players flip at once, each flip once the last battle reached both screens; a table every ``BATCH``."""
    for batch in range(battles // BATCH):  # a table a batch: a game of War may end before 300 battles
        players = []
        for user in ("ann", "bob"):
            conn, player = await sit(port, user, f"t{batch}")
            conns.append(conn)
            players.append(player)
            await player.until(rb"SNAPSHOT ")
        await players[0].until(rb"seats=ann:player,bob:player ")
        before = cpu.read()
        for battle in range(1, BATCH + 1):
            for player in players:
                player.process.stdin.write(b"f")
            for player in players:
                await player.until(rb"BATTLE %d " % battle)
        cpu.add(before, BATCH)
        for conn in conns:
            conn.close()


async def real_batches(port: int, battles: int, cpu: Cpu, conns: list) -> None:
    """The real game on both screens: ann flips, bob ``PAUSE`` later; the battle on both boards; a table every
    ``BATCH`` (fewer battles when a game ends sooner). Then as long with the boards idle: what the games spend
    meanwhile is taken off theirs (their clocks), so what is left is what the battles cost them."""
    from table_load import BATTLE_WAIT, START_WAIT, Screen, until
    from table_load import sit as sit_screen

    for batch in range(battles // BATCH):
        screens: list[Screen] = []
        for user in ("ann", "bob"):
            screen = await sit_screen(port, user, f"table r{batch}")
            conns.append(screen.conn)
            screens.append(screen)
        if not await until(lambda: all(screen.game for screen in screens), START_WAIT):
            raise RuntimeError("the boards never showed")
        await asyncio.sleep(SETTLE)
        loop = asyncio.get_running_loop()
        started = loop.time()
        before = cpu.read()
        played = 0
        for _ in range(BATCH):
            game, battle = screens[0].now
            screens[0].type(b"f")
            await asyncio.sleep(PAUSE)
            screens[1].type(b"f")
            if not await until(lambda: all((game, battle + 1) in s.first_seen for s in screens), BATTLE_WAIT):
                break  # the game is over
            played += 1
        cpu.add(before, played)
        before = cpu.read()  # as long again with nobody flipping: what the boards cost idle is taken off
        await asyncio.sleep(loop.time() - started)
        cpu.idle_games(before)
        for conn in conns:
            conn.close()


async def one_run(
    kept: bool, battles: int, folder: Path, real: bool,
) -> tuple[dict[str, float], float, dict[str, float]]:
    """CPU seconds per battle of the server, its games and its nats-server; the store's writes per battle (the
    tables' openings and closings counted); CPU seconds a second before any table (``IDLE`` seconds)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", "kept" if kept else "memory", "--folder", str(folder),
        *(["--real-game"] if real else []), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    conns: list = []
    try:
        started = json.loads(await asyncio.wait_for(child.stdout.readline(), WAIT))
        cpu = Cpu(child.pid, started["nats"])
        idle: dict[str, float] = {}
        if not real:
            await asyncio.sleep(IDLE)  # past its start
            before = cpu.read()
            await asyncio.sleep(IDLE)
            cpu.add(before, 0)
            idle = {part: value / IDLE for part, value in cpu.per_battle().items()}  # no battles: CPU seconds a second
            cpu = Cpu(child.pid, started["nats"])
        await (real_batches if real else stand_in_batches)(started["port"], battles, cpu, conns)
        for conn in conns:
            conn.close()
        child.stdin.close()
        written = json.loads(await asyncio.wait_for(child.stdout.readline(), WAIT))["written"]
        return cpu.per_battle(), written / max(1, cpu.battles), idle
    finally:
        for conn in conns:
            conn.close()
        child.stdin.close()
        try:
            await asyncio.wait_for(child.wait(), WAIT)
        except TimeoutError:
            child.kill()
            await child.wait()


def report(title: str, figures: dict[str, list[dict[str, float]]], writes: list[float]) -> dict[str, float]:
    """Print one game's figures (medians of the runs, each run's in brackets); the medians in ms."""
    print(title)
    ms: dict[str, float] = {}
    for label in ("memory", "kept"):
        for part in ("server", "games", "nats"):
            values = [run[part] * 1000 for run in figures[label]]
            ms[f"{label} {part}"] = statistics.median(values)
            if values and max(values) > 0:
                shown = ", ".join(f"{value:.2f}" for value in values)
                print(f"  {label:6} {part:6} {ms[f'{label} {part}']:.2f} ms  ({shown})")
    pairs = [k["server"] / m["server"] for k, m in zip(figures["kept"], figures["memory"], strict=True) if m["server"]]
    added = ms["kept server"] - ms["memory server"] + ms["kept nats"]
    print(f"  server kept / memory: {ms['kept server'] / ms['memory server']:.2f}x (run by run, median"
          f" {statistics.median(pairs):.2f}x); keeping adds {ms['kept server'] - ms['memory server']:.2f} ms to the"
          f" server and {ms['kept nats']:.2f} ms in nats-server: {added:.2f} ms a battle")
    print(f"  the store's writes: {statistics.median(writes):.2f} per battle (the tables' joins and leaves counted)")
    return ms | {"added": added}


async def measure(runs: int, battles: int, real_battles: int) -> None:
    games = [("stand-in", False, battles), *([("real", True, real_battles)] if real_battles else [])]
    figures: dict[str, dict[str, list[dict[str, float]]]] = {game: {"memory": [], "kept": []} for game, _, _ in games}
    writes: dict[str, list[float]] = {game: [] for game, _, _ in games}
    idle: dict[str, list[dict[str, float]]] = {"memory": [], "kept": []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            order = (False, True) if run % 2 == 0 else (True, False)
            for game, real, count in games:
                for kept in order:
                    per_battle, written, still = await one_run(kept, count, Path(tmp) / f"{game}{run}-{int(kept)}", real)
                    figures[game]["kept" if kept else "memory"].append(per_battle)
                    if still:
                        idle["kept" if kept else "memory"].append(still)
                    if kept:
                        writes[game].append(written)
    print(f"CPU per battle, {runs} runs (medians; each run's in brackets); load average {load()}")
    stand_in = report(f"the stand-in game ({battles} battles a run):", figures["stand-in"], writes["stand-in"])
    if real_battles:
        ms = report(f"the real game ({real_battles} battles a run; the games' idle CPU taken off, the server's and"
                    " nats-server's every second counted):", figures["real"], writes["real"])
        whole = ms["kept games"] + stand_in["kept server"] + stand_in["kept nats"]
        added = stand_in["added"]
        print(f"a played battle, kept: both players' real games {ms['kept games']:.2f} ms, the server"
              f" {stand_in['kept server']:.2f} ms and nats-server {stand_in['kept nats']:.2f} ms (the stand-in's):"
              f" {whole:.2f} ms; what keeping adds to a move ({added:.2f} ms) is {100 * added / whole:.1f}% of it"
              f" (goal ≤ 5%)")
    for label in ("memory", "kept"):
        server, nats = (statistics.median(run[part] * 1000 for run in idle[label]) for part in ("server", "nats"))
        print(f"  {label:6} idle, before any table: the server {server:.2f} ms a second, nats-server {nats:.2f}")


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--battles", type=int, default=300, help=f"rounded down to a multiple of {BATCH}")
    parser.add_argument("--real-battles", type=int, default=40,
                        help=f"with the real game, rounded down to a multiple of {BATCH}; 0: none")
    parser.add_argument("--serve", choices=("kept", "memory"), help=argparse.SUPPRESS)
    parser.add_argument("--real-game", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve == "kept", args.folder, args.real_game))
    else:
        real = max(0, args.real_battles - args.real_battles % BATCH)
        asyncio.run(measure(max(1, args.runs), max(BATCH, args.battles - args.battles % BATCH), real))


if __name__ == "__main__":
    main()
