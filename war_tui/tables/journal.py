"""A table's journal: its sequence of changes, its log in the table's order, and who hears each change.

Every change told to everyone gets the next ``seq`` here and goes to every member's sink at once, so
each screen applies changes in one order and notices a gap; the log keeps the same order for late
joiners' snapshots. ``stale`` says whether a seat's request was made against a state that is gone.
Nothing here plays, seats or reads a clock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from .messages import Emoted, EventBatch, Flip, LogEntry, Notice, Stamped, TableEvent, TableState, Update

Sink = Callable[[Update], None]
"""Where a member's updates go; called synchronously by the table and must not block."""

B = TypeVar("B", EventBatch, TableState, Notice, Emoted)
"""An update a table tells every member, stamped with its sequence number."""
L = TypeVar("L", Notice, Emoted)
"""An update the log keeps as well."""


class Listener(Protocol):
    """Someone at the table, as the journal sees them: where their updates go."""

    @property
    def sink(self) -> Sink: ...


class Journal:
    """The sequence and the log of one table, told to ``members`` (the table's own list of who is at it)."""

    def __init__(
        self, members: Sequence[Listener], log_lines: int, on_change: Callable[[], None] | None = None,
    ) -> None:
        self.members = members
        self.on_change = on_change
        """Called after each change is told (a host learns that the table has something new to keep)."""
        self.seq = 0
        """The table's sequence number: one more with every change it tells everyone (each carries its number)."""
        self.battle_seq = 0
        """The sequence number of the last batch of the game's events: a flip stamped before it is stale."""
        self.log: deque[LogEntry] = deque(maxlen=log_lines)
        self.last_state: TableState | None = None
        """The last ``TableState`` told, with its sequence number."""
        self.weighty = 0
        """The sequence number of the last change that must be kept before a screen shows it: every change but a
        ``TableState`` whose only news is who has flipped (``flips_only``)."""

    def broadcast(self, update: B, *, weighty: bool = True) -> B:
        """Tell every member ``update``, stamped with the table's next sequence number; returns the stamped one."""
        self.seq += 1
        if weighty:
            self.weighty = self.seq
        stamped = replace(update, seq=self.seq)
        for member in tuple(self.members):
            member.sink(stamped)
        if self.on_change is not None:
            self.on_change()
        return stamped

    def note(self, entry: L) -> None:
        """A notice or an emote for everyone, kept in the log with its sequence number."""
        self.log.append(self.broadcast(entry))

    def keep(self, events: Sequence[TableEvent]) -> None:
        """The game's deals, battles and ends go into the log, before their batch is told."""
        self.log.extend(events)

    def batch(self, batch: EventBatch) -> None:
        """Tell everyone a batch of the game's events; a flip stamped before it is for a battle already played."""
        self.battle_seq = self.broadcast(batch).seq

    def state(self, state: TableState) -> bool:
        """Tell everyone ``state`` if it is news; whether it was.

        The house's countdown runs on each screen from when it was told; a later figure is not news.
        """
        last = self.last_state
        if last is not None and _news(state) == _news(last):
            return False
        self.last_state = self.broadcast(state, weighty=last is None or not flips_only(last, state))
        return True

    def entries(self) -> tuple[LogEntry, ...]:
        """The log, oldest first, as a snapshot carries it."""
        return tuple(self.log)

    def stale(self, request: Stamped, game: int) -> str | None:
        """Why ``request`` was made against a state that is gone, with ``game`` the table's game on: a line for
        its member when it was made for another game; "" (nothing to say) for a flip made before the last battle
        was played. None: it is current, or unstamped (``game`` 0, made in this process)."""
        if request.game == 0:
            return None
        if request.game != game:
            return f"that was for game {request.game}; game {game} is on"
        if isinstance(request, Flip) and request.seq < self.battle_seq:
            return ""
        return None


def flips_only(before: TableState, after: TableState) -> bool:
    """Whether ``after`` tells nothing ``before`` did not but who has flipped for the coming battle (and the house's
    countdown that follows from it).

    Such a change need not be kept before a screen shows it: a flip is half a move, and a crash that takes it back
    leaves its player to flip again; the battle it makes, like every other change, is kept first."""
    return _unflipped(before) == _unflipped(after)


def _unflipped(state: TableState) -> TableState:
    first, second = state.seats
    return replace(
        state, waiting_for=(), house_in=None, seats=(replace(first, flipped=False), replace(second, flipped=False)),
    )


def _news(state: TableState) -> TableState:
    """``state`` as compared for news: whether the house counts down, not how far."""
    return replace(state, house_in=None if state.house_in is None else 0.0)
