"""Numbered messages over an unreliable wire: at least once on the wire, each applied once and in order.

Each direction of a relayed connection numbers its messages from 1 (``Window``), keeps what the other end has
not acknowledged, and sends it again when asked to (after a timeout, after a reconnect). The other end
(``Inbox``) applies each number once, in order: a duplicate is dropped, one that came early is held (a few,
bounded), one far ahead is dropped (it comes again). It acknowledges the highest number it applied in a row.

A message on the wire is its kind (one byte), then for numbered kinds ``<number> <ack>\\n``, then its body; the
acknowledgement of the other direction rides on every message. Everything read here comes from another node and
is bounded and checked: a bad, huge or repeated number is dropped, never applied twice, never kept unbounded.
Nothing here knows NATS or a clock of its own (the caller passes the time).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

MAX_WINDOW_MESSAGES = 256
"""Messages one direction of a relayed connection keeps until the other end acknowledges them."""
MAX_WINDOW_BYTES = 256 * 1024
"""Bytes of those messages (a fresh snapshot is at most 64 KiB; a key a few dozen bytes)."""
MAX_EARLY = 64
"""Messages a receiver holds that came ahead of one it still waits for; any further ahead are dropped (resent)."""
MAX_EARLY_BYTES = 256 * 1024
"""Bytes of those messages."""
MAX_NUMBER = 2**53
"""Numbers past this are refused: no relayed connection sends that many messages."""
_HEADER = re.compile(rb"(\d{1,16}) (\d{1,16})\n")


@dataclass(frozen=True, slots=True)
class Numbered:
    """One numbered message: its kind, its number, the sender's acknowledgement of the other way, its body."""

    kind: bytes
    number: int
    ack: int
    body: bytes


def encode_numbered(kind: bytes, number: int, ack: int, body: bytes) -> bytes:
    return b"%s%d %d\n%s" % (kind, number, ack, body)


def decode_numbered(data: bytes) -> Numbered | None:
    """The numbered message ``data`` holds (after its kind byte); None for anything malformed or out of range."""
    match = _HEADER.match(data, 1)
    if match is None:
        return None
    number, ack = int(match[1]), int(match[2])
    if not 1 <= number <= MAX_NUMBER or ack > MAX_NUMBER:
        return None
    return Numbered(data[:1], number, ack, data[match.end():])


def decode_ack(data: bytes) -> int | None:
    """The acknowledgement an unnumbered message carries after its kind byte (``A12``, ``P12``); None if bad."""
    digits = data[1:]
    if not 1 <= len(digits) <= 16 or not digits.isdigit():
        return None
    ack = int(digits)
    return ack if ack <= MAX_NUMBER else None


@dataclass
class WireCounts:
    """What one node's relayed connections met on the wire since it started, both ways (the log says it at a stop):
    how often NATS lost, repeated or reordered a message, and how often a gap took a fresh snapshot."""

    sent: int = 0
    """Numbered messages sent (once each; ``again`` counts the repeats)."""
    again: int = 0
    """Messages sent again: not acknowledged in time, or after a reconnect."""
    duplicates: int = 0
    """Messages that came twice (dropped; the other end missed an acknowledgement)."""
    ahead: int = 0
    """Messages dropped for coming too far ahead of one still awaited."""
    behind: int = 0
    """Times a door's queue for a screen passed its bound (the screen read slower than its table told) and was
    given up for a fresh snapshot."""
    unacknowledged: int = 0
    """Times an owner's window passed its bound (the door acknowledged nothing for a window's worth) and was given
    up for a fresh snapshot."""

    def said(self) -> str | None:
        """The log's line, or None when nothing was relayed."""
        if not self.sent:
            return None
        return (f"relay: {self.sent:,} messages sent since the start, {self.again:,} sent again, {self.duplicates:,} "
                f"came twice, {self.ahead:,} dropped too far ahead; fresh snapshots for {self.behind:,} screens behind and "
                f"{self.unacknowledged:,} windows unacknowledged")


class Window:
    """The sending end of one direction: numbers its messages and keeps the unacknowledged ones, bounded."""

    def __init__(self, max_messages: int = MAX_WINDOW_MESSAGES, max_bytes: int = MAX_WINDOW_BYTES,
                 counts: WireCounts | None = None) -> None:
        self.counts = counts if counts is not None else WireCounts()
        """Where what it sends is counted (its node's, for the log)."""
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.next = 1
        """The number the next message gets."""
        self.acked = 0
        """The highest number the other end acknowledged."""
        self._kept: deque[tuple[int, bytes, bytes, float]] = deque()
        """(number, kind, body, when last sent), oldest first."""
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._kept)

    def fits(self, body: bytes) -> bool:
        return len(self._kept) < self.max_messages and self._bytes + len(body) <= self.max_bytes

    def add(self, kind: bytes, body: bytes, now: float) -> int:
        """Keep a message until acknowledged (the caller checked ``fits``, or sends one past it); its number."""
        number = self.next
        self.next += 1
        self.counts.sent += 1
        self._kept.append((number, kind, body, now))
        self._bytes += len(body)
        return number

    def ack(self, number: int) -> None:
        """The other end applied everything up to ``number``; a number not sent yet is ignored (it is not ours)."""
        if number >= self.next or number <= self.acked:
            return
        self.acked = number
        while self._kept and self._kept[0][0] <= number:
            self._bytes -= len(self._kept.popleft()[2])

    def clear(self) -> None:
        """Give up what is kept (the caller makes up for it some other way): nothing of it is sent again."""
        self._kept.clear()
        self._bytes = 0

    def due(self, now: float, after: float | None) -> list[tuple[int, bytes, bytes]]:
        """The messages to send again: those sent ``after`` seconds ago or more (every one when None)."""
        again: list[tuple[int, bytes, bytes]] = []
        for index, (number, kind, body, sent) in enumerate(self._kept):
            if after is not None and now - sent < after:
                break  # the rest were sent later
            again.append((number, kind, body))
            self._kept[index] = (number, kind, body, now)
        self.counts.again += len(again)
        return again

    def bodies(self, kind: bytes) -> list[bytes]:
        """The bodies of the unacknowledged messages of ``kind``, oldest first."""
        return [body for _, k, body, _ in self._kept if k == kind]


class Inbox:
    """The receiving end of one direction: hands on each number once, in order."""

    def __init__(self, max_early: int = MAX_EARLY, max_early_bytes: int = MAX_EARLY_BYTES,
                 counts: WireCounts | None = None) -> None:
        self.counts = counts if counts is not None else WireCounts()
        """Where what it drops is counted (its node's, for the log)."""
        self.max_early = max_early
        self.max_early_bytes = max_early_bytes
        self.received = 0
        """The highest number handed on with every one before it: what this end acknowledges."""
        self.duplicates = 0
        """Messages that came again (the other end missed an acknowledgement: it deserves one soon)."""
        self.dropped = 0
        """Messages dropped for coming too far ahead (they come again)."""
        self._early: dict[int, Numbered] = {}
        self._early_bytes = 0

    def accept(self, message: Numbered, *, skip: bool = False) -> list[Numbered]:
        """What to apply now, in order, of ``message`` and those held for it. With ``skip`` (the sender gave up
        what it kept before this one), the numbers missing before it are given up too."""
        number = message.number
        if number <= self.received or number in self._early:
            self.duplicates += 1
            self.counts.duplicates += 1
            return []
        if skip and number > self.received + 1:
            self.received = number - 1
            for early in [n for n in self._early if n < number]:
                self._early_bytes -= len(self._early.pop(early).body)
        if number > self.received + 1:
            if (number > self.received + self.max_early or len(self._early) >= self.max_early
                    or self._early_bytes + len(message.body) > self.max_early_bytes):
                self.dropped += 1
                self.counts.ahead += 1
                return []
            self._early[number] = message
            self._early_bytes += len(message.body)
            return []
        ready = [message]
        self.received = number
        while (held := self._early.pop(self.received + 1, None)) is not None:
            self._early_bytes -= len(held.body)
            ready.append(held)
            self.received += 1
        return ready


class NumberedEnd:
    """One end of a relayed connection, both ways: what it sends, numbered and kept until the other end acknowledges
    it (``window``), what it takes, once and in order (``inbox``), and the acknowledgement it last sent (``acked``).

    The owner's side (``relayed.Relayed``) and the door's (``remote_link.RemoteLink``) are each one; they differ only
    in what they acknowledge (the door what it took, the owner what the store kept of what it applied), so each call
    names it."""

    def __init__(self, counts: WireCounts) -> None:
        self.window = Window(counts=counts)
        self.inbox = Inbox(counts=counts)
        self.acked = 0
        """The acknowledgement last sent to the other end."""

    def numbered(self, kind: bytes, body: bytes, now: float, ack: int) -> bytes:
        """A message to send, numbered and kept until acknowledged, carrying ``ack``."""
        number = self.window.add(kind, body, now)
        self.acked = ack
        return encode_numbered(kind, number, ack, body)

    def bare(self, kind: bytes, ack: int) -> bytes:
        """An unnumbered message (an acknowledgement, a ping) carrying ``ack``."""
        self.acked = ack
        return kind + b"%d" % ack

    def again(self, now: float, after: float | None, ack: int) -> list[bytes]:
        """The messages to send again (``Window.due``), each carrying ``ack``."""
        return [encode_numbered(kind, number, ack, body) for number, kind, body in self.window.due(now, after)]

    def acknowledged(self, data: bytes) -> None:
        """An unnumbered message from the other end: what it acknowledges is no longer kept."""
        ack = decode_ack(data)
        if ack is not None:
            self.window.ack(ack)

    def take(self, data: bytes, *, skip: bool = False) -> list[Numbered] | None:
        """What to apply now, in order, of the numbered message ``data`` and those held for it (``Inbox.accept``),
        its acknowledgement noted; None for a malformed message."""
        message = decode_numbered(data)
        if message is None:
            return None
        self.window.ack(message.ack)
        return self.inbox.accept(message, skip=skip)
