"""A replayed game as a JSON document (its schema: docs/replay-format.md), and such a document read back.

A file is someone else's bytes: its size and nesting are bounded before parsing, every field is checked
after, and its battles must be the ones its seed and rules give, or it is refused in one line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from ..core.cards import card_str, parse_card
from ..core.rules import Rules, RulesError
from ..untrusted import BadRecord, fields, read_json, text, whole
from .replay import MOST_BATTLES, PlayedBattle, Replay, ReplayError

FORMAT = "war-tui-game"
VERSION = 1
MOST_FILE_BYTES = 16 * 1024 * 1024
"""About 200,000 battles (a game at the default cap of 10,000 takes under 1 MB); parsed, a file takes
several times its size in memory, so no larger file is read."""
MOST_NAME_CHARS = 64
MOST_SEED = 2**64
_DEPTH = 4  # the document, its battles, a battle, a battle's cards


def battle_json(battle: PlayedBattle) -> dict[str, object]:
    return {
        "battle": battle.battle,
        "p1": [card_str(c) for c in battle.p1_laid],
        "p2": [card_str(c) for c in battle.p2_laid],
        "wars": battle.wars,
        "winner": None if battle.winner is None else battle.winner.value,
        "counts": list(battle.counts),
    }


def json_chunks(replay: Replay, names: tuple[str, str]) -> Iterator[str]:
    """The document in pieces, a battle at a time, so a long game is never held whole as text."""
    import json

    head = {
        "format": FORMAT,
        "version": VERSION,
        "seed": replay.seed,
        "rules": replay.rules.to_dict(),
        "players": list(names),
        "result": replay.result.value,
        "reason": replay.reason.value,
        "final": list(replay.counts),
    }
    yield json.dumps(head)[:-1] + ', "battles": ['
    for at, battle in enumerate(replay.played()):
        yield ("" if at == 0 else ", ") + json.dumps(battle_json(battle))
    yield "]}\n"


def read_game_file(path: str | os.PathLike[str]) -> tuple[Replay, tuple[str, str]]:
    """The game a file written by ``war-tui export --format json`` holds, and its players' names.

    ReplayError (one line) for a file that cannot be read, is not such a document, or whose battles are
    not the ones its seed and rules give.
    """
    try:
        with open(path, "rb") as file:
            data = file.read(MOST_FILE_BYTES + 1)
    except OSError as error:
        raise ReplayError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from None
    try:
        return _read_document(read_json(data, MOST_FILE_BYTES, _DEPTH))
    except BadRecord as error:
        raise ReplayError(f"{os.fspath(path)} is not a war-tui game file: {error}") from None


def _read_document(value: Any) -> tuple[Replay, tuple[str, str]]:
    doc = fields(value, "the file", required=("format", "version", "seed", "rules", "players", "battles"))
    if doc["format"] != FORMAT:
        raise BadRecord(f'its format is not "{FORMAT}"')
    if whole(doc["version"], "its version", 1, 1_000) != VERSION:
        raise BadRecord(f"it is version {doc['version']}; this war-tui reads version {VERSION}")
    seed = whole(doc["seed"], "its seed", -MOST_SEED, MOST_SEED)
    rules_doc = fields(doc["rules"], "its rules", required=("war_cards", "gather", "max_battles"))
    try:
        rules = Rules(rules_doc["war_cards"], rules_doc["gather"], rules_doc["max_battles"])
    except (RulesError, TypeError):
        raise BadRecord("its rules are not rules this war-tui plays") from None
    players = doc["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise BadRecord("its players are not two names")
    names = (text(players[0], "player 1's name", MOST_NAME_CHARS), text(players[1], "player 2's name", MOST_NAME_CHARS))
    battles = doc["battles"]
    if not isinstance(battles, list) or not 1 <= len(battles) <= MOST_BATTLES:
        raise BadRecord(f"its battles are not a list of 1 to {MOST_BATTLES:,}")
    replay = Replay(seed, rules, len(battles))
    if replay.battles != len(battles):
        raise BadRecord("its seed and rules give a game of another length")
    for given, played in zip(battles, replay.played(), strict=True):
        if _battle(given) != battle_json(played):
            raise BadRecord(f"battle {played.battle:,} is not the one its seed and rules give")
    return replay, names


def _battle(value: Any) -> dict[str, object]:
    battle = fields(value, "a battle", required=("battle", "p1", "p2", "wars", "winner", "counts"))
    for side in ("p1", "p2"):
        cards = battle[side]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BadRecord("a battle's cards are not a list of cards")
        try:
            battle[side] = [card_str(parse_card(c)) for c in cards]
        except ValueError:
            raise BadRecord("a battle holds something that is not a card") from None
    return {key: battle[key] for key in ("battle", "p1", "p2", "wars", "winner", "counts")}
