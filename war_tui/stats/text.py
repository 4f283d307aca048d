"""Words and numbers for statistics, shared by ``war-tui stats`` and the stats screen so they agree."""

from __future__ import annotations

from datetime import datetime

from ..rules import DEFAULT_MAX_BATTLES, Gather, Result, Rules
from .records import GameRecord, Source

RESULT_LABELS = {
    Result.P1: "player 1 wins",
    Result.P2: "player 2 wins",
    Result.DRAW: "draws",
    Result.STOPPED: "stopped",
}
SOURCE_LABELS = {
    Source.INTERACTIVE: "hand", Source.AUTO: "auto", Source.SCREENSAVER: "saver", Source.TABLE: "table",
}
NO_GAMES = "No games recorded yet."


def when(finished_at: str) -> str:
    """A stored UTC time as the reader's local time, to the minute."""
    return datetime.fromisoformat(finished_at).astimezone().strftime("%Y-%m-%d %H:%M")


def when_short(finished_at: str, now: datetime | None = None) -> str:
    """Like ``ls -l``: month, day and time for this year's games, the date alone for older ones."""
    local = datetime.fromisoformat(finished_at).astimezone()
    if local.year == (now or datetime.now().astimezone()).year:
        return local.strftime("%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")


def percent(share: float) -> str:
    return f"{share * 100:.1f}%"


def outcome(record: GameRecord) -> str:
    """Who won, in the names the game was played with."""
    if record.result is Result.P1:
        return f"{record.p1_name} won"
    if record.result is Result.P2:
        return f"{record.p2_name} won"
    return "draw" if record.result is Result.DRAW else "stopped"


def winner(record: GameRecord) -> str:
    """The winner's name, or "draw" / "stopped": a short table cell."""
    if record.result is Result.P1:
        return record.p1_name
    if record.result is Result.P2:
        return record.p2_name
    return "draw" if record.result is Result.DRAW else "stopped"


def rules_short(rules: Rules) -> str:
    """Rules in a table cell: "std" for the standard game, else what differs."""
    parts = []
    if rules.war_cards != 1:
        parts.append(f"{rules.war_cards} down")
    if rules.gather is not Gather.WINNER_FIRST:
        parts.append(rules.gather.value)
    if rules.max_battles != DEFAULT_MAX_BATTLES:
        parts.append(f"cap {rules.max_battles:,}")
    return ", ".join(parts) or "standard"


def rules_brief(rules: Rules) -> str:
    """Rules in a narrow table cell: like ``rules_short`` with the gather order in one word."""
    parts = []
    if rules.war_cards != 1:
        parts.append(f"{rules.war_cards} down")
    if rules.gather is not Gather.WINNER_FIRST:
        parts.append(rules.gather.value.split("-")[0])  # loser, laid, random
    if rules.max_battles != DEFAULT_MAX_BATTLES:
        parts.append(f"cap {rules.max_battles:,}")
    return " ".join(parts) or "standard"


def replay_command(record: GameRecord) -> str | None:
    """The command line that deals this game again, or None for packets given by hand."""
    if record.seed is None:
        return None
    return f"war-tui --seed {record.seed}" + record.rules.replay_flags()
