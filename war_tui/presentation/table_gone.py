"""What a screen at a shared table says once the table is gone for this person, by what they had there: a seat,
a place watching, the lobby, or nothing yet (the table turned them away: a refusal, which ends in exit status 1
as every refusal does). A connection whose seat the same person took from a newer one ends at once instead,
saying why as the doors' goodbyes do: the person is at the newer one."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..tables.table import REPLACED


class Place(Enum):
    """What the person had at the tables when the connection ended."""

    NONE = "none"  # the table never took them in: the closing notice is a refusal
    SEAT = "seat"
    WATCHING = "watching"
    LOBBY = "lobby"


@dataclass(frozen=True)
class TableGone:
    title: str
    status: int
    """The exit status the person leaves with: 1 for a refusal, as a refusal before the game starts has."""
    goodbye: str | None = None
    """Set: no dialog waits for a key, the game ends now and says this as it goes."""


REFUSED_STATUS = 1


def table_gone(place: Place, watch: bool, reason: str = "") -> TableGone:
    """``watch``: the person came to watch (``watch NAME``) rather than to sit; ``reason``: the table's words."""
    if reason == REPLACED:
        return TableGone("", 0, goodbye=f"war-tui: {reason}.")
    if place is Place.NONE:
        return TableGone("You could not watch the table" if watch else "You could not join the table", REFUSED_STATUS)
    titles = {
        Place.SEAT: "You are no longer at the table",
        Place.WATCHING: "You are no longer watching the table",
        Place.LOBBY: "You are no longer in the lobby",
    }
    return TableGone(titles[place], 0)
