"""``--metrics``: every figure an operator reads is there and moves as a table is played, and no label grows with
who plays or how many tables there are.

An in-process server at the stand-in table game, its tables kept in a real nats-server, with the metrics listener
``serve-ssh --metrics`` opens: two players and a spectator at a table, a player at another, the lobby, a solo game
and a line session, a game played to its battle cap, refusals, and a flood of connections that never log in.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from metrics_support import get, metrics_of, scrape, value
from nodes_support import FAKE_TABLE, KEYS, close, cluster, keys, line_player, play, sit
from ssh_support import TIMEOUT, Seat, ServerProcess, connect, start_server, until
from ssh_support.players import MANY
from web_support import bob_seated, open_socket, read_lines, read_screen, web_client

from war_tui.core.rules import Rules
from war_tui.serving.counts import DOORS, GAME_ENDS, REFUSAL_REASONS, SESSION_KINDS
from war_tui.serving.metrics_http import MetricsListener

pytestmark = pytest.mark.app

METRICS = (
    "war_tui_sessions", "war_tui_tables", "war_tui_battles_total", "war_tui_games_total", "war_tui_refusals_total",
    "war_tui_screen_behind_seconds_count", "war_tui_store_write_seconds_count", "war_tui_node_lease",
    "war_tui_nats_connected", "war_tui_game_processes", "war_tui_flood_lines_held_total",
    "process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
)


async def solo(port: int) -> Seat:
    """A solo game: a terminal and no command."""
    conn = await connect(port, KEYS["eve"], username="eve")
    return Seat(conn, await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None))


async def line(port: int) -> Seat:
    """The line mode, with no terminal (``ssh -T HOST line``)."""
    conn = await connect(port, KEYS["eve"], username="eve")
    return Seat(conn, await conn.create_process("line", encoding=None))


async def never_log_in(port: int) -> None:
    """A connection that closes before it says a word (a port scan)."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()


async def test_every_metric_is_there_and_moves_as_a_table_is_played_and_no_label_grows(tmp_path, nats_server):
    srv = await start_server(
        tmp_path, keys(tmp_path), argv=FAKE_TABLE, cluster=cluster(nats_server, tmp_path),
        table_rules=Rules(max_battles=5), max_attempts_per_minute=100_000, **MANY,
    )
    listener = MetricsListener(srv.server, "127.0.0.1", 0)
    seats: list[Seat] = []
    try:
        await listener.start()
        listener.serving()
        assert listener.health is not None
        await until(lambda: listener.health.nats_answered)  # asked once a second
        before = await scrape(listener.port)
        names = {name for name, _labels in before}
        assert set(METRICS) <= names, set(METRICS) - names
        assert value(before, "war_tui_node_lease") == 1 and value(before, "war_tui_nats_connected") == 1
        assert value(before, "war_tui_battles_total") == 0 and value(before, "war_tui_tables") == 0
        assert await get(listener.port, "/healthz") == (200, "ok\n")
        assert await get(listener.port, "/readyz") == (200, "ok\n")

        ann = await sit(srv.port, "ann", "table oak")
        bob = await sit(srv.port, "bob", "table oak")
        seats += [ann, bob]
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        seats.append(await sit(srv.port, "eve", "watch oak"))
        seats.append(await sit(srv.port, "eve", "table elm"))
        seats.append(await sit(srv.port, "eve", "tables"))
        seats += [await solo(srv.port), await line(srv.port)]
        await seats[2].expect(r"SNAPSHOT you=eve seat=- ")
        await seats[3].expect(r"SNAPSHOT you=eve seat=1 ")
        await seats[4].expect(r"LOBBY 2/")
        await seats[5].expect(r"TABLE none")
        await seats[6].expect(r"TABLE none")
        await play(ann, bob, 5)
        await ann.expect(r"OVER \w+ after 5")

        refused = await sit(srv.port, "eve", "watch nosuch")  # no such table: bad input
        await refused.expect("there is no table called nosuch to watch")
        await close(refused)
        flooded = 0
        while srv.server.flood_log.held_total == 0 and flooded < 500:  # 20 lines a second pass, the rest wait
            await asyncio.gather(*(never_log_in(srv.port) for _ in range(25)))
            flooded += 25
        await until(lambda: srv.server.counts.screen_behind.count > 0)  # measured every second
        await until(lambda: srv.server.counts.refusals["auth"] >= flooded)  # each counted as it is let go

        during = await scrape(listener.port)
        assert set(during) == set(before)  # the same series, whoever plays and however many tables there are
        sessions = {kind: value(during, "war_tui_sessions", door="ssh", kind=kind) for kind in SESSION_KINDS}
        assert sessions == {"player": 3, "spectator": 1, "lobby": 1, "solo": 1, "line": 1}
        assert all(value(during, "war_tui_sessions", door="web", kind=kind) == 0 for kind in SESSION_KINDS)
        assert value(during, "war_tui_tables") == 2
        assert value(during, "war_tui_game_processes") == 7
        assert value(during, "war_tui_battles_total") == 5
        assert value(during, "war_tui_games_total", end="battle-cap") == 1
        assert sum(value(during, "war_tui_games_total", end=end) for end in GAME_ENDS) == 1
        assert value(during, "war_tui_refusals_total", reason="bad_input") >= 1
        assert value(during, "war_tui_refusals_total", reason="auth") >= flooded  # closed before logging in
        assert value(during, "war_tui_flood_lines_held_total") > 0
        assert value(during, "war_tui_store_write_seconds_count") > 0
        assert value(during, "war_tui_store_write_seconds_sum") > 0
        assert value(during, "war_tui_screen_behind_seconds_count") > 0
        assert value(during, "process_open_fds") > 0

        await close(*seats)
        seats.clear()
        await until(lambda: srv.server.game_processes() == 0)
        after = await scrape(listener.port)
        assert set(after) == set(before)
        assert all(value(after, "war_tui_sessions", door=door, kind=kind) == 0
                   for door in DOORS for kind in SESSION_KINDS)
        assert value(after, "war_tui_battles_total") == 5  # a counter: it never goes back
        assert {reason for (name, labels) in after if name == "war_tui_refusals_total"
                for (_label, reason) in labels} == set(REFUSAL_REASONS)
    finally:
        await close(*seats)
        await listener.stop()
        await srv.server.stop()


async def test_the_listener_answers_three_paths_and_nothing_else(tmp_path):
    async with await start_server(tmp_path, keys(tmp_path), argv=FAKE_TABLE) as srv, metrics_of(srv.server) as listener:
        assert await get(listener.port, "/readyz") == (503, "the server is starting\n")
        listener.serving()
        assert await get(listener.port, "/readyz") == (200, "ok\n")  # no cluster: nothing else to wait for
        assert (await get(listener.port, "/metrics?x=1"))[0] == 200
        assert await get(listener.port, "/metrics", "HEAD") == (200, "")
        assert (await get(listener.port, "/metrics", "POST"))[0] == 405
        assert (await get(listener.port, "/"))[0] == 404
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(b"GET /" + b"x" * 20_000)  # past the bound, and never ended
        assert await asyncio.wait_for(reader.read(), TIMEOUT) == b""  # dropped, not answered
        writer.close()
        listener.stopping()
        assert await get(listener.port, "/readyz") == (503, "the server is stopping\n")
        assert await get(listener.port, "/healthz") == (200, "ok\n")


NATS_GONE = ("NATS does not answer\n", "this node does not hold its lease\n")
"""What /readyz says once NATS is gone: whichever it notices first, the lease running out (2 s in the tests) or
its question to NATS going unanswered."""


async def readyz_until(port: int, status: int) -> str:
    """Ask ``/readyz`` until it answers ``status``; its body then."""
    answers: list[tuple[int, str]] = []

    async def asking() -> str:
        while True:
            answers.append(await get(port, "/readyz"))
            if answers[-1][0] == status:
                return answers[-1][1]
            await asyncio.sleep(0.05)

    try:
        return await asyncio.wait_for(asking(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"/readyz never answered {status}: {answers[-5:]}") from None


async def test_readyz_follows_nats_stopped_and_woken_killed_and_restarted(tmp_path, nats_server):
    """503 once NATS stops answering (SIGSTOP: the connection stays open; kill: it closes), 200 once it answers
    again and the node holds its lease; /healthz stays 200 throughout: the server itself is alive."""
    async with await start_server(tmp_path, keys(tmp_path), argv=FAKE_TABLE, cluster=cluster(nats_server, tmp_path)) as srv, \
            metrics_of(srv.server) as listener:
        process = nats_server.process
        listener.serving()
        assert await readyz_until(listener.port, 200) == "ok\n"
        process.send_signal(signal.SIGSTOP)
        try:
            assert await readyz_until(listener.port, 503) in NATS_GONE
            await until(lambda: listener.health is not None and not listener.health.nats_connected)
            assert value(await scrape(listener.port), "war_tui_nats_connected") == 0
            assert await get(listener.port, "/healthz") == (200, "ok\n")
        finally:
            process.send_signal(signal.SIGCONT)
        assert await readyz_until(listener.port, 200) == "ok\n"
        samples = await scrape(listener.port)
        assert value(samples, "war_tui_nats_connected") == 1 and value(samples, "war_tui_node_lease") == 1

        nats_server.kill()
        assert await readyz_until(listener.port, 503) in NATS_GONE
        assert value(await scrape(listener.port), "war_tui_nats_connected") == 0
        nats_server.start()  # on the same port and store, as an operator's restart
        assert await readyz_until(listener.port, 200) == "ok\n"
        assert value(await scrape(listener.port), "war_tui_node_lease") == 1


async def metrics_port(server: ServerProcess) -> int:
    """The port of the metrics listener, as its line says (logged after the doors')."""
    for _ in range(int(TIMEOUT / 0.05)):
        for line in list(server.lines):
            if match := re.search(r"listening on 127\.0\.0\.1:(\d+): metrics at ", line):
                return int(match[1])
        await asyncio.sleep(0.05)
    raise AssertionError(f"no metrics line: {server.lines}")


@pytest.mark.serial  # /readyz asked while the server stops: a starved test can miss that span
async def test_at_sigterm_readyz_says_stopping_before_the_doors_close(tmp_path):
    """serve-ssh with --metrics, a player at a table: from SIGTERM on /readyz says the server is stopping while it
    still ends its games and hands its tables over; no answer after the first 503 is ready again."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    with ServerProcess("--public", "--port", "0", "--metrics", "0", env=env) as server:
        port = server.wait_listening()
        metrics = await metrics_port(server)
        assert await readyz_until(metrics, 200) == "ok\n"
        player = await line_player(port, "ann")
        await player.until("You sit at table oak in seat 1")
        answers: list[tuple[int, str]] = []
        server.process.send_signal(signal.SIGTERM)
        with contextlib.suppress(ConnectionError, OSError):
            while server.process.poll() is None:
                answers.append(await get(metrics, "/readyz"))
        assert server.process.wait(TIMEOUT) == 0
        stopping = [answer for answer in answers if answer[0] != 200]
        assert stopping and set(stopping) == {(503, "the server is stopping\n")}, answers
        assert (200, "ok\n") not in answers[answers.index(stopping[0]):]


async def test_healthz_says_when_the_event_loop_did_not_answer_within_a_second(tmp_path):
    async with await start_server(tmp_path, keys(tmp_path), argv=FAKE_TABLE) as srv, metrics_of(srv.server) as listener:
        health = listener.health
        assert health is not None
        await until(lambda: health.not_alive() is None)
        time.sleep(1.5)  # the event loop held by one call, as a runaway one would hold it
        why = health.not_alive()
        assert why is not None and why.startswith("the event loop answered "), why
        await until(lambda: health.not_alive() is None)  # it answers again
        assert await get(listener.port, "/healthz") == (200, "ok\n")


async def test_operations_md_names_every_metric_and_every_refusal_reason_and_no_other(tmp_path):
    text = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    async with await start_server(tmp_path, keys(tmp_path), argv=FAKE_TABLE) as srv, metrics_of(srv.server) as listener:
        _status, body = await get(listener.port, "/metrics")
    served = set(re.findall(r"^# TYPE (war_tui_\w+) (\w+)", body, re.MULTILINE))
    documented = set(re.findall(r"^\| `(war_tui_\w+)(?:\{[a-z,]+\})?` \| (\w+) \|", text, re.MULTILINE))
    assert served == documented
    table = text.split("The reasons of `war_tui_refusals_total`:")[1].strip().split("\n\n", 1)[0]  # that table alone
    reasons = re.findall(r"^\| `(\w+)` \| ", table, re.MULTILINE)
    assert tuple(reasons) == REFUSAL_REASONS


async def test_the_web_doors_games_are_counted_as_the_web_doors(tmp_path):
    """A browser at a table and one in the line mode, beside an SSH spectator: each counted under its own door;
    a websocket from another site is a refusal (bad input)."""
    async with bob_seated(tmp_path, "oak") as (door, bob):
        async with metrics_of(door.server) as listener:
            await bob.expect(r"SNAPSHOT you=bob seat=1 ")
            async with web_client() as client, web_client("u" * 43) as other:
                ann = await open_socket(client, door, "/table/oak")
                await read_screen(ann, r"SNAPSHOT you=ann seat=2 ")
                line_game = await open_socket(other, door, "/line")
                await read_lines(line_game, r"TABLE none")
                with contextlib.suppress(aiohttp.WSServerHandshakeError):
                    await open_socket(client, door, "/watch/oak", origin_header="http://evil.example")
                samples = await scrape(listener.port)
                assert value(samples, "war_tui_sessions", door="web", kind="player") == 1
                assert value(samples, "war_tui_sessions", door="web", kind="line") == 1
                assert value(samples, "war_tui_sessions", door="ssh", kind="player") == 1
                assert value(samples, "war_tui_refusals_total", reason="bad_input") == 1
                await ann.close()
                await line_game.close()


def test_the_metrics_listener_loads_no_web_server_and_no_ssh():
    """The metrics listener brings no web server with it: serve-ssh --metrics loads no aiohttp (nor the web door)."""
    code = ("import sys, war_tui.serving.metrics_http, war_tui.commands.serve_ssh; "
            "print(sorted(m for m in ('aiohttp', 'asyncssh', 'war_tui.web.server') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.stdout.strip() == "[]", result.stderr
