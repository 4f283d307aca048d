"""War TV's link: a spectator's link that follows the live table most worth watching, whichever node serves it.

``TvLink`` stands where a door's link stands (the table socket pumps it). It watches one table at a time through a
link of its own (``open_link``: a ``Link`` here, or a cluster's router to the node that serves it), counted as
any spectator and bound by the same caps. It chooses the table from the lobby every node reads (``lobby``,
``serving.tv.choose_table``), tells its game which one and why (``Tuned``) before the table's snapshot, and moves
on ``MOVE_AFTER`` seconds after the game on show ends, or at once when the table closes, turns it away or its
viewer asks for the next (``NextTable``, n). With no live table it says so and looks again every ``LOOK_EVERY``
seconds. It reads what the table says only to see a game end: a batch that ends one, or a snapshot of a game over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...tables.clock import Clock, monotonic
from ...tables.link import MAX_QUEUED_BYTES, DoorLink
from ...tables.messages import Lobby, NextTable, Notice, NoticeCode, Tuned
from ...tables.protocol import VERSION, encode
from ...tables.rate import TokenBucket
from ...tables.registry import TableRefused
from ...tables.table import Member
from ..tv import NO_OTHER, Choice, choose_table

MOVE_AFTER = 1.0
"""Seconds War TV stays on a table after its game ended (its viewer sees the result) before it moves on."""
LOOK_EVERY = 0.5
"""Seconds between looks at the lobby while no table is live."""
REFUSED_FOR = 10.0
"""Seconds a table that turned War TV away (all the spectators it takes, closing) is passed over."""
SKIP_RATE = 2.0
SKIP_BURST = 4.0
"""Tables a viewer may skip to a second on average (each opens a link, and in a cluster may reach another node)."""
ON_TV = "on War TV"
"""How a TV viewer came to each table (``on_join``: the log)."""
SLOW_DOWN = "one table at a time: wait a moment before skipping again"

_NEXT = encode(NextTable()).rstrip(b"\n")
_EVENTS = b'{"v":%d,"kind":"events"' % VERSION
_SNAPSHOT = b'{"v":%d,"kind":"snapshot"' % VERSION
_OVER = b'"type":"over"'
_STARTED = b'"type":"started"'
_RESULT = b'"result":'


def ends_game(data: bytes) -> bool | None:
    """Whether what a table told (whole lines) leaves its game over (True), under way (False), or says neither (None).

    A batch is read for its last deal or end; a snapshot for its result, the first ``"result":`` of its line (the
    snapshot's own: its state has none, and names and texts are JSON strings, where a quote is escaped)."""
    said: bool | None = None
    for line in data.split(b"\n"):
        if line.startswith(_EVENTS):
            over, started = line.rfind(_OVER), line.rfind(_STARTED)
            if over >= 0 or started >= 0:
                said = over > started
        elif line.startswith(_SNAPSHOT):
            at = line.find(_RESULT)
            if at >= 0:
                said = not line.startswith(b"null", at + len(_RESULT))
    return said


class TvLink:
    """One viewer's War TV (see the module's docstring); ``start`` once its game's socket pumps it."""

    def __init__(
        self,
        open_link: Callable[[], DoorLink],
        lobby: Callable[[], Lobby],
        *,
        max_spectators: int | None = None,
        stopping: Callable[[], bool] = lambda: False,
        wake: Callable[[], None] = lambda: None,
        clock: Clock = monotonic,
    ) -> None:
        """``open_link``: a new link to the tables, one per table watched; ``lobby``: every node's tables now;
        ``stopping``: the server is closing (a table's closing notice then ends War TV too); ``wake``: the tables'
        timers look again (after a join)."""
        self._open_link = open_link
        self._lobby = lobby
        self._max_spectators = max_spectators
        self._stopping = stopping
        self._wake = wake
        self.clock = clock
        self.on_join: Callable[[str, Member, str], None] | None = None
        self._on_output: Callable[[], None] | None = None
        self._max_queued = MAX_QUEUED_BYTES
        self._inner: DoorLink | None = None
        self.table: str | None = None
        """The table on show (None: none)."""
        self.why: str | None = None
        """Why War TV is on it, or on none, as its viewer was told last."""
        self._own: list[bytes] = []
        self._closed = False
        self._reason: str | None = None
        self._refused: dict[str, float] = {}
        self._skips = TokenBucket(SKIP_RATE, SKIP_BURST, clock())
        self._timer: asyncio.TimerHandle | None = None
        self._due: tuple[float, str | None] | None = None
        """When War TV looks again, and the table it then leaves (None: it waits for a live one)."""
        self.moves = 0
        """Tables tuned in to (for the log and the tests)."""

    # -- what the table socket pumps ------------------------------------------------------------------

    @property
    def on_output(self) -> Callable[[], None] | None:
        return self._on_output

    @on_output.setter
    def on_output(self, call: Callable[[], None] | None) -> None:
        self._on_output = call
        if self._inner is not None:
            self._inner.on_output = call

    @property
    def max_queued(self) -> int:
        return self._max_queued

    @max_queued.setter
    def max_queued(self, size: int) -> None:
        self._max_queued = size
        if self._inner is not None:
            self._inner.max_queued = size

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def close_reason(self) -> str | None:
        return self._reason

    @property
    def member(self) -> Member | None:
        return self._inner.member if self._inner is not None else None

    @property
    def queued(self) -> int:
        return sum(map(len, self._own)) + (self._inner.queued if self._inner is not None else 0)

    @property
    def finished(self) -> bool:
        return self._closed and not self._own and (self._inner is None or self._inner.finished)

    def start(self) -> None:
        """Tune in to the table most worth watching now (or say there is none, and wait for one)."""
        self._tune(None, skipping=False)

    def receive(self, data: bytes) -> None:
        """The game's requests: n is War TV's own, the rest the table's (none while no table is on show)."""
        if self._closed:
            return
        lines = data.split(b"\n") if _NEXT in data else []
        if any(line == _NEXT for line in lines):
            data = b"\n".join(line for line in lines if line != _NEXT)
            self._skip()
        if data.strip(b"\n") and self._inner is not None:
            self._inner.receive(data)

    def take(self) -> bytes:
        own = b"".join(self._own)
        self._own.clear()
        inner = self._inner
        if inner is None:
            return own
        data = inner.take()
        if inner.closed and not self._closed:
            if self._stopping():  # the server is closing: so is War TV, its viewer told why
                self._closed = True
                return own + data
            self._refused[self.table or ""] = self.clock()  # closed, or turned War TV away: another one
            self._leave()
            self._look(0.0, None)
            return own
        if data and self._due is None and ends_game(data):  # on then: elsewhere, or here again once dealt and live
            self._look(MOVE_AFTER, self.table)
        return own + data

    def next_deadline(self) -> float | None:
        return self._inner.next_deadline() if self._inner is not None else None

    def poll(self) -> None:
        if self._inner is not None:
            self._inner.poll()

    def close(self, reason: str | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        self._reason = reason
        self._cancel()
        if self._inner is not None:
            self._inner.close(reason)

    # -- choosing -------------------------------------------------------------------------------------

    def _skip(self) -> None:
        if not self._skips.allow(self.clock()):
            self._say(Notice(NoticeCode.REFUSED, SLOW_DOWN))
            return
        self._cancel()
        self._tune(self.table, skipping=True)

    def _look(self, delay: float, leaving: str | None) -> None:
        """Look at the lobby again in ``delay`` seconds, leaving ``leaving`` for another table if there is one."""
        self._cancel()
        self._due = (self.clock() + delay, leaving)
        self._timer = asyncio.get_running_loop().call_later(delay, self._looked)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._due = None

    def _looked(self) -> None:
        due, self._timer, self._due = self._due, None, None
        if self._closed or due is None:
            return
        self._tune(due[1], skipping=False)

    def _tune(self, leaving: str | None, *, skipping: bool) -> None:
        """Tune in to the best live table other than ``leaving``; with none, stay (n, or a table dealt again that is
        live once more) or say so and wait."""
        now = self.clock()
        self._refused = {name: at for name, at in self._refused.items() if now - at < REFUSED_FOR}
        while True:
            choice = choose_table(self._lobby().tables, leaving=leaving, refused=self._refused.keys(),
                                  max_spectators=self._max_spectators)
            if choice.table is None:
                if choice.why == NO_OTHER and self._inner is not None and self.table == leaving:
                    if skipping:
                        self._say(Notice(NoticeCode.INFO, f"{NO_OTHER}: War TV stays at table {leaving}"))
                    return
                self._leave()
                self._tell(choice)
                self._look(LOOK_EVERY, None)
                return
            if self._join(choice):
                return
            self._refused[choice.table] = now

    def _join(self, choice: Choice) -> bool:
        """Watch ``choice.table`` through a new link, leaving the table on show; False if it turned War TV away."""
        assert choice.table is not None
        link = self._open_link()
        try:
            member = link.join(choice.table, watch=True)
        except TableRefused:
            link.close()
            return False
        self._leave()
        self._inner, self.table = link, choice.table
        link.max_queued = self._max_queued
        self._tell(choice)
        link.on_output = self._on_output
        self.moves += 1
        self._wake()
        if member is not None and self.on_join is not None:
            self.on_join(choice.table, member, ON_TV)
        return True

    def _leave(self) -> None:
        """Stop watching the table on show; what it still had to say is past."""
        inner, self._inner, self.table = self._inner, None, None
        if inner is not None:
            inner.on_output = None
            inner.take()
            inner.close()
            self._wake()

    def _tell(self, choice: Choice) -> None:
        if self.table == choice.table and self.why == choice.why and choice.table is None:
            return  # still waiting, for the same reason: said once
        self.why = choice.why
        self._say(Tuned(choice.table, choice.why))

    def _say(self, update: Tuned | Notice) -> None:
        was_idle = not self._own
        self._own.append(encode(update))
        if was_idle and self._on_output is not None:
            self._on_output()
