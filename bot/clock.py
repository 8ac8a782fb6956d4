"""Time in the bot and in the embedded Bot API server: one clock for everything that waits or measures.

``Clock`` reads the running event loop's time and waits on the loop: ``monotonic`` measures, ``sleep`` and
``later`` wait, ``timeout`` bounds a wait, and ``now`` is the wall time that is stored and compared with stored
times.  Nothing else in ``bot`` or ``playground.botapi`` reads the time or sleeps (``tests/test_layout.py``),
so a test that runs its event loop on virtual time (``playground.virtual_time``) puts the bot, its outbox,
timers and retries and the server's flood control on that time together: limits, timers and back-offs
behave as at Telegram's clock while nothing waits for real.  ``Tasks`` keeps the background tasks.

This module imports nothing from ``bot``, and of the rest only the process's clocks (``engine.clock``), whose
readings it hands out: every other module may use it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

from engine import clock as process

log = logging.getLogger(__name__)
T = TypeVar("T")


class Handle(Protocol):
    def cancel(self) -> None: ...


class Tasks:
    """Background tasks of the bot: kept until done, a failure logged, all cancelled at shutdown."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._log_failure)
        return task

    @staticmethod
    def _log_failure(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class Clock:
    """The loop's time, and waits on it; ``now`` is the wall clock (``wall``: where it comes from); ``perf``
    is the clock of work done outside the loop (a computer player's budget in a worker process: a module's
    function, so that it travels there)."""

    def __init__(
        self,
        tasks: Tasks | None = None,
        wall: Callable[[], float] = process.wall,
        perf: Callable[[], float] = process.perf,
    ) -> None:
        self.tasks = tasks if tasks is not None else Tasks()  # where ``later``'s jobs run
        self._wall = wall
        self.perf = perf

    @classmethod
    def following_the_loop(cls, tasks: Tasks | None = None) -> Clock:
        """A clock whose wall time moves with the loop's time from now on (a loop on virtual time)."""
        loop = asyncio.get_running_loop()
        origin = process.wall() - loop.time()
        return cls(tasks, wall=lambda: origin + loop.time())

    def now(self) -> float:
        """Wall time, in seconds since the epoch."""
        return self._wall()

    def monotonic(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(seconds, 0.0))

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[Any]:
        """``async with clock.timeout(s)``: ``TimeoutError`` when the block takes longer (None: no bound)."""
        return asyncio.timeout(seconds)

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T:
        """``awaitable``'s result, or ``TimeoutError`` after ``seconds``."""
        return await asyncio.wait_for(awaitable, seconds)

    def call_later(self, delay: float, callback: Callable[[], object]) -> Handle:
        """``callback()`` on the loop after ``delay`` seconds."""
        return asyncio.get_running_loop().call_later(max(delay, 0.0), callback)

    def later(self, delay: float, job: Callable[..., Awaitable[None]], *args: Any) -> Handle:
        """``job(*args)`` as a background task after ``delay`` seconds."""

        async def run() -> None:
            await job(*args)

        return self.call_later(delay, lambda: self.tasks.spawn(run()))
