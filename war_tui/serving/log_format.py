"""The server's log lines as text (a person reads them) or as JSON objects, one a line (a collector reads them).

Every line goes through the same ``log`` callable and the same flood budgets whatever the format: a call site
that knows its fields (an address, a player's name, a table, a seat, a reason) hands a ``LogLine``, a ``str``
that carries them; any other line gets its event and level from its own words. In JSON a player's typed name
is a string field, escaped by ``json.dumps`` with ``ensure_ascii``: no character of it can end a line early.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TextIO

FORMATS = ("text", "json")
"""``--log-format``'s choices; text is the default."""

Field = str | int | float | bool | None


class LogLine(str):
    """A log line as text, with the event it reports and its fields for the JSON format."""

    event: str
    fields: dict[str, Field]

    def __new__(cls, text: str, event: str, **fields: Field) -> LogLine:
        line = super().__new__(cls, text)
        line.event = event
        line.fields = {key: value for key, value in fields.items() if value is not None}
        return line


_EVENT = re.compile(r"(?P<event>[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?)(?::| on | [a-z0-9-]+: )")
_ADDRESS = re.compile(r"(?<![\w.:\[])(?P<address>(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}|\[[0-9A-Fa-f:.]+\]:\d{1,5})(?![\w:])")
_TABLE = re.compile(r"\btable (?P<table>[a-z0-9-]{1,24})\b(?: (?:seat (?P<seat>\d+)|(?P<watching>watching)))?")
_SEAT = re.compile(r"\bseat (?P<seat>\d{1,2})\b")
_WARNINGS = ("warning", "flood", "memory", "server_full", "nats", "nats_server")
_ERRORS = ("error",)
_TROUBLE = ("refused", "does not answer", "did not", "lost its lease", "let go", "not restored", "could not",
            "whose lease ran out", "not ready", "died", "exited with status", "no such", "cannot")
"""Words of a line that reports trouble whatever its event: a store away, a lease lost, a table moved."""
_RECOVERED = ("reconnected", "answers again", "holds a fresh lease")


def place_fields(where: str | None) -> dict[str, Field]:
    """The table and seat of a place as the server logs it (``table oak seat 1 as ann``, ``lobby``)."""
    if where is None:
        return {}
    found = _TABLE.match(where)
    if found is None:
        return {"place": where.split(" ", 1)[0]} if where else {}
    seat = found.group("seat")
    return {"table": found.group("table"), "seat": int(seat) if seat is not None else None}


def event_of(text: str) -> str:
    """What a plain line reports, from its first words: ``tables: ...`` is ``tables``, ``table oak: ...`` is
    ``table``, ``game parent ready`` is ``game``, ``203.0.113.9:4022 did not ...`` is ``connection``."""
    if _ADDRESS.match(text):
        return "connection"
    found = _EVENT.match(text)
    words = found.group("event") if found is not None else text.split(" ", 1)[0]
    if not words.replace("-", "").replace(" ", "").isalpha():
        return "line"
    if words.startswith("table "):  # ``table oak: ...``: the table is a field, not a kind of line
        return "table"
    return words.lower().replace(" ", "_").replace("-", "_")


def level_of(event: str, text: str) -> str:
    """``error`` for errors and crashes, ``warning`` for trouble (``info`` again once it is over), else ``info``."""
    if event in _ERRORS or " crashed " in text:
        return "error"
    if any(words in text for words in _RECOVERED):
        return "info"
    if event in _WARNINGS or any(words in text for words in _TROUBLE):
        return "warning"
    return "info"


def json_fields(line: str) -> dict[str, Field]:
    """The object a line is in the JSON format, time apart."""
    if isinstance(line, LogLine):
        event, fields = line.event, dict(line.fields)
    else:
        event, fields = event_of(line), {}
        address = _ADDRESS.search(line)
        if address is not None:
            fields["address"] = address.group("address")
        table = _TABLE.search(line)
        if table is not None:
            fields["table"] = table.group("table")
            seat = _SEAT.search(line, table.end("table"))
            if seat is not None:
                fields["seat"] = int(seat.group("seat"))
    level = fields.pop("level", None) or level_of(event, line)
    return {"level": level, "event": event, **fields, "message": str(line)}


def text_stamp() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def json_stamp() -> str:
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


def format_line(line: str, log_format: str) -> str:
    """One line of the log, newline included."""
    if log_format == "json":
        return json.dumps({"time": json_stamp(), **json_fields(line)}, ensure_ascii=True, separators=(",", ":")) + "\n"
    return f"{text_stamp()} {line}\n"


def stream_log(log_format: str = "text", stream: TextIO | None = None) -> Callable[[str], None]:
    """The server's ``log``: each line to ``stream`` (stderr) in ``log_format``, flushed at once."""

    def log(line: str) -> None:
        out = stream if stream is not None else sys.stderr
        out.write(format_line(line, log_format))
        out.flush()

    return log


MAX_LIBRARY_LINE = 300
"""Characters of a library's log message the server's log keeps: a client's bytes may be inside."""


class LibraryLog(logging.Handler):
    """Warnings and errors the libraries log themselves (aiohttp, nats-py, asyncssh) as one line each, through the
    server's flood-bounded log and in its format: never a traceback, never a line a client's bytes could break.

    Without it Python writes them to stderr as they are, beside the server's own lines and past its budgets."""

    def __init__(self, flood_log: Callable[[str, str], None]) -> None:
        super().__init__(logging.WARNING)
        self.flood_log = flood_log

    def emit(self, record: logging.LogRecord) -> None:
        self.flood_log(LogLine(f"{record.name}: {record_line(record, MAX_LIBRARY_LINE)}", "library",
                               level=record.levelname.lower(), logger=record.name), "library log lines")


def record_line(record: logging.LogRecord, limit: int, *, where: bool = False) -> str:
    """A library's log record as one printable line of at most ``limit`` characters: its message and the exception
    it carries (with ``where``, the file and line that raised it), never a traceback. A client's bytes may be
    inside, so nothing of it can break the line."""
    try:
        text = record.getMessage()
    except (TypeError, ValueError):
        text = str(record.msg)
    exc = record.exc_info[1] if record.exc_info else None
    if exc is not None:
        text += f": {type(exc).__name__}{where_raised(exc) if where else ''}: {exc}"
    return one_line(text, limit)


def one_line(text: str, limit: int) -> str:
    """``text`` printable, on one line, at most ``limit`` characters."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())[:limit]


def where_raised(exc: BaseException) -> str:
    """`` at FILE:LINE`` of the innermost frame ``exc`` passed; "" when it carries no traceback."""
    last = exc.__traceback__
    if last is None:
        return ""
    while last.tb_next is not None:
        last = last.tb_next
    return f" at {last.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{last.tb_lineno}"


@contextmanager
def library_logs(flood_log: Callable[[str, str], None]) -> Iterator[None]:
    """While serving, the libraries' warnings go through ``flood_log`` (``LibraryLog``) instead of bare stderr."""
    handler = LibraryLog(flood_log)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
