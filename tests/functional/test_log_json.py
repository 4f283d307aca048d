"""``--log-format json``: a whole run of ``war-tui serve`` logs one JSON object a line, hostile names as data."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading

import pytest
from nodes_support import FAKE_TABLE, play
from ssh_support import TIMEOUT, Seat, connect

HOSTILE = 'ann" \\ {"level":"error"} \u00e9'
"""A user name a collector must read as one string: a quote, a backslash, braces, a space, a letter past ASCII
(what an SSH client sends as a user name; control characters are tested in the unit test of the format)."""


class JsonServer:
    """``war-tui serve --ssh 0 --web 0 --log-format json`` with its stderr collected, line by line."""

    def __init__(self, tmp_path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "war_tui", "serve", "--ssh", "0", "--web", "0", "--public", "--log-format", "json",
             "--no-preload", "--game-nice", "0", "--host-key", str(tmp_path / "key"),
             "--session-command", " ".join(FAKE_TABLE)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        self.lines: list[str] = []
        self.listening = threading.Event()
        self.reader = threading.Thread(target=self._collect, daemon=True)
        self.reader.start()

    def _collect(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            if sum('"event":"listening"' in seen for seen in self.lines) == 2:
                self.listening.set()
        self.listening.set()

    def ports(self) -> dict[str, int]:
        assert self.listening.wait(TIMEOUT), self.lines
        found = {}
        for line in self.lines:
            said = re.search(r"listening on \S+:(\d+): (ssh|open http)", line)
            if said:
                found[said.group(2)] = int(said.group(1))
        return found


async def hostile_websocket(port: int) -> None:
    """A browser's identity, then a websocket asking for a subprotocol made to look like JSON: aiohttp logs the
    refusal itself, which must reach the log as one line of the server's own format."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    page = (await asyncio.wait_for(reader.read(), TIMEOUT)).decode(errors="replace")
    writer.close()
    cookie = re.search(r"(?im)^Set-Cookie: ([^;]+)", page)
    assert cookie is not None, page
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f'Sec-WebSocket-Protocol: x"}}\t{{"level":"error\r\nCookie: {cookie[1]}\r\n\r\n'
    ).encode())
    assert (await asyncio.wait_for(reader.readline(), TIMEOUT)).startswith(b"HTTP/1.1 101")
    writer.close()


@pytest.mark.long_wait  # a server process's start-up and shutdown; each state waited for
async def test_every_line_of_a_served_table_game_and_its_shutdown_is_one_json_object(tmp_path):
    server = JsonServer(tmp_path)
    try:
        port = server.ports()["ssh"]
        seats = []
        for user in (HOSTILE, "bob"):
            conn = await connect(port, None, username=user)
            process = await conn.create_process("table oak", term_type="xterm-256color", term_size=(100, 30),
                                                encoding=None)
            seats.append(Seat(conn, process))
        await play(seats[0], seats[1], 3)
        await hostile_websocket(server.ports()["open http"])
        server.process.terminate()
        assert server.process.wait(TIMEOUT) == 0
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
    server.reader.join(TIMEOUT)  # the last lines are read after the process ended
    assert not server.reader.is_alive(), server.lines
    lines = list(server.lines)
    assert lines and all(line.endswith("\n") for line in lines)
    records = [json.loads(line) for line in lines]  # every line parses, or the test fails here
    for record in records:
        assert isinstance(record, dict)
        assert {"time", "level", "event", "message"} <= record.keys(), record
        assert record["level"] in ("info", "warning", "error"), record
    events = [record["event"] for record in records]
    assert events.count("listening") == 2 and "stopping" in events and events[-1] == "stopped", events
    library = [record for record in records if record["event"] == "library"]
    assert library and library[0]["level"] == "warning" and "Client protocols" in library[0]["message"], records
    connects = [record for record in records if record["event"] == "connect"]
    assert {record["user"] for record in connects} == {HOSTILE, "bob"}, connects
    assert all(record["address"].startswith("127.0.0.1:") for record in connects)
    places = [record for record in records if record["event"] == "place" and "seat" in record]
    assert sorted((record["table"], record["seat"]) for record in places) == [("oak", 1), ("oak", 2)], places
    gone = [record for record in records if record["event"] == "disconnect"]
    assert len(gone) == 2 and {record["table"] for record in gone} == {"oak"}, gone
    assert {record["user"] for record in gone} == {HOSTILE, "bob"}
    for seat in seats:
        seat.conn.close()


def test_a_server_that_cannot_start_says_why_in_one_json_line(capsys, private_home):
    from cli_helpers import run_main

    code, _, err = run_main(["serve", "--ssh", "0", "--log-format", "json"], capsys)
    assert code == 2 and err.count("\n") == 1, err
    record = json.loads(err)
    assert (record["event"], record["level"]) == ("cannot_start", "error")
    assert record["message"].startswith("war-tui serve: cannot read authorized keys")
