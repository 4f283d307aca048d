"""Games that could not reach the statistics file before war-tui exited, kept in a file beside it.

When another program holds the statistics file locked through the whole of a quit, the finished
games still waiting in memory are written here instead: one JSON object per line, written to a
temporary file first and renamed over the old one, so the file is always whole. The next run
that records statistics imports them into the database and removes the file.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..core.rules import EndReason, Gather, Result
from .records import GameRecord, Source, known

SUFFIX = ".unsaved.jsonl"
_FIELDS = tuple(f.name for f in fields(GameRecord) if f.name != "id")
_OPTIONAL = {"p1_player": None, "p2_player": None, "game_id": None}
"""Optional: a line without them is a game nobody served (or a table game kept before games had ids)."""


def recovery_path(database: Path) -> Path:
    """Where the games waiting for ``database`` are kept: beside it, named after it."""
    return database.with_name(database.name + SUFFIX)


def to_line(record: GameRecord) -> str:
    return json.dumps({name: _plain(getattr(record, name)) for name in _FIELDS}, ensure_ascii=False)


def from_line(line: str) -> GameRecord:
    """A record from one line; ValueError (or KeyError, TypeError) when the line is not one."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise TypeError("not an object")
    return record_of(data)


def record_of(data: dict[str, Any]) -> GameRecord:
    """A record from its fields (a line parsed); KeyError or TypeError when they are not one's."""
    values: dict[str, Any] = {
        name: data[name] if name not in _OPTIONAL else data.get(name, _OPTIONAL[name]) for name in _FIELDS
    }
    for name in _OPTIONAL:
        if values[name] is not None and not isinstance(values[name], str):
            raise TypeError(f"{name} is not text")
    values["gather"] = known(Gather, values["gather"])
    values["result"] = known(Result, values["result"])
    values["reason"] = known(EndReason, values["reason"])
    values["source"] = known(Source, values["source"])
    return GameRecord(**values)


def read(path: Path) -> tuple[list[GameRecord], int]:
    """The games kept in ``path`` (none if it is missing) and how many lines could not be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], 0
    games, bad = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            games.append(from_line(line))
        except (ValueError, KeyError, TypeError):
            bad += 1
    return games, bad


def keep(path: Path, games: list[GameRecord]) -> None:
    """Add ``games`` to those already kept in ``path``, replacing it whole (never half-written)."""
    lines = _existing_lines(path) + [to_line(game) for game in games]
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _existing_lines(path: Path) -> list[str]:
    try:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def _plain(value: object) -> object:
    return str(value) if isinstance(value, str) else value  # StrEnum members as their plain strings
