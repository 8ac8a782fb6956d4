"""Sending and editing messages, the Telegram way.

- Edits are coalesced per message: while one edit of a message is in flight, newer renders replace the
  pending one, so only the newest is sent.
- A text and keyboard identical to what the message already shows is not sent again, and Telegram's
  "message is not modified" is never an error.
- Messages are silent unless the caller asks for a notification (a player's turn).
- ``RetryAfter`` (429) is waited out and the newest render is retried; the outbox lowers the budget that drew
  it for a while (``Outbox.flooded``).
- Telegram's bad moments — a 5xx answer, a network error, a timeout (``NetworkError``, of which ``TimedOut``
  is one) — are retried with exponential backoff (``retry_base`` doubling up to ``retry_cap`` seconds, with
  jitter, ``attempts`` times: minutes of trying before a message is given up, and then it is logged).  While
  Telegram is known to be unreachable (``telegram_gone``), a failed call waits for it instead, uncounted. A send
  is retried until it is taken (a timeout after Telegram did take it may then show it twice: better than
  never; a request made after the bot's HTTP client was shut down is not retried); an edit that failed is
  never recorded as shown, so it is retried, and the same render scheduled
  later is sent again instead of being skipped.
- Every rate-limited call first waits for its turn in the ``Outbox`` (``bot.delivery.outbox``): Telegram's overall,
  per-group (``group_limit`` sends and edits per ``group_period`` seconds) and per-private-chat budgets are
  never exceeded, and the turns go where a person waits: each call says for whom it is (``Priority``).  An edit
  waiting for its turn is coalesced with the newer renders of its message and goes with the newest, and it
  is hurried when a newer render is more urgent (a table edit waits longest; a fast player's selection taps
  cost one edit per turn of his chat, not one each).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from typing import Any

from telegram import Bot, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.clock import Clock
from bot.delivery.floods import FLOOD_WAITS, chat_gone, seconds, transient
from bot.delivery.outbox import CRUISE_SHARE, Closed, Outbox, Priority, Waiter
from bot.delivery.sending import MAX_CAPTION, MAX_TEXT, FileIds, Picture, Render, change, edit_method, fit, post
from bot.delivery.shown import Shown

log = logging.getLogger(__name__)

UNSEEN_POLL = 1.0  # seconds between looks at whether a message still on its way has reached its chat


class Publisher:
    def __init__(
        self,
        bot: Bot,
        group_limit: int = 20,
        group_period: float = 60.0,
        *,
        retry_base: float = 0.25,
        retry_cap: float = 30.0,
        attempts: int = 12,
        overall: float = 0.0,
        private: float = 0.0,
        cruise_share: float = CRUISE_SHARE,
        clock: Clock | None = None,
    ) -> None:
        """``overall``: requests a second in all, ``private``: calls a second into one private chat (0:
        unlimited; the group budget is ``group_limit`` per ``group_period``, 0: unlimited; ``cruise_share``: see
        ``Outbox``)."""
        self.bot = bot
        self.clock = clock if clock is not None else Clock()
        self.outbox = Outbox(overall, group_limit, group_period, private, cruise_share=cruise_share, clock=self.clock)
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.attempts = attempts
        self.group_limit = group_limit
        self.group_period = group_period
        self._group_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pending: dict[tuple[int, int], Render] = {}
        self._priorities: dict[tuple[int, int], Priority] = {}  # the most urgent of the pending render's requests
        self._waiting: dict[tuple[int, int], Waiter] = {}  # the edit waiting for its turn, per message
        self._deletes: set[asyncio.Task[bool]] = set()  # ``delete_later``'s, not yet done
        self._workers: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._sending: Counter[int] = Counter()  # chat -> messages on their way into it
        self._editing: Counter[int] = Counter()  # chat -> its messages with an edit on its way
        self.shown = Shown(self.clock)  # what each message shows
        self.file_ids = FileIds()  # also counts the pictures uploaded and their bytes
        self.calls: Counter[str] = Counter()
        self.calls_by_priority: Counter[Priority] = Counter()  # rate-limited calls made, by whom they were for
        self.retries: Counter[str] = Counter()  # requests made again after a 5xx, network error or timeout
        self.unexpected = 0  # edits that raised something other than Telegram's errors (a bug)
        self.on_forbidden: Callable[[int], None] | None = None  # told of a private chat that refuses us (403)
        # told, for a call made with ``since``, how long after ``since`` its change was shown, and for whom
        self.on_latency: Callable[[Priority, float], None] | None = None
        # a message's pending changes: for each priority they were asked as, when the earliest of them was asked
        # (a turn's change hurries an idle hand's that waited long: each is timed from its own request)
        self._since: dict[tuple[int, int], dict[Priority, float]] = {}
        self._reachable = asyncio.Event()  # cleared while Telegram is known to be unreachable
        self._watched: dict[tuple[int, int], bool] = {}  # messages whose edit is awaited (``edited``): refused?
        self._reachable.set()

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        notify: bool = False,
        priority: Priority = Priority.MESSAGE,
        photo: Picture | None = None,
        since: float | None = None,
    ) -> int | None:
        """Send a new message (with ``photo``: a picture, ``text`` its caption); returns its id, or None when
        the chat cannot be written to (403).  ``since``: when what it shows was asked for (``on_latency``)."""
        render = Render(fit(text, MAX_CAPTION if photo is not None else MAX_TEXT), markup, photo)
        self._sending[chat_id] += 1
        try:
            if chat_id < 0:
                async with self._group_locks[chat_id]:  # a group's messages in the order they were sent
                    sent = await self._send(chat_id, render, notify, priority)
            else:
                sent = await self._send(chat_id, render, notify, priority)
            if sent is not None and since is not None:
                self._shown_after({priority: since})
            return sent
        finally:
            self._sending[chat_id] -= 1
            if not self._sending[chat_id]:
                del self._sending[chat_id]

    async def _send(self, chat_id: int, render: Render, notify: bool, priority: Priority) -> int | None:
        waits = failures = 0
        method = "sendPhoto" if render.photo is not None else "sendMessage"
        while True:
            try:
                await self.outbox.turn(chat_id, priority, new=True)
                self.calls[method] += 1
                self.calls_by_priority[priority] += 1
                message = await post(self.bot, chat_id, render, notify, self.file_ids)
            except RetryAfter as exc:
                self.outbox.flooded(chat_id)
                waits += 1
                if waits > FLOOD_WAITS:
                    log.warning("gave up sending to chat %s after repeated flood waits", chat_id)
                    return None
                await self.clock.sleep(seconds(exc.retry_after))
                continue
            except Forbidden:
                log.info("cannot write to chat %s", chat_id)
                self._forbidden(chat_id)
                return None
            except BadRequest as exc:
                if not chat_gone(exc):
                    raise
                log.info("cannot write to chat %s: it is gone (%s)", chat_id, exc)  # the bot was removed from it
                return None
            except NetworkError as exc:
                failures = 0 if await self._reached_again() else failures + 1
                if failures >= self.attempts or not transient(exc):
                    log.error("gave up sending to chat %s after %d failures: %s", chat_id, failures, exc)
                    raise
                await self._back_off(method, failures, exc)
                continue
            self.shown.remember((chat_id, message.message_id), render.key(), changed=True)
            return message.message_id

    def telegram_gone(self) -> None:
        """Telegram cannot be reached (``bot.health.Liveness``): a failed call waits for it, uncounted."""
        self._reachable.clear()

    def telegram_back(self) -> None:
        self._reachable.set()

    async def _reached_again(self) -> bool:
        """After a network failure: while Telegram is known to be unreachable, wait until it answers again (a
        call is never given up for an outage, however long), and say whether it had to."""
        if self._reachable.is_set():
            return False
        await self._reachable.wait()
        return True

    async def _back_off(self, method: str, failures: int, exc: Exception) -> None:
        """Wait before trying again after the ``failures``-th failure in a row."""
        self.retries[method] += 1
        delay = min(self.retry_cap, self.retry_base * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)
        log.info("%s failed (%s); trying again in %.2f s", method, exc, delay)
        await self.clock.sleep(delay)

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        priority: Priority = Priority.MESSAGE,
        photo: Picture | None = None,
        since: float | None = None,
    ) -> None:
        """Schedule an edit (of a photo message: its picture ``photo`` and caption ``text``); only the newest
        of several pending edits of a message is sent, when its turn comes (the most urgent ``priority`` of those
        pending decides how soon).  ``since``: when the change it shows was asked for (``on_latency``)."""
        key = (chat_id, message_id)
        render = Render(fit(text, MAX_CAPTION if photo is not None else MAX_TEXT), markup, photo)
        if key not in self._pending and self.shown.get(key) == render.key():
            return
        self._pending[key] = render
        if since is not None:
            self._asked(key, {priority: since})
        self._priorities[key] = min(priority, self._priorities.get(key, priority))
        if (waiter := self._waiting.get(key)) is not None:
            self.outbox.hurry(waiter, priority)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._edit_worker(key))
            self._editing[chat_id] += 1

    async def _edit_worker(self, key: tuple[int, int]) -> None:
        waits = failures = 0
        try:
            while key in self._pending:
                if self.shown.get(key) == self._pending[key].key():
                    del self._pending[key]
                    self._priorities.pop(key, None)
                    continue
                priority = self._priorities.pop(key, Priority.MESSAGE)
                waiter = self._waiting[key] = self.outbox.enter(key[0], priority)
                try:
                    await self.outbox.wait(waiter)
                except Closed:
                    return  # still owed: the next start makes it
                finally:
                    self._waiting.pop(key, None)
                render = self._pending.pop(key, None)
                since = self._since.pop(key, None)
                if render is None or self.shown.get(key) == render.key():
                    continue  # deleted meanwhile, or shown already: the turn is not used
                changed = True
                method = edit_method(self.shown.get(key), render)
                try:
                    self.calls[method] += 1
                    hurried = min(priority, self._priorities.get(key, priority))  # a newer request may be more urgent
                    self.calls_by_priority[hurried] += 1
                    await change(self.bot, key, render, method, self.file_ids)
                except RetryAfter as exc:
                    self.outbox.flooded(key[0])
                    waits += 1
                    await self.clock.sleep(seconds(exc.retry_after))
                    if waits <= FLOOD_WAITS:
                        self._retry(key, render, priority, since)
                    continue
                except BadRequest as exc:
                    if "not modified" not in str(exc).lower():
                        log.warning("edit of %s failed: %s", key, exc)
                        if key in self._watched:
                            self._watched[key] = True  # refused for good
                        continue
                    changed = False  # it showed this already (sent before a restart): its reader saw no change
                except Forbidden:
                    log.info("cannot write to chat %s", key[0])
                    self._forbidden(key[0])
                    if key in self._watched:
                        self._watched[key] = True
                    continue
                except NetworkError as exc:
                    failures = 0 if await self._reached_again() else failures + 1
                    if failures >= self.attempts or not transient(exc):
                        log.error("gave up editing %s after %d failures: %s", key, failures, exc)
                        continue
                    await self._back_off(method, failures, exc)
                    self._retry(key, render, priority, since)
                    continue
                except TelegramError as exc:
                    log.warning("edit of %s failed: %s", key, exc)
                    continue
                except Exception:  # a bug, not Telegram: counted (the tests fail on one), and a newer render goes on
                    self.unexpected += 1
                    log.exception("edit of %s raised", key)
                    continue
                waits = failures = 0
                self.shown.remember(key, render.key(), changed=changed)
                if since is not None:
                    self._shown_after(since)
        finally:
            self._workers.pop(key, None)
            self._editing[key[0]] -= 1
            if not self._editing[key[0]]:
                del self._editing[key[0]]
            if key not in self._pending:
                self._priorities.pop(key, None)

    async def edited(self, chat_id: int, message_id: int) -> bool:
        """Wait until the edit just scheduled for the message is done with, and say whether Telegram answered
        it: it took it, or refused it for good (the message is gone, the chat closed to the bot).  False: it is
        still owed (dropped at a stop, or given up after failures), so whoever records it as told must not."""
        key = (chat_id, message_id)
        wanted = self._pending.get(key)
        if wanted is None:
            return True  # it shows that already
        self._watched[key] = False
        try:
            while (worker := self._workers.get(key)) is not None:
                await asyncio.wait([worker])
            return self.shown.get(key) == wanted.key() or self._watched[key]
        finally:
            self._watched.pop(key, None)

    def _retry(
        self, key: tuple[int, int], render: Render, priority: Priority, since: dict[Priority, float] | None = None
    ) -> None:
        """Send ``render`` again, unless a newer render came meanwhile; it is as urgent as it was."""
        self._pending.setdefault(key, render)
        self._priorities[key] = min(priority, self._priorities.get(key, priority))
        if since is not None:
            self._asked(key, since)

    def _asked(self, key: tuple[int, int], since: dict[Priority, float]) -> None:
        """Changes of the message were asked for, as these priorities, at these times."""
        earliest = self._since.setdefault(key, {})
        for priority, at in since.items():
            earliest[priority] = min(at, earliest.get(priority, at))

    def _shown_after(self, since: dict[Priority, float]) -> None:
        """The changes asked for at ``since`` (by priority) are shown now."""
        if self.on_latency is not None:
            now = self.clock.monotonic()
            for priority, at in since.items():
                self.on_latency(priority, now - at)

    def _forbidden(self, chat_id: int) -> None:
        if chat_id > 0 and self.on_forbidden is not None:
            self.on_forbidden(chat_id)

    def delete_later(self, chat_id: int, message_id: int, priority: Priority = Priority.TABLE) -> None:
        """Delete a message nobody waits to see gone (a turn notice whose turn passed): in the background,
        when its turn comes, without holding up the caller (``flush`` waits for it)."""
        task = asyncio.create_task(self.delete(chat_id, message_id, priority))
        self._deletes.add(task)
        task.add_done_callback(self._deletes.discard)

    async def delete(self, chat_id: int, message_id: int, priority: Priority = Priority.MESSAGE) -> bool:
        key = (chat_id, message_id)
        self._pending.pop(key, None)
        self._since.pop(key, None)
        self.shown.forget(key)
        self._priorities.pop(key, None)
        failures = 0
        while True:
            try:
                await self.outbox.turn(chat_id, priority, per_chat=False)
                self.calls["deleteMessage"] += 1
                self.calls_by_priority[priority] += 1
                return bool(await self.bot.delete_message(chat_id, message_id))
            except (BadRequest, Forbidden) as exc:
                log.info("could not delete %s: %s", key, exc)
                return False
            except RetryAfter as exc:
                self.outbox.flooded(chat_id)
                failures += 1
                if failures >= self.attempts:
                    return False
                await self.clock.sleep(seconds(exc.retry_after))
            except NetworkError as exc:
                failures = 0 if await self._reached_again() else failures + 1
                if failures >= self.attempts or not transient(exc):
                    log.warning("could not delete %s: %s", key, exc)
                    return False
                await self._back_off("deleteMessage", failures, exc)
            except TelegramError as exc:
                log.info("could not delete %s: %s", key, exc)
                return False

    def busy(self, chat_id: int) -> bool:
        """Whether a new message or an edit is still on its way into this chat (waiting for its turn, or
        being tried again)."""
        return chat_id in self._sending or chat_id in self._editing

    async def flush(self, chats: Collection[int] | None = None) -> None:
        """Wait until every scheduled edit (of the given chats, or of all) has been sent."""
        while True:
            workers: list[asyncio.Task[Any]] = [
                w for key, w in self._workers.items() if chats is None or key[0] in chats
            ]
            if chats is None:
                workers += self._deletes
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    def close(self) -> None:
        """Drop every edit and delete still on its way (on shutdown, before the HTTP client closes)."""
        for task in [*self._workers.values(), *self._deletes]:
            task.cancel()

    def time_left(self, chat_id: int, message_id: int | None, since: float, seconds: float) -> float:
        """Seconds left of ``seconds`` that began at ``since`` (``clock.monotonic`` time) but count from when the
        person could see the message: from its last change after ``since``, if any (0: they are over); while
        something is still on its way into his chat they have not begun (``UNSEEN_POLL``: look again then)."""
        if self.busy(chat_id):
            return UNSEEN_POLL
        shown = None if message_id is None else self.shown.changed_at((chat_id, message_id))
        start = since if shown is None else max(since, shown)
        return max(0.0, start + seconds - self.clock.monotonic())
