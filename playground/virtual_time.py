"""An event loop on virtual time: the clock moves only when nothing can run, straight to the next timer.

Everything that waits in the bot and in the embedded Bot API server waits on the loop (``bot.clock``), so on
this loop a whole series plays at the speed of the CPU while every limit, timer, flood wait and back-off
behaves as at Telegram's clock: a second of it is a second of ``loop.time()``, however fast or busy the
machine is.  Time stands still while work is under way outside the loop: a call with SQLite's thread
(``storage.db.working``) or a function in an executor (a computer player thinking); the loop then waits for
it for real.  It must not be used with real sockets: their answers take real time, which this clock does not
see (the end-to-end tests hand the bot's requests to the server in process, ``playground.inprocess``).
"""

from __future__ import annotations

import asyncio
import math
import selectors
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar, TypeVarTuple

from storage.db import working

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
REAL_WAIT = 0.05  # seconds of real time to wait for outside work (it ends sooner: its answer wakes the loop)


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        super().__init__()
        self._virtual = 0.0
        self._outside = 0  # executor calls not yet answered
        self.holds: list[Callable[[], bool]] = [working]  # outside work under way: time waits for it
        # A timer within the resolution of now would run without the time moving, and one that waits for a
        # moment a hair ahead (a budget's next token) would wait again at once, for ever.
        self._clock_resolution = 0.0
        self._selector: selectors.BaseSelector = _Selector(self._selector, self)

    def time(self) -> float:
        return self._virtual

    def busy(self) -> bool:
        """Whether callbacks are ready to run (or the loop is stopping): then no time passes."""
        base: Any = self  # the base loop's own state, which typeshed does not describe
        return bool(base._ready) or bool(base._stopping)

    def held(self) -> bool:
        return self._outside > 0 or any(hold() for hold in self.holds)

    def advance(self, seconds: float) -> None:
        """On to the first timer's time (at most ``seconds`` on), just past it: a timer is due only once the
        clock has passed its time (no resolution to run it early), so whoever it wakes sees its time come."""
        target = self._virtual + seconds
        base: Any = self
        if base._scheduled:
            target = min(target, base._scheduled[0].when())
        self._virtual = max(math.nextafter(target, math.inf), math.nextafter(self._virtual, math.inf))

    def run_in_executor(
        self, executor: Executor | None, func: Callable[[*Ts], T], *args: *Ts
    ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self._outside += 1
        future.add_done_callback(self._answered)
        return future

    def _answered(self, _: object) -> None:
        self._outside -= 1


class _Selector(selectors.BaseSelector):
    """The loop's selector, asked first whether anything is ready; when nothing is and the loop would wait,
    the clock moves on by that wait instead (unless outside work holds it)."""

    def __init__(self, real: selectors.BaseSelector, loop: VirtualTimeLoop) -> None:
        self._real = real
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        events = self._real.select(0)
        loop = self._loop
        if events or (timeout == 0 and loop.busy()):
            return events
        if timeout == 0:  # a timer set for this very moment: the clock steps just past it
            loop.advance(0.0)
        elif loop.held() or timeout is None:  # only outside work can wake the loop now
            return self._real.select(REAL_WAIT)
        else:
            loop.advance(timeout)
        return []

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._real.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._real.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._real.modify(fileobj, events, data)

    def close(self) -> None:
        self._real.close()

    def get_key(self, fileobj: Any) -> selectors.SelectorKey:
        return self._real.get_key(fileobj)

    def get_map(self) -> Any:
        return self._real.get_map()
