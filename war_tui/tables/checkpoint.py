"""A table as bytes and back, so another process goes on exactly where it was.

``checkpoint(table)`` is compact JSON of at most ``MAX_CHECKPOINT_BYTES``; ``restore`` rebuilds the
``Table`` by replaying the game's battles from its seed. Times are durations, never one process's clock
readings. Every field is checked before anything is built: bad data is a ``CheckpointError``, never a
crash. What it holds and why: docs/architecture.md, "A table's checkpoint".
"""

from __future__ import annotations

import json
import math
import string
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from ..core.cards import DECK_SIZE, Card, CardError, validate_packets
from ..core.engine import Game
from ..core.events import BattleWon, GameOver, GameStarted
from ..core.rules import MAX_WAR_CARDS, EndReason, Gather, Result, Rules, RulesError, Side
from ..stats.records import GameRecord
from ..untrusted import BadRecord, read_json
from .agreement import EMOTES_A_MINUTE, KINDS
from .clock import Clock
from .messages import EMOTES, LOGGED_NOTICES, Emoted, LogEntry, Notice
from .names import TableNameError, parse_table_name, reduce_name
from .options import TableOptions, clamp_speed
from .seats import Seat
from .table import Member, Table

__all__ = [
    "CHECKPOINT_VERSION", "MAX_CHECKPOINT_BYTES", "CheckpointError", "ReadCheckpoint", "checkpoint", "read_checkpoint",
    "restore",
]

CHECKPOINT_VERSION = 2
"""Version 2 writes the log's entries of the game on as runs its replay rebuilds (``["G", n]``); a restore reads
version 1 as well, which holds them whole."""
MAX_CHECKPOINT_BYTES = 64 * 1024
MAX_LOG_ENTRIES = 200
"""Log lines a checkpoint keeps at most (the newest); fewer when they would not fit in ``MAX_CHECKPOINT_BYTES``."""
MAX_AGE = 2 * 86400.0
"""Seconds a checkpoint counts back at most: longer than any rule of a table looks back (a day's reconnect grace)."""
MAX_REPLAY_BATTLES = 1_000_000
"""Battles a restore replays at most (a fraction of a second): a game past it is not restored."""
MAX_COUNT = 2**53
"""Sequence numbers, game numbers and counts at most (whole numbers every JSON reader keeps exactly)."""
MAX_SEED = 2**64
MAX_TEXT = 400
"""Characters of a logged notice at most (the table composes them from reduced names)."""
MAX_IDENTITY = 256
"""Characters of an identity or an address at most (the doors make them: a key's fingerprint, a hashed address)."""
MAX_NONCE = 64
"""Hex digits of a table's nonce at most (a table chooses 16)."""
MAX_PLAYED = 1e9
"""Seconds a game may have been played at most."""

_CARDS = string.ascii_uppercase + string.ascii_lowercase
"""One letter a card: card ``n`` is ``_CARDS[n]`` (52 letters, nothing JSON escapes)."""
_TO_LETTERS = bytes.maketrans(bytes(range(DECK_SIZE)), _CARDS.encode("ascii"))
_FROM_LETTERS = bytes.maketrans(_CARDS.encode("ascii"), bytes(range(DECK_SIZE)))
_LETTERS = frozenset(_CARDS)
_HEX = frozenset("0123456789abcdef")
_TABLE_KEYS = frozenset({"v", "name", "nonce", "by", "seq", "bseq", "moves", "empty", "tally", "game", "seats", "auto", "log"})
_GAME_KEYS = frozenset({"n", "rules", "seed", "deck", "b", "end", "counts", "played"})
_SEAT_KEYS = frozenset({"name", "id", "addr", "before", "lost", "left", "sat", "msit", "flip", "auto", "speed",
                        "restart", "war_stop", "asked", "emotes"})
_AUTO_KEYS = frozenset({"in", "credit", "held"})
_STOPPED = (EndReason.STOPPED, EndReason.AGREED)
"""The ends a replay cannot reach by playing: the game was stopped."""
_RESULTS = {r.value: r for r in Result}
_REASONS = {r.value: r for r in EndReason}
_GATHERS = {g.value: g for g in Gather}
_LOGGED = {c.value: c for c in LOGGED_NOTICES}
_LEADERS = {"p1": Side.P1, "p2": Side.P2}

T = TypeVar("T")


MAX_CHECKPOINT_DEPTH = 6
"""Arrays and objects nested in a checkpoint at most (a log entry's fields, in the log, in the table: four)."""


class CheckpointError(BadRecord):
    """Bytes that are not a checkpoint this version restores; the message says what is wrong in one line."""


# --------------------------------------------------------------------- writing


def checkpoint(table: Table) -> bytes:
    """``table`` as compact JSON of at most ``MAX_CHECKPOINT_BYTES`` (the oldest log lines go first when it would not
    fit); its connections are not in it: each seated player's seat is kept for them (see the module)."""
    if table.closed:
        raise CheckpointError(f"table {table.name} is closed: there is nothing to keep")
    now = table._clock()
    journal = table._journal
    body: dict[str, object] = {
        "v": CHECKPOINT_VERSION,
        "name": table.name,
        "nonce": table.nonce,
        "by": [_fit(part) for part in table.opened_by],
        "seq": journal.seq,
        "bseq": journal.battle_seq,
        "moves": table._moves,
        "empty": _age(now, table._empty_since) if table._empty_since is not None else None,
        "tally": list(table.tally),
        "game": _game(table),
        "seats": [_seat(seat, now) for seat in table._seats],
        "auto": _auto(table, now),
    }
    entries = list(journal.log)[-MAX_LOG_ENTRIES:]
    game = table.game
    told = 1 + game.battles + (1 if game.over else 0)
    while True:
        body["log"] = log = _log(entries, told)
        data = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
        if len(data) <= MAX_CHECKPOINT_BYTES or not log:
            break
        entries = entries[len(entries) // 4 + 1:]
    if len(data) > MAX_CHECKPOINT_BYTES:  # every field but the log is bounded far below it
        raise CheckpointError(f"table {table.name}'s checkpoint takes {len(data)} bytes, past {MAX_CHECKPOINT_BYTES}")
    return data


def _fit(text: str | None) -> str | None:
    """An identity or an address as a restore takes it; None (nobody to keep a seat for) for one it would refuse,
    so a host's odd identity costs a seat its keeping, never the whole table."""
    if text is None or not 0 < len(text) <= MAX_IDENTITY or not text.isprintable():
        return None
    return text


def _age(now: float, then: float) -> float:
    """Seconds from ``then`` to ``now``, within what a checkpoint counts back."""
    return min(MAX_AGE, max(0.0, now - then))


@lru_cache(maxsize=256)
def _dealt(seed: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The packets ``Game.deal(seed)`` deals (the rules do not change a deal)."""
    return Game.deal(seed).initial


def _game(table: Table) -> dict[str, object]:
    game = table.game
    rules = game.rules
    seed = game.seed
    by_seed = seed is not None and 0 <= seed < MAX_SEED and _dealt(seed) == game.initial
    return {
        "n": table.game_number,
        "rules": [rules.war_cards, rules.gather.value, rules.max_battles],
        "seed": seed,
        "deck": None if by_seed else [_letters(packet) for packet in game.initial],
        "b": game.battles,
        "end": [game.result.value, game.reason.value] if game.result is not None and game.reason is not None else None,
        "counts": list(game.counts),
        "played": table._dealer.played(),
    }


def _seat(seat: Seat[Member], now: float) -> dict[str, object]:
    here = seat.member is not None
    return {
        "name": seat.name, "id": _fit(seat.identity), "addr": _fit(seat.address), "before": seat.name_before,
        "lost": here or seat.lost,
        "left": 0.0 if here else (_age(now, seat.left_at) if seat.left_at is not None else None),
        "sat": _age(now, seat.sat_at), "msit": seat.moves_at_sit,
        "flip": _age(now, seat.flipped_at) if seat.flipped else None,
        "auto": seat.auto, "speed": seat.speed, "restart": seat.restart, "war_stop": seat.war_stop,
        "asked": {kind: _age(now, since) for kind, since in seat.asked.items()},
        "emotes": [_age(now, sent) for sent in seat.emotes.sent],
    }


def _auto(table: Table, now: float) -> dict[str, object]:
    auto = table._auto
    due = None if auto.at is None else max(-MAX_AGE, min(MAX_AGE, auto.at - now))
    return {"in": due, "credit": auto.credit, "held": auto.held}


def _letters(cards: Iterable[Card]) -> str:
    return bytes(cards).translate(_TO_LETTERS).decode("ascii")


def _log(entries: list[LogEntry], told: int) -> list[list[object]]:
    """The log's lines, oldest first: those of the game on (from its deal, or as far back as the log goes) as runs
    ``["G", n]`` of its events, which a restore replays from the seed; every other line whole. All of them whole
    should the log hold more of the game on's lines than the ``told`` events it has told (a log restored from a
    version 1 checkpoint holds what that said)."""
    deal = next((i for i in range(len(entries) - 1, -1, -1) if isinstance(entries[i], GameStarted)), 0)
    log: list[list[object]] = []
    replayed = 0
    for index, entry in enumerate(entries):
        if index < deal or isinstance(entry, (Notice, Emoted)):
            log.append(_entry(entry))
            continue
        replayed += 1
        if log and log[-1][0] == "G":
            log[-1][1] += 1  # type: ignore[operator]  # a run's count, an int made just above
        else:
            log.append(["G", 1])
    if replayed > told:
        return [_entry(entry) for entry in entries]
    return log


def _entry(entry: LogEntry) -> list[object]:
    """A log line as a short list, its kind first."""
    if isinstance(entry, BattleWon):
        return ["B", entry.battle, entry.winner.index, _letters(entry.cards), _letters(entry.p1_laid),
                _letters(entry.p2_laid), entry.wars, entry.p1_count, entry.p2_count]
    if isinstance(entry, GameStarted):
        rules = entry.rules
        return ["S", entry.seed, [rules.war_cards, rules.gather.value, rules.max_battles],
                _letters(entry.p1), _letters(entry.p2)]
    if isinstance(entry, GameOver):
        return ["O", entry.result.value, entry.reason.value, entry.battles, entry.wars, entry.longest_war,
                entry.p1_count, entry.p2_count, entry.leader.value if entry.leader is not None else None,
                _letters(entry.last_battle_p1), _letters(entry.last_battle_p2), entry.last_battle_wars]
    if isinstance(entry, Notice):
        return ["N", entry.code.value, entry.text, entry.seq]
    return ["E", entry.seat.index, entry.name, entry.emote, entry.seq]


# --------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class ReadCheckpoint:
    """A checkpoint read and its game replayed: the slow part of a restore (``read_checkpoint``), which a server does
    off its event loop; ``restore`` builds the table from it."""

    name: str
    nonce: str
    opened_by: tuple[str | None, str | None]
    seq: int
    battle_seq: int
    moves: int
    empty: float | None
    tally: tuple[int, int, int, int]
    game: Game
    number: int
    played: float
    on_show: BattleWon | GameOver | None
    entries: list[LogEntry]
    seats: list[object]
    auto: dict[str, object]


def read_checkpoint(data: bytes, options: TableOptions) -> ReadCheckpoint:
    """``data`` read and its game replayed, every field checked but the seats' and auto-play's (``restore`` checks
    those as it sets them). Its game is at most as long as a table under ``options`` plays (``max_battles``) and
    ``MAX_REPLAY_BATTLES``: the replay costs at most a real game's length. Touches nothing but its own objects, so
    it may run in another thread.

    Raises ``CheckpointError`` when ``data`` is not a checkpoint this version restores, whatever it holds.
    """
    body = _parse(data)
    name = _table_name(body["name"])
    nonce = _nonce(body["nonce"])
    opened_by = _pair(body["by"], "opened by", lambda v, w: _text(v, w, MAX_IDENTITY, optional=True))
    seq = _whole(body["seq"], "seq", 0, MAX_COUNT)
    battle_seq = _whole(body["bseq"], "battle seq", 0, seq)
    moves = _whole(body["moves"], "moves", 0, MAX_COUNT)
    empty = None if body["empty"] is None else _number(body["empty"], "empty", 0.0, MAX_AGE)
    tally = _tally(body["tally"])
    lines = _list(body["log"], "log", 0, MAX_LOG_ENTRIES)
    game, number, played, on_show, replayed = _restore_game(
        body["game"], _replayed_lines(lines), options.rules.max_battles,
    )
    seats = _list(body["seats"], "seats", 2, 2)
    auto = _object(body["auto"], "auto", _AUTO_KEYS)
    entries = _log_entries(lines, seq, replayed)
    return ReadCheckpoint(
        name, nonce, opened_by, seq, battle_seq, moves, empty, tally, game, number, played, on_show, entries, seats,
        auto,
    )


def restore(
    data: bytes | ReadCheckpoint,
    *,
    clock: Clock,
    options: TableOptions,
    deal: Callable[[], Game] | None = None,
    seed_source: Callable[[], int] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    log: Callable[[str], None] | None = None,
    on_change: Callable[[], None] | None = None,
) -> Table:
    """The table ``data`` (a ``checkpoint``, or one ``read_checkpoint`` read) holds, going on from now on ``clock``
    under ``options`` (``deal``, ``seed_source``, ``on_record``, ``log``, ``on_change``: as for a new ``Table``, for
    the games to come).

    Raises ``CheckpointError`` when ``data`` is not a checkpoint this version restores, whatever it holds.
    """
    read = data if isinstance(data, ReadCheckpoint) else read_checkpoint(data, options)
    game = read.game
    table = Table(
        read.name, clock=clock, options=options, deal=deal, seed_source=seed_source, on_record=on_record, log=log,
        opened_by=read.opened_by, on_change=on_change, game=game, nonce=read.nonce,
    )
    now = clock()
    for seat, seat_data in zip(table._seats, read.seats):
        _restore_seat(seat, seat_data, now, read.moves, options, game.over)
    _restore_auto(table, read.auto, now)
    table._moves = read.moves
    table._empty_since = now - read.empty if read.empty is not None else now
    table._dealer.resume(read.number, read.played, read.tally, read.on_show)
    journal = table._journal
    journal.seq = read.seq
    journal.battle_seq = read.battle_seq
    journal.log = deque(read.entries, maxlen=options.log_lines)
    return table


def _parse(data: bytes) -> dict[str, object]:
    if not isinstance(data, (bytes, bytearray)):
        raise CheckpointError(f"a checkpoint is bytes, not {type(data).__name__}")
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(f"a checkpoint takes at most {MAX_CHECKPOINT_BYTES} bytes, not {len(data)}")
    try:
        body = read_json(data, MAX_CHECKPOINT_BYTES, MAX_CHECKPOINT_DEPTH)
    except BadRecord as error:
        raise CheckpointError(f"not a checkpoint: {error}") from None
    if not isinstance(body, dict):
        raise CheckpointError("not a checkpoint: not a JSON object")
    version = body.get("v")
    if type(version) is not int or not 1 <= version <= CHECKPOINT_VERSION:
        raise CheckpointError(
            f"checkpoint version {version!r}: this server restores versions 1 to {CHECKPOINT_VERSION}"
        )
    return _object(body, "checkpoint", _TABLE_KEYS)


def _restore_game(
    value: object, tail: int, most: int,
) -> tuple[Game, int, float, BattleWon | GameOver | None, list[LogEntry]]:
    """The game replayed from its seed or packets to the battles played, checked against what the checkpoint says
    of it; its number, time played, the battle on show, and the last ``tail`` of its events (its deal, battles
    and end) for the log. Its battles are within its rules' cap, ``most`` (the cap of the tables that read it) and
    ``MAX_REPLAY_BATTLES``, all checked before a battle is replayed."""
    data = _object(value, "game", _GAME_KEYS)
    number = _whole(data["n"], "game number", 1, MAX_COUNT)
    rules = _rules(data["rules"], "game rules")
    seed = None if data["seed"] is None else _whole(data["seed"], "seed", 0, MAX_SEED - 1)
    battles = _whole(data["b"], "battles", 0, min(rules.max_battles, most, MAX_REPLAY_BATTLES))
    end = None if data["end"] is None else _end(data["end"])
    counts = _pair(data["counts"], "counts", lambda v, w: _whole(v, w, 0, DECK_SIZE))
    played = _number(data["played"], "played", 0.0, MAX_PLAYED)
    if data["deck"] is None:
        if seed is None:
            raise CheckpointError("game: neither a seed nor a deck")
        game = Game.deal(seed, rules)
    else:
        p1, p2 = _pair(data["deck"], "deck", _cards)
        try:
            game = Game(p1, p2, rules, seed=seed)
        except CardError as error:
            raise CheckpointError(f"deck: {error}") from None
    said: list[object] = []
    unsubscribe = game.subscribe(said.append) if tail > battles else None  # the deal is wanted too
    on_show, unsubscribe = _replay(game, battles, tail, said, unsubscribe)
    if end is not None and end[1] in _STOPPED:
        game.stop(end[1])
    unsubscribe()
    ended = None if game.result is None or game.reason is None else (game.result, game.reason)
    if (game.battles, game.counts, ended) != (battles, counts, end):
        raise CheckpointError("game: the replay of its seed does not reach what the checkpoint says")
    events: list[LogEntry] = [event for event in said if isinstance(event, (GameStarted, BattleWon, GameOver))]
    if len(events) < tail:
        raise CheckpointError(f"log: {tail} lines of the game on, which has told {len(events)} so far")
    return game, number, played, on_show, events[len(events) - tail:]


def _replay(
    game: Game, battles: int, tail: int, said: list[object], unsubscribe: Callable[[], None] | None,
) -> tuple[BattleWon | GameOver | None, Callable[[], None]]:
    """Play ``battles`` battles of ``game``, its events from the last ``tail`` battles on (at least the last one's)
    into ``said``: listened to from then on, or all along when ``unsubscribe`` says so already. The battle on show
    after them, and what stops the listening."""
    game.start()
    quiet = max(0, battles - max(1, tail)) if unsubscribe is None else 0
    if quiet:
        game.play(quiet)
    if unsubscribe is None:
        unsubscribe = game.subscribe(said.append)
    if battles - quiet > 1:
        game.play(battles - quiet - 1)
    last = len(said)
    if battles:
        game.play(1)
    on_show: BattleWon | GameOver | None = None
    for event in said[last:]:
        if isinstance(event, BattleWon) or (isinstance(event, GameOver) and event.last_battle_p1):
            on_show = event
    return on_show, unsubscribe


def _end(value: object) -> tuple[Result, EndReason]:
    result, reason = _list(value, "end", 2, 2)
    return _choice(result, _RESULTS, "result"), _choice(reason, _REASONS, "end")


def _choice(value: object, choices: dict[str, T], what: str) -> T:
    """One of ``choices`` by its name."""
    if not isinstance(value, str) or value not in choices:
        raise CheckpointError(f"{what}: no such {what}")
    return choices[value]


def _restore_seat(
    seat: Seat[Member], value: object, now: float, moves: int, options: TableOptions, over: bool,
) -> None:
    data = _object(value, "seat", _SEAT_KEYS)
    name = _name(data["name"], "seat name", optional=True)
    identity = _text(data["id"], "seat identity", MAX_IDENTITY, optional=True)
    lost = _flag(data["lost"], "lost")
    left = None if data["left"] is None else _number(data["left"], "left", 0.0, MAX_AGE)
    flip = None if data["flip"] is None else _number(data["flip"], "flip", 0.0, MAX_AGE)
    asked = _asked(data["asked"])
    wishes = {kind: _flag(data[kind], kind) for kind in ("auto", "restart", "war_stop")}
    if name is None and (identity is not None or left is not None or lost or flip is not None or asked
                         or any(wishes.values())):
        raise CheckpointError("seat: nobody sat there, yet it holds a player's state")
    if lost and left is None:
        raise CheckpointError("seat: a lost seat's player has no time it left")
    if over and flip is not None:
        raise CheckpointError("seat: a flip for a game that is over")
    seat.name = name
    seat.identity = identity
    seat.address = _text(data["addr"], "seat address", MAX_IDENTITY, optional=True)
    seat.name_before = _name(data["before"], "seat name before", optional=True)
    seat.left_at = None if left is None else now - left
    seat.sat_at = now - _number(data["sat"], "sat", 0.0, MAX_AGE)
    seat.moves_at_sit = _whole(data["msit"], "moves at sit", 0, moves)
    seat.flipped = flip is not None
    seat.flipped_at = now - flip if flip is not None else 0.0
    seat.auto, seat.restart, seat.war_stop = wishes["auto"], wishes["restart"], wishes["war_stop"]
    seat.speed = clamp_speed(_number(data["speed"], "speed", 0.0, 1e6), options.max_speed)
    seat.asked = {kind: now - age for kind, age in asked.items()}
    sent = _list(data["emotes"], "emotes", 0, EMOTES_A_MINUTE)
    seat.emotes.resume(now - _number(age, "emote", 0.0, MAX_AGE) for age in sent)
    seat.lost = lost and identity is not None
    if lost and identity is None:  # nobody to keep it for: the house plays it, as when such a player leaves
        seat.flipped = False
        seat.drop_wishes()


def _asked(value: object) -> dict[str, float]:
    if not isinstance(value, dict) or len(value) > len(KINDS) or not set(value) <= set(KINDS):
        raise CheckpointError("asked: not requests by kind")
    return {kind: _number(age, "asked", 0.0, MAX_AGE) for kind, age in value.items()}


def _restore_auto(table: Table, value: dict[str, object], now: float) -> None:
    """Auto-play as it was, kept only where the restored seats still want it (as the table's settling would)."""
    due = None if value["in"] is None else _number(value["in"], "auto in", -MAX_AGE, MAX_AGE)
    credit = _number(value["credit"], "auto credit", 0.0, 1.0)
    held = _flag(value["held"], "auto held")
    if credit >= 1.0 or (due is not None and held):
        raise CheckpointError("auto: a tick due while held, or a whole battle owed")
    if table.game.over or not table._seats.wants_auto(now):
        due, held = None, False
    auto = table._auto
    auto.at = None if due is None else now + due
    auto.credit = credit
    auto.held = held and table._seats.war_stop_agreed(now)


# --------------------------------------------------------------------- the log


def _replayed_lines(lines: list[object]) -> int:
    """How many of the log's lines are the game on's, in runs ``["G", n]`` its replay rebuilds."""
    count = 0
    for line in lines:
        if isinstance(line, list) and line and line[0] == "G":
            (run,) = _fields(line[1:], 1, "game run")
            count += _whole(run, "game run", 1, MAX_LOG_ENTRIES)
    if count > MAX_LOG_ENTRIES:
        raise CheckpointError(f"log: more than {MAX_LOG_ENTRIES} lines")
    return count


def _log_entries(lines: list[object], seq: int, replayed: list[LogEntry]) -> list[LogEntry]:
    """The log's lines, the game on's runs taken in turn from ``replayed`` (its last events, as many as the runs
    count)."""
    entries: list[LogEntry] = []
    taken = 0
    for line in lines:
        if isinstance(line, list) and line and line[0] == "G":
            run = int(line[1])  # checked by _replayed_lines
            entries += replayed[taken:taken + run]
            taken += run
        else:
            entries.append(_log_entry(line, seq))
    return entries


def _log_entry(value: object, seq: int) -> LogEntry:
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise CheckpointError("log: an entry is not a list that starts with its kind")
    kind, fields = value[0], value[1:]
    reader = _ENTRY_READERS.get(kind)
    if reader is None:
        raise CheckpointError(f"log: no entry of kind {kind[:8]!r}")
    return reader(fields, seq)


def _fields(fields: list[object], count: int, kind: str) -> list[object]:
    if len(fields) != count:
        raise CheckpointError(f"log: a {kind} entry has {count} fields, not {len(fields)}")
    return fields


def _started(fields: list[object], seq: int) -> LogEntry:
    seed, rules, p1, p2 = _fields(fields, 4, "deal")
    packets = _cards(p1, "dealt"), _cards(p2, "dealt")
    try:
        validate_packets(*packets)
    except CardError as error:
        raise CheckpointError(f"log: a deal: {error}") from None
    return GameStarted(
        None if seed is None else _whole(seed, "seed", 0, MAX_SEED - 1), _rules(rules, "dealt rules"), *packets,
    )


def _battle(fields: list[object], seq: int) -> LogEntry:
    battle, winner, pile, laid1, laid2, wars, n1, n2 = _fields(fields, 8, "battle")
    return BattleWon(
        _whole(battle, "battle", 1, MAX_COUNT), _side(winner), _cards(pile, "pile"), _cards(laid1, "laid"),
        _cards(laid2, "laid"), _whole(wars, "wars", 0, DECK_SIZE), _whole(n1, "count", 0, DECK_SIZE),
        _whole(n2, "count", 0, DECK_SIZE),
    )


def _over(fields: list[object], seq: int) -> LogEntry:
    result, reason, battles, wars, longest, n1, n2, lead, last1, last2, last_wars = _fields(fields, 11, "game over")
    if lead is not None and not isinstance(lead, str):
        raise CheckpointError("log: a game over's leader is not a side")
    return GameOver(
        _choice(result, _RESULTS, "result"), _choice(reason, _REASONS, "end"), _whole(battles, "battles", 0, MAX_COUNT),
        _whole(wars, "wars", 0, MAX_COUNT), _whole(longest, "longest war", 0, DECK_SIZE),
        _whole(n1, "count", 0, DECK_SIZE), _whole(n2, "count", 0, DECK_SIZE),
        _choice(lead, _LEADERS, "leader") if lead is not None else None, _cards(last1, "last laid"), _cards(last2, "last laid"),
        _whole(last_wars, "last wars", 0, DECK_SIZE),
    )


def _notice(fields: list[object], seq: int) -> LogEntry:
    code, text, told = _fields(fields, 3, "notice")
    words = _text(text, "notice", MAX_TEXT, optional=False)
    return Notice(_choice(code, _LOGGED, "logged notice"), words or "", seq=_whole(told, "notice seq", 1, seq))


def _emoted(fields: list[object], seq: int) -> LogEntry:
    seat, name, emote, told = _fields(fields, 4, "emote")
    return Emoted(
        _side(seat), _name(name, "emote name", optional=False) or "", _whole(emote, "emote", 0, len(EMOTES) - 1),
        seq=_whole(told, "emote seq", 1, seq),
    )


_ENTRY_READERS: dict[str, Callable[[list[object], int], LogEntry]] = {
    "S": _started, "B": _battle, "O": _over, "N": _notice, "E": _emoted,
}


# --------------------------------------------------------------------- values


def _object(value: object, what: str, keys: frozenset[str]) -> dict[str, object]:
    if not isinstance(value, dict) or set(value) != keys:
        raise CheckpointError(f"{what}: not an object with the fields of this version")
    return value


def _list(value: object, what: str, low: int, high: int) -> list[object]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise CheckpointError(f"{what}: not a list of {low} to {high} items")
    return value


def _pair(value: object, what: str, read: Callable[[object, str], T]) -> tuple[T, T]:
    first, second = _list(value, what, 2, 2)
    return read(first, what), read(second, what)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CheckpointError(f"{what}: not a whole number from {low} to {high}")
    return value


def _number(value: object, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CheckpointError(f"{what}: not a number")
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise CheckpointError(f"{what}: not a number from {low:g} to {high:g}")
    return number


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise CheckpointError(f"{what}: not true or false")
    return value


def _text(value: object, what: str, limit: int, *, optional: bool) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= limit or not value.isprintable():
        raise CheckpointError(f"{what}: not printable text of 1 to {limit} characters")
    return value


def _nonce(value: object) -> str:
    """The table's nonce, which names its games (``table_game_id``): a few hex digits, as a table chooses it."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NONCE or not set(value) <= _HEX:
        raise CheckpointError(f"nonce: not 1 to {MAX_NONCE} hex digits")
    return value


def _name(value: object, what: str, *, optional: bool) -> str | None:
    """A player's name, as the table reduces names (nothing else reaches anyone's screen)."""
    name = _text(value, what, 64, optional=optional)
    if name is not None and reduce_name(name) != name:
        raise CheckpointError(f"{what}: not a name as the table reduces them")
    return name


def _table_name(value: object) -> str:
    try:
        if isinstance(value, str) and parse_table_name(value) == value:
            return value
    except TableNameError:
        pass
    raise CheckpointError("name: not a table name")


def _side(value: object) -> Side:
    return (Side.P1, Side.P2)[_whole(value, "side", 0, 1)]


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, str) or len(value) > DECK_SIZE or not _LETTERS.issuperset(value):
        raise CheckpointError(f"{what}: not cards")
    cards = tuple(value.encode("ascii").translate(_FROM_LETTERS))
    if len(set(cards)) != len(cards):
        raise CheckpointError(f"{what}: not cards, each once")
    return cards


def _rules(value: object, what: str) -> Rules:
    war_cards, gather, max_battles = _list(value, what, 3, 3)
    try:
        return Rules(_whole(war_cards, what, 1, MAX_WAR_CARDS), _choice(gather, _GATHERS, "gather order"),
                     _whole(max_battles, what, 1, MAX_COUNT))
    except RulesError as error:
        raise CheckpointError(f"{what}: {error}") from None


def _tally(value: object) -> tuple[int, int, int, int]:
    counts = [_whole(count, "tally", 0, MAX_COUNT) for count in _list(value, "tally", 4, 4)]
    return counts[0], counts[1], counts[2], counts[3]
