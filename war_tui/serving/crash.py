"""How a game ended, in words for the log: its exit status, and a crash report in one line."""

from __future__ import annotations

import re
import signal

TRACEBACK = b"Traceback (most recent call last)"
TRACE_PLACE = re.compile(r'\s*File "(?:[^"]*/)?([^"/]*)", line (\d+)')
RICH_PLACE = re.compile(r"[│|]\s+(?:\S*/)?([^/\s]+\.pyx?):(\d+) in \S")
"""A frame's place in a Rich traceback's box (a Textual game's crash report): ``│ /path/lobby.py:123 in render``."""
RAISED = re.compile(r"[A-Za-z_][\w.]*(?::\s|$)")
"""The line that names the exception: ``MarkupError: closing tag...`` (never a box line or a source line)."""


def loggable(line: str) -> str:
    """One line of a game's error output as it may enter the server's log: printable, not too long."""
    shown = "".join(ch if ch.isprintable() else "?" for ch in line)
    return shown[:300]


def crash_summary(lines: list[str]) -> str:
    """What a crash report says in one line: the exception raised, and the last place it passed.

    Reads a plain Python traceback and a Rich one (a box of frames, then the exception's line) alike.
    """
    if not lines:
        return "no report"
    raised = next((line for line in reversed(lines) if RAISED.match(line)), None)
    if raised is None:  # no exception's line: the last line of words ("Fatal Python error: ..."), never a box's
        raised = next((line for line in reversed(lines) if line[:1].isalnum()), "no exception named")
    places = [(m[1], m[2]) for m in (TRACE_PLACE.match(line) or RICH_PLACE.match(line) for line in lines) if m]
    where = f" at {places[-1][0]}:{places[-1][1]}" if places else ""
    return loggable(raised.strip())[:200] + where


def report_lines(errors: bytes) -> list[str]:
    """The non-blank lines of what a game wrote to its crash-report pipe."""
    return [line for line in errors.decode(errors="replace").splitlines() if line.strip()]


def describe_status(status: int) -> str:
    if status >= 0:
        return f"exit status {status}"
    try:
        return f"killed by {signal.Signals(-status).name}"
    except ValueError:
        return f"killed by signal {-status}"
