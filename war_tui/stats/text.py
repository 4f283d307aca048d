"""Words and numbers for statistics, shared by ``war-tui stats`` and the stats screen so they agree."""

from __future__ import annotations

from datetime import datetime

from ..core.rules import DEFAULT_MAX_BATTLES, Gather, Result, Rules
from ..untrusted import plain_text
from .records import GameRecord, Source

RESULT_LABELS: dict[str, str] = {  # keyed by Result; str: a result written by another version
    Result.P1: "player 1 wins",
    Result.P2: "player 2 wins",
    Result.DRAW: "draws",
    Result.STOPPED: "stopped",
}
SOURCE_LABELS: dict[str, str] = {  # keyed by Source, likewise
    Source.INTERACTIVE: "hand", Source.AUTO: "auto", Source.SCREENSAVER: "saver", Source.TABLE: "table",
}


def result_label(result: Result | str) -> str:
    """"player 1 wins" and so on; a result this version does not know, as it was written (as plain text)."""
    return RESULT_LABELS.get(result) or plain_text(str(result))


def source_label(source: Source | str) -> str:
    """"hand", "auto", "saver", "table"; a source this version does not know, as it was written (as plain text)."""
    return SOURCE_LABELS.get(source) or plain_text(str(source))
NO_GAMES = "No games recorded yet."


def when(finished_at: str | None) -> str:
    """A stored UTC time as the reader's local time, to the minute (a time it cannot read, as written: plain)."""
    try:
        return datetime.fromisoformat(finished_at or "").astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError):
        return plain_text(str(finished_at))


def when_short(finished_at: str, now: datetime | None = None) -> str:
    """Like ``ls -l``: month, day and time for this year's games, the date alone for older ones."""
    try:
        local = datetime.fromisoformat(finished_at).astimezone()
    except (TypeError, ValueError, OverflowError):
        return plain_text(str(finished_at))
    if local.year == (now or datetime.now().astimezone()).year:
        return local.strftime("%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")


def percent(share: float) -> str:
    return f"{share * 100:.1f}%"


def outcome(record: GameRecord) -> str:
    """Who won, in the names the game was played with."""
    if record.result is Result.P1:
        return f"{plain_text(record.p1_name)} won"
    if record.result is Result.P2:
        return f"{plain_text(record.p2_name)} won"
    return _other_result(record.result)


def winner(record: GameRecord) -> str:
    """The winner's name, or "draw" / "stopped": a short table cell."""
    if record.result is Result.P1:
        return plain_text(record.p1_name)
    if record.result is Result.P2:
        return plain_text(record.p2_name)
    return _other_result(record.result)


def _other_result(result: Result | str) -> str:
    if result is Result.DRAW:
        return "draw"
    return "stopped" if result is Result.STOPPED else plain_text(str(result))


def rules_short(rules: Rules | GameRecord) -> str:
    """Rules in a table cell: "standard", else what differs. Given a record, its rules as written,
    even ones this version cannot play (a gather order it does not know, say)."""
    return ", ".join(_rule_parts(rules, brief=False)) or "standard"


def rules_brief(rules: Rules | GameRecord) -> str:
    """Rules in a narrow table cell: like ``rules_short`` with the gather order in one word."""
    return " ".join(_rule_parts(rules, brief=True)) or "standard"


def _rule_parts(rules: Rules | GameRecord, brief: bool) -> list[str]:
    parts = []
    if rules.war_cards != 1:
        parts.append(f"{rules.war_cards} down")
    if rules.gather != Gather.WINNER_FIRST:
        gather = plain_text(str(rules.gather))
        parts.append(gather.split("-")[0] if brief else gather)  # loser, laid, random
    if rules.max_battles != DEFAULT_MAX_BATTLES:
        parts.append(f"cap {rules.max_battles:,}")
    return parts


def replay_command(record: GameRecord) -> str | None:
    """The command line that deals this game again; None for packets given by hand or rules this
    version cannot play."""
    rules = record.rules
    if record.seed is None or rules is None:
        return None
    return f"war-tui --seed {record.seed}" + rules.replay_flags()
