"""How light the real full-screen game is, measured in a real pseudo-terminal beside a bare Textual app.

Every figure comes from running ``python -m war_tui ...`` as a user would, in
a pseudo-terminal of 100x30 with TERM=xterm-256color, and reading every byte
it writes (nothing is answered back: no terminal replies, no keys, except ``q``
to quit at the end). The floor is ``benchmarks/bare_app.py`` (Header, one
Static updated by ``set_interval``, Footer), run in the same way in the same
run, alternating with war-tui, so the machine's load hits both alike. Each
measurement is repeated; the report gives medians and war-tui/bare ratios.

1. start: spawn to first full frame. The first full frame is the moment of the
   last byte written before the output has been quiet for ``QUIET`` seconds,
   counted only once the footer (its "palette" key, the last thing painted
   on the bottom line) has appeared. The same rule applies to both programs.
2. idle: paused (war-tui without --auto; the bare app with its timer off),
   after the first frame and a second to settle: bytes written and CPU time
   (every thread's, from /proc/<pid>/task/*/schedstat in nanoseconds; utime+stime
   from /proc/<pid>/stat where there is no schedstat) over ``--idle`` seconds.
3. auto: war-tui ``--auto --speed 4`` against the bare app updating 4 times a
   second, over ``--auto-seconds``: CPU time and bytes; war-tui's battles are
   read off the screen (the status line's "Battle N"), giving bytes per battle.
4. max: war-tui ``--auto --speed max`` on a deal that runs far past 10,000
   battles; VmRSS when the screen first shows battle 500 or more and when it
   first shows 10,000 or more (and the peak), read from /proc/<pid>/status.
5. soak (only with ``--soak SECONDS``): ``--screensaver --speed max`` with the
   default rules, game after game; VmRSS every few seconds and the game count
   read off the screen, to show the bounded log keeps memory flat.

Each measurement runs war-tui with its fast path on and off (``WAR_TUI_FASTPATH=0``),
and with ``--pieces`` also with each piece of the fast path left out, side by side:
per repeat the bare app first, then each variant (in a rotating order).

Run:  .venv/bin/python benchmarks/ui_speed.py            (about 6 minutes)
      .venv/bin/python benchmarks/ui_speed.py --fastpath on   (only the fast path on)
      .venv/bin/python benchmarks/ui_speed.py --only auto --pieces --repeats 5
      .venv/bin/python benchmarks/ui_speed.py --only soak --soak 300 --pieces
Linux only (/proc, pty).
"""

from __future__ import annotations

import argparse
import atexit
import codecs
import fcntl
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLS, ROWS = 100, 30
QUIET = 0.5
"""Seconds without output that end a frame burst at start."""
FOOTER_MARK = "palette"
"""The footer's last words (the command palette key); both apps show them on the bottom line."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

WAR = [sys.executable, "-m", "war_tui"]
WAR_ENV: dict[str, str] = {}
"""Extra environment for war-tui runs: ``--war-src`` puts another source tree first on PYTHONPATH."""
BARE = [sys.executable, str(HERE / "bare_app.py")]

AUTO_SEED = 193
"""A deal of 1,846 battles under the default rules: auto-play at 4/s never reaches its end."""
LONG_DEAL = ["--seed", "293", "--gather", "laid", "--max-battles", "100000000"]
"""A deal that never ends by itself under these rules: max speed runs on to the battle cap."""

_ESCAPES = re.compile(rb"\x1b(?:\[[0-9;?<=>$ ]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\|[()][0-9A-Za-z]|[=>78MDEc])")
_BATTLE = re.compile(r"Battle ([0-9][0-9,]*)")
_GAME = re.compile(r"Game ([0-9][0-9,]*) \(")


def plain(data: bytes) -> str:
    """The text a terminal would show, in output order, without escape sequences."""
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


_TOKENS = re.compile(
    r"\x1b\[([0-9;?<=>$ ]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b[()][0-9A-Za-z]"
    r"|\x1b[=>78MDEc]|([^\x1b]+)"
)


class Screen:
    """The characters a terminal would show (no colours): enough to read the status line.

    The app writes only changed cells, so the status line's "Battle 1,235" may
    arrive as a lone "5": the numbers have to be read off a screen, not the stream.
    """

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.pending = ""

    def feed(self, text: str) -> None:
        text = self.pending + text
        cut = text.rfind("\x1b")
        if cut >= 0 and _TOKENS.match(text, cut) is None:  # an escape cut in two by the read
            text, self.pending = text[:cut], text[cut:]
        else:
            self.pending = ""
        for match in _TOKENS.finditer(text):
            params, command, chunk = match.groups()
            if command == "H" or command == "f":
                row, _, col = (params or "1;1").partition(";")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif command == "G":
                self.x = int(params or 1) - 1
            elif chunk:
                for char in chunk:
                    if char == "\r":
                        self.x = 0
                    elif char == "\n":
                        self.y += 1
                    elif char >= " ":
                        if 0 <= self.y < self.rows and 0 <= self.x < self.cols:
                            self.cells[self.y][self.x] = char
                        self.x += 1

    def line(self, y: int) -> str:
        return "".join(self.cells[y])


_LIVE: set[subprocess.Popen] = set()


@atexit.register
def _kill_live() -> None:
    """A benchmark stopped half-way must not leave programs behind (they spin once the pty closes)."""
    for proc in list(_LIVE):
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


class Terminal:
    """One program in a pseudo-terminal; a thread drains and counts everything it writes."""

    TAIL = 16 * 1024

    def __init__(self, argv: list[str], env_extra: dict[str, str] | None = None) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        # PYTHONDONTWRITEBYTECODE is dropped: an installed war-tui starts from compiled bytecode, as Textual
        # does here, and a source tree compiled afresh at every start would add its compile time to the figures.
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TEXTUAL", "NO_COLOR", "COLUMNS", "LINES", "COLORTERM", "PYTHONDONTWRITEBYTECODE"))}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.update(env_extra if env_extra is not None else (WAR_ENV if argv[:3] == WAR else {}))
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=HERE,  # not the repo root: -m would import ./war_tui
            start_new_session=True, close_fds=True,
        )
        _LIVE.add(self.proc)
        os.close(slave)
        self.master = master
        self.lock = threading.Lock()
        self.total = 0
        self.first_byte: float | None = None
        self.last_byte: float | None = None
        self.tail = b""
        self.footer_seen: float | None = None
        self.screen = Screen(COLS, ROWS)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._closed = False
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            now = time.monotonic()
            with self.lock:
                self.total += len(data)
                if self.first_byte is None:
                    self.first_byte = now
                self.last_byte = now
                self.tail = (self.tail + data)[-self.TAIL :]
                self.screen.feed(self._decoder.decode(data))
                if self.footer_seen is None and FOOTER_MARK in self.screen.line(ROWS - 1):
                    self.footer_seen = now

    def bytes_written(self) -> int:
        with self.lock:
            return self.total

    def screen_text(self) -> str:
        with self.lock:
            return plain(self.tail)

    def wait_first_frame(self, timeout: float = 30.0) -> float:
        """Seconds from spawn to the last byte of the first full frame (see the module docstring)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(0.01)
            with self.lock:
                seen, last = self.footer_seen, self.last_byte
            if seen is not None and last is not None and time.monotonic() - last >= QUIET:
                return last - self.started
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.proc.args!s} exited early:\n{self.screen_text()[-2000:]}")
        raise RuntimeError(f"no quiet first frame within {timeout} s:\n{self.screen_text()[-2000:]}")

    def wait_footer(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.footer_seen is not None:
                    return
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.proc.args!s} exited early:\n{self.screen_text()[-2000:]}")
            time.sleep(0.01)
        raise RuntimeError(f"no footer within {timeout} s:\n{self.screen_text()[-2000:]}")

    def cpu_seconds(self) -> float:
        """CPU time of all the program's threads: from schedstat in nanoseconds where the kernel keeps
        it (a 20 s window is some 40 clock ticks, too coarse to compare), else utime+stime in ticks."""
        nanoseconds, found = 0, False
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                nanoseconds += int((task / "schedstat").read_text().split()[0])
                found = True
            except (OSError, ValueError, IndexError):
                continue  # a thread that just ended, or no schedstat on this kernel
        if found:
            return nanoseconds / 1e9
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def status(self, pattern: re.Pattern[str]) -> int | None:
        """The number ``pattern`` finds on the top line of the screen (war-tui's status line)."""
        with self.lock:
            found = pattern.search(self.screen.line(0))
        return int(found.group(1).replace(",", "")) if found else None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.proc.poll() is None:
            try:
                os.write(self.master, b"q")
                self.proc.wait(3)
            except (OSError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        _LIVE.discard(self.proc)
        os.close(self.master)
        self.reader.join(2)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------ measurements


def measure_start(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Seconds from spawn to the first full frame, and the CPU seconds the program spent until then."""
    with Terminal(argv, env) as term:
        return term.wait_first_frame(), term.cpu_seconds()  # quiet for QUIET seconds: no CPU since the frame


def measure_window(term: Terminal, seconds: float) -> tuple[int, float, int | None, int | None]:
    """(bytes, cpu seconds, battle on screen before, after) over ``seconds``."""
    b0, c0, n0 = term.bytes_written(), term.cpu_seconds(), term.status(_BATTLE)
    time.sleep(seconds)
    b1, c1, n1 = term.bytes_written(), term.cpu_seconds(), term.status(_BATTLE)
    return b1 - b0, c1 - c0, n0, n1


def measure_idle(argv: list[str], seconds: float, env: dict[str, str] | None = None) -> tuple[int, float]:
    with Terminal(argv, env) as term:
        term.wait_first_frame()
        time.sleep(1.0)
        written, cpu, _, _ = measure_window(term, seconds)
        return written, cpu


def measure_auto(argv: list[str], seconds: float, env: dict[str, str] | None = None) -> tuple[int, float, int]:
    """(bytes, cpu seconds, battles played in the window: -1 when none are on screen)."""
    with Terminal(argv, env) as term:
        term.wait_footer()
        time.sleep(1.5)
        written, cpu, n0, n1 = measure_window(term, seconds)
        return written, cpu, (n1 - n0) if n0 is not None and n1 is not None else -1


def measure_max(
    argv: list[str], target: int, at_least: float, timeout: float, env: dict[str, str] | None = None
) -> dict[str, float]:
    """RSS at the first reading at or past battle 500, and once past ``target`` battles and ``at_least`` seconds."""
    with Terminal(argv, env) as term:
        term.wait_footer()
        began = time.monotonic()
        early = late = None
        peak = 0.0
        battle = 0
        while time.monotonic() - began < timeout:
            time.sleep(0.01 if early is None else 0.1)
            battle = term.status(_BATTLE) or 0
            rss = term.rss_mb()
            peak = max(peak, rss)
            if early is None and battle >= 500:
                early = (battle, rss, time.monotonic())
            if early is not None and battle >= target and time.monotonic() - early[2] >= at_least:
                late = (battle, rss, time.monotonic())
                break
        if early is None or late is None:
            raise RuntimeError(f"max speed reached only battle {battle} in {timeout} s")
        return {
            "early_battle": early[0], "early_rss": early[1], "late_battle": late[0], "late_rss": late[1],
            "growth": late[1] - early[1], "peak": peak, "seconds": late[2] - early[2],
            "rate": (late[0] - early[0]) / (late[2] - early[2]), "bytes": term.bytes_written(),
        }


def measure_rate(argv: list[str], seconds: float) -> dict[str, float]:
    """The bare app ticking at the frame rate for as long: its own RSS drift, for reference."""
    with Terminal(argv) as term:
        term.wait_footer()
        time.sleep(1.0)
        r0 = term.rss_mb()
        time.sleep(seconds)
        return {"growth": term.rss_mb() - r0}


def soak(seconds: float, env: dict[str, str] | None = None) -> list[tuple[float, int | None, float]]:
    samples = []
    with Terminal([*WAR, "--screensaver", "--speed", "max"], env) as term:
        term.wait_footer()
        began = time.monotonic()
        while (elapsed := time.monotonic() - began) < seconds:
            samples.append((elapsed, term.status(_GAME), term.rss_mb()))
            time.sleep(min(10.0, max(1.0, seconds / 30)))
        samples.append((time.monotonic() - began, term.status(_GAME), term.rss_mb()))
    return samples


# ----------------------------------------------------------------------- report


def med(values: list[float]) -> float:
    return statistics.median(values)


VARIANTS = {"on": "1", "off": "0"}
"""war-tui's runs, by name: the value of WAR_TUI_FASTPATH each runs with."""
PIECE_VARIANTS = {
    "no-scroll": "shadow,memory", "no-memory": "shadow,scroll",
}
"""With ``--pieces``: the fast path with one piece left out, beside all of it and none of it."""


def war_env(value: str) -> dict[str, str]:
    """The environment of a war-tui run: ``VALUE`` for WAR_TUI_FASTPATH, or ``VALUE@DIR`` with DIR's war_tui."""
    fastpath, _, source = value.partition("@")
    return {**WAR_ENV, "WAR_TUI_FASTPATH": fastpath, **({"PYTHONPATH": source} if source else {})}


def report_ratios(label: str, war: dict[str, list[float]], bare: list[float], unit: str, digits: int = 3) -> None:
    """Each variant's median, its ratio to the bare app's median and its runs' ratios to the bare run of their repeat."""
    for name, runs in war.items():
        pairs = [w / b for w, b in zip(runs, bare) if b]
        ratio = med(runs) / med(bare) if med(bare) else float("inf")
        print(f"   {label} {name:>9}: {med(runs):.{digits}f} {unit}  ratio {ratio:.2f}  "
              f"(each run against its repeat's bare run: {', '.join(f'{r:.2f}' for r in pairs)}; median {med(pairs):.2f})")
    print(f"   bare {'':>{len(label) + 4}} {med(bare):.{digits}f} {unit}  runs {', '.join(f'{v:.{digits}f}' for v in bare)}")


def rotated(names: list[str], turn: int) -> list[str]:
    """The variants in another order each repeat, so none always runs first after the bare app."""
    turn %= len(names)
    return names[turn:] + names[:turn]


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so atexit still runs
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle window")
    parser.add_argument("--auto-seconds", type=float, default=20.0, help="seconds of the 4 battles/s window")
    parser.add_argument("--battles", type=int, default=10_000, help="battles to reach at max speed")
    parser.add_argument("--max-seconds", type=float, default=20.0, help="and at least this long at max speed")
    parser.add_argument("--soak", type=float, default=0.0, help="seconds of a screensaver run (0: skip)")
    parser.add_argument("--war-src", help="measure the war_tui package in this directory (an older version, say)")
    parser.add_argument("--only", choices=["start", "idle", "auto", "max", "soak"], action="append")
    parser.add_argument("--fastpath", choices=["on", "off"], action="append",
                        help="only war-tui with its private speed-ups (war_tui/ui/fastpath/) or on public API alone "
                             "(default: both, side by side)")
    parser.add_argument("--baseline-src", help="also the war_tui package in this directory, fast path on and off "
                        "(base-on, base-off), in the same runs")
    parser.add_argument("--pieces", nargs="*", choices=list(PIECE_VARIANTS),
                        help="also war-tui with each piece of the fast path left out (no names: every piece)")
    args = parser.parse_args()
    variants = {name: VARIANTS[name] for name in (args.fastpath or ["on", "off"])}
    if args.pieces is not None:
        variants.update({name: PIECE_VARIANTS[name] for name in args.pieces or PIECE_VARIANTS})
    if args.baseline_src:
        base = Path(args.baseline_src).resolve()
        variants.update({f"base-{name}": f"{variants.get(name, VARIANTS[name])}@{base}" for name in ("on", "off")})
    names = list(variants)
    only = set(args.only or ["start", "idle", "auto", "max", "soak"])
    if args.war_src:
        WAR_ENV["PYTHONPATH"] = str(Path(args.war_src).resolve())

    print(f"war-tui UI speed at {COLS}x{ROWS}, {args.repeats} repeats, medians; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f} at start")
    print(f"python {sys.version.split()[0]}; war-tui = {' '.join(WAR[1:])}"
          f"{' from ' + args.war_src if args.war_src else ''}; "
          f"variants {', '.join(f'{n} (WAR_TUI_FASTPATH={v})' for n, v in variants.items())}; "
          "bare = benchmarks/bare_app.py; TERM=xterm-256color")
    ok = True

    for value in dict.fromkeys(variants.values()):  # compiles each tree's bytecode (see Terminal): no run below pays for it
        measure_start([*WAR, "--seed", "1"], war_env(value))
    if "start" in only:
        start_bare: list[tuple[float, float]] = []
        start_war: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for turn in range(args.repeats):
            start_bare.append(measure_start([*BARE]))
            for name in rotated(names, turn):
                start_war[name].append(measure_start([*WAR, "--seed", "1"], war_env(variants[name])))
        print(f"\n1. start to first full frame (last byte before {QUIET:g} s of quiet, after the footer; goal <= 1.5x), "
              "and the CPU spent until then")
        report_ratios("start", {name: [w for w, _ in runs] for name, runs in start_war.items()},
                      [w for w, _ in start_bare], "s")
        report_ratios("CPU", {name: [c for _, c in runs] for name, runs in start_war.items()},
                      [c for _, c in start_bare], "s")
        ok &= all(med([w for w, _ in runs]) / med([w for w, _ in start_bare]) <= 1.5 for runs in start_war.values())

    if "idle" in only:
        idle_b: list[tuple[int, float]] = []
        idle_w: dict[str, list[tuple[int, float]]] = {name: [] for name in names}
        for turn in range(args.repeats):
            idle_b.append(measure_idle([*BARE, "--rate", "0"], args.idle))
            for name in rotated(names, turn):
                idle_w[name].append(measure_idle([*WAR, "--seed", "1"], args.idle, war_env(variants[name])))
        bb, bc = med([b for b, _ in idle_b]), med([c for _, c in idle_b])
        print(f"\n2. paused and idle for {args.idle:g} s (war-tui without --auto; bare timer off)")
        for name, runs in idle_w.items():
            wb, wc = med([b for b, _ in runs]), med([c for _, c in runs])
            ok &= wb == 0 and wc <= max(0.05, 2 * bc)
            print(f"   {name:>9}: {wb:.0f} bytes, {wc:.2f} s CPU ({100 * wc / args.idle:.2f}% of a core)")
        print(f"   bare     : {bb:.0f} bytes, {bc:.2f} s CPU ({100 * bc / args.idle:.2f}%)")

    if "auto" in only:
        auto_b: list[tuple[int, float, int]] = []
        auto_w: dict[str, list[tuple[int, float, int]]] = {name: [] for name in names}
        war_auto = [*WAR, "--seed", str(AUTO_SEED), "--auto", "--speed", "4"]
        for turn in range(args.repeats):
            auto_b.append(measure_auto([*BARE, "--rate", "4"], args.auto_seconds))
            for name in rotated(names, turn):
                auto_w[name].append(measure_auto(war_auto, args.auto_seconds, war_env(variants[name])))
        bb = med([b for b, _, _ in auto_b])
        print(f"\n3. auto-play at 4 battles/s for {args.auto_seconds:g} s (bare: Static updated 4 times a second); "
              "goals: CPU <= 2.5x the bare app's, <= 1,500 bytes/battle with the fast path")
        report_ratios("CPU", {name: [c for _, c, _ in turns] for name, turns in auto_w.items()},
                      [c for _, c, _ in auto_b], "s")
        for name, turns in auto_w.items():
            per_battle = med([b / n for b, _, n in turns if n > 0] or [float("nan")])
            battles = med([n for _, _, n in turns])
            print(f"   bytes {name:>9}: {med([b for b, _, _ in turns]) / 1024:.1f} KB, {battles:.0f} battles on screen, "
                  f"{per_battle:.0f} bytes/battle (turns {', '.join(f'{b / n:.0f}' for b, _, n in turns if n > 0)})")
            cpu = med([c for _, c, _ in turns]) / med([c for _, c, _ in auto_b])
            ok &= cpu <= 2.5 and (variants[name] == "0" or per_battle <= 1500)
        print(f"   bytes      bare: {bb / 1024:.1f} KB, {bb / (4 * args.auto_seconds):.0f} bytes/update")

    if "max" in only:
        max_runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
        for turn in range(args.repeats):
            for name in rotated(names, turn):
                max_runs[name].append(measure_max([*WAR, *LONG_DEAL, "--auto", "--speed", "max"], args.battles,
                                                  args.max_seconds, 600, war_env(variants[name])))
        seconds = med([r["seconds"] for played in max_runs.values() for r in played])
        bare = measure_rate([*BARE, "--rate", "30"], seconds)
        print(f"\n4. max speed, past {args.battles:,} battles and {args.max_seconds:g} s "
              "(seed 293, gather laid: a deal that never ends by itself); goal: growth < 10 MB")
        for name, played in max_runs.items():
            growth = med([r["growth"] for r in played])
            ok &= growth < 10
            for r in played:
                print(f"   {name:>9}: RSS {r['early_rss']:.1f} MB at battle {r['early_battle']:,.0f} -> "
                      f"{r['late_rss']:.1f} MB at battle {r['late_battle']:,.0f} ({r['seconds']:.1f} s, "
                      f"{r['rate']:,.0f} battles/s, peak {r['peak']:.1f} MB)")
            print(f"   {name:>9}: median growth {growth:+.1f} MB")
        print(f"   bare app at 30 updates/s for {seconds:.0f} s: {bare['growth']:+.1f} MB")

    if "soak" in only and args.soak > 0:
        print(f"\n5. screensaver at max speed for {args.soak:g} s (default rules, game after game), "
              "every variant at the same time")
        with ThreadPoolExecutor(len(names)) as pool:
            soaks = dict(zip(names, pool.map(lambda name: soak(args.soak, war_env(variants[name])), names)))
        for name, samples in soaks.items():
            for elapsed, game, rss in samples:
                print(f"   {name:>9} {elapsed:6.0f} s  game {game if game is not None else '-':>4}  RSS {rss:.1f} MB")
            settled = [rss for elapsed, _, rss in samples if elapsed >= min(30, args.soak / 4)]
            if settled:
                print(f"   {name:>9} after the first {min(30, args.soak / 4):.0f} s: RSS {min(settled):.1f} to "
                      f"{max(settled):.1f} MB")

    print("\nall goals met" if ok else "\nsome goals missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
