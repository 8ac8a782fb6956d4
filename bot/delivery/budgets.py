"""Token buckets and windows: the budgets the outbox spends (``bot.delivery.outbox``), and how a 429 cuts one."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

MIN_SHARE = 0.125  # the least share of a budget that 429s cut it to
RECOVERY = 1 / 240  # the share of its whole rate a cut budget grows back a second (from half: two minutes)


@dataclass
class Bucket:
    """``rate`` tokens a second up to ``burst`` (rate 0: unlimited).

    A 429 shows that Telegram's limit there is stricter than this budget for now: ``cut`` halves the rate
    (never below ``MIN_SHARE`` of the one configured) and allows no burst, and the rate then grows back by
    ``RECOVERY`` of the configured rate a second, the burst with it once the rate is whole: as TCP treats a
    loss, cautious at once and generous again slowly."""

    rate: float
    burst: float
    tokens: float = math.inf
    at: float = 0.0
    floor: float = 0.0  # ``take`` never leaves fewer tokens (a bucket taken from when empty keeps no debt)
    full_rate: float = field(init=False)
    full_burst: float = field(init=False)

    def __post_init__(self) -> None:
        self.full_rate, self.full_burst = self.rate, self.burst

    def cut(self, now: float) -> None:
        if self.rate <= 0:
            return
        self._refill(now)
        self.rate = max(self.full_rate * MIN_SHARE, self.rate / 2)
        self.burst = 1.0
        self.tokens = min(self.tokens, 0.0)  # the next call waits a whole token at the lowered rate

    def ready_at(self, now: float) -> float:
        """When one token is there."""
        if self.rate <= 0:
            return now
        self._refill(now)
        return now if self.tokens >= 1 else now + (1 - self.tokens) / self.rate

    def take(self, now: float) -> None:
        if self.rate > 0:
            self._refill(now)
            self.tokens = max(self.floor, self.tokens - 1)

    def _refill(self, now: float) -> None:
        if self.rate < self.full_rate:  # cut by a 429: growing back
            self.rate = min(self.full_rate, self.rate + self.full_rate * RECOVERY * (now - self.at))
            if self.rate >= self.full_rate:
                self.burst = self.full_burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now


@dataclass
class Window:
    """At most ``limit`` calls in any ``period`` seconds (limit 0: unlimited)."""

    limit: int
    period: float
    times: deque[float] = field(default_factory=deque)

    def ready_at(self, now: float) -> float:
        while self.times and now - self.times[0] >= self.period:
            self.times.popleft()
        if not self.limit or len(self.times) < self.limit:
            return now
        return self.times[-self.limit] + self.period

    def take(self, now: float) -> None:
        if self.limit:
            self.times.append(now)
