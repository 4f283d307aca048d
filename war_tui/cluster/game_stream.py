"""Finished table games on every node: one JetStream stream they are published to, each node folding it in.

The node that served a game publishes its record once to ``SUBJECT`` with the game's id as ``Nats-Msg-Id``,
so a republish within ``DUPLICATE_WINDOW`` is dropped by JetStream; anything older is dropped by the
statistics file's unique game id. Every node (the publisher too) reads the stream through a durable pull
consumer named for its node id and stores each record in its own statistics, acking it only once stored:
a node that was down catches up where it stopped, and every node's statistics and leaderboard agree.

Bounded everywhere: games waiting to be published (``MAX_WAITING``; past it, or at stop, a game is
recorded on its own node only), records fetched at once (``BATCH``, stored before the next fetch), a
record's size (``MAX_RECORD``), the stream itself (``MAX_GAMES``, ``MAX_AGE``: the oldest go first), and what one
identity adds to a node's statistics (``game_records.IdentityRate``). NATS away: publishing retries until it answers, without holding up a
table, and the log says so once each way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Sequence

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy, DiscardPolicy, StorageType, StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BadRequestError, NotFoundError

from ..core.plural import plural
from ..stats.records import GameRecord
from ..stats.recovery import to_line
from ..untrusted import BadRecord, BadRecords
from .buckets import replicas_for
from .game_records import MAX_RECORD, TAG_HEADER, GameKey, IdentityRate, read_game
from .tasks import cancel_requested, end_tasks

STREAM = "war-tui-games"
SUBJECT = "war-tui.games"
DUPLICATE_WINDOW = 10 * 60.0
"""Seconds JetStream remembers a game id, so a game published again within them is stored once."""
MAX_AGE = 30 * 24 * 3600.0
"""Seconds the stream keeps a game: a node down for longer misses it (the others keep it in their files)."""
MAX_GAMES = 1_000_000
"""Games the stream keeps at most (about 500 MB); past it the oldest go. A count, not bytes: a stream's byte
limit is reserved from the server's store when it is made, which a small disk would refuse."""
MAX_WAITING = 256
"""Games waiting to be published at most; past it a game is recorded on its own node only."""
BATCH = 32
"""Records fetched at once, all stored before the next fetch: what waits for the writer thread."""
PUBLISH_TIMEOUT = 2.0
"""Seconds a publish waits for JetStream's acknowledgement before it is tried again."""
RETRY_MOST = 5.0
"""Seconds between attempts at most while the stream does not answer (from 0.25 s, doubling)."""
ACK_WAIT = 300.0
"""Seconds a record fetched has to be stored before it comes again (a batch over a file locked for a while)."""
FETCH_WAIT = 1.0
"""Seconds a fetch waits for the next record."""

_ERRORS = (NatsError, OSError, TimeoutError, asyncio.TimeoutError)


async def open_stream(js: JetStreamContext, replicas: int) -> None:
    """The games stream, made by the first node that needs it (one made earlier keeps its settings)."""
    try:
        await js.stream_info(STREAM)
        return
    except NotFoundError:
        pass
    config = StreamConfig(
        name=STREAM, subjects=[SUBJECT], description="war-tui: every finished table game, for every node",
        storage=StorageType.FILE, num_replicas=replicas, duplicate_window=DUPLICATE_WINDOW, max_age=MAX_AGE,
        max_msgs=MAX_GAMES, max_msg_size=MAX_RECORD, discard=DiscardPolicy.OLD,
    )
    with contextlib.suppress(BadRequestError):  # another node made it a moment ago
        await js.add_stream(config)


class GameStream:
    """This node's part: ``publish`` (on the loop, never waits), the consumer feeding ``store``; ``start``, ``stop``.

    ``store`` stores a batch of records in this node's statistics (through its writer thread) and returns once
    they are stored; ``here`` records one game on this node only (a game the stream could not take).
    """

    def __init__(
        self, client: Client, node: str, *, store: Callable[[Sequence[GameRecord]], Awaitable[None]],
        here: Callable[[GameRecord], None], log: Callable[[str], None], key: GameKey, bad: BadRecords | None = None,
    ) -> None:
        self.client = client
        self.js = client.jetstream()
        self.node = node
        self.store = store
        self.here = here
        self.log = log
        self.bad = bad or BadRecords(log)
        """Where a record that is not one is told (one line each, within a budget of its own)."""
        self.key = key
        """Signs what this node publishes, checks what it reads: only a node of the cluster's game is stored."""
        self.rate = IdentityRate()
        """What each identity added to this node's statistics lately: a flood for one identity stops at a player's pace."""
        self.waiting: deque[GameRecord] = deque()
        """Games not yet acknowledged by the stream, oldest first."""
        self.published = 0
        self.folded = 0
        """Records this node stored from the stream (for the log and the tests)."""
        self._wake = asyncio.Event()
        self._away = False
        self._full = False
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await open_stream(self.js, replicas_for(len(self.client.servers)))
        subscription = await self._subscribe(await self._unacked_from())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._publish_loop()), loop.create_task(self._fold_loop(subscription))]

    async def _unacked_from(self) -> int | None:
        """Records delivered to this node's previous process and never acked (it died storing them) would come
        again only after ``ACK_WAIT``: its consumer is made again from the first of them, so they come at once.
        The rest of the stream from there is stored again once by game id."""
        try:
            info = await self.js.consumer_info(STREAM, self.node)
        except NotFoundError:
            return None  # a node's first start: made from the stream's first game
        if not info.num_ack_pending:
            return None
        await self.js.delete_consumer(STREAM, self.node)
        return (info.ack_floor.stream_seq or 0) + 1 if info.ack_floor is not None else 1

    async def _subscribe(self, first: int | None = None) -> JetStreamContext.PullSubscription:
        """This node's durable consumer: where it stopped reading, or made (from the stream's first game, or
        from ``first``)."""
        config = ConsumerConfig(
            ack_policy=AckPolicy.EXPLICIT, deliver_policy=DeliverPolicy.ALL, ack_wait=ACK_WAIT,
            max_ack_pending=BATCH * 4, inactive_threshold=MAX_AGE,
            description=f"war-tui: the games node {self.node} stores",
        )
        if first is not None:
            config.deliver_policy, config.opt_start_seq = DeliverPolicy.BY_START_SEQUENCE, first
        return await self.js.pull_subscribe(SUBJECT, durable=self.node, stream=STREAM, config=config)

    def publish(self, record: GameRecord) -> bool:
        """Send ``record`` to every node's statistics, in the background; False when it cannot be (no game id,
        or too many waiting): the caller records it on this node only."""
        if record.game_id is None or not self._tasks:
            return False
        if len(self.waiting) >= MAX_WAITING:
            if not self._full:
                self._full = True
                self.log(f"statistics: more than {MAX_WAITING} games wait for the games stream; "
                         "the next are recorded on this node only")
            return False
        self._full = False
        self.waiting.append(record)
        self._wake.set()
        return True

    async def stop(self, timeout: float) -> None:
        """Publish what waits, within ``timeout``, then stop; a game still waiting is recorded here only."""
        if not self._tasks:
            return
        deadline = asyncio.get_running_loop().time() + timeout
        while self.waiting and not self.client.is_closed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        await end_tasks(self._tasks)
        self._tasks = []
        if self.waiting:
            self.log(f"statistics: {plural(len(self.waiting), 'finished game')} did not reach the games stream; "
                     "recorded on this node only")
            while self.waiting:
                self.here(self.waiting.popleft())

    async def _publish_loop(self) -> None:
        wait = 0.25
        while not cancel_requested():
            if not self.waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            record = self.waiting[0]
            line = to_line(record).encode()
            try:
                await self.js.publish(
                    SUBJECT, line, timeout=PUBLISH_TIMEOUT, stream=STREAM,
                    headers={"Nats-Msg-Id": record.game_id or "", TAG_HEADER: self.key.sign(line)},
                )
            except _ERRORS as exc:
                if self.client.is_closed:
                    return  # the node stops: ``stop`` records what waits here
                if not self._away:
                    self._away = True
                    self.log(f"statistics: the games stream does not answer ({type(exc).__name__}); "
                             f"{plural(len(self.waiting), 'finished game')} waiting for it")
                await asyncio.sleep(wait)
                wait = min(wait * 2, RETRY_MOST)
                continue
            if self.waiting and self.waiting[0] is record:
                self.waiting.popleft()
            self.published += 1
            wait = 0.25
            if self._away:
                self._away = False
                self.log("statistics: the games stream answers again; the games that waited are sent")

    async def _fold_loop(self, subscription: JetStreamContext.PullSubscription) -> None:
        while not cancel_requested():
            try:
                messages = await subscription.fetch(BATCH, timeout=FETCH_WAIT)
            except (TimeoutError, NatsTimeout):
                continue  # nothing new
            except NotFoundError:  # the consumer went (an operator, or unused past MAX_AGE): made again
                with contextlib.suppress(*_ERRORS):
                    await subscription.unsubscribe()
                with contextlib.suppress(*_ERRORS):
                    subscription = await self._subscribe()
                await asyncio.sleep(FETCH_WAIT)
                continue
            except _ERRORS:
                if self.client.is_closed:
                    return
                await asyncio.sleep(FETCH_WAIT)
                continue
            try:
                await self._fold(messages)
            except _ERRORS:
                continue  # unacked: the records come again
            except Exception as exc:  # noqa: BLE001 - a record no check foresaw must not stop every node's statistics
                self.bad(f"statistics: a batch of the games stream met {type(exc).__name__}; the next goes on")
                await asyncio.sleep(FETCH_WAIT)
            self.bad.flush()

    async def _fold(self, messages: list[Msg]) -> None:
        """Store the records of ``messages`` and ack them; a message that is no record is told in one line and
        terminated, so JetStream never delivers it again."""
        records: list[GameRecord] = []
        good: list[Msg] = []
        for message in messages:
            try:
                self.key.check(message.data, (message.headers or {}).get(TAG_HEADER))
                record = read_game(message.data)
                if not self.rate.admit(record):
                    raise BadRecord(f"a player past {self.rate.per_hour} games an hour")
            except BadRecord as exc:
                self.bad(f"statistics: a record of the games stream is skipped ({exc})")
                with contextlib.suppress(*_ERRORS):  # a term lost: the record comes again, and is skipped again
                    await message.term()
            else:
                records.append(record)
                good.append(message)
        if records:
            await self.store(records)  # unacked if it never returns: the records come again
            self.folded += len(records)
        for message in good:
            with contextlib.suppress(*_ERRORS):  # an ack lost: the record comes again, and is stored once
                await message.ack()
