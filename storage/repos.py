"""Repositories: the only SQL of the project, parameterised, with explicit column lists.

Each repository receives the ``Database``; ``Storage`` bundles them for the bot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from engine.clock import wall
from storage.db import NOW, Database
from storage.games import GameRepo, ResultRepo
from storage.models import (
    CHAT_COLUMNS,
    PLAYER_COLUMNS,
    ChatRow,
    ChatSettings,
    PlayerRow,
)
from storage.shown import ShownRepo

RATINGS_VERSION = 7  # the migration that brought ratings (0007_ratings.sql)


class ChatRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def ensure(self, chat_id: int, title: str, kind: str) -> ChatRow:
        """The chat, its title and kind as an update just showed them (only an update knows them); read only
        when they are stored as they are (so that a request that only reads needs no write)."""
        row = await self.get(chat_id)
        if row is not None and (row.title, row.kind) == (title, kind):
            return row
        await self.db.execute(
            f"INSERT INTO chats (chat_id, title, kind, created_at, updated_at) VALUES (?, ?, ?, {NOW}, {NOW}) "
            f"ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title, kind = excluded.kind, updated_at = {NOW} "
            "WHERE chats.title <> excluded.title OR chats.kind <> excluded.kind",
            (chat_id, title, kind),
        )
        row = await self.get(chat_id)
        assert row is not None
        return row

    async def known(self, chat_id: int) -> ChatRow:
        """The chat, added with no title if it is new; a stored title and kind are never touched."""
        await self.db.execute(
            f"INSERT INTO chats (chat_id, title, kind, created_at, updated_at) VALUES (?, '', 'group', {NOW}, {NOW}) "
            "ON CONFLICT (chat_id) DO NOTHING",
            (chat_id,),
        )
        row = await self.get(chat_id)
        assert row is not None
        return row

    async def get(self, chat_id: int) -> ChatRow | None:
        row = await self.db.fetchone(f"SELECT {CHAT_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,))
        return ChatRow.from_row(row) if row else None

    async def save_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self.db.execute(
            f"UPDATE chats SET settings = ?, updated_at = {NOW} WHERE chat_id = ?",
            (settings.model_dump_json(), chat_id),
        )

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its lobby, game, series and results follow the new id."""
        async with self.db.transaction():
            if await self.get(old_chat_id) is None:
                return
            if await self.get(new_chat_id) is None:
                await self.db.execute("UPDATE chats SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            else:
                for table in ("games", "results", "chat_id_history"):
                    await self.db.execute(
                        f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
                    )
                await self.db.execute(  # (one who asked in both keeps one row; the other goes with the old chat)
                    "UPDATE OR IGNORE notify_me SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
                )
                await self.db.execute(
                    "UPDATE chats SET settings = (SELECT settings FROM chats WHERE chat_id = ?) WHERE chat_id = ?",
                    (old_chat_id, new_chat_id),
                )
                await self.db.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
            await self.db.execute(
                f"INSERT OR REPLACE INTO chat_id_history (old_chat_id, chat_id, migrated_at) VALUES (?, ?, {NOW})",
                (old_chat_id, new_chat_id),
            )

    async def resolve(self, chat_id: int) -> int:
        """The current id of a chat that may have migrated."""
        row = await self.db.fetchone("SELECT chat_id FROM chat_id_history WHERE old_chat_id = ?", (chat_id,))
        return int(row["chat_id"]) if row else chat_id


class PlayerRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(
        self, user_id: int, name: str, username: str | None = None, language: str | None = None
    ) -> PlayerRow:
        await self.db.execute(
            "INSERT INTO players (user_id, name, username, language, created_at, updated_at) "
            f"VALUES (?, ?, ?, ?, {NOW}, {NOW}) "
            f"ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, username = excluded.username, "
            f"language = coalesce(excluded.language, players.language), updated_at = {NOW}",
            (user_id, name, username, language),
        )
        row = await self.get(user_id)
        assert row is not None
        return row

    async def get(self, user_id: int) -> PlayerRow | None:
        row = await self.db.fetchone(f"SELECT {PLAYER_COLUMNS} FROM players WHERE user_id = ?", (user_id,))
        return PlayerRow.from_row(row) if row else None

    async def many(self, user_ids: Sequence[int]) -> dict[int, PlayerRow]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE user_id IN ({marks})", list(user_ids)
        )
        return {r["user_id"]: PlayerRow.from_row(r) for r in rows}

    async def set_can_message(self, user_id: int, value: bool) -> None:
        await self.db.execute(
            f"UPDATE players SET can_message = ?, updated_at = {NOW} WHERE user_id = ?", (int(value), user_id)
        )

    async def set_language(self, user_id: int, language: str | None) -> None:
        await self.db.execute(
            f"UPDATE players SET chosen_language = ?, updated_at = {NOW} WHERE user_id = ?",
            (language, user_id),
        )


class NoticeRepo:
    """Who wants to hear, in private, that a game opens in a chat (/notify_me)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def toggle(self, chat_id: int, user_id: int) -> bool:
        """Turn the person's notices of the chat on, or off if they were on; returns whether they are on."""
        async with self.db.transaction():
            if await self.db.execute("DELETE FROM notify_me WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)):
                return False
            await self.db.execute(
                f"INSERT INTO notify_me (chat_id, user_id, since) VALUES (?, ?, {NOW})", (chat_id, user_id)
            )
            return True

    async def subscribers(self, chat_id: int) -> list[PlayerRow]:
        """The people to tell of a game opening in the chat (those the bot can write to)."""
        columns = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = await self.db.fetchall(
            f"SELECT {columns} FROM notify_me n JOIN players p ON p.user_id = n.user_id "
            "WHERE n.chat_id = ? AND p.can_message ORDER BY n.since, p.user_id",
            (chat_id,),
        )
        return [PlayerRow.from_row(r) for r in rows]

    async def drop(self, user_id: int, chat_id: int | None = None) -> None:
        """No more notices for the person: of one chat (he left it), or of every chat (he blocked the bot)."""
        if chat_id is None:
            await self.db.execute("DELETE FROM notify_me WHERE user_id = ?", (user_id,))
        else:
            await self.db.execute("DELETE FROM notify_me WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))


class UpdateRepo:
    """Updates already handled, so one redelivered after a crash is not applied twice."""

    KEEP = 50_000

    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is seen (within the current transaction, if any)."""
        changed = await self.db.execute(
            f"INSERT OR IGNORE INTO processed_updates (update_id, processed_at) VALUES (?, {NOW})", (update_id,)
        )
        return changed == 1

    async def prune(self) -> None:
        await self.db.execute(
            "DELETE FROM processed_updates WHERE update_id < (SELECT max(update_id) FROM processed_updates) - ?",
            (self.KEEP,),
        )


class Storage:
    """The database and its repositories, opened once per process."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.chats = ChatRepo(db)
        self.players = PlayerRepo(db)
        self.games = GameRepo(db)
        self.results = ResultRepo(db)
        self.ratings = self.games.ratings
        self.notices = NoticeRepo(db)
        self.updates = UpdateRepo(db)
        self.shown = ShownRepo(db)

    @classmethod
    async def open(cls, path: str | Path, now: Callable[[], float] = wall, catch_up: bool = True) -> Storage:
        """``now``: the wall clock of the times that the bot reads back (a move's, a game's start);
        ``catch_up``: rate the series of a database just migrated to ratings (RatingRepo.catch_up)."""
        storage = cls(await Database.open(path, now))
        if catch_up:
            await storage.ratings.catch_up()
        return storage

    async def close(self) -> None:
        await self.db.close()
