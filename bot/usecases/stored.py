"""Work of the bot's own (a computer's move, a turn run out, an idle game ended) that the database could not
store when it was due: it is done again once the database takes writes, so that play goes on by itself."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from storage import Database, StorageUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

# What any use case may raise to a handler: the database took no write, so nothing of the request changed (the
# handlers meet it by this name, for they speak to no storage)
Unsaved = StorageUnavailable


async def once_stored(
    db: Database, job: Callable[[], Awaitable[T]], again: Callable[[], Awaitable[None]] | None = None
) -> T:
    """``job()``, and again each time the database comes back after it could not store what the job did
    (the job is rolled back whole each time, so it runs anew; it checks what it was for once more);
    ``again``: what to do first then (read the game again, which the failed commit made forgotten)."""
    while True:
        try:
            return await job()
        except StorageUnavailable as exc:
            log.info("postponed until the database takes writes: %s", exc)
            await db.available()
            if again is not None:
                await again()
