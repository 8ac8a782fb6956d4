"""When each outgoing call may go: Telegram's budgets, spent where a person is waiting.

Telegram allows a bot about ``overall`` requests a second in all, about ``group_limit`` messages per
``group_period`` seconds into one group (edits of its messages count too) and about one a second into one
private chat.  Every rate-limited call of the publisher first waits here for its turn (``Outbox.turn``), so
the budgets are never exceeded and Telegram never needs to refuse.  Callback answers are not limited by
Telegram and never wait here: they come first.

The calls waiting are served earliest due first; a call is due ``grace[priority]`` seconds after it began
to wait: a presser's own hand first, then the hand of the player whose turn came, other messages, the
group's table, and last the hands of players who may not act.  Past capacity the graces of the background
calls stretch with their number, so they take about ``background_share`` of the budget; below it the
background goes early only while the bot's pace stays under ``cruise_share`` of the budget (``cruise``),
which keeps room for requests bunched on their way.  docs/operations.md ("How the outbox spends Telegram's
budget") says why each of these is as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

from bot.clock import Clock
from bot.delivery.budgets import Bucket, Window


class Priority(IntEnum):
    """Who waits for a call, most urgent first."""

    OWN_HAND = 0  # the presser's own hand: he is looking at it
    TURN_HAND = 1  # the hand of the player whose turn came
    MESSAGE = 2  # any other message: a send, a lobby, a notice
    TABLE = 3  # the group's table: may lag, coalesced to the newest state
    HAND = 4  # the hand of a player who may not act (another's card changed it): his turn's edit will
    # show it if the budget has no room before


SWEEP = 4096  # grants between two sweeps of idle chats
BACKGROUND = frozenset({Priority.TABLE, Priority.HAND})  # nobody is looking at them: shed first past capacity
BACKGROUND_SHARE = 0.2  # of the overall budget, what the background calls that came due take past capacity
CRUISE_SHARE = 0.8  # of the overall budget, the pace up to which background calls go before they are due
FLOOD_SPAN = 10.0  # seconds: 429s in this many different chats within it ...
FLOODED_CHATS = 3  # ... show the overall budget too generous for now
GRACE: Mapping[Priority, float] = {  # long graces: near strict priority, with a bound on how long a priority may starve
    Priority.OWN_HAND: 0.0,
    Priority.TURN_HAND: 0.5,
    Priority.MESSAGE: 2.0,
    Priority.TABLE: 30.0,
    Priority.HAND: 60.0,
}


class Closed(Exception):
    """The bot is stopping and its time for that is up: the call is not made (the next start brings every chat
    up to date from the database)."""


@dataclass(eq=False)
class Waiter:
    chat: int
    due: float
    seq: int
    future: asyncio.Future[None]
    priority: Priority = Priority.MESSAGE
    new: bool = False  # a new message (a private chat allows a shorter burst of those)
    background: bool = False  # counted among the background calls waiting

    def key(self) -> tuple[float, int]:
        return self.due, self.seq


@dataclass(eq=False)
class Chat:
    """One chat's budget and the calls waiting to go into it."""

    bucket: Bucket
    window: Window | None
    sends: Bucket | None = None  # new messages only, on top of ``bucket``
    waiting: list[tuple[float, int, Waiter]] = field(default_factory=list)  # a heap; stale entries skipped

    def ready_at(self, now: float, waiter: Waiter) -> float:
        ready = self.bucket.ready_at(now)
        if self.window is not None:
            ready = max(ready, self.window.ready_at(now))
        if self.sends is not None and waiter.new:
            ready = max(ready, self.sends.ready_at(now))
        return ready

    def take(self, now: float, waiter: Waiter) -> None:
        self.bucket.take(now)
        if self.window is not None:
            self.window.take(now)
        if self.sends is not None and waiter.new:
            self.sends.take(now)

    def idle(self, now: float) -> bool:
        if self.head() is not None:
            return False
        full = all(
            b.rate <= 0 or b.tokens + (now - b.at) * b.rate >= b.burst
            for b in (self.bucket, self.sends)
            if b is not None
        )
        window = self.window
        return full and (window is None or not window.times or now - window.times[-1] >= window.period)

    def head(self) -> Waiter | None:
        while self.waiting:
            due, seq, waiter = self.waiting[0]
            if not waiter.future.done() and (due, seq) == waiter.key():
                return waiter
            heapq.heappop(self.waiting)
        return None


class Outbox:
    """The budgets of one bot token and the calls waiting for them (see the module's description)."""

    def __init__(
        self,
        overall: float = 30.0,
        group_limit: int = 20,
        group_period: float = 60.0,
        private: float = 1.0,
        *,
        overall_burst: float = 1.0,
        group_burst: float = 3.0,
        private_burst: float = 4.0,
        private_send_burst: float = 2.0,
        grace: Mapping[Priority, float] = GRACE,
        background_share: float = BACKGROUND_SHARE,
        cruise_share: float = CRUISE_SHARE,
        clock: Clock | None = None,
    ) -> None:
        self.overall = Bucket(overall, overall_burst)
        # up to a second of debt: when the people's calls went past the cruise, the background waits until the
        # pace has made up for it
        self.cruise = Bucket(cruise_share * overall, 1.0, floor=-cruise_share * overall)  # rate 0: no cruise
        self.group_limit = group_limit
        self.group_period = group_period
        self.group_burst = group_burst
        self.private = private
        self.private_burst = private_burst
        self.private_send_burst = private_send_burst
        self.grace = grace
        self.background_rate = background_share * overall  # calls a second (0: no stretching)
        self.background = 0  # background calls waiting
        self.clock = clock if clock is not None else Clock()
        self._chats: dict[int, Chat] = {}
        self._ready: list[tuple[float, int, int]] = []  # (due, seq, chat) of the chats that may send now
        self._blocked: list[tuple[float, int]] = []  # (ready at, chat) of the chats waiting for their budget
        self._held: list[tuple[float, int, int]] = []  # (due, seq, chat) of background calls held by the cruise
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self.granted = 0
        self.sweep_every = SWEEP
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds the calls granted waited
        self.granted_by_priority: Counter[Priority] = Counter()
        self.cuts: Counter[str] = Counter()  # budgets cut after a 429: a chat's, the overall one
        self._floods: list[tuple[float, int]] = []  # (when, chat) of the latest 429s
        self.closed = False  # a stop's time is up: no call waits any more (``close``)

    def flooded(self, chat_id: int) -> None:
        """Telegram refused a call into ``chat_id`` with 429: that chat's budget is cut (``Bucket.cut``), and
        when 429s came from ``FLOODED_CHATS`` chats within ``FLOOD_SPAN`` seconds, the overall budget too."""
        now = self.clock.monotonic()
        chat = self._chats.get(chat_id)
        if chat is not None:
            for bucket in (chat.bucket, chat.sends):
                if bucket is not None:
                    bucket.cut(now)
        self.cuts["chat"] += 1
        self._floods = [(at, c) for at, c in self._floods if now - at < FLOOD_SPAN] + [(now, chat_id)]
        if len({c for _, c in self._floods}) >= FLOODED_CHATS:
            self.overall.cut(now)
            self.cuts["overall"] += 1
            self._floods.clear()

    def _chat(self, chat_id: int) -> Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            if chat_id < 0 and self.group_limit:
                rate = self.group_limit / self.group_period
                bucket = Bucket(rate, self.group_burst)
                chat = Chat(bucket, Window(self.group_limit, self.group_period))
            elif chat_id > 0:
                sends = Bucket(self.private, self.private_send_burst)
                chat = Chat(Bucket(self.private, self.private_burst), None, sends)
            else:  # calls counted in the overall budget only
                chat = Chat(Bucket(0, 0), None)
            self._chats[chat_id] = chat
        return chat

    async def turn(
        self, chat_id: int, priority: Priority = Priority.MESSAGE, *, per_chat: bool = True, new: bool = False
    ) -> None:
        """Wait until one call into ``chat_id`` may go (``per_chat`` false: counted in the overall budget
        only; ``new``: a new message); the call must be made at once."""
        waiter = self.enter(chat_id if per_chat else 0, priority, new=new)
        await self.wait(waiter)

    def enter(self, chat_id: int, priority: Priority, *, new: bool = False) -> Waiter:
        """Queue a call; ``wait`` for it (``hurry`` it meanwhile if it becomes more urgent)."""
        now = self.clock.monotonic()
        loop = asyncio.get_running_loop()
        background = priority in BACKGROUND
        due = now + self.grace[priority] * (self.stretch() if background else 1.0)
        waiter = Waiter(chat_id, due, next(self._seq), loop.create_future(), priority, new, background)
        if self.closed:
            waiter.future.set_exception(Closed())
            return waiter
        if background:
            self.background += 1
            waiter.future.add_done_callback(lambda _: self._left_background(waiter))
        self._queue(waiter)
        return waiter

    def stretch(self) -> float:
        """How many times its grace a background call entering now waits at most: as many calls waiting
        as ``background_rate`` carries in the table's grace, no stretch; more, in proportion."""
        if self.background_rate <= 0:
            return 1.0
        return max(1.0, self.background / (self.background_rate * self.grace[Priority.TABLE]))

    def _left_background(self, waiter: Waiter) -> None:
        if waiter.background:
            waiter.background = False
            self.background -= 1

    async def wait(self, waiter: Waiter) -> None:
        started = self.clock.monotonic()
        try:
            await waiter.future
        except asyncio.CancelledError:
            waiter.future.cancel()
            raise
        self.waited[waiter.priority] += self.clock.monotonic() - started
        self.granted_by_priority[waiter.priority] += 1

    def close(self) -> None:
        """A stop's time is up: every call waiting, and every one asked for from now on, is refused (``Closed``)."""
        self.closed = True
        for chat in self._chats.values():
            for _, _, waiter in chat.waiting:
                if not waiter.future.done():
                    waiter.future.set_exception(Closed())

    def hurry(self, waiter: Waiter, priority: Priority) -> None:
        """The call has become more urgent (a newer render of the same message, for a person waiting)."""
        due = self.clock.monotonic() + self.grace[priority]
        if not waiter.future.done() and due < waiter.due:
            waiter.due = due
            waiter.priority = priority
            if priority not in BACKGROUND:
                self._left_background(waiter)
            self._queue(waiter)

    def _queue(self, waiter: Waiter) -> None:
        chat = self._chat(waiter.chat)
        heapq.heappush(chat.waiting, (waiter.due, waiter.seq, waiter))
        if chat.head() is waiter:
            heapq.heappush(self._ready, (waiter.due, waiter.seq, waiter.chat))
        self._wake.set()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    def waiting(self) -> int:
        """How many calls wait for their turn."""
        return sum(self.waiting_by_priority().values())

    def waiting_by_priority(self) -> Counter[Priority]:
        """The calls waiting for their turn, by whom they are for."""
        return Counter(w.priority for chat in self._chats.values() for _, _, w in chat.waiting if not w.future.done())

    async def _run(self) -> None:
        while True:
            now = self.clock.monotonic()
            while self._blocked and self._blocked[0][0] <= now:
                _, chat_id = heapq.heappop(self._blocked)
                chat = self._chats.get(chat_id)  # a stale entry of a chat forgotten since (``_sweep``)
                head = chat.head() if chat is not None else None
                if head is not None:
                    heapq.heappush(self._ready, (head.due, head.seq, chat_id))
            cruise = self.cruise.ready_at(now)
            while self._held and (self._held[0][0] <= now or cruise <= now):
                # come due, or the pace has room: back among the calls that may go (the earliest due one only,
                # when it is for the pace: it takes the token if nothing more urgent does)
                heapq.heappush(self._ready, heapq.heappop(self._held))
                if cruise <= now:
                    break
            chosen = self._choose(now, cruise)
            if chosen is None:
                if not self._ready and not self._blocked and not self._held:
                    self._runner = None
                    return
                self._wake.clear()
                wakes = [self._blocked[0][0]] if self._blocked else []
                if self._held:
                    wakes += [self._held[0][0], cruise]
                with contextlib.suppress(TimeoutError):
                    await self.clock.wait_for(self._wake.wait(), min(wakes) - now if wakes else None)
                continue
            chat_id, waiter = chosen
            overall = self.overall.ready_at(now)
            if overall > now:
                await self.clock.sleep(overall - now)
                continue  # a more urgent call may have come meanwhile
            heapq.heappop(self._ready)
            chat = self._chats[chat_id]
            self.overall.take(now)
            self.cruise.take(now)
            chat.take(now, waiter)
            waiter.future.set_result(None)
            head = chat.head()
            if head is not None:
                self._place(chat_id, chat, head, now)
            self.granted += 1
            if self.granted % self.sweep_every == 0:
                self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Forget the chats nothing waits for whose budget is full again (so memory stays flat)."""
        for chat_id in [c for c, chat in self._chats.items() if c and chat.idle(now)]:
            del self._chats[chat_id]

    def _choose(self, now: float, cruise: float) -> tuple[int, Waiter] | None:
        """The most urgent call whose chat's budget allows it now (stale entries dropped on the way; background
        calls not yet due set aside in ``_held`` while the pace is past the cruise, ``cruise`` the time it
        is not)."""
        while self._ready:
            due, seq, chat_id = self._ready[0]
            chat = self._chats.get(chat_id)
            head = chat.head() if chat is not None else None
            if chat is None or head is None or head.key() != (due, seq):
                heapq.heappop(self._ready)
                if head is not None:  # its head changed (hurried, or the one before given up)
                    heapq.heappush(self._ready, (head.due, head.seq, chat_id))
                continue
            ready = chat.ready_at(now, head)
            if ready > now:
                heapq.heappop(self._ready)
                heapq.heappush(self._blocked, (ready, chat_id))
                continue
            if head.background and head.due > now and cruise > now:
                heapq.heappush(self._held, heapq.heappop(self._ready))
                continue
            return chat_id, head
        return None

    def _place(self, chat_id: int, chat: Chat, head: Waiter, now: float) -> None:
        ready = chat.ready_at(now, head)
        if ready <= now:
            heapq.heappush(self._ready, (head.due, head.seq, chat_id))
        else:
            heapq.heappush(self._blocked, (ready, chat_id))
