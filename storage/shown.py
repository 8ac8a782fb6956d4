"""What the bot's messages showed at its last clean stop, so that the next start edits only what changed."""

from __future__ import annotations

from collections.abc import Iterable

from storage.db import Database

Shown = tuple[int, int, bytes, str]  # chat, message, the digest of its text and keyboard, its picture's key


class ShownRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def keep(self, shown: Iterable[Shown]) -> None:
        """At a clean stop: what every message known shows now, in place of any earlier record."""
        async with self.db.transaction():
            await self.db.execute("DELETE FROM shown_messages")
            await self.db.executemany(
                "INSERT OR REPLACE INTO shown_messages (chat_id, message_id, digest, picture) VALUES (?, ?, ?, ?)",
                shown,
            )

    async def take(self) -> list[Shown]:
        """At a start: the record of the last clean stop, removed as it is read (a crash later leaves none,
        so no message is ever taken to show what it no longer does)."""
        async with self.db.transaction():
            rows = await self.db.fetchall("SELECT chat_id, message_id, digest, picture FROM shown_messages")
            await self.db.execute("DELETE FROM shown_messages")
        return [(int(r["chat_id"]), int(r["message_id"]), bytes(r["digest"]), str(r["picture"])) for r in rows]
