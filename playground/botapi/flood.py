"""Telegram's flood control, as the embedded server keeps it (the limits are described in ``playground.botapi``)."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

from playground.botapi.world import ApiError

NEW_MESSAGES = frozenset({"sendMessage", "sendPhoto"})  # what flood control counts as a new message


@dataclass(frozen=True)
class Limits:
    """Telegram's flood control, as this server models it (see the module's description)."""

    per_second: float = 30.0  # requests a second per bot token, everything but the two exempt methods
    group_messages: int = 20  # new messages into one group ...
    group_period: float = 60.0  # ... in any window of this many seconds
    private_per_second: float = 1.0  # new messages into one private chat, after ...
    private_burst: int = 3  # ... a burst of this many
    edit_per_second: float = 2.0  # edits in one private chat, after ...
    edit_burst: int = 20  # ... a burst of this many
    slack: float = 0.1  # the share of a window forgiven for network delay

    def scaled(self, factor: float) -> Limits:
        """The same limits with time running ``factor`` as long (0.05: twenty times faster)."""
        return replace(
            self,
            per_second=self.per_second / factor,
            group_period=self.group_period * factor,
            private_per_second=self.private_per_second / factor,
            edit_per_second=self.edit_per_second / factor,
        )


EXEMPT = frozenset({"getUpdates", "answerCallbackQuery"})
ALL_METHODS: frozenset[str] = frozenset({"*"})  # as ``fail_methods``: every method


class FloodControl:
    """Buckets and windows of ``Limits``; ``check`` raises the 429 Telegram would answer."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._buckets: dict[tuple[str, int], tuple[float, float]] = {}  # (kind, chat) -> (tokens, at)
        self._group: dict[int, deque[float]] = {}

    def check(self, method: str, params: dict[str, Any], now: float) -> None:
        if method in EXEMPT:
            return
        limits = self.limits
        self._take("overall", 0, limits.per_second, limits.per_second, now)
        chat = params.get("chat_id")
        if not isinstance(chat, int):
            return
        if method in NEW_MESSAGES and chat < 0:
            sent = self._group.setdefault(chat, deque())
            window = limits.group_period * (1 - limits.slack)
            while sent and now - sent[0] >= window:
                sent.popleft()
            if len(sent) >= limits.group_messages:
                raise too_many(sent[0] + window - now, f"group {chat}: {limits.group_messages} messages")
            sent.append(now)
        elif method in NEW_MESSAGES:
            self._take("private", chat, limits.private_burst, limits.private_per_second, now)
        elif method == "editMessageText" and chat > 0:
            self._take("edit", chat, limits.edit_burst, limits.edit_per_second, now)

    def _take(self, kind: str, chat: int, capacity: float, rate: float, now: float) -> None:
        tokens, at = self._buckets.get((kind, chat), (capacity, now))
        tokens = min(capacity, tokens + (now - at) * rate * (1 + self.limits.slack))
        if tokens < 1:
            self._buckets[(kind, chat)] = (tokens, now)
            raise too_many((1 - tokens) / rate, f"{kind} {chat}")
        self._buckets[(kind, chat)] = (tokens - 1, now)


def too_many(wait: float, which: str) -> ApiError:
    seconds = max(1, math.ceil(wait))
    return ApiError(429, f"Too Many Requests: retry after {seconds} ({which})", retry_after=seconds)
