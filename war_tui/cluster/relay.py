"""The relay between nodes: a connection on one node (its door) at a table another node (its owner) serves.

The door asks the owner to open a link for the connection (``open``, a NATS request on ``relay.open.<owner>``)
with the connection's user name, identity and address: the owner makes a ``Link`` for it as for any of its own
connections, so its seats, caps, checks and rate limits hold. An open the owner does not answer in time (paused,
NATS slow) is asked again for the same connection, and the owner answers one it took already with the answer its
door missed (``_again``): never two links, one taking the other's seat. From then on the door forwards the connection's
bytes, whole lines per message, on ``relay.in.<owner>.<door>.<conn>``, and the owner what its link says on
``relay.out.<door>.<conn>``; ``E`` there says the link finished. Subjects carry node ids and connection ids this
module makes, never a client's text.

Core NATS delivers at most once (a message on its way while a node's connection moves to another server is lost),
so each direction numbers its messages and keeps them until acknowledged (``sequenced``): at least once on the
wire, each applied once and in order. The numbers are the requests' ids: a key sent again is applied once.

Every buffer is ours to bound: the owner's link has its bounded queue, the door's queue (``RemoteLink``) drops
to a gap past ``MAX_QUEUED_BYTES`` and asks the owner for a fresh snapshot, and each direction's window holds
at most ``MAX_WINDOW_MESSAGES`` and ``MAX_WINDOW_BYTES``. The door pings each open relay every third of a lease;
the owner closes a relayed link not heard from for a lease (its door died): a fault, not its player's leaving,
so its seat waits for them as it was, flip and requests standing (``Seats.lose``). The door learns that an owner died from the owner's node lease
(``Owners.alive``) and re-routes the connection (``on_moved``) once the table's owner record names another node
(``_follow``), never back to the owner without a lease.

Here is the node's part (``RelayNode``: subscriptions, sending in order, pings, re-routing); the owner's side of
one connection is ``relayed``, the door's ``remote_link``, and what goes on the wire ``relay_wire``.
"""


from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from nats.aio.client import Client
from nats.aio.msg import Msg

from ..core.plural import plural
from ..tables import Link, TableRefused
from ..tables.clock import Clock, monotonic
from ..tables.messages import Notice, NoticeCode
from ..tables.names import parse_table_name
from ..tables.protocol import encode
from ..untrusted import BadRecord, BadRecords, shown_key
from .leases import NODE_ID
from .relay_wire import (
    CONN_ID,
    DRAIN_TIMEOUT,
    GONE,
    LINES,
    LOST,
    MAX_OPENED,
    NATS_ERRORS,
    OPEN_FRESH,
    OPENER,
    PING,
    PREFIX,
    RESEND_AFTER,
    OpenRequest,
    RelayKey,
    open_subject,
    out_subject,
)
from .relayed import Relayed
from .remote_link import RemoteLink
from .sequenced import WireCounts
from .tasks import cancel_requested, end_tasks

FOLLOW_MOST = 8.0
"""Seconds at most between looks at the owner record of a table whose owner died, while no node took it over."""


class RelayNode:
    """This node's relay: serving other doors' connections at its tables, and relaying its own to other owners.

    ``serve(table)`` says (after claiming it if need be) whether this node serves the table; ``link`` makes a
    link as for a connection of this node; ``alive(node)`` reads a node's lease, ``owner(table)`` the node a table's
    owner record names."""

    def __init__(
        self, client: Client, node: str, lease_seconds: float, *,
        serve: Callable[[str], Awaitable[bool]], link: Callable[[str, str | None, str | None], Link],
        alive: Callable[[str], Awaitable[bool]], owner: Callable[[str], Awaitable[str | None]],
        wake: Callable[[], None], log: Callable[[str], None], key: RelayKey,
        kept: Callable[[str], int | None] | None = None, clock: Clock = monotonic, bad: BadRecords | None = None,
        wall: Clock = time.time,
    ) -> None:
        self.client = client
        self.node = node
        self.key = key
        """What signs this node's relay messages and checks the others' (the nodes' shared host key's)."""
        self.lease = lease_seconds
        self._serve = serve
        self._link = link
        self._alive = alive
        self._owner = owner
        self.wake = wake
        self.log = log
        self.bad = bad or BadRecords(log)
        """Where a message that is not one is told (one line each, within a budget of its own)."""
        self.kept = kept if kept is not None else _all_kept
        """The sequence number the store kept of a table (None: everything it told is kept)."""
        self.clock = clock
        self.wall = wall
        """Seconds since the epoch: an open request's time, which the nodes' clocks share."""
        self._opened: dict[str, Opened] = {}
        """Open requests taken, by connection id (for twice ``OPEN_FRESH``): each is taken once, and a door asking
        again for a connection it sent before is given the answer it missed (``_again``)."""
        self.relayed: dict[str, Relayed] = {}
        """Connections of other doors at this node's tables, by connection id."""
        self.doors: dict[str, RemoteLink] = {}
        """This node's connections relayed to other owners, by connection id."""
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._sending = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._subs: list[Any] = []
        self._reconnects = 0
        """The connection's reconnects seen so far: what was sent while it was away is sent again."""
        self.counts = WireCounts()
        """What its relayed connections met on the wire since the start (said in the log at a stop)."""
        self._follow_after: dict[tuple[str, str], tuple[float, float]] = {}
        """(dead owner, table) whose owner record named that owner still at the last look: when to look again,
        and the pause before that look (doubling, ``FOLLOW_MOST`` at most)."""

    async def start(self) -> None:
        self._subs = [
            await self.client.subscribe(open_subject(self.node), cb=self._on_open),
            await self.client.subscribe(f"{PREFIX}.in.{self.node}.*.*", cb=self._on_in),
            await self.client.subscribe(f"{PREFIX}.out.{self.node}.*", cb=self._on_out),
        ]
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._send_loop()), loop.create_task(self._watch_loop()),
                       loop.create_task(self._owners_loop())]

    async def hand_over(self) -> None:
        """This node stops serving: no more relays open here, and each door is told to take its connections
        to the node that takes the table over (their seats are kept for them)."""
        if self._subs:
            with contextlib.suppress(*NATS_ERRORS):
                await self._subs[0].unsubscribe()
            self._subs = self._subs[1:]
        self.move_all()
        await self._drain()

    def move_all(self) -> None:
        """Each door relaying to this node is told to take its connections to the table's next owner (this node
        stops serving, or lost its lease): their seats are kept for them."""
        for relayed in list(self.relayed.values()):
            relayed.move()

    def move_table(self, table: str) -> None:
        """Each door relaying to ``table`` here is told to take its connection to the table's next owner (another
        node wrote the table: this one lets it go); their seats are kept for them."""
        for relayed in [r for r in self.relayed.values() if r.table == table]:
            relayed.move()

    async def _drain(self) -> None:
        deadline = asyncio.get_running_loop().time() + DRAIN_TIMEOUT
        while (self._outbox or self._sending.is_set()) and asyncio.get_running_loop().time() < deadline and self._tasks:
            await asyncio.sleep(0.01)
        with contextlib.suppress(*NATS_ERRORS):
            await asyncio.wait_for(self.client.flush(), DRAIN_TIMEOUT)

    async def stop(self) -> None:
        await self._drain()
        await end_tasks(self._tasks)
        self._tasks = []
        for sub in self._subs:
            with contextlib.suppress(*NATS_ERRORS):
                await sub.unsubscribe()
        self._subs = []
        for relayed in list(self.relayed.values()):
            relayed.end(fault=True)
        said = self.counts.said()
        if said is not None:
            self.log(said)

    # -- sending, in order ------------------------------------------------------------------------------

    def send(self, subject: str, data: bytes) -> None:
        self._outbox.append((subject, self.key.sign(self.node, subject, data)))
        self._sending.set()

    async def _send_loop(self) -> None:
        while not cancel_requested():
            await self._sending.wait()
            self._sending.clear()
            while self._outbox:
                subject, data = self._outbox.popleft()
                with contextlib.suppress(*NATS_ERRORS):  # NATS away: the pings' silence says so to both ends
                    await self.client.publish(subject, data)

    # -- the owner's side ---------------------------------------------------------------------------------

    async def _on_open(self, msg: Msg) -> None:
        try:
            request = OpenRequest.decode(self.key.check(OPENER, msg.subject, msg.data))
            earlier = self._once(request)
        except BadRecord as exc:
            self.bad(f"relay: an open request on {shown_key(msg.subject)} is skipped ({exc})")
            return
        answer: dict[str, Any]
        if earlier is not None:
            if earlier.answer is None:
                return  # still being taken: the door asks again if the answer misses it
            answer = self._again(request, earlier.answer)
        else:
            try:
                table = parse_table_name(request.table)
            except ValueError as error:
                answer = {"refused": str(error)}
            else:
                answer = await self._open(request, table)
            self._opened[request.conn].answer = answer
        with contextlib.suppress(*NATS_ERRORS):
            await msg.respond(self.key.sign(self.node, msg.reply, json.dumps(answer).encode()))

    def _once(self, request: OpenRequest) -> Opened | None:
        """Take ``request`` once, and only near this node's time. Its connection id is remembered for twice
        ``OPEN_FRESH`` (at most ``MAX_OPENED`` of them); the same connection asked for again by its door is the
        door asking again after an answer missed it (the earlier ``Opened``), from anyone else ``BadRecord``."""
        now = self.wall()
        if abs(now - request.at) > OPEN_FRESH:
            raise BadRecord(f"its time is not within {OPEN_FRESH:g} s of this node's clock")
        earlier = self._opened.get(request.conn)
        if earlier is not None:
            if earlier.door != request.door:
                raise BadRecord("it was taken already")
            return earlier
        while self._opened and (len(self._opened) >= MAX_OPENED
                                or next(iter(self._opened.values())).at < now - 2 * OPEN_FRESH):
            del self._opened[next(iter(self._opened))]
        self._opened[request.conn] = Opened(now, request.door)
        return None

    def _again(self, request: OpenRequest, earlier: dict[str, Any]) -> dict[str, Any]:
        """A door asks again for a connection whose answer missed it (this node was paused, or NATS slow, past the
        door's wait): the answer it missed, never a second link. A connection relayed here is sent at once what the
        door has not acknowledged; one that ended here since is routed again by its door."""
        relayed = self.relayed.get(request.conn)
        if relayed is not None:
            relayed.heard = max(relayed.heard, self.clock())
            relayed.resend(None)
            return {"ok": True}
        return {"moved": True} if earlier.get("ok") is True else earlier

    async def _open(self, request: OpenRequest, table: str) -> dict[str, Any]:
        answer: dict[str, Any]
        if request.conn in self.relayed or not await self._serve(table):
            answer = {"moved": True}
        else:
            link = self._link(request.user, request.identity, request.address)
            try:
                link.join(table, watch=request.watch)  # counted, as every connection of this node's
            except TableRefused as refusal:
                link.close()
                answer = {"refused": str(refusal)}
            else:
                relayed = self.relayed[request.conn] = Relayed(self, request, table, link)
                self.wake()
                relayed.wanted()
                answer = {"ok": True}
        return answer

    async def _on_in(self, msg: Msg) -> None:
        door, conn = msg.subject.split(".")[-2:]
        try:
            data = self.key.check(door, msg.subject, msg.data)
        except BadRecord as exc:
            self.bad(f"relay: a line on {shown_key(msg.subject)} is skipped ({exc})")
            return
        relayed = self.relayed.get(conn)
        if relayed is not None and relayed.request.door == door:
            relayed.receive(data)
        elif data[:1] in (LINES, PING) and NODE_ID.fullmatch(door) and CONN_ID.fullmatch(conn):
            # A connection this node let go (its door was quiet for a lease, or this node restarted): the door
            # is told, and routes it to the table again, wherever it is served, so its player is not left at a table
            # that no longer hears them.
            self.send(out_subject(door, conn), GONE + encode(Notice(NoticeCode.CLOSING, f"closing the connection: {LOST}")))

    # -- the door's side ----------------------------------------------------------------------------------

    async def _on_out(self, msg: Msg) -> None:
        remote = self.doors.get(msg.subject.rsplit(".", 1)[-1])
        if remote is None:
            return
        try:
            data = self.key.check(remote.owner, msg.subject, msg.data)
        except BadRecord as exc:  # not from the node the connection is relayed to: never reaches its player
            self.bad(f"relay: an update on {shown_key(msg.subject)} is skipped ({exc})")
            return
        remote.deliver(data)

    def resend_after_reconnect(self) -> None:
        """After this node's connection came back (to another server of the cluster, say), every message either
        way that is not acknowledged is sent again at once: what was on its way when it went may be lost. The
        doors it relays for get a fresh lease: their silence meanwhile was this node's."""
        reconnects = int(self.client.stats.get("reconnects", 0))
        if reconnects == self._reconnects:
            return
        self._reconnects = reconnects
        for remote in list(self.doors.values()):
            remote.resend(None)
        now = self.clock()
        for relayed in list(self.relayed.values()):
            relayed.heard = max(relayed.heard, now)
            relayed.resend(None)

    async def _watch_loop(self) -> None:
        """Every third of a lease: send again what was not acknowledged in time, ping every relay this door holds,
        close relayed links whose door went quiet (while this node's own connection was up)."""
        while not cancel_requested():
            await asyncio.sleep(self.lease / 3)
            self.resend_after_reconnect()
            after = self.lease * RESEND_AFTER
            for remote in list(self.doors.values()):
                remote.resend(after)
                remote.ping()
            quiet = self.clock() - self.lease
            connected = self.client.is_connected
            for relayed in list(self.relayed.values()):
                if relayed.heard < quiet and connected:
                    relayed.end(fault=True)  # its door died or was cut off: not its player's leaving
                    self.wake()
                else:
                    relayed.resend(after)

    async def _owners_loop(self) -> None:
        """Every third of a lease, follow the tables whose owner died (``_follow``). Apart from the pings: reading a
        lease may wait for JetStream (a leader's election takes seconds) while the pings must go on."""
        while not cancel_requested():
            await asyncio.sleep(self.lease / 3)
            owners = {remote.owner for remote in self.doors.values()}
            for key in [key for key in self._follow_after if key[0] not in owners]:
                del self._follow_after[key]
            for owner in owners:
                try:
                    alive = await self._alive(owner)
                except NATS_ERRORS:
                    continue
                tables = {remote.table for remote in self.doors.values() if remote.owner == owner}
                for table in tables:
                    if alive:
                        self._follow_after.pop((owner, table), None)
                    else:
                        await self._follow(owner, table)

    async def _follow(self, dead: str, table: str) -> None:
        """Re-route the connections relayed to ``dead`` at ``table`` once the table's owner changed: taken over by
        another node, or by this one now (as any node's lobby takes a dead node's tables). Until then they wait,
        looked at again after a pause that doubles: a door never re-opens a relay to an owner without a lease."""
        now = self.clock()
        due = self._follow_after.get((dead, table))
        if due is not None and now < due[0]:
            return
        try:
            owner = await self._owner(table)
            if owner in (None, dead):
                await self._serve(table)
                owner = await self._owner(table)
        except NATS_ERRORS:
            owner = None
        if owner in (None, dead):
            pause = min(FOLLOW_MOST, 2 * due[1]) if due is not None else self.lease / 3
            self._follow_after[(dead, table)] = (now + pause, pause)
            return
        self._follow_after.pop((dead, table), None)
        remotes = [r for r in self.doors.values() if r.owner == dead and r.table == table]
        where = "this node" if owner == self.node else f"node {owner}"
        self.log(f"relay: table {table} moved from node {dead}, whose lease ran out, to {where}: "
                 f"re-routing {plural(len(remotes), 'connection')}")
        for remote in remotes:
            remote.detach()
            if remote.on_moved is not None:
                remote.on_moved()


@dataclass
class Opened:
    """An open request taken: when (this node's wall clock), from which door, and the answer it was given (None
    while it is being taken)."""

    at: float
    door: str
    answer: dict[str, Any] | None = None


def _all_kept(table: str) -> int | None:
    return None
