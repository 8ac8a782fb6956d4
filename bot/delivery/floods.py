"""A 429 (Telegram's flood control) reaches the code that made the call.

python-telegram-bot's own limiter is not used: it would wait a 429 out and send the request again by itself,
and that retry would bypass the outbox (``bot.delivery.outbox``): requests refused in the same second would come back
in the same second and be refused again, so that under load one 429 grows into many.  The publisher waits
a 429 out and asks the outbox for a new turn; the few calls made outside it go through ``waiting_out_floods``.
Both try other failures again while ``transient`` says it may help.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.clock import Clock

T = TypeVar("T")

FLOOD_WAITS = 5  # 429s waited out for one call before it is given up


def seconds(value: object) -> float:
    """``retry_after`` in seconds (python-telegram-bot gives a timedelta or a number)."""
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


async def waiting_out_floods(call: Callable[[], Awaitable[T]], clock: Clock, waits: int = FLOOD_WAITS) -> T:
    """``call()``, made again after each 429 once its wait is over on ``clock`` (``waits`` times at most; then
    the last 429 is raised)."""
    for _ in range(waits):
        try:
            return await call()
        except RetryAfter as exc:
            await clock.sleep(seconds(exc.retry_after))
    return await call()


def transient(exc: NetworkError) -> bool:
    """Whether trying again may help: not when the bot's own HTTP client failed (python-telegram-bot wraps
    its RuntimeError, e.g. a request made after the application shut its client down, as a NetworkError)."""
    return not isinstance(exc.__cause__, RuntimeError)


def chat_gone(exc: BadRequest) -> bool:
    """Whether Telegram refused a call because the chat is not there for the bot any more (it was removed from a
    group, or the group was deleted): nothing to send there, no bug."""
    return "chat not found" in exc.message.lower()
