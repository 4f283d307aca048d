"""The embedded nats-server's warnings and errors in the server's log, on a budget of their own.

Anyone on the machine may knock at its port: each failed sign-in is a line of its log ("authentication
error"). Copied one for one, a stranger's loop would fill the server's shared flood budget, and the
server's own connection lines would be summarised away. So its lines pass at most ``LINES`` per ``WINDOW``
seconds; past that they are counted by what they say and summarised in one line as the window ends.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

LINES = 10
WINDOW = 60.0
"""At most ``LINES`` of its lines reach the log per ``WINDOW`` seconds; the rest make one summary line."""
KINDS = 3
"""What the held lines said, most frequent first, named in the summary."""

_WHO = re.compile(r"^\S+ - \w+:\d+ - ")  # "127.0.0.1:42320 - cid:5 - ": a connection's address and id


def kind(text: str) -> str:
    """What a line says without whom it is about: ``authentication error`` for each failed sign-in."""
    return _WHO.sub("", text).split(" - ", 1)[0][:60]


class LogBudget:
    """``__call__`` with each line; ``flush`` writes the summary of what was held (at the window's end, and
    when nats-server stops). ``schedule(delay, call)`` is the event loop's ``call_later``."""

    def __init__(
        self, log: Callable[[str], None], schedule: Callable[[float, Callable[[], None]], Any], *,
        lines: int = LINES, window: float = WINDOW, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._schedule = schedule
        self.lines = lines
        self.window = window
        self._clock = clock
        self._start = float("-inf")
        self._written = 0
        self._held: Counter[str] = Counter()
        self._timer: Any = None

    def __call__(self, text: str) -> None:
        now = self._clock()
        if now - self._start >= self.window:
            self.flush()
            self._start, self._written = now, 0
        if self._written < self.lines:
            self._written += 1
            self._log(f"nats-server: {text}")
            return
        self._held[kind(text)] += 1
        if self._timer is None:
            self._timer = self._schedule(max(0.0, self._start + self.window - now), self.flush)

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._held:
            held = sum(self._held.values())
            said = "; ".join(f"{n:,} {what}" for what, n in self._held.most_common(KINDS))
            more = "" if len(self._held) <= KINDS else "; ..."
            self._log(f"nats-server: {held:,} more lines held back within {self.window:g} s ({said}{more})")
            self._held.clear()
