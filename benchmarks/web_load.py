"""The web door beside the SSH door, one ``war-tui serve --ssh 0 --web 0`` process, the real game.

    python benchmarks/web_load.py [--flips 40] [--sessions 30] [--no-browser]

1. Latency: a key to the first frame back, median over ``--flips`` flips of a solo game, for
   (a) a browser (Debian's chromium through Playwright: the time from the page's websocket send of the
   space to its first message back, read in the page), (b) a websocket client (aiohttp) and (c) an SSH
   client (asyncssh on a pty), all in the same run. Goal: the browser's median <= 30 ms on loopback.
2. Memory: ``--sessions`` websocket sessions and as many SSH sessions at once, each a solo game with its
   board drawn; per session: its game's PSS (from ``/proc/PID/smaps_rollup``) plus the server's RSS
   growth per session of that door. Goal: a web session within 10% of an SSH session.
3. Hold and clear: every one of the 2 x ``--sessions`` games answers a key while all are open; after all
   close, no game process and no session is left.

The server runs as its own process (--public on loopback ports, statistics in a scratch folder); the
clients run in this process and share the machine's two cores with it. Every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from ssh_clients import children, connect, is_nats_server

SIZE = (100, 30)
WAIT = 60.0
BOARD = b"Battle"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
# In the page, before its own script: when a key goes out, note the time; the next message back closes the interval.
TIMING_SCRIPT = """
(() => {
  window.__gaps = [];
  const Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    window.__url = String(url);
    const socket = new Native(url, protocols);
    let sent = null;
    const send = socket.send.bind(socket);
    socket.send = (data) => { if (typeof data !== "string") sent = performance.now(); send(data); };
    socket.addEventListener("message", () => {
      if (sent !== null) { window.__gaps.push(performance.now() - sent); sent = null; }
    });
    return socket;
  };
  window.WebSocket.OPEN = Native.OPEN;
})();
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flips", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--no-browser", action="store_true", help="leave out the browser's latency")
    return parser.parse_args()


class Serve:
    """``war-tui serve --ssh 0 --web 0 --public`` with generous caps, its log in ``workdir``."""

    def __init__(self, workdir: Path, sessions: int) -> None:
        many = str(2 * sessions + 10)
        command = [
            sys.executable, "-m", "war_tui", "serve", "--ssh", "0", "--web", "0", "--public",
            "--host-key", str(workdir / "host_key"), "--max-sessions", many, "--max-sessions-per-address", many,
            "--web-max-sessions", many, "--web-max-sessions-per-address", many,
            "--max-attempts-per-minute", "100000", "--max-server-mb", "4000",
        ]
        self.log = open(workdir / "server.log", "w+")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=self.log, env=env)
        self.ssh_port = self.web_port = 0

    def text(self) -> str:
        self.log.seek(0)
        return self.log.read()

    async def wait_ready(self) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            text = self.text()
            ssh = re.search(r"listening on \S+:(\d+): ssh", text)
            web = re.search(r"listening on \S+:(\d+): open http", text)
            if ssh and web and "game parent ready" in text:
                self.ssh_port, self.web_port = int(ssh[1]), int(web[1])
                return
            if self.process.poll() is not None:
                break
            await asyncio.sleep(0.05)
        raise SystemExit(f"server did not start:\n{self.text()}")

    def games(self) -> list[int]:
        pids = []
        for pid in children(self.process.pid):
            try:
                preload = b"war_tui.preload" in Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if not is_nats_server(pid):  # the server's embedded NATS is no game
                pids += children(pid) if preload else [pid]
        return pids

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
        assert found, status
        return int(found[1])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def pss_kib(pid: int) -> int | None:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    found = re.search(r"^Pss:\s+(\d+)", rollup, re.M)
    return int(found[1]) if found else None


class WebPlayer:
    def __init__(self, client: aiohttp.ClientSession, ws) -> None:
        self.client = client
        self.ws = ws
        self.seen = bytearray()
        self.more = asyncio.Event()
        self.pump = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, port: int, n: int, size: tuple[int, int] = SIZE) -> WebPlayer:
        client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # keeps 127.0.0.1's cookie
        async with client.get(f"http://127.0.0.1:{port}/") as page:  # the page issues a signed identity
            await page.read()
        ws = await client.ws_connect(
            f"http://127.0.0.1:{port}/ws?name=w{n}&cols={size[0]}&rows={size[1]}",
            headers={"Origin": f"http://127.0.0.1:{port}"}, max_msg_size=0,
        )
        return cls(client, ws)

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                self.seen += message.data
                self.more.set()

    def send(self, keys: bytes) -> None:
        asyncio.ensure_future(self.ws.send_bytes(keys))

    async def close(self) -> None:
        await self.ws.close()
        await self.client.close()
        self.pump.cancel()


class SshPlayer:
    def __init__(self, conn, process) -> None:
        self.conn = conn
        self.process = process
        self.seen = bytearray()
        self.more = asyncio.Event()
        self.pump = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, port: int, n: int, size: tuple[int, int] = SIZE) -> SshPlayer:
        conn = await connect(port, f"s{n}")
        process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        return cls(conn, process)

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.seen += chunk
            self.more.set()

    def send(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        self.pump.cancel()


async def until_seen(player, pattern: bytes, start: int = 0, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while pattern not in player.seen[start:]:
        player.more.clear()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise SystemExit(f"no {pattern!r} in time: {bytes(player.seen[-300:])!r}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(player.more.wait(), min(remaining, 0.5))


async def quiet(player, seconds: float = 0.3) -> None:
    """Wait until the player's screen has been still for ``seconds`` (an animation finished)."""
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        size = len(player.seen)
        await asyncio.sleep(seconds)
        if len(player.seen) == size:
            return


async def key_to_frame(player, flips: int) -> list[float]:
    """Milliseconds from a space sent to the first bytes back, one per flip."""
    gaps = []
    for _ in range(flips + 3):
        await quiet(player)
        before = len(player.seen)
        player.more.clear()
        started = time.perf_counter()
        player.send(b" ")
        while len(player.seen) == before:
            player.more.clear()
            await asyncio.wait_for(player.more.wait(), 10)
        gaps.append((time.perf_counter() - started) * 1000)
    return gaps[3:]  # the first flips warm the game up


async def browser_gaps(port: int, flips: int) -> tuple[list[float], tuple[int, int]] | None:
    """The browser's key-to-message gaps, and the terminal size its page asked for."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    executable = "/usr/bin/chromium"
    if not os.path.exists(executable):
        return None
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            page = await browser.new_page(viewport={"width": 1100, "height": 760})
            await page.add_init_script(TIMING_SCRIPT)
            await page.goto(f"http://127.0.0.1:{port}/")
            await page.fill("#name", "bench")
            await page.press("#name", "Enter")
            deadline = time.monotonic() + WAIT
            while "Battle" not in await page.inner_text(".xterm-rows"):
                assert time.monotonic() < deadline, "no board in the browser"
                await asyncio.sleep(0.1)
            gaps: list[float] = []
            for flip in range(flips + 3):
                await asyncio.sleep(0.4)
                count = await page.evaluate("window.__gaps.length")
                await page.keyboard.press("Space")
                while await page.evaluate("window.__gaps.length") == count:
                    await asyncio.sleep(0.01)
                if flip >= 3:
                    gaps.append(await page.evaluate("window.__gaps[window.__gaps.length - 1]"))
            url = await page.evaluate("window.__url")
            cols, rows = re.search(r"cols=(\d+)", url), re.search(r"rows=(\d+)", url)
            assert cols and rows, url
            size = (int(cols[1]), int(rows[1]))
            return gaps, size
        finally:
            await browser.close()


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ms (p90 {statistics.quantiles(values, n=10)[-1]:.1f})"


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="war-tui-web-bench-") as scratch:
        server = Serve(Path(scratch), args.sessions)
        try:
            await server.wait_ready()
            return await measure(args, server)
        finally:
            server.stop()


async def measure(args: argparse.Namespace, server: Serve) -> int:
    print(f"load average at start: {load_average()}")
    # 1. latency, one player at a time, the clients at the size of the browser's terminal
    browser = None if args.no_browser else await browser_gaps(server.web_port, args.flips)
    page_gaps, size = browser if browser is not None else (None, SIZE)
    ssh = await SshPlayer.open(server.ssh_port, 0, size)
    await until_seen(ssh, BOARD)
    ssh_gaps = await key_to_frame(ssh, args.flips)
    await ssh.close()
    web = await WebPlayer.open(server.web_port, 0, size)
    await until_seen(web, BOARD)
    web_gaps = await key_to_frame(web, args.flips)
    await web.close()
    print(f"1. key -> first frame back at {size[0]}x{size[1]}, median over {args.flips} flips "
          "(goal: browser <= 30 ms):")
    if page_gaps:
        print(f"   browser (chromium, in the page)  {median(page_gaps)}")
    print(f"   websocket client (aiohttp)       {median(web_gaps)}")
    print(f"   SSH client (asyncssh, pty)       {median(ssh_gaps)}")
    await asyncio.sleep(2.0)

    # 2. memory: the web door's sessions first, then the SSH door's, the server's growth for each
    base_rss = server.rss_kib()
    webs = []
    player: WebPlayer | SshPlayer
    for n in range(args.sessions):
        webs.append(await WebPlayer.open(server.web_port, n + 1))
    for player in webs:
        await until_seen(player, BOARD)
    await asyncio.sleep(2.0)
    web_rss = server.rss_kib()
    web_games = set(server.games())
    sshs = []
    for n in range(args.sessions):
        sshs.append(await SshPlayer.open(server.ssh_port, n + 1))
    for player in sshs:
        await until_seen(player, BOARD)
    await asyncio.sleep(2.0)
    both_rss = server.rss_kib()
    per_door: dict[str, list[int]] = {"web": [], "ssh": []}
    for pid in server.games():  # the games that came after the web door's are the SSH door's
        pss = pss_kib(pid)
        if pss is not None:
            per_door["web" if pid in web_games else "ssh"].append(pss)
    web_server = (web_rss - base_rss) / args.sessions
    ssh_server = (both_rss - web_rss) / args.sessions
    web_total = statistics.median(per_door["web"]) + web_server
    ssh_total = statistics.median(per_door["ssh"]) + ssh_server
    print(f"2. memory per session, {args.sessions} + {args.sessions} at once (goal: web within 10% of SSH):")
    print(f"   web: game PSS median {statistics.median(per_door['web']) / 1024:.1f} MiB ({len(per_door['web'])} games)"
          f" + server {web_server:.0f} KiB = {web_total / 1024:.1f} MiB")
    print(f"   SSH: game PSS median {statistics.median(per_door['ssh']) / 1024:.1f} MiB ({len(per_door['ssh'])} games)"
          f" + server {ssh_server:.0f} KiB = {ssh_total / 1024:.1f} MiB")
    print(f"   web / SSH = {web_total / ssh_total:.3f}")

    # 3. every game answers while all are open; then all close and nothing is left
    everyone = webs + sshs
    marks = [len(player.seen) for player in everyone]
    for player in everyone:
        player.send(b" ")
    answered = 0
    for player, mark in zip(everyone, marks):
        await until_seen(player, b"\x1b", mark)
        answered += 1
    print(f"3. {answered} of {len(everyone)} sessions answered a key while all were open; "
          f"load average {load_average()}")
    for player in everyone:
        await player.close()
    deadline = time.monotonic() + WAIT
    while server.games() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    expected = (args.sessions + 1 + (page_gaps is not None), args.sessions + 1)

    def disconnects() -> tuple[int, int]:
        log = server.text()
        return log.count(" web disconnect "), len(re.findall(r"^\S+ disconnect ", log, re.M))

    while disconnects() < expected and time.monotonic() < deadline + 10:  # each is logged once its game is gone
        await asyncio.sleep(0.1)
    web_lines, ssh_lines = disconnects()
    left = server.games()
    print(f"   after all closed: {len(left)} game processes left; {web_lines} web and "
          f"{ssh_lines} SSH disconnect lines (of {expected[0]} and {expected[1]}); server RSS {server.rss_kib() / 1024:.1f} MiB "
          f"(at start {base_rss / 1024:.1f})")
    return 0 if not left and answered == len(everyone) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
