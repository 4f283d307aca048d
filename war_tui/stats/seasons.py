"""The leaderboard's seasons: a week (Monday to Sunday), a month, or all time, in UTC.

A season is named by a key the statistics file stores its standings under (``week 2026-12-07``,
``month 2026-12``, ``all``); the file's trigger (schema.py) computes the same keys from each game's
``finished_at`` with SQLite's date functions, and ``Season.of`` here with Python's, so the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum


class Span(StrEnum):
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


SPANS = (Span.WEEK, Span.MONTH, Span.ALL)
"""The order tab cycles through."""
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
EARLIEST = date(2000, 1, 3)
"""No season before this Monday: p cannot walk back for ever."""


@dataclass(frozen=True, slots=True)
class Season:
    """One season: its span and its first day (None for all time)."""

    span: Span
    start: date | None = None

    @classmethod
    def of(cls, span: Span, when: datetime) -> Season:
        """The season of ``span`` that holds the moment ``when`` (taken in UTC)."""
        day = when.astimezone(UTC).date() if when.tzinfo is not None else when.date()
        if span is Span.WEEK:
            return cls(span, day - timedelta(days=day.weekday()))
        if span is Span.MONTH:
            return cls(span, day.replace(day=1))
        return cls(Span.ALL)

    @classmethod
    def now(cls, span: Span) -> Season:
        return cls.of(span, datetime.now(UTC))

    @property
    def key(self) -> str:
        """The season's key in the statistics file."""
        if self.start is None:
            return "all"
        if self.span is Span.WEEK:
            return f"week {self.start.isoformat()}"
        return f"month {self.start.year:04d}-{self.start.month:02d}"

    @property
    def end(self) -> date | None:
        """The first day after the season (None for all time)."""
        if self.start is None:
            return None
        if self.span is Span.WEEK:
            return self.start + timedelta(days=7)
        year, month = divmod(self.start.month, 12)
        return date(self.start.year + year, month + 1, 1)

    def previous(self) -> Season | None:
        """The season before this one; None for all time and before ``EARLIEST``."""
        if self.start is None:
            return None
        before = Season.of(self.span, datetime.combine(self.start - timedelta(days=1), datetime.min.time(), UTC))
        return before if before.start is not None and before.start >= EARLIEST else None

    def next(self) -> Season | None:
        """The season after this one; None for all time."""
        end = self.end
        return None if end is None else Season.of(self.span, datetime.combine(end, datetime.min.time(), UTC))

    def describe(self, today: date) -> str:
        """"this week, 7-13 Dec 2026", "the week of 30 Nov 2026", "December 2026", "all time"."""
        start, end = self.start, self.end
        if start is None or end is None:
            return "all time"
        current = start <= today < end
        if self.span is Span.WEEK:
            last = end - timedelta(days=1)
            first = f"{start.day}" if start.month == last.month else f"{start.day} {_MONTHS[start.month - 1]}"
            days = f"{first}-{last.day} {_MONTHS[last.month - 1]} {last.year}"
            return f"this week, {days}" if current else f"the week of {days}"
        month = f"{_MONTHS[start.month - 1]} {start.year}"
        return f"this month, {month}" if current else month


ALL_TIME = Season(Span.ALL)


def season_bounds(season: Season) -> tuple[str, str] | None:
    """The season's first day and the day after, as ISO dates (None for all time): for a file that keeps no
    standings (an older schema read as it is), whose games are counted by date."""
    if season.start is None or season.end is None:
        return None
    return season.start.isoformat(), season.end.isoformat()
