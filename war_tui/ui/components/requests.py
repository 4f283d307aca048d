"""A table's requests line: what one player asks of the other, and the house's countdown, wrapped, never cut."""

from __future__ import annotations

from textual.reactive import var
from textual.widgets import Static

from ..text import plain


class RequestsLine(Static):
    """Bound to the board's ``requests``; hidden while nobody asks anything."""

    requests: var[tuple[str, ...]] = var(())

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.display = False

    def watch_requests(self, lines: tuple[str, ...]) -> None:
        self.update(plain("\n".join(lines)))  # as worded: a line may begin with a name, never capitalised
        self.display = bool(lines)
