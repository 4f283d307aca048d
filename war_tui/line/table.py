"""The line mode at a shared table: a seat (or a spectator's chair) told in plain sentences.

It follows the table's ``RemoteGame`` as the solo line mode follows the engine, so a blind player can sit
across from a sighted one on the full screen. Every rule stays with the table: a key here is a request,
and what the table answers (a battle, a seat change, a notice) is what is said.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import time
from collections.abc import Callable

from ..core.events import BattleWon, Event, GameOver, GameStarted
from ..core.rules import EndReason, Side
from ..presentation.requests import KEYS, leaving, pending
from ..presentation.result_hold import ResultHold
from ..presentation.speed import MAX, MIN_SPEED, faster, slower, speed_label
from ..serving.tables.client import TableClient
from ..tables import (
    EMOTES,
    Emoted,
    Notice,
    NoticeCode,
    ProtocolError,
    RemoteGame,
    SeatStatus,
    Snapshot,
    TableState,
)
from ..tables.agreement import request_words
from ..tables.messages import Tuned
from ..tables.options import MIN_AUTO_SPEED
from .keys import EMOTE_COMMANDS, Command, KeyReader
from .run import LineOutput, single_keys
from .sentences import BattleTeller, Voice, score

READ_SIZE = 64 * 1024
"""Bytes of keys read at once."""

TABLE_KEYS_LINE = (
    "Keys: enter flips, a asks for auto-play, + and - set its speed, w to stop at wars, r to deal again,"
    " n declines, 1 to 6 emote, s the score, h help, q leaves the table."
)
WATCHER_KEYS_LINE = "Keys: t takes a free seat, s the score, h help, q leaves."
TV_KEYS_LINE = "Keys: n (or next) the next table, s the score, h help, q leaves War TV."
EMOTES_LINE = "Emotes: " + ", ".join(f"{n} {text}" for n, text in enumerate(EMOTES, 1)) + "."
EXPLAINING = frozenset({NoticeCode.EXPIRED, NoticeCode.LEFT, NoticeCode.CLOSING, NoticeCode.DECLINED})
"""Notices that already say why a request ended (it lapsed, its player left, it was declined): the seats' change that follows
is not said again."""


def auto_words(state: TableState) -> str:
    """The table's auto-play, once it changes: on (from the next deal, at game over) at its pace, or off."""
    if state.auto_speed is None:
        return "Auto-play off."
    when = " from the next deal" if state.over else ""
    return f"Auto-play on{when}: one battle every {1 / state.auto_speed:g} seconds."


def speed_words(speed: float) -> str:
    """An auto-play speed as a voice says it: "4 battles a second", "one battle every 2 seconds", "max"."""
    if speed == MAX:
        return "max, the table's fastest"
    if speed < 1:
        return f"one battle every {1 / speed:g} seconds"
    return f"{speed:g} battle{'s' if speed != 1 else ''} a second"


class TableLine:
    """What to say for a table's updates and what to ask it for each command; ``sentences`` collects the lines."""

    def __init__(
        self, game: RemoteGame, *, terse: bool = False, pace: float = 3.0, top: float = MAX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pace``: the seconds between battles this player first asks auto-play for; ``top``: the fastest + goes
        (the server's cap, as on the full screen; "max" at most, which a table plays at its own fastest)."""
        self.game = game
        self.top = top
        self._clock = clock
        self._hold = ResultHold()
        """The result just told, holding against a key held through the last battle (enter, space, r)."""
        self.terse = terse
        self.speed = max(MIN_AUTO_SPEED, 1 / pace)
        self.sentences: list[str] = []
        self.done = False
        self.refused = False
        """The table closed the connection before it ever took this person in (a refusal, as through a cluster)."""
        self._auto_on: bool | None = None
        self._state: TableState | None = None
        """The seats as last said: what a new state is compared with."""
        self._explained = False
        """A notice just said why a request ended: the state that follows it says nothing more of that."""
        self._place: tuple[str, str, Side | None] | None = None
        """The table, name and seat the last snapshot gave: a fresh snapshot of the same place is said in one line."""
        game.subscribe(self._on_event)
        game.watch(self._on_table)

    # -- who is who ---------------------------------------------------------------------------------------

    def names(self) -> tuple[str, str]:
        state = self.game.state
        if state is None:
            return ("seat 1", "seat 2")
        first, second = state.seats
        return (first.name or "seat 1", second.name or "seat 2")

    @property
    def me(self) -> Side | None:
        you = self.game.you
        return None if you is None else you.seat

    def voice(self, terse: bool | None = None) -> Voice:
        return Voice(self.names(), self.terse if terse is None else terse, me=self.me)

    # -- the table speaks ---------------------------------------------------------------------------------

    def _on_event(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.sentences.append(f"Game {self.game.game_number} is dealt. {self.voice(False).counts(*self.game.counts)}")
            return
        if isinstance(event, BattleWon | GameOver):
            said = BattleTeller(self.voice(), self.game.rules.war_cards).on_event(event)
            if said:
                self.sentences.append(said)
            if isinstance(event, GameOver):
                self._hold.start(self._clock())
            if isinstance(event, GameOver) and self.me is not None and event.reason is not EndReason.AGREED:
                self.sentences.append("Press enter to deal again; the table deals once both players asked.")

    @property
    def tv(self) -> bool:
        """War TV: the server moves this spectator from table to table, and said so."""
        return self.game.tuned is not None

    def _keys_line(self) -> str:
        return TABLE_KEYS_LINE if self.me is not None else TV_KEYS_LINE if self.tv else WATCHER_KEYS_LINE

    def _on_table(self, update: object) -> None:
        if isinstance(update, Tuned):
            where = f"table {update.table}" if update.table is not None else "no table"
            self.sentences.append(f"War TV: {where}, {update.why}.")
        elif isinstance(update, Snapshot):
            self.sentences.extend(self._arrival(update))
            self._state = None
            self.sentences.extend(self._seats_change(update.state))
        elif isinstance(update, TableState):
            on = update.auto_speed is not None  # held at a war's tie, or at game over for the next deal: still on
            if self._auto_on is not None and on != self._auto_on:
                self.sentences.append(auto_words(update))
            self._auto_on = on
            self.sentences.extend(self._seats_change(update))
        elif isinstance(update, Emoted):
            mine = update.seat is self.me and self.game.you is not None and update.name == self.game.you.name
            self.sentences.append(f"You say: {update.text}" if mine else f"{update.name} says: {update.text}")
        elif isinstance(update, Notice):
            if not self._own_arrival(update):  # the arrival's first sentence said it already
                self.sentences.append(update.text)
            if update.code in EXPLAINING:
                self._explained = True
            if update.code is NoticeCode.CLOSING:
                self.done = True
                self.refused = self._place is None

    def _seats_change(self, state: TableState) -> list[str]:
        """What the players ask of each other, and what came of it, since the seats were last said."""
        before, self._state = self._state, state
        explained, self._explained = self._explained, False
        names, me = self.names(), self.me
        said: list[str] = []
        if before is not None and state.war_stop != before.war_stop:
            said.append("Auto-play stops at every war now: both players asked." if state.war_stop
                        else "Auto-play no longer stops at wars.")
        if state.held and (before is None or not before.held):
            said.append("Auto-play waits at this war: enter lays it and plays on." if me is not None
                        else "Auto-play waits at this war until a player flips.")
        went = set(leaving(before)) if before is not None else set()
        said += [f"{names[index]} is leaving the table." for index in leaving(state)
                 if index not in went and index != (me.index if me else None)]
        asked = set(pending(state))
        was = set(pending(before)) if before is not None else set()
        for index, kind in sorted(was - asked):
            if explained or self._agreed(kind, state, before):
                continue  # a notice said why, or the outcome is news of its own (auto-play on, a new deal)
            what = request_words(kind, before.over if before is not None else state.over)
            said.append(f"You no longer ask {what}." if index == (me.index if me else None)
                        else f"{names[index]} no longer asks {what}.")
        for index, kind in pending(state):
            if (index, kind) in was:
                continue
            what = request_words(kind, state.over, speed_label(state.seats[index].speed))
            key = "enter or r" if kind == "restart" and state.over else KEYS[kind]
            if me is None:
                said.append(f"{names[index]} asks {what}.")
            elif index == me.index:
                said.append(f"You ask {what}; waiting for {names[1 - index]}, {KEYS[kind]} again withdraws.")
            else:
                said.append(f"{names[index]} asks {what}: {key} agrees, n declines.")
        return said

    @staticmethod
    def _agreed(kind: str, state: TableState, before: TableState | None) -> bool:
        """Whether a request left the seats because both players now want it (its outcome is said elsewhere)."""
        if kind == "auto":
            return state.auto_speed is not None
        if kind == "war_stop":
            return state.war_stop
        return before is not None and state.game != before.game

    def _own_arrival(self, notice: Notice) -> bool:
        you = self.game.you
        return (notice.code is NoticeCode.JOINED and you is not None and you.seat is not None
                and notice.text == f"{you.name} sits at seat {you.seat.index + 1}")

    def _arrival(self, snap: Snapshot) -> list[str]:
        """Where the person is, the score and the keys; for a fresh snapshot of the same place (a missed update,
        ctrl+l, the table moved to another server) only the score: the rest was said."""
        names = self.names()
        me = snap.you.seat
        self._auto_on = snap.state.auto_speed is not None
        place, self._place = self._place, (snap.state.table, snap.you.name, me)
        if place == self._place:
            return [f"Back in step: game {snap.state.game}, battle {snap.battles:,}. {self.voice(False).counts(*snap.counts)}"]
        if me is None:
            where = f"You are watching table {snap.state.table}: {names[0]} against {names[1]}."
        else:
            other = names[me.other.index]
            across = "nobody sits across yet" if snap.state.seats[me.other.index].name is None else f"{other} sits across"
            where = f"You sit at table {snap.state.table} in seat {me.index + 1}, as {snap.you.name}; {across}."
        lines = [where, f"Game {snap.state.game}, battle {snap.battles:,}. {self.voice(False).counts(*snap.counts)}"]
        if snap.result is not None:
            self._hold.start(self._clock())
            lines.append("That game is over." + (" Press enter to deal again." if me is not None else ""))
        lines.append(self._keys_line())
        if me is not None and snap.state.seats[me.other.index].name is None:
            lines.append("Alone at the table: type house and the house plays the other seat, or wait for a player.")
        if me is not None and snap.state.seats[me.other.index].status is SeatStatus.AWAITED:
            lines.append(f"{names[me.other.index]} is away since the server that held the table stopped: the seat is"
                         " kept for them, and the table waits for their flip as for an idle player's.")
        return lines

    # -- the person asks ----------------------------------------------------------------------------------

    def command(self, command: Command) -> list[str]:  # noqa: C901 - one branch per line-mode command, a flat dispatch
        game = self.game
        if command is Command.QUIT:
            game.leave()
            self.done = True
            return ["Goodbye."]
        if command is Command.SCORE:
            return [score(game.battles, game.wars, game.counts, self.voice(False))]
        if command is Command.HELP:
            return [
                "Each flip plays one battle once both players flipped: the higher card takes both.",
                "Equal cards start a war: each lays cards face down, then one face up decides.",
                "Auto-play, stopping at wars and dealing again happen once both players asked:"
                " the same key agrees to the other's request, n declines it.",
                *([f"Your auto-play speed is {speed_words(self.speed)}: + and - change it, from"
                   f" {speed_words(MIN_SPEED)} to {speed_words(self.top)}; auto-play runs at the slower player's."]
                  if self.me is not None else []),
                self._keys_line(),
                *([] if self.tv else [EMOTES_LINE]),
            ]
        if command in (Command.FLIP, Command.RESTART) and game.over and self._hold.holds(self._clock()):
            return []  # a key held through the last battle: the result holds until the keys pause
        if command is Command.FLIP:
            if game.over:
                game.restart()
            else:
                game.flip()
            return []
        if command is Command.AUTO:
            game.set_auto(not self._wants("auto"), self.speed)
            return []
        if command is Command.WAR_STOP:
            game.set_war_stop(not self._wants("war_stop"))
            return []
        if command is Command.RESTART:
            game.restart(not self._wants("restart"))
            return []
        if command is Command.DECLINE:
            return self._decline()
        if command in (Command.FASTER, Command.SLOWER):
            return self._set_speed(command is Command.FASTER)
        if command is Command.SIT:
            if self.tv:
                return ["War TV moves on when a game ends: to sit at a table, connect with 'table NAME'."]
            game.sit()
            return []
        if command is Command.HOUSE:
            game.play_house()
            return []
        if command in EMOTE_COMMANDS:
            game.emote(EMOTE_COMMANDS.index(command))
            return []
        return [self._keys_line()]

    def _wants(self, kind: str) -> bool:
        """Whether this seat asks for ``kind`` now, as the table last said (a key asks, or withdraws)."""
        state, me = self.game.state, self.me
        return state is not None and me is not None and bool(getattr(state.seats[me.index], kind))

    def _set_speed(self, up: bool) -> list[str]:
        """+ or -: this player's auto-play speed one step up or down, within the full screen's limits; asked of the
        table at once while this seat asks for auto-play."""
        if self.me is None:
            return ["You are watching: only the players set auto-play's speed."]
        if up and self.speed >= self.top:
            return [f"Already at the top speed: {speed_words(self.top)}."]
        if not up and self.speed <= MIN_SPEED:
            return [f"Already at the slowest: {speed_words(MIN_SPEED)}."]
        self.speed = min(faster(self.speed), self.top) if up else slower(self.speed)
        if self._wants("auto"):
            self.game.set_auto(True, self.speed)
        return [f"Your speed: {speed_words(self.speed)}; auto-play runs at the slower player's."]

    def _decline(self) -> list[str]:
        """n: the other player's requests, answered no (the table tells everyone who declined)."""
        state, me = self.game.state, self.me
        if me is None and self.tv:
            self.game.next_table()
            return []
        if me is None:
            return ["You are watching: only the players answer each other."]
        asked = [kind for index, kind in pending(state) if index != me.index] if state is not None else []
        if not asked:
            return ["Nobody asks you anything now."]
        self.game.decline()
        return []

    def take_sentences(self) -> list[str]:
        sentences, self.sentences = self.sentences, []
        return sentences


def run_table_line(  # noqa: C901 - the line mode's one select loop: socket, keys, pacing
    table: TableLine, fd_in: int, sock_fd: int, out: LineOutput, *, lines: bool | None = None,
    first: list[str] | None = None,
) -> int:
    """Keys in, the table's updates and what they say out, until the player leaves or the table goes: exit status 1
    when it turned the player away (as every refusal has), else 0."""
    try:
        client = TableClient(sock_fd)
    except OSError:
        out.say(["The game could not reach its table."])
        return 1
    table.game.send = client.queue  # past its bound, the server is not reading: the request is lost
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    with single_keys(fd_in) if not lines else contextlib.nullcontext(False) as one_at_a_time:
        keys = KeyReader(lines=not one_at_a_time)
        out.say(first or [])
        open_input = True
        try:
            while not table.done:
                readers = [client.fileno()] + ([fd_in] if open_input else [])
                ready, writable, _ = select.select(readers, [client.fileno()] if client.unsent else [], [])
                if writable and not client.flush():
                    out.say(["The connection to the table closed."])
                    return 0
                if client.fileno() in ready:
                    items = client.receive()
                    if items is None:
                        out.say([*table.take_sentences(), "The connection to the table closed."])
                        return 0
                    refused = next((i for i, item in enumerate(items) if isinstance(item, ProtocolError)), len(items))
                    updates = [item for item in items[:refused] if not isinstance(item, ProtocolError)]
                    with table.game.backlog(updates, unread=client.unread) as plan:
                        for update, tell in plan:  # what a snapshot covers is not said, nor every seat change
                            table.game.handle(update, tell)
                    out.say(table.take_sentences())
                    if refused < len(items):
                        out.say(["The server sent something this game cannot read; leaving the table."])
                        return 1
                if fd_in in ready:
                    try:
                        data = os.read(fd_in, READ_SIZE)
                    except OSError:
                        data = b""
                    commands = keys.feed(decoder.decode(data)) if data else [Command.QUIT]
                    for command in commands:
                        if command is Command.END:
                            command = Command.QUIT  # at a table the input ending is leaving it
                        out.say([*table.command(command), *table.take_sentences()])
                        if table.done:
                            break
            client.finish()  # the goodbye ("leave") goes out before the socket closes
        finally:
            client.close()
    return 1 if table.refused else 0
