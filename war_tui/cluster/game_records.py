"""A game record from the games stream, as every node reads it: untrusted, and only a game that could be played.

Anyone who reaches NATS can publish to the stream, so a record must carry the tag of a node of the cluster
(``GameKey``: an HMAC keyed from the host key the nodes share), is read through ``war_tui.untrusted`` and held to
what a table game served by a node can be: a table game (source ``table``) under an id a table makes, the rules
a table plays (1-3 cards down, a battle cap), battles within its cap and within what a replay can reach, final
counts 0-52 that add up to the deck, wars that fit the battles, seconds finite and no faster than the fastest
auto-play, a finish time in the stream's own past, names as names are reduced, identities of the forms the doors
make. Anything else is ``BadRecord``: the node skips it (and terminates its message).

``IdentityRate`` bounds what one identity adds to a node's statistics: no player finishes more than
``GAMES_PER_HOUR`` table games an hour (by the games' own times), so a flood of forged games for one identity
is refused past that at every node, whatever the file's row cap would otherwise let it push out.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

from ..core.cards import DECK_SIZE
from ..core.rules import MAX_WAR_CARDS, MIN_WAR_CARDS, EndReason, Gather, Result
from ..settings.values import MAX_MAX_BATTLES
from ..stats.records import GameRecord, Source, known
from ..tables.checkpoint import MAX_REPLAY_BATTLES
from ..tables.names import MAX_NAME_CHARACTERS, is_reduced
from ..tables.options import MAX_AUTO_SPEED
from ..untrusted import BadRecord, fields, finite, read_json, text, whole

MAX_RECORD = 8 * 1024
"""The largest record taken (a game's line is under 1 KiB: names are bounded)."""
TAG_HEADER = "War-Tui-Tag"
"""The header of a game record that holds its tag (``GameKey``)."""
TAG_DIGITS = 32
"""Hex digits of a record's tag: 128 bits of an HMAC-SHA256."""
MAX_GAME_SECONDS = 366 * 24 * 3600.0
"""Seconds a game may have taken at most (a table kept for a year)."""
OLDEST = datetime(2020, 1, 1, tzinfo=UTC)
FUTURE = timedelta(days=1)
"""How far past this node's clock a game may say it finished (another node's clock may be ahead)."""
MAX_WARS_IN_A_BATTLE = DECK_SIZE // 2
GAMES_PER_HOUR = 1_200
"""Table games one identity may finish in an hour, by the games' times: one every 3 s, about as fast as a game
can be dealt again and auto-played to its end at the top speed (128 battles a second)."""
HOURS = 100_000
"""Tallies (an identity's games in one hour) a node keeps for the rate at most: a few MB."""

_FIELDS = {
    "finished_at", "seed", "war_cards", "gather", "max_battles", "p1_name", "p2_name", "result", "reason", "battles",
    "wars", "longest_war", "p1_count", "p2_count", "seconds", "source", "p1_player", "p2_player", "game_id",
}
_REQUIRED = _FIELDS - {"p1_player", "p2_player"}
GAME_ID = re.compile(r"[a-z0-9-]{1,24}\.[0-9a-f]{1,64}\.[1-9][0-9]{0,11}")
"""``stats.records.table_game_id``: a table's name, its nonce, the game's number there."""
IDENTITY = re.compile(r"[a-z]{1,8}:[A-Za-z0-9+/=:_.-]{1,120}")
"""An identity a door makes (``key:SHA256:...``, ``addr:<hash>``, ``web:<hash>``): printable ASCII, bounded."""
NAME_WORD = re.compile(r"[a-z][a-z0-9-]{0,23}")
"""A result, reason or gather a newer war-tui may write: a word, kept as written and shown as it is."""
TIME = re.compile(r"[0-9T:+.Z-]{10,40}")


def read_game(data: bytes) -> GameRecord:
    """The table game a message of the stream holds; ``BadRecord`` for anything a table could not have played."""
    raw = fields(read_json(data, MAX_RECORD, 1), "a game record", _REQUIRED, _FIELDS)
    if raw["source"] != Source.TABLE:
        raise BadRecord("not a table game")
    seed = raw["seed"]
    if seed is not None:
        whole(seed, "its seed", -(2**63), 2**63 - 1)
    max_battles = whole(raw["max_battles"], "its battle cap", 1, MAX_MAX_BATTLES)
    battles = whole(raw["battles"], "its battles", 0, min(max_battles, MAX_REPLAY_BATTLES))
    longest = whole(raw["longest_war"], "its deepest war", 0, MAX_WARS_IN_A_BATTLE)
    wars = whole(raw["wars"], "its wars", longest, battles * longest)
    if (wars == 0) != (longest == 0):
        raise BadRecord("its wars and its deepest war disagree")
    counts = [whole(raw[key], f"its {key}", 0, DECK_SIZE) for key in ("p1_count", "p2_count")]
    if sum(counts) != DECK_SIZE and (seed is not None or sum(counts) < 2):
        raise BadRecord(f"its final counts do not add up to the {DECK_SIZE} cards dealt")
    seconds = finite(raw["seconds"], "its seconds", 0.0, MAX_GAME_SECONDS)
    if battles > seconds * MAX_AUTO_SPEED * 2 + 1:
        raise BadRecord("more battles than its seconds could play")
    names = [text(raw[key], f"its {key}", MAX_NAME_CHARACTERS) for key in ("p1_name", "p2_name")]
    if not all(is_reduced(name) for name in names):
        raise BadRecord("a name that is not one")
    players: list[str | None] = [
        None if raw.get(key) is None else text(raw[key], f"its {key}", 128, IDENTITY) for key in ("p1_player", "p2_player")
    ]
    return GameRecord(
        finished_at=_finished_at(raw["finished_at"]), seed=seed,
        war_cards=whole(raw["war_cards"], "its war cards", MIN_WAR_CARDS, MAX_WAR_CARDS),
        gather=_word(Gather, raw["gather"], "its gather"), max_battles=max_battles, p1_name=names[0], p2_name=names[1],
        result=_word(Result, raw["result"], "its result"), reason=_word(EndReason, raw["reason"], "its reason"),
        battles=battles, wars=wars, longest_war=longest, p1_count=counts[0], p2_count=counts[1], seconds=seconds,
        source=Source.TABLE, p1_player=players[0], p2_player=players[1],
        game_id=text(raw["game_id"], "its game id", 128, GAME_ID),
    )


def _finished_at(value: object) -> str:
    stamp = text(value, "its finish time", 40, TIME)
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        raise BadRecord("its finish time is not a time") from None
    if when.tzinfo is None or not OLDEST <= when <= datetime.now(UTC) + FUTURE:
        raise BadRecord("its finish time is not in the stream's past")
    return stamp


def _word(kind: Any, value: object, what: str) -> Any:
    return known(kind, text(value, what, 24, NAME_WORD))


class GameKey:
    """Signs and checks game records with a key drawn from the host key every node shares (as the relay's and
    the caps' are): a record is stored only if a node of this cluster published it. Anyone else who reaches
    NATS can publish to the stream, but not a game any node takes."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"war-tui games between nodes\0" + secret).digest()

    def sign(self, data: bytes) -> str:
        """The tag of ``data``, for its ``TAG_HEADER``."""
        return hmac.new(self._key, data, hashlib.sha256).hexdigest()[:TAG_DIGITS]

    def check(self, data: bytes, tag: str | None) -> None:
        """``BadRecord`` unless ``tag`` is ``data``'s."""
        if tag is None or not hmac.compare_digest(tag, self.sign(data)):
            raise BadRecord("not signed by a node of this cluster (do the nodes share the host key?)")


class IdentityRate:
    """Games recorded per identity and hour (by each game's finish time), for the identities seen last: at most
    ``HOURS`` tallies in all, the least recently seen identity forgotten first."""

    def __init__(self, per_hour: int = GAMES_PER_HOUR, hours: int = HOURS) -> None:
        self.per_hour = per_hour
        self.hours = hours
        self._tallies: OrderedDict[str, dict[int, int]] = OrderedDict()
        self._held = 0

    def admit(self, record: GameRecord) -> bool:
        """Count ``record`` for its identities; False (counted for none) when one of them is past the rate."""
        hour = int(datetime.fromisoformat(record.finished_at).timestamp() // 3600)
        players = {player for player in (record.p1_player, record.p2_player) if player is not None}
        tallies = [self._tally(player) for player in players]
        if any(tally.get(hour, 0) >= self.per_hour for tally in tallies):
            return False
        for tally in tallies:
            self._held += hour not in tally
            tally[hour] = tally.get(hour, 0) + 1
        while self._held > self.hours and len(self._tallies) > len(players):
            self._held -= len(self._tallies.popitem(last=False)[1])
        return True

    def __len__(self) -> int:
        """Identities remembered."""
        return len(self._tallies)

    def _tally(self, player: str) -> dict[int, int]:
        tally = self._tallies.pop(player, None)
        self._tallies[player] = tally = {} if tally is None else tally
        return tally
