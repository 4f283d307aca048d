"""The line protocol between the server and each connection's game process: one JSON object a line.

Each line carries the version (``"v": VERSION``; another is refused in a sentence) and a ``"kind"``:
the server sends updates, a table's with its ``seq``; a connection sends requests, a seat's stamped with
the ``game`` and ``seq`` its screen showed. One codec per message type (``_UPDATES``, ``_REQUESTS``) reads
and writes it; a game travels as its ``TableEvent``s, cards as one character each (``CARD_CHARS``). Every
line is checked (size ``MAX_LINE``, JSON, version, kind, exact fields, types, ranges) before anything acts
on it: a failure is a ``ProtocolError`` that never echoes what came. ``MessageReader`` holds at most
``MAX_LINE`` bytes of an unfinished line.
"""

from __future__ import annotations

import builtins  # the readers' names (int, bool, list) hide the builtins inside _Fields
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..core.cards import DECK_SIZE, Card, CardError, validate_packets
from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import EndReason, Gather, Result, Rules, RulesError, Side
from .messages import (
    EMOTES,
    Auto,
    Decline,
    Emote,
    Emoted,
    EventBatch,
    Flip,
    Join,
    Leave,
    Leaving,
    Lobby,
    LobbyEntry,
    LogEntry,
    NextTable,
    Notice,
    NoticeCode,
    PlayHouse,
    Request,
    Restart,
    Resync,
    SeatState,
    SeatStatus,
    Sit,
    Snapshot,
    TableEvent,
    TableState,
    Tally,
    Tuned,
    Update,
    WarStop,
    WatchLobby,
    You,
)
from .names import MAX_NAME_CHARACTERS, MAX_TABLE_NAME_LENGTH, is_reduced

VERSION = 7
"""7: a seat ``awaited`` (kept for a player whose connection went with a restart or a move of the table). 6: every
update of a table carries its sequence number, a seat's requests the game and sequence number its screen showed, a
batch whether the table holds at its war's tie; ``decline`` and ``resync``. 5: a player about to leave (a seat's
``leaving``, the ``leaving`` request). 4: requests between players (stop at wars, deal again mid-game), emotes, the
table's tally and game time, a war held at its tie and the house's countdown. 3 had none of these; 2 sent each card
turned as well."""
MAX_LINE = 64 * 1024
"""Bytes in one line at most, its newline included."""
CARD_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
"""Card ``n`` travels as ``CARD_CHARS[n]``."""
MAX_INT = 2**53
MAX_SEED = 2**64
MAX_TEXT = 400
MAX_EVENTS = 8192
MAX_LOG = 1000
MAX_TABLES = 1000
MAX_SPECTATORS = 1_000_000
MAX_REQUEST_SPEED = 1000.0
MIN_SPEED = 0.5
MAX_TABLE_TEXT = 64
"""Characters a join request's table name may have; the registry words the refusal of a bad one."""

_CARD_INDEX = {ch: i for i, ch in enumerate(CARD_CHARS)}
assert len(CARD_CHARS) == DECK_SIZE

T = TypeVar("T")


class ProtocolError(ValueError):
    """A line that is not a valid message; the message says what was wrong without quoting it."""


# ================================================================ encoding


def cards_text(cards: Iterable[Card]) -> str:
    return "".join(CARD_CHARS[c] for c in cards)


def _rules(rules: Rules) -> dict[str, Any]:
    return {"war_cards": rules.war_cards, "gather": rules.gather.value, "max_battles": rules.max_battles}


def _side(side: Side | None) -> str | None:
    return side.value if side is not None else None


def event_dict(event: TableEvent | Notice | Emoted) -> dict[str, Any]:
    """One of a game's events (or a log's notice or emote) as a JSON object."""
    if isinstance(event, BattleWon):
        return {"type": "won", "battle": event.battle, "winner": event.winner.value, "cards": cards_text(event.cards),
                "p1": cards_text(event.p1_laid), "p2": cards_text(event.p2_laid), "wars": event.wars,
                "counts": [event.p1_count, event.p2_count]}
    if isinstance(event, GameOver):
        return {"type": "over", "result": event.result.value, "reason": event.reason.value,
                "battles": event.battles, "wars": event.wars, "longest": event.longest_war,
                "counts": [event.p1_count, event.p2_count], "leader": _side(event.leader),
                "p1": cards_text(event.last_battle_p1), "p2": cards_text(event.last_battle_p2),
                "last_wars": event.last_battle_wars}
    if isinstance(event, GameStarted):
        return {"type": "started", "seed": event.seed, "rules": _rules(event.rules),
                "p1": cards_text(event.p1), "p2": cards_text(event.p2)}
    if isinstance(event, Notice):
        return {"type": "notice", "code": event.code.value, "text": event.text, "seq": event.seq}
    if isinstance(event, Emoted):
        return {"type": "emote", "seat": event.seat.value, "name": event.name, "emote": event.emote, "seq": event.seq}
    raise TypeError(f"not an event: {type(event).__name__}")


def _seat(seat: SeatState) -> dict[str, Any]:
    return {"status": seat.status.value, "name": seat.name, "flipped": seat.flipped, "auto": seat.auto,
            "speed": seat.speed, "restart": seat.restart, "war_stop": seat.war_stop, "leaving": seat.leaving}


def _lobby_entry(entry: LobbyEntry) -> dict[str, Any]:
    return {"table": entry.table, "players": list(entry.players), "statuses": [s.value for s in entry.statuses],
            "spectators": entry.spectators, "game": entry.game, "battles": entry.battles,
            "counts": list(entry.counts), "result": entry.result.value if entry.result is not None else None,
            "war": entry.war}


@dataclass(frozen=True, slots=True)
class _Field:
    """One field of a message: its name on the line, how it is read from its checked JSON object and written
    to it, and the value's attribute when its name differs."""

    name: str
    read: Callable[[_Fields, str], Any]
    write: Callable[[Any], Any] = lambda value: value
    attr: str = ""

    @property
    def key(self) -> str:
        return self.attr or self.name


@dataclass(frozen=True, slots=True)
class _Codec:
    """A message type, the tag (``kind``) it travels under, its name in a refusal, and its fields in order."""

    type: Callable[..., Any]
    kind: str
    what: str
    fields: tuple[_Field, ...] = ()

    def write(self, message: object) -> dict[str, Any]:
        return {field.name: field.write(getattr(message, field.key)) for field in self.fields}

    def read(self, data: Any, what: str | None = None, tagged: bool = True) -> Any:
        """The message from its JSON object (``tagged``: a line's, with version and kind; else nested)."""
        names = tuple(field.name for field in self.fields)
        f = _Fields(data, what or self.what, ("v", "kind", *names) if tagged else names)
        return self.type(**{field.key: field.read(f, field.name) for field in self.fields})


_ON = _Field("on", lambda f, key: f.bool(key))
_STAMPED = (_Field("game", lambda f, key: f.int(key)), _Field("seq", lambda f, key: f.int(key)))
"""The game and sequence number the screen showed, on every request of a seat's (``Stamped``)."""
_SPEED = _Field(
    "speed",
    lambda f, key: math.inf if f.data.get(key) == "max" else f.number(key, MIN_SPEED, MAX_REQUEST_SPEED),
    lambda speed: "max" if math.isinf(speed) else speed,
)
_REQUESTS = (
    _Codec(Flip, "flip", "a flip request", _STAMPED),
    _Codec(Auto, "auto", "an auto request", (_ON, _SPEED, *_STAMPED)),
    _Codec(Restart, "restart", "a restart request", (_ON, *_STAMPED)),
    _Codec(WarStop, "war_stop", "a war stop request", (_ON, *_STAMPED)),
    _Codec(Emote, "emote", "an emote request", (
        _Field("emote", lambda f, key: f.int(key, 0, len(EMOTES) - 1)), *_STAMPED,
    )),
    _Codec(Decline, "decline", "a decline request", _STAMPED),
    _Codec(Leaving, "leaving", "a leaving request", (_ON, *_STAMPED)),
    _Codec(Resync, "resync", "a resync request"),
    _Codec(PlayHouse, "house", "a house request"),
    _Codec(Sit, "sit", "a sit request"),
    _Codec(Leave, "leave", "a leave request"),
    _Codec(Join, "join", "a join request", (
        _Field("table", lambda f, key: f.text(key, MAX_TABLE_TEXT)), _Field("watch", lambda f, key: f.bool(key)),
    )),
    _Codec(WatchLobby, "lobby", "a lobby request"),
    _Codec(NextTable, "next", "a next table request"),
)
"""Every request, one codec: its tag on the line and its typed, range-checked fields, read and written alike."""
_REQUEST_CODEC: dict[object, _Codec] = {codec.type: codec for codec in _REQUESTS}
_REQUEST_KINDS = {codec.kind: codec for codec in _REQUESTS}


def message_dict(message: Update | Request) -> dict[str, Any]:
    """A message as the JSON object that carries it (version and kind included)."""
    codec = _CODECS.get(type(message))
    if codec is None:
        raise TypeError(f"not a protocol message: {type(message).__name__}")
    return {"v": VERSION, "kind": codec.kind, **codec.write(message)}


def encode(message: Update | Request) -> bytes:
    """One line (newline included) carrying ``message``."""
    # Raw UTF-8 keeps a lobby to one line; JSON escapes controls, the only invisibles names hold.
    text = json.dumps(message_dict(message), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8") + b"\n"


_shared: tuple[object, bytes] | None = None


def encode_shared(message: Update) -> bytes:
    """``encode``, remembering the last message: a table tells every link the same update, encoded once."""
    global _shared
    if _shared is not None and _shared[0] is message:
        return _shared[1]
    line = encode(message)
    _shared = (message, line)
    return line


def encode_snapshot(snapshot: Snapshot) -> bytes:
    """A snapshot's line, dropping its oldest log lines if need be so that it fits in ``MAX_LINE``."""
    line = encode(snapshot)
    log = snapshot.log
    while len(line) > MAX_LINE and log:
        log = log[max(1, len(log) // 4):]
        line = encode(_with_log(snapshot, log))
    return line


def _with_log(snapshot: Snapshot, log: tuple[LogEntry, ...]) -> Snapshot:
    return replace(snapshot, log=log)


# ================================================================ decoding


def _reject_constant(name: str) -> float:
    raise ProtocolError("not a number JSON allows")


def _load(line: bytes | str) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    try:
        data = json.loads(line, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError):
        raise ProtocolError("a line that is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a line that is not a JSON object")
    version = data.get("v")
    if type(version) is not int:
        raise ProtocolError("a message without a protocol version")
    if version != VERSION:
        raise ProtocolError(
            f"protocol version {version} is not spoken here (this side speaks {VERSION}):"
            " the server and the game must run the same war-tui" if 0 <= version < 1000
            else "an unknown protocol version"
        )
    return data


class _Fields:
    """Reads one JSON object's fields, each with its type and range checked."""

    def __init__(self, data: Any, what: str, allowed: Iterable[str]) -> None:
        if not isinstance(data, dict):
            raise ProtocolError(f"{what} is not an object")
        extra = set(data) - set(allowed)
        if extra:
            raise ProtocolError(f"{what} has fields it should not have")
        self.data: Mapping[str, Any] = data
        self.what = what

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise ProtocolError(f"{self.what} has no {key}")
        return self.data[key]

    def int(self, key: str, low: int = 0, high: int = MAX_INT) -> int:
        value = self._get(key)
        if type(value) is not int or not low <= value <= high:
            raise ProtocolError(f"{self.what}'s {key} is not a whole number from {low} to {high}")
        return value

    def opt_int(self, key: str, low: builtins.int, high: builtins.int) -> builtins.int | None:
        return None if self._get(key) is None else self.int(key, low, high)

    def bool(self, key: str) -> bool:
        value = self._get(key)
        if type(value) is not bool:
            raise ProtocolError(f"{self.what}'s {key} is not true or false")
        return value

    def number(self, key: str, low: float, high: float) -> float:
        value = self._get(key)
        if type(value) not in (int, float) or not low <= value <= high:
            raise ProtocolError(f"{self.what}'s {key} is not a number from {low:g} to {high:g}")
        return float(value)

    def opt_number(self, key: str, low: float, high: float) -> float | None:
        return None if self._get(key) is None else self.number(key, low, high)

    def text(self, key: str, max_len: builtins.int = MAX_TEXT) -> str:
        value = self._get(key)
        if not isinstance(value, str) or len(value) > max_len or not value.isprintable():
            raise ProtocolError(f"{self.what}'s {key} is not a printable text of at most {max_len} characters")
        return value

    def name(self, key: str, max_len: builtins.int = MAX_NAME_CHARACTERS) -> str:
        value = self.text(key, max_len)
        if not is_reduced(value):
            raise ProtocolError(f"{self.what}'s {key} is not a reduced name")
        return value

    def opt_name(self, key: str) -> str | None:
        return None if self._get(key) is None else self.name(key)

    def enum(self, key: str, kind: Callable[[str], T]) -> T:
        value = self._get(key)
        if not isinstance(value, str):
            raise ProtocolError(f"{self.what}'s {key} is not a text")
        try:
            return kind(value)
        except ValueError:
            raise ProtocolError(f"{self.what}'s {key} is not one of the values it may take") from None

    def opt_enum(self, key: str, kind: Callable[[str], T]) -> T | None:
        return None if self._get(key) is None else self.enum(key, kind)

    def card(self, key: str) -> Card:
        value = self._get(key)
        if not isinstance(value, str) or len(value) != 1 or value not in _CARD_INDEX:
            raise ProtocolError(f"{self.what}'s {key} is not a card")
        return _CARD_INDEX[value]

    def cards(self, key: str) -> tuple[Card, ...]:
        value = self._get(key)
        if not isinstance(value, str) or len(value) > DECK_SIZE:
            raise ProtocolError(f"{self.what}'s {key} is not a row of cards")
        try:
            cards = tuple(_CARD_INDEX[ch] for ch in value)
        except KeyError:
            raise ProtocolError(f"{self.what}'s {key} is not a row of cards") from None
        if len(set(cards)) != len(cards):
            raise ProtocolError(f"{self.what}'s {key} holds a card twice")
        return cards

    def pair(self, key: str, high: builtins.int = DECK_SIZE) -> tuple[builtins.int, builtins.int]:
        value = self._get(key)
        if (not isinstance(value, list) or len(value) != 2
                or any(type(v) is not int or not 0 <= v <= high for v in value)):
            raise ProtocolError(f"{self.what}'s {key} is not two whole numbers from 0 to {high}")
        return value[0], value[1]

    def list(self, key: str, max_len: builtins.int) -> list[Any]:
        value = self._get(key)
        if not isinstance(value, list) or len(value) > max_len:
            raise ProtocolError(f"{self.what}'s {key} is not a list of at most {max_len} items")
        return value


_TABLE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

_EVENT_FIELDS = {
    "won": ("type", "battle", "winner", "cards", "p1", "p2", "wars", "counts"),
    "over": ("type", "result", "reason", "battles", "wars", "longest", "counts", "leader", "p1", "p2", "last_wars"),
    "started": ("type", "seed", "rules", "p1", "p2"),
    "notice": ("type", "code", "text", "seq"),
    "emote": ("type", "seat", "name", "emote", "seq"),
}


def _decode_rules(data: Any) -> Rules:
    f = _Fields(data, "rules", ("war_cards", "gather", "max_battles"))
    try:
        return Rules(f.int("war_cards", 1, 3), f.enum("gather", Gather), f.int("max_battles", 1, MAX_INT))
    except RulesError:
        raise ProtocolError("rules out of range") from None


def _decode_emoted(f: _Fields) -> Emoted:
    return Emoted(f.enum("seat", Side), f.name("name"), f.int("emote", 0, len(EMOTES) - 1), f.int("seq"))


def _tally(f: _Fields) -> Tally:
    value = f.list("tally", 4)
    if len(value) != 4 or any(type(v) is not int or not 0 <= v <= MAX_INT for v in value):
        raise ProtocolError(f"{f.what}'s tally is not four whole numbers")
    return (value[0], value[1], value[2], value[3])


def decode_entry(data: Any) -> TableEvent | Notice | Emoted:
    """One of a game's events (or a log's notice or emote) from its JSON object."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _EVENT_FIELDS:
        raise ProtocolError("an event of no known type")
    f = _Fields(data, f"a {kind} event", _EVENT_FIELDS[kind])
    if kind == "won":
        return BattleWon(
            f.int("battle", 1), f.enum("winner", Side), f.cards("cards"), f.cards("p1"), f.cards("p2"),
            f.int("wars", 0, DECK_SIZE), *f.pair("counts"),
        )
    if kind == "over":
        return GameOver(
            f.enum("result", Result), f.enum("reason", EndReason), f.int("battles"), f.int("wars"),
            f.int("longest", 0, DECK_SIZE), *f.pair("counts"), f.opt_enum("leader", Side),
            f.cards("p1"), f.cards("p2"), f.int("last_wars", 0, DECK_SIZE),
        )
    if kind == "started":
        seed = f.opt_int("seed", -MAX_SEED, MAX_SEED)
        rules = _decode_rules(f._get("rules"))
        p1, p2 = f.cards("p1"), f.cards("p2")
        try:
            validate_packets(p1, p2)
        except CardError:
            raise ProtocolError("a deal whose packets are not a deck") from None
        return GameStarted(seed, rules, p1, p2)
    if kind == "emote":
        return _decode_emoted(f)
    return Notice(f.enum("code", NoticeCode), f.text("text"), f.int("seq"))


def _decode_event(data: Any) -> TableEvent:
    event = decode_entry(data)
    if isinstance(event, (Notice, Emoted)):
        raise ProtocolError("a notice among engine events")
    return event


def _decode_seat(data: Any) -> SeatState:
    f = _Fields(data, "a seat", ("status", "name", "flipped", "auto", "speed", "restart", "war_stop", "leaving"))
    status = f.enum("status", SeatStatus)
    name = f.opt_name("name")
    if (name is None) != (status is SeatStatus.OPEN):
        raise ProtocolError("a seat whose name does not fit its status")
    return SeatState(status, name, f.bool("flipped"), f.bool("auto"), f.number("speed", MIN_SPEED, MAX_REQUEST_SPEED),
                     f.bool("restart"), f.bool("war_stop"), f.bool("leaving"))


MAX_WAIT = 86400.0


def _table_name(f: _Fields, key: str) -> str:
    table = f.text(key, MAX_TABLE_NAME_LENGTH)
    if not table or any(ch not in _TABLE_CHARS for ch in table):
        raise ProtocolError("a table name outside a-z, 0-9 and -")
    return table


def _seats(f: _Fields, key: str) -> tuple[SeatState, SeatState]:
    seats = f.list(key, 2)
    if len(seats) != 2:
        raise ProtocolError("a table without two seats")
    return _decode_seat(seats[0]), _decode_seat(seats[1])


def _waiting(f: _Fields, key: str) -> tuple[Side, ...]:
    waiting = f.list(key, 2)
    try:
        waiting_for = tuple(Side(s) for s in waiting) if all(isinstance(s, str) for s in waiting) else None
    except ValueError:
        waiting_for = None
    if waiting_for is None or len(set(waiting_for)) != len(waiting_for):
        raise ProtocolError("a table waiting for seats that are not seats")
    return waiting_for


def _decode_lobby_entry(data: Any) -> LobbyEntry:
    f = _Fields(
        data, "a lobby line", ("table", "players", "statuses", "spectators", "game", "battles", "counts", "result", "war"),
    )
    table = f.text("table", MAX_TABLE_NAME_LENGTH)
    if not table or any(ch not in _TABLE_CHARS for ch in table):
        raise ProtocolError("a table name outside a-z, 0-9 and -")
    players = f.list("players", 2)
    statuses = f.list("statuses", 2)
    if len(players) != 2 or len(statuses) != 2:
        raise ProtocolError("a lobby line without two seats")
    names = tuple(_Fields({"name": p}, "a lobby line", ("name",)).opt_name("name") for p in players)
    kinds = tuple(_Fields({"status": s}, "a lobby line", ("status",)).enum("status", SeatStatus) for s in statuses)
    return LobbyEntry(
        table, (names[0], names[1]), (kinds[0], kinds[1]), f.int("spectators", 0, MAX_SPECTATORS), f.int("game", 1),
        f.int("battles"), f.pair("counts"), f.opt_enum("result", Result),
        f.int("war", 0, DECK_SIZE) if "war" in f.data else 0,  # an entry written without it tells no war
    )


def _value(enum: Any) -> Any:
    return None if enum is None else enum.value


def _you(f: _Fields, key: str) -> You:
    y = _Fields(f._get(key), "a snapshot's you", ("name", "seat"))
    return You(y.name("name"), y.opt_enum("seat", Side))


def _on_show(f: _Fields, key: str) -> BattleWon | GameOver | None:
    data = f._get(key)
    on_show = None if data is None else _decode_event(data)
    if on_show is not None and not isinstance(on_show, (BattleWon, GameOver)):
        raise ProtocolError("a snapshot showing something that is not a battle")
    return on_show


_SEQ = _Field("seq", lambda f, key: f.int(key))
"""The table's sequence number, on every update of a table's (0: outside the sequence)."""
_TALLY = _Field("tally", lambda f, key: _tally(f), list)
_STATE = _Codec(TableState, "state", "a state message", (
    _Field("table", _table_name), _Field("game", lambda f, key: f.int(key, 1)),
    _Field("seats", _seats, lambda seats: [_seat(s) for s in seats]),
    _Field("spectators", lambda f, key: f.int(key, 0, MAX_SPECTATORS)),
    _Field("waiting", _waiting, lambda sides: [s.value for s in sides], "waiting_for"),
    _Field("auto", lambda f, key: f.opt_number(key, MIN_SPEED, MAX_REQUEST_SPEED), attr="auto_speed"),
    _Field("over", lambda f, key: f.bool(key)), _Field("war_stop", lambda f, key: f.bool(key)),
    _Field("held", lambda f, key: f.bool(key)),
    _Field("house_in", lambda f, key: f.opt_number(key, 0.0, MAX_WAIT)), _SEQ,
))
_UPDATES = (
    _Codec(EventBatch, "events", "an events message", (
        _Field("game", lambda f, key: f.int(key, 1)),
        _Field("events", lambda f, key: tuple(_decode_event(e) for e in f.list(key, MAX_EVENTS)),
               lambda events: [event_dict(e) for e in events]),
        _Field("played", lambda f, key: f.int(key), attr="played_ms"), _TALLY, _SEQ,
        _Field("held", lambda f, key: f.bool(key)),
    )),
    _STATE,
    _Codec(Notice, "notice", "a notice", (
        _Field("code", lambda f, key: f.enum(key, NoticeCode), _value), _Field("text", lambda f, key: f.text(key)),
        _SEQ,
    )),
    _Codec(Emoted, "emoted", "an emote", (
        _Field("seat", lambda f, key: f.enum(key, Side), _value), _Field("name", lambda f, key: f.name(key)),
        _Field("emote", lambda f, key: f.int(key, 0, len(EMOTES) - 1)), _SEQ,
    )),
    _Codec(Snapshot, "snapshot", "a snapshot", (
        _Field("you", _you, lambda you: {"name": you.name, "seat": _side(you.seat)}),
        _Field("state", lambda f, key: _STATE.read(f._get(key), "a snapshot's state", tagged=False), _STATE.write),
        _Field("seed", lambda f, key: f.opt_int(key, -MAX_SEED, MAX_SEED)),
        _Field("rules", lambda f, key: _decode_rules(f._get(key)), _rules),
        _Field("total", lambda f, key: f.int(key, 2, DECK_SIZE), attr="total_cards"),
        _Field("counts", lambda f, key: f.pair(key), list), _Field("battles", lambda f, key: f.int(key)),
        _Field("wars", lambda f, key: f.int(key)),
        _Field("longest", lambda f, key: f.int(key, 0, DECK_SIZE), attr="longest_war"),
        _Field("result", lambda f, key: f.opt_enum(key, Result), _value),
        _Field("reason", lambda f, key: f.opt_enum(key, EndReason), _value),
        _Field("on_show", _on_show, lambda event: None if event is None else event_dict(event)),
        _Field("log", lambda f, key: tuple(decode_entry(e) for e in f.list(key, MAX_LOG)),
               lambda log: [event_dict(e) for e in log]),
        _Field("played", lambda f, key: f.int(key), attr="played_ms"), _TALLY, _SEQ,
    )),
    _Codec(Tuned, "tuned", "a tuned message", (
        _Field("table", lambda f, key: None if f._get(key) is None else _table_name(f, key)),
        _Field("why", lambda f, key: f.text(key)),
    )),
    _Codec(Lobby, "lobby", "a lobby message", (
        _Field("max", lambda f, key: f.int(key, 1, MAX_TABLES), attr="max_tables"),
        _Field("tables", lambda f, key: tuple(_decode_lobby_entry(e) for e in f.list(key, MAX_TABLES)),
               lambda tables: [_lobby_entry(e) for e in tables]),
    )),
)
"""Every update, one codec, as the requests have (``_REQUESTS``)."""
_UPDATE_KINDS = {codec.kind: codec for codec in _UPDATES}
_CODECS: dict[object, _Codec] = {**_REQUEST_CODEC, **{codec.type: codec for codec in _UPDATES}}
"""Each message type's codec: updates and requests share the tag ``lobby``, never a type."""


def decode_update(line: bytes | str) -> Update:
    """What the server said, from one line; raises ``ProtocolError``."""
    data = _load(line)
    kind = data.get("kind")
    codec = _UPDATE_KINDS.get(kind) if isinstance(kind, str) else None
    if codec is None:
        raise ProtocolError("a message of no known kind")
    update: Update = codec.read(data)
    return update


def decode_request(line: bytes | str) -> Request:
    """What a connection asked, from one line; raises ``ProtocolError``."""
    data = _load(line)
    kind = data.get("kind")
    codec = _REQUEST_KINDS.get(kind) if isinstance(kind, str) else None
    if codec is None:
        raise ProtocolError("a request of no known kind")
    request: Request = codec.read(data)
    return request


# ================================================================ streams


class LineTooLong(ProtocolError):
    """A line went past ``MAX_LINE`` bytes; its bytes up to the next newline are skipped."""


class MessageReader(Generic[T]):
    """Bytes in, decoded messages (or the ``ProtocolError`` of each bad line) out.

    Holds at most ``max_line`` bytes of an unfinished line: a line that grows
    past it is reported once as ``LineTooLong`` and skipped up to its newline.
    """

    def __init__(self, decode: Callable[[bytes], T], max_line: int = MAX_LINE) -> None:
        self._decode = decode
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False

    @property
    def buffered(self) -> int:
        """Bytes held of the unfinished line."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[T | ProtocolError]:
        out: list[T | ProtocolError] = []
        start = 0
        size = len(data)
        while start < size:
            end = data.find(b"\n", start)
            if end < 0:
                piece = data[start:]
                start = size
                if self._skipping:
                    continue
                if len(self._buffer) + len(piece) >= self.max_line:
                    self._buffer.clear()
                    self._skipping = True
                    out.append(LineTooLong(f"a line longer than {self.max_line} bytes"))
                else:
                    self._buffer += piece
                continue
            piece = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                continue
            if len(self._buffer) + len(piece) + 1 > self.max_line:
                self._buffer.clear()
                out.append(LineTooLong(f"a line longer than {self.max_line} bytes"))
                continue
            if self._buffer:
                self._buffer += piece
                line = bytes(self._buffer)
                self._buffer.clear()
            else:
                line = piece
            try:
                out.append(self._decode(line))
            except ProtocolError as error:
                out.append(error)
        return out


def request_reader() -> MessageReader[Request]:
    """The server's reader of one connection's requests."""
    return MessageReader(decode_request)


def update_reader() -> MessageReader[Update]:
    """A game process's reader of the server's updates."""
    return MessageReader(decode_update)
