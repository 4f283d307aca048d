"""One shared table: one engine ``Game``, two seats, any number of spectators, behind a thin ``Table``.

``Table`` takes each request, changes the room it concerns (seats, agreement, autoplay, dealer,
journal; none knows this module), then settles what follows and tells it as the next numbered change.
Nothing here sleeps: a host calls ``poll()`` at ``next_deadline()``, members hear everything through a
``sink`` that must not block, and one thread (the host's event loop) calls everything on it.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from typing import Literal

from ..core.engine import Game
from ..core.plural import plural
from ..core.rules import EndReason, Side
from ..stats.records import GameRecord, table_game_id
from . import agreement
from .autoplay import AutoPlay
from .clock import Clock, monotonic
from .dealer import Dealer
from .journal import Journal, Sink
from .messages import (
    EMOTES,
    Auto,
    BattleWon,
    Decline,
    Emote,
    Emoted,
    EventBatch,
    Flip,
    Leave,
    Leaving,
    LobbyEntry,
    Notice,
    NoticeCode,
    PlayHouse,
    Request,
    Restart,
    Resync,
    SeatStatus,
    Sit,
    Snapshot,
    Stamped,
    TableEvent,
    TableState,
    Tally,
    WarStop,
    You,
)
from .names import reduce_name, unique_name
from .options import DEFAULT_AUTO_SPEED, TableOptions, clamp_speed
from .seats import Seat, Seating, Seats

REPLACED = "you sat down at this table again from another connection: the game goes on there"
"""What an older connection of a player is told as it closes, when a newer one takes its seat."""
NONCE_BYTES = 8
"""Random bytes in a table's nonce (16 hex digits): a table opened again under an old name gets a new one."""


class TableRefused(ValueError):
    """A table cannot be joined; the message is fit to show the person who asked, ``reason`` says what kind of
    refusal it is, for the server's counts: "full", "caps", "stopping", or "bad_input" (a name or request that
    cannot be served)."""

    def __init__(self, message: str = "", reason: str = "bad_input") -> None:
        super().__init__(message)
        self.reason = reason


class Member:
    """One connection at a table: a player in a seat, or a spectator.

    Hosts call its request methods (``flip``, ``set_auto``, ``restart``,
    ``leave``, or ``request`` with a protocol value); refusals come back as a
    ``Notice`` through the member's sink, and the methods return whether the
    request was taken.
    """

    def __init__(
        self, table: Table, name: str, seat: Side | None, sink: Sink, identity: str | None = None,
        counted: bool = True, *, address: str | None = None, may_sit: bool = True,
    ) -> None:
        self.table = table
        self.counted = counted
        """False for a spectator that only draws for others (a server's shared renderer): not counted."""
        self.name = name
        self.seat = seat
        self.sink = sink
        self.identity = identity
        self.address = address
        self.may_sit = may_sit
        """Whether this connection may take a seat (its address holds fewer seats than the server allows)."""
        self.present = True
        self.fresh_seq = 0
        """The table's sequence number when this member was last given a snapshot: a key stamped before it was made
        on a screen that has not shown that snapshot yet."""

    @property
    def watching(self) -> bool:
        return self.seat is None

    @property
    def you(self) -> You:
        return You(self.name, self.seat)

    def flip(self) -> bool:
        return self.table.flip(self)

    def set_auto(self, on: bool, speed: float = DEFAULT_AUTO_SPEED) -> bool:
        return self.table.set_auto(self, on, speed)

    def restart(self, on: bool = True) -> bool:
        return self.table.restart(self, on)

    def leave(self, fault: bool = False) -> None:
        self.table.leave(self, fault)

    def request(self, request: Request) -> bool:  # noqa: C901 - one branch per request kind, a flat dispatch
        """Carry out a table request (``Flip``, ``Auto``, ``Restart``, ``WarStop``, ``Emote``, ``PlayHouse``, ``Sit``,
        ``Leaving``, ``Decline``, ``Resync``, ``Leave``); others are refused, and so is a stamped one made against
        a state that is gone (``Table.stale``)."""
        if isinstance(request, Stamped) and self.table.stale(self, request):
            return False
        if isinstance(request, Flip):
            return self.flip()
        if isinstance(request, Auto):
            return self.set_auto(request.on, request.speed)
        if isinstance(request, Restart):
            return self.restart(request.on)
        if isinstance(request, WarStop):
            return self.table.set_war_stop(self, request.on)
        if isinstance(request, Emote):
            return self.table.emote(self, request.emote)
        if isinstance(request, PlayHouse):
            return self.table.play_house(self)
        if isinstance(request, Sit):
            return self.table.sit(self)
        if isinstance(request, Leaving):
            return self.table.set_leaving(self, request.on)
        if isinstance(request, Decline):
            return self.table.decline(self)
        if isinstance(request, Resync):
            self.table.resync(self)
            return True
        if isinstance(request, Leave):
            self.leave()
            return True
        self.table.tell(self, Notice(NoticeCode.REFUSED, "you are already at a table"))
        return False

    def snapshot(self) -> Snapshot:
        return self.table.snapshot(self)


class Table:
    """A named table. Create it, ``join`` members, drive it with ``poll()`` at ``next_deadline()``.

    ``deal`` makes each new game (default: a shuffled deck from ``seed_source``,
    under the options' rules); ``on_record`` receives the one ``GameRecord`` of
    each finished game (a host stores it off its event loop). ``on_change`` is called (synchronously: it must
    not call into the table) whenever the table tells everyone a change or closes. ``game``: a game in play
    already, for a table restored from its checkpoint (``checkpoint.restore``): it is neither dealt nor told.
    """

    def __init__(
        self,
        name: str,
        *,
        clock: Clock = monotonic,
        options: TableOptions | None = None,
        deal: Callable[[], Game] | None = None,
        seed_source: Callable[[], int] | None = None,
        on_record: Callable[[GameRecord], None] | None = None,
        log: Callable[[str], None] | None = None,
        opened_by: tuple[str | None, str | None] = (None, None),
        on_change: Callable[[], None] | None = None,
        game: Game | None = None,
        nonce: str | None = None,
    ) -> None:
        self.name = name
        self.nonce = nonce if nonce is not None else secrets.token_hex(NONCE_BYTES)
        """Chosen when the table opens and kept with it wherever it is served: with its name and a game's number,
        the game's id (``table_game_id``), which a table of the same name opened later never shares."""
        self.options = options if options is not None else TableOptions()
        self.opened_by = opened_by
        """(address, identity) of whoever opened the table, for the cap on tables one visitor opens."""
        self._log_line = log
        self._clock = clock
        self._seats: Seats[Member] = Seats(self.options)
        self.members: list[Member] = []
        self.closed = False
        self.revision = 0
        """Grows whenever anything a lobby shows changes."""
        self._on_change = on_change
        self.on_events: Callable[[tuple[TableEvent, ...]], None] | None = None
        """Told what the engine said of each call once the table has it (the server counts battles and ends)."""
        self._journal = Journal(self.members, self.options.log_lines, on_change)
        self._empty_since: float | None = clock()
        self._auto = AutoPlay()
        self._moves = 0
        """Flips and battles so far: a player who leaves before it moved keeps no seat."""
        self._dealer = Dealer(
            clock, self.options.rules, deal, seed_source, on_record, game,
            game_ids=lambda number: table_game_id(self.name, self.nonce, number),
        )
        if game is None:
            self._play(self.game.start)

    # ------------------------------------------------------------ arriving

    def join(
        self,
        name: str,
        sink: Sink,
        *,
        watch: bool = False,
        identity: str | None = None,
        address: str | None = None,
        may_sit: bool = True,
        counted: bool = True,
    ) -> Member:
        """Seat (or, with ``watch``, never seat) someone called ``name`` (reduced here).

        ``identity`` (opaque: a key's fingerprint, a hashed address) gets back the seat kept for it
        within the reconnect grace; a personal identity (``seats.PERSONAL_IDENTITIES``) whose older
        connection still sits takes that seat over (the older one is told and closes). Otherwise
        the first free seat, seat 1 first; then a seat whose
        player has been away for the seat timeout (everyone is told whose it was); with no seat,
        they watch and are told why (``may_sit`` False: only their own kept seat). The name is a display name only:
        one that is the same as a present or awaited player's (by ``name_key``) gets a suffix.
        The new member receives a snapshot at once; the others a state and a notice. Raises
        ``TableRefused`` when they would watch and the table has all the spectators it takes.
        A member not ``counted`` (it only watches, drawing for spectators counted elsewhere) is not
        a spectator anyone sees or the cap counts.
        """
        if self.closed:
            raise RuntimeError("the table is closed")
        now = self._clock()
        wanted = reduce_name(name)
        replaced = self._replace_connection(identity) if not watch else None
        seat: Seat[Member] | None
        taken_from: Seat[Member] | None = None
        if replaced is not None:
            seat = replaced[0]
        else:
            seat, taken_from = (None, None) if watch else self._seats.free(identity, may_sit, now)
        if seat is None and counted:
            watching = self.watching
            if watching >= self.options.max_spectators:
                raise TableRefused(
                    f"table {self.name} has {plural(watching, 'spectator')}, the most it"
                    " takes; try again later",
                    "full",
                )
        taken = {m.name for m in self.members} | self._seats.awaited(now, besides=seat)
        member_name = unique_name(wanted, taken)
        member = Member(self, member_name, seat.side if seat is not None else None, sink, identity, counted,
                        address=address, may_sit=may_sit)
        self.members.append(member)
        self._empty_since = None
        seating: Seating | None = None
        if replaced is not None:
            seating = self._seats.hand_over(member, replaced[0])
        elif seat is not None:
            seating = self._seats.sit(member, seat, taken_from, now, self._moves)
        if seating is not None:
            self._seat_event(seating)
        self.revision += 1
        sink(self.snapshot(member))
        if replaced is not None:
            replaced[1].sink(Notice(NoticeCode.CLOSING, REPLACED))
        if seating is not None:
            self._note(Notice(NoticeCode.JOINED, seating.notice))
        elif not watch and not may_sit:
            self.tell(member, Notice(NoticeCode.INFO, "you watch: your address holds all the seats it may"))
        elif not watch:
            self._tell_why_watching(member, now)
        self._settle()
        return member

    def _replace_connection(self, identity: str | None) -> tuple[Seat[Member], Member] | None:
        """The player of a seat arrives again (same personal identity, any name) while their old connection is
        still at the table: the old one leaves the table quietly; the seat and what it asked stay for the new one.

        The seat and the old member are returned, so the caller seats the new one before the old is told why it
        closes (a link that hears it leaves at once, and finds itself gone already).
        """
        taken = self._seats.take_back(identity)
        if taken is not None:
            old = taken[1]
            old.present = False
            self.members.remove(old)
        return taken

    def sit(self, member: Member) -> bool:
        """A spectator takes a free seat: open, played by the house, or kept too long for someone away."""
        if self.closed or not member.present or member.table is not self:
            return False
        if member.seat is not None:
            return self._refuse(member, "you already sit at this table")
        now = self._clock()
        if not member.may_sit:
            return self._refuse(member, "your address holds all the seats it may")
        seat, taken_from = self._seats.free(member.identity, True, now)
        if seat is None:
            self._tell_why_watching(member, now, asked=True)
            return False
        member.seat = seat.side
        seating = self._seats.sit(member, seat, taken_from, now, self._moves)
        self._seat_event(seating)
        self.revision += 1
        member.sink(self.snapshot(member))
        self._note(Notice(NoticeCode.JOINED, seating.notice))
        self._settle()
        return True

    def _tell_why_watching(self, member: Member, now: float, asked: bool = False) -> None:
        """Someone who would sit watches: say why, at once (whose seat is kept, and when t takes it; or both seats
        are taken), as the refusal of their ``asked`` t when they pressed it."""
        kept = self._seats.kept_notice(now)
        if kept is not None:
            self.tell(member, Notice(NoticeCode.INFO, kept))
        elif asked:
            self._refuse(member, "both seats are taken")
        else:
            self.tell(member, Notice(NoticeCode.INFO, "both seats are taken: you are watching"))

    def leave(self, member: Member, fault: bool = False) -> None:
        """``member`` has gone (asked to leave, or the connection closed); safe to call twice.

        Their seat is kept for their identity for the reconnect grace, unless they leave within
        the short stay of first sitting there before anything moved (a connection that only knocked).
        With ``fault`` the connection went with a fault between servers, not by its player's leaving: the seat
        waits for them as it was, their flip and requests standing (``Seats.lose``).
        """
        if not member.present:
            return
        member.present = False
        self.members.remove(member)
        now = self._clock()
        if not self.members:
            self._empty_since = now
        if member.seat is not None:
            seat = self._seats[member.seat.index]
            seating = (self._seats.lose(member, seat, now) if fault
                       else self._seats.vacate(member, seat, now, self._moves))
            self._seat_event(seating)
            self._note(Notice(NoticeCode.LEFT, seating.notice))
        self.revision += 1
        self._settle()

    def seats_held(self, identity: str | None, address: str | None) -> int:
        """Seats taken or kept here for ``identity`` or for someone from ``address``."""
        return self._seats.held(identity, address, self._clock())

    def seat_holders(self) -> tuple[tuple[str | None, str | None], ...]:
        """(identity, address) of each seat taken or kept here, as ``seats_held`` counts them."""
        return self._seats.holders(self._clock())

    def _seat_event(self, seating: Seating) -> None:
        """One line for the server's log, naming the identity behind the seat (and the one it was kept for)."""
        if self._log_line is None:
            return
        kept = f"; was kept for {seating.before}" if seating.before is not None else ""
        self._log_line(f"table {self.name}: {seating.log} [{seating.identity or 'no identity'}{kept}]")

    # ------------------------------------------------------------ requests

    def flip(self, member: Member) -> bool:
        """``member`` turns their card; the battle is played once both seats have."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        if self.game.over:
            return self._refuse(member, "the game is over: restart deals again once both players ask")
        if self._auto.held:
            self._auto.lay(self._clock())
            self._settle()
            return True
        if self._auto.running:
            return self._refuse(member, "auto-play is on: turn it off to flip by hand")
        if seat.flipped:
            return True
        self._moves += 1
        seat.flip(self._clock())
        self._settle()
        return True

    def set_auto(self, member: Member, on: bool, speed: float = DEFAULT_AUTO_SPEED) -> bool:
        """``member`` wants auto-play on or off; it runs once both players want it, at the slower speed."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        speed = clamp_speed(speed, self.options.max_speed)
        if seat.auto == on and (not on or seat.speed == speed):
            return True
        seat.auto = on
        if on:
            seat.speed = speed
        self._settle()
        return True

    def restart(self, member: Member, on: bool = True) -> bool:
        """``member`` asks (or stops asking) to deal again: at game over, or mid-game to stop this game first.

        The table deals once both players asked (the house agrees); a game stopped so is recorded as stopped.
        """
        return self._wish(member, "restart", on)

    def set_war_stop(self, member: Member, on: bool) -> bool:
        """``member`` asks (or stops asking) that auto-play stop at every war's tie; it does once both ask."""
        return self._wish(member, "war_stop", on)

    def set_leaving(self, member: Member, on: bool) -> bool:
        """``member`` is about to leave (their screen asks them to confirm), or stays after all: everyone sees it
        on the seats' state, so the other player hears of it before the seat changes."""
        return self._wish(member, "leaving", on)

    def _wish(self, member: Member, kind: Literal["restart", "war_stop", "leaving"], on: bool) -> bool:
        """A seat's wish of ``kind`` on or off; False if ``member`` holds no seat."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        if getattr(seat, kind) != on:
            setattr(seat, kind, on)
            self._settle()
        return True

    def emote(self, member: Member, emote: int) -> bool:
        """``member`` sends one of the ``EMOTES`` to everyone; at most one a second and ten a minute per seat."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        if not 0 <= emote < len(EMOTES):
            return self._refuse(member, "there is no such emote")
        now = self._clock()
        wait = seat.emotes.wait(now)
        if wait > 0 or not seat.emotes.allow(now):
            return self._refuse(member, f"one emote a second, ten a minute: wait {math.ceil(wait)} s")
        self._journal.note(Emoted(seat.side, member.name, emote))
        return True

    def play_house(self, member: Member) -> bool:
        """Alone at the table: the house takes the empty seat now (a newcomer still takes it from the house)."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        other = self._seats.other(seat)
        status = self._seats.status(other, self._clock())
        if status is SeatStatus.PLAYER:
            return self._refuse(member, f"{other.name} sits in the other seat")
        if status is not SeatStatus.OPEN:
            return self._refuse(member, "the house already plays the other seat")
        self._seats.play_house(other)
        self.revision += 1
        self._note(Notice(NoticeCode.JOINED, f"{member.name} plays the house: it sits at seat {other.number}"))
        self._settle()
        return True

    def stale(self, member: Member, request: Stamped) -> bool:
        """Whether ``request`` was made against a state that is gone: another game than the one on (the member is
        told so in one line), or a flip made before the last battle was played. Unstamped ones (``game`` 0, made in
        this process) are never stale. The screen that made it is behind: it gets the table afresh
        (``_refresh``), so its player's next key counts."""
        if not member.present:
            return False
        why = self._journal.stale(request, self.game_number)
        if why is None:
            return False
        self._refresh(member, request)
        if why:
            self.tell(member, Notice(NoticeCode.REFUSED, why))  # after the snapshot, which a link sends first
        return True

    def _refresh(self, member: Member, request: Stamped) -> None:
        """A fresh snapshot for the screen that made a stale ``request``: one, however many keys it sent before it
        showed it (a key stamped before the last snapshot it was given waits for that one). None for a flip while
        auto-play runs: no flip acts then, and a snapshot a battle would only load a screen that is behind."""
        if request.seq < member.fresh_seq or (isinstance(request, Flip) and self._auto.running):
            return
        self.resync(member)

    def decline(self, member: Member) -> bool:
        """``member`` says no to every request the other player waits on them for; everyone is told who declined."""
        seat = self._seat_of(member)
        if seat is None:
            return False
        declined = agreement.decline(member.name, self._seats.other(seat), self.game.over)
        if declined is None:
            return self._refuse(member, "no request waits for your answer")
        self._note(Notice(NoticeCode.DECLINED, declined))
        self._settle()
        return True

    def resync(self, member: Member) -> None:
        """A fresh snapshot for ``member`` (its screen missed an update, or its player asked)."""
        if member.present and not self.closed:
            member.sink(self.snapshot(member))

    def tell(self, member: Member, notice: Notice) -> None:
        """A notice for one member only (not logged)."""
        if member.present:
            member.sink(notice)

    # ----------------------------------------------------------------- time

    def next_deadline(self) -> float | None:
        """When ``poll()`` next has something to do, on the table's clock; None: only a request can change it."""
        if self.closed:
            return None
        deadlines: list[float] = []
        close_at = self._close_at()
        if close_at is not None:
            deadlines.append(close_at)
        if self._auto.at is not None:
            deadlines.append(self._auto.at)
        idle = self._idle_deadline()
        if idle is not None:
            deadlines.append(idle[1])
        deadlines += agreement.deadlines(self._seats, self.options.request_timeout)
        deadlines += self._seats.turning_house(self._clock())
        return min(deadlines) if deadlines else None

    def poll(self) -> None:
        """Do what is due now: close an empty table, flip for an idle player, play auto-play battles."""
        if self.closed:
            return
        now = self._clock()
        close_at = self._close_at()
        if close_at is not None and now >= close_at:
            self.close("the table closed: nobody was at it")
            if self._log_line is not None:
                self._log_line(f"table {self.name}: closed, nobody was at it")
            return
        self._seats.lapse(now)
        idle = self._idle_deadline()
        if idle is not None and now >= idle[1]:
            seat = idle[0]
            seat.flip(now)
            timeout = self.options.seat_timeout
            self._note(Notice(NoticeCode.HOUSE_FLIPPED, f"the house flipped for {seat.name}: idle for {timeout:g} s"))
        if self._auto.due(now):
            self._auto.tick(now, self._seats.auto_speed(), self._seats.war_stop_agreed(now), self.game, self._play)
        self._expire(now)
        self._settle()

    def _expire(self, now: float) -> None:
        """Requests the other player left unanswered for the request timeout lapse, and everyone is told."""
        for lapsed in agreement.expire(self._seats, now, self.options.request_timeout, self.game.over):
            self._note(Notice(NoticeCode.EXPIRED, lapsed))

    def _close_at(self) -> float | None:
        """When a table nobody is at closes: the close delay after the last left, or once no seat is kept."""
        if self._empty_since is None:
            return None
        return max([self._empty_since + self.options.close_after, *self._seats.kept_until()])

    def close(self, text: str = "the table closed") -> None:
        """Tell every member ``text`` and close; the table takes no requests after."""
        if self.closed:
            return
        notice = Notice(NoticeCode.CLOSING, text)
        members = tuple(self.members)
        self.members.clear()
        self.closed = True
        self._auto.stop()
        self.revision += 1
        for member in members:
            member.present = False
        if self._on_change is not None:
            self._on_change()
        # Tell members last: a link that hears it leaves at once, its seat already gone.
        for member in members:
            member.sink(notice)

    # ----------------------------------------------------------------- views

    @property
    def seq(self) -> int:
        """The table's sequence number: one more with every change it tells everyone (each carries its number)."""
        return self._journal.seq

    @property
    def weighty_seq(self) -> int:
        """The sequence number of the last change a screen must not see before the store keeps it: every change but
        one that tells only who has flipped (``Journal.weighty``)."""
        return self._journal.weighty

    @property
    def empty(self) -> bool:
        return not self.members

    @property
    def empty_since(self) -> float | None:
        """When the last member left, on the table's clock; None while anyone is at it."""
        return self._empty_since

    @property
    def watching(self) -> int:
        """Spectators at the table, as everyone is told and the cap counts them."""
        return sum(1 for m in self.members if m.seat is None and m.counted)

    def state(self) -> TableState:
        now = self._clock()
        over = self.game.over
        seats = self._seats.states(now)
        if over:  # a seat kept for its away player is theirs to deal again from too
            waiting = tuple(s.side for s in self._seats.answering(now) if not s.restart)
        elif self._auto.agreed:
            waiting = ()
        else:
            waiting = tuple(s.side for s in self._seats if not s.flipped)
        speed = self._seats.auto_speed()
        idle = self._idle_deadline()
        return TableState(
            self.name, self.game_number, seats,
            self.watching, waiting,
            speed if self._auto_on() else None, over,
            war_stop=self._seats.war_stop_agreed(now), held=self._auto.held,
            house_in=max(0.0, idle[1] - now) if idle is not None else None,
        )

    @property
    def game(self) -> Game:
        """The game being played at the table (or just over)."""
        return self._dealer.game

    @property
    def game_number(self) -> int:
        """The number of the game being played at this table, from 1."""
        return self._dealer.number

    @property
    def tally(self) -> Tally:
        return self._dealer.tally

    def snapshot(self, member: Member) -> Snapshot:
        """The table as ``member`` sees it now, to send it whole (its number becomes the member's ``fresh_seq``)."""
        game = self.game
        member.fresh_seq = self.seq
        return Snapshot(
            you=member.you, state=self.state(), seed=game.seed, rules=game.rules,
            total_cards=game.total_cards, counts=game.counts, battles=game.battles, wars=game.wars,
            longest_war=game.longest_war, result=game.result, reason=game.reason,
            on_show=self._dealer.on_show, log=self._journal.entries(), played_ms=self._dealer.played_ms(),
            tally=self.tally, seq=self.seq,
        )

    def lobby_entry(self) -> LobbyEntry:
        names, statuses = self._seats.lobby(self._clock())
        on_show = self._dealer.on_show
        war = on_show.wars if isinstance(on_show, BattleWon) and not self.game.over else 0
        return LobbyEntry(
            self.name, names, statuses,
            self.watching, self.game_number, self.game.battles,
            self.game.counts, self.game.result, war,
        )

    def seat_names(self) -> tuple[str, str]:
        """The names a record gives the seats: who sits there or sat there last."""
        return self._seats.names()

    # -------------------------------------------------------------- inside

    def _seat_of(self, member: Member) -> Seat[Member] | None:
        """The member's seat, or None after telling a spectator (or a departed member) why not."""
        if self.closed or not member.present or member.table is not self:
            return None
        if member.seat is None:
            self.tell(member, Notice(NoticeCode.WATCHING, "you are watching"))
            return None
        return self._seats[member.seat.index]

    def _refuse(self, member: Member, text: str) -> bool:
        self.tell(member, Notice(NoticeCode.REFUSED, text))
        return False

    def _note(self, notice: Notice) -> None:
        """A notice for everyone, kept in the log with its sequence number."""
        self._journal.note(notice)

    def _new_game(self) -> None:
        game = self._dealer.deal()
        self._seats.new_game()
        self._play(game.start)

    def _play(self, call: Callable[[], object]) -> None:
        """Run one engine call and tell everyone what the engine said, as one batch."""
        self._moves += 1
        events = self._dealer.run(call)
        if events is None:
            return
        self._journal.keep(events)
        self.revision += 1
        if self.on_events is not None:
            self.on_events(events)
        if self._dealer.finish():
            self._auto.end()
        self._journal.batch(EventBatch(
            self.game_number, events, self._dealer.played_ms(), self.tally,
            held=self._auto.held and not self.game.over,
        ))
        self._dealer.record(self.seat_names(), self._seats.identities())

    def record_finished_game(self) -> None:
        """Hand the host the record of the game over on a restored table (see ``Dealer.resume``); nothing for a
        game in play, or one whose record this table handed already."""
        self._dealer.record(self.seat_names(), self._seats.identities())

    def _idle_deadline(self) -> tuple[Seat[Member], float] | None:
        """The seated player the table waits for while the other has flipped, and when the house flips for them."""
        if self.game.over or self._auto.running:
            return None
        return self._seats.idle()

    def _auto_on(self) -> bool:
        """Auto-play is on: it runs, holds at a war's tie, or, at game over, both players want it, so it plays the next
        deal from its start (what every screen's status line says)."""
        return self._auto.agreed or (self.game.over and self._seats.wants_auto(self._clock()))

    def _agreed(self, kind: str) -> bool:
        if kind == "auto":
            return self._auto_on()
        if kind == "war_stop":
            return self._seats.war_stop_agreed(self._clock())
        return False  # a restart both asked for deals at once

    def _settle(self) -> None:
        """Bring everything that follows from the seats up to date (a deal both asked for, auto-play, a battle
        both flipped for, pending requests), then tell everyone the state as the next numbered change if it is
        news (``Journal.state``)."""
        if self.closed:
            return
        game = self.game
        seats = self._seats
        now = self._clock()
        if not game.over and seats.restart_agreed(now):
            self._note(Notice(NoticeCode.AGREED, "game stopped by agreement: a new deal"))
            self._play(lambda: game.stop(EndReason.AGREED))
            self._new_game()
            self._settle()
            return
        if self._auto.follow(seats.wants_auto(now), seats.war_stop_agreed(now), game.over, seats.auto_speed(), now):
            seats.forget_flips()
        if not game.over and not self._auto.running:
            seats.house_flips(now)
            if seats.both_flipped():
                self._play(game.step)
        if self.game.over and seats.restart_agreed(now):
            self._new_game()
            self._settle()
            return
        agreement.track(self._seats.pairs(), self._agreed, now, self.options.reconnect_grace)
        if self._journal.state(self.state()):
            self.revision += 1
