"""What each message of the bot shows, as far as this process knows: an edit to what a message shows already is
never sent, and a clean stop keeps the record for the next start (``storage.shown``)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from bot.clock import Clock

SHOWN_KEPT = 20_000  # messages whose shown render is kept (every live table and hand, many times)

Key = tuple[int, int]  # chat, message
Seen = tuple[bytes, str]  # the digest of a message's text and keyboard, and its picture's key (``Render.key``)


class Shown:
    """For the newest ``SHOWN_KEPT`` messages, what each shows and when it last changed before its reader (a
    message forgotten here is only edited again even if unchanged, which Telegram answers "not modified")."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._seen: OrderedDict[Key, Seen] = OrderedDict()
        self._at: dict[Key, float] = {}

    def __len__(self) -> int:
        return len(self._seen)

    def get(self, key: Key) -> Seen | None:
        return self._seen.get(key)

    def remember(self, key: Key, seen: Seen, *, changed: bool) -> None:
        """The message shows ``seen`` now (``changed``: its reader saw it change)."""
        self._seen[key] = seen
        self._seen.move_to_end(key)
        if changed:
            self._at[key] = self.clock.monotonic()
        self._trim()

    def forget(self, key: Key) -> None:
        self._seen.pop(key, None)
        self._at.pop(key, None)

    def changed_at(self, key: Key) -> float | None:
        """When the message last changed before its reader (``clock.monotonic`` time)."""
        return self._at.get(key)

    def record(self) -> list[tuple[int, int, bytes, str]]:
        """What each message known shows (chat, message, its digest, its picture's key): kept at a clean stop."""
        return [(chat_id, message_id, *seen) for (chat_id, message_id), seen in self._seen.items()]

    def recall(self, record: Iterable[tuple[int, int, bytes, str]]) -> None:
        """What the messages showed at the last clean stop: an edit to the same render is not sent again."""
        for chat_id, message_id, digest, picture in record:
            self._seen.setdefault((chat_id, message_id), (digest, picture))
        self._trim()

    def _trim(self) -> None:
        while len(self._seen) > SHOWN_KEPT:
            old, _ = self._seen.popitem(last=False)
            self._at.pop(old, None)
