"""Tellings in the background: a handler is done once its change is stored, the telling goes on without it.

A telling may wait long for Telegram's budget (a send, when many tables play).  Were the handler of the press
that caused it to wait too, the application's handlers (``concurrent_updates`` of them) would all be held
and none left free for the next taps, which would be answered only as late as Telegram's budget allows
(docs/operations.md has what that came to under load).  The tellings of
one game still follow each other in order (``Notifier.tell`` takes a lock per game, and tasks start in the
order they were made); one that raises is logged and counted, and the end-to-end tests fail on any.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.delivery.outbox import Closed
from bot.usecases.events import Event
from storage import StorageUnavailable

log = logging.getLogger(__name__)


class Background:
    def __init__(self, tell: Callable[[Sequence[Event]], Awaitable[None]]) -> None:
        self._tell = tell
        self._tellings: set[asyncio.Task[None]] = set()  # started, not yet done
        self.failed = 0  # tellings that raised

    async def tell_soon(self, events: Sequence[Event]) -> None:
        """Start telling ``events`` and return at once."""
        if events:
            self.soon(self._tell(list(events)), [type(e).__name__ for e in events])

    def soon(self, work: Awaitable[None], what: object) -> asyncio.Task[None]:
        """Start ``work`` (a telling, or a part of one that may wait long) and return at once; ``told`` waits
        for it, and ``what`` names it in the log if it raises."""
        task = asyncio.create_task(self._logged(work, what))
        self._tellings.add(task)
        task.add_done_callback(self._tellings.discard)
        return task

    async def _logged(self, work: Awaitable[None], what: object) -> None:
        try:
            await work
        except Closed:
            log.info("telling %s is left to the next start: the bot stopped", what)
        except StorageUnavailable as exc:  # what was sent is sent; only its record is missing (said once)
            log.info("telling %s was not recorded: %s", what, exc)
        except Exception:
            self.failed += 1
            log.exception("telling %s failed", what)

    async def told(self) -> None:
        """Wait until every telling started is done (and those they started)."""
        while self._tellings:
            await asyncio.gather(*self._tellings, return_exceptions=True)

    def cancel(self) -> None:
        """On shutdown: the next start brings every chat up to date from the database."""
        for task in self._tellings:
            task.cancel()
