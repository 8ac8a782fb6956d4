"""The process's clocks, for what runs outside an event loop: a computer player's budget, a simulation's or a
benchmark's timing, the time a command-line tool stamps on what it stores.

Nothing else in the project reads the time (``tests/test_layout.py``): what waits or measures is handed a
clock — these functions, or ``bot.clock.Clock`` on an event loop, whose wall time defaults to ``wall`` — so
that a test can hand it another.  The rules never read it: a game is its seed and its actions.
"""

from __future__ import annotations

import time


def wall() -> float:
    """Seconds since the epoch: the time that is stored and compared with stored times."""
    return time.time()


def monotonic() -> float:
    """Seconds on a clock that never goes back, for waits and deadlines."""
    return time.monotonic()


def perf() -> float:
    """The finest clock that never goes back, for a budget or a timing."""
    return time.perf_counter()


def cpu() -> float:
    """The CPU time of the process."""
    return time.process_time()


def thread_cpu() -> float:
    """The CPU time of the calling thread."""
    return time.thread_time()
