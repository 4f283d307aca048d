"""The server's log formats: text for people, one JSON object a line for collectors, whatever a name holds."""

from __future__ import annotations

import io
import json

import pytest

from war_tui.serving.limits import FloodLog
from war_tui.serving.log_format import LogLine, format_line, place_fields, stream_log

NAMES = ['ann\n{"level":"error"}', "bob\r\x1b[2J\x00", "eve\u2028\u2029\x85\x1c", 'dan"}\\', "\ud800 lone"]


@pytest.mark.parametrize("name", NAMES)
def test_a_json_line_is_one_line_and_the_typed_name_comes_back_as_it_was(name):
    line = format_line(LogLine(f"connect 127.0.0.1:4022 user={name!r}", "connect", address="127.0.0.1:4022",
                               user=name), "json")
    assert line.endswith("\n") and len(line.splitlines()) == 1 and line.isascii()
    record = json.loads(line)
    assert record["user"] == name and record["event"] == "connect" and record["address"] == "127.0.0.1:4022"
    assert record["level"] == "info" and record["time"]


def test_a_plain_line_gets_its_event_level_and_fields_from_its_words():
    said = json.loads(format_line("tables: oak taken over from the store", "json"))
    assert said["event"] == "tables" and said["level"] == "info" and said["message"].startswith("tables: oak")
    said = json.loads(format_line("table oak: bob sits at seat 2 [addr:1]", "json"))
    assert (said["event"], said["table"], said["seat"]) == ("table", "oak", 2)
    said = json.loads(format_line("203.0.113.9:4022 did not read its goodbye in time", "json"))
    assert (said["event"], said["address"]) == ("connection", "203.0.113.9:4022")
    said = json.loads(format_line("flood: held back 80 connection lines in the last second", "json"))
    assert (said["event"], said["level"]) == ("flood", "warning")
    said = json.loads(format_line("error: unexpected error (OSError: too many open files)", "json"))
    assert said["level"] == "error"


def test_text_stays_a_stamp_and_the_sentence():
    line = format_line(LogLine("connect 127.0.0.1:4022 user=ann", "connect", user="ann"), "text")
    stamp, text = line.split(" ", 1)
    assert text == "connect 127.0.0.1:4022 user=ann\n" and stamp[:4].isdigit()


def test_the_flood_budget_is_the_same_in_json():
    out = io.StringIO()
    flood = FloodLog(stream_log("json", out), burst=3, clock=lambda: 7.0)
    for n in range(10):
        flood(LogLine(f"connect 10.0.0.{n}:22 user=x", "connect", address=f"10.0.0.{n}:22"))
    flood.flush()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [record["event"] for record in records] == ["connect"] * 3 + ["flood"]
    assert "7 connection lines" in records[-1]["message"]


def test_a_place_names_its_table_and_seat():
    assert place_fields("table oak seat 2 as ann lee (moved here)") == {"table": "oak", "seat": 2}
    assert place_fields("table oak watching as ann") == {"table": "oak", "seat": None}
    assert place_fields("lobby") == {"place": "lobby"}
    assert place_fields(None) == {}


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("tables: the store does not answer (TimeoutError: ); the tables wait for it", "warning"),
        ("tables: the store answers again", "info"),
        ("cluster: node n3f2 lost its lease (paused or cut off past 3 s); it lets its tables go", "warning"),
        ("cluster: node n3f2 holds a fresh lease; it serves and takes over tables again", "info"),
        ("NATS: disconnected; reconnecting", "warning"),
        ("NATS: reconnected to nats://nats-b:4222", "info"),
        ("relay: table oak moved from node n3f2, whose lease ran out, to this node: re-routing 2 connections", "warning"),
        ("tables: 2 tables restored: oak, elm", "info"),
        ("listening on 127.0.0.1:2222: ssh -p 2222 127.0.0.1", "info"),
        ("game of 127.0.0.1:4022 crashed (exit status 1): RuntimeError: x at app.py:1", "error"),
    ],
)
def test_trouble_is_a_warning_and_its_end_is_news(line, level):
    assert json.loads(format_line(line, "json"))["level"] == level


def test_a_librarys_error_with_its_traceback_is_one_line_of_the_servers_log():
    import logging

    from war_tui.serving.log_format import library_logs

    out = io.StringIO()
    flood = FloodLog(stream_log("json", out), burst=5)
    with library_logs(flood):
        try:
            raise OSError("broken\npipe")
        except OSError as exc:
            logging.getLogger("nats.aio.client").error("nats: encountered error", exc_info=exc)
        logging.getLogger("asyncssh").info("an info line stays out")
    logging.getLogger("nats.aio.client").warning("after serving: not ours")
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    record = json.loads(lines[0])
    assert (record["event"], record["level"], record["logger"]) == ("library", "error", "nats.aio.client")
    assert record["message"] == "nats.aio.client: nats: encountered error: OSError: broken pipe"


def test_aiohttps_error_is_one_line_of_the_doors_log_saying_where_it_was_raised():
    import logging

    from war_tui.web.http_guard import request_logger

    said: list[str] = []
    logger = request_logger(lambda line, kind: said.append(line))
    try:
        raise ValueError("bad\x1b[2J header\nfrom a client")
    except ValueError as exc:
        logger.log(logging.ERROR, "Error handling request", exc_info=exc)
    assert len(said) == 1
    assert said[0].startswith("web: Error handling request: ValueError at test_log_format.py:")
    assert said[0].endswith(": bad [2J header from a client")
