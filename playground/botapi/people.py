"""What people do, as the server tells the bot: they write, press buttons, leave, are promoted; and the
wait until the bot has taken it all in."""

from __future__ import annotations

import asyncio
from typing import Any

from playground.botapi.state import World
from playground.botapi.world import Message


class People(World):
    """The people's side of the server."""

    async def send_text(self, user_id: int, chat_id: int, text: str, reply_to: Message | None = None) -> int:
        """A person writes in a chat (a command gets its bot_command entity), possibly as a reply."""
        user, chat = self.users[user_id], self.chats[chat_id]
        if chat.kind == "private":
            user.started = True
            user.blocked = False
        message_id = self._message_id(chat_id)
        replied = reply_to.message_id if reply_to is not None else None
        now = self.clock.now()
        self._store(Message(chat_id, message_id, text, None, False, now, from_user=user_id, reply_to=replied))
        payload: dict[str, Any] = {
            "message_id": message_id,
            "date": int(self.clock.now()),
            "chat": chat.to_dict(),
            "from": user.to_dict(),
            "text": text,
        }
        if text.startswith("/"):
            payload["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split(maxsplit=1)[0])}]
        if reply_to is not None:
            author = self.users[reply_to.from_user].to_dict() if reply_to.from_user else self.bot_user()
            payload["reply_to_message"] = {
                "message_id": reply_to.message_id,
                "date": int(reply_to.date),
                "chat": chat.to_dict(),
                "from": author,
                "text": reply_to.text,
            }
        return await self._push({"message": payload})

    async def left_message(self, chat_id: int, member: int | None) -> int:
        """The service message "X left the group" (``member`` None: the bot was removed)."""
        chat = self.chats[chat_id]
        who = self.bot_user() if member is None else self.users[member].to_dict()
        payload = {
            "message_id": self._message_id(chat_id),
            "date": int(self.clock.now()),
            "chat": chat.to_dict(),
            "from": who,
            "left_chat_member": who,
        }
        return await self._push({"message": payload})

    async def member_changed(self, chat_id: int, member: int | None, status: str, by: int) -> int:
        """A chat member's status changes: ``member`` None is the bot itself (my_chat_member), e.g. removed
        from a group ("left") or blocked by a user in his private chat ("kicked")."""
        chat = self.chats[chat_id]
        who = self.bot_user() if member is None else self.users[member].to_dict()
        new: dict[str, Any] = {"status": status, "user": who}
        if status == "kicked":
            new["until_date"] = 0
        if member is None and chat.kind == "private":
            self.users[chat_id].blocked = status == "kicked"
        body = {
            "chat": chat.to_dict(),
            "from": self.users[by].to_dict(),
            "date": int(self.clock.now()),
            "old_chat_member": {"status": "member", "user": who},
            "new_chat_member": new,
        }
        return await self._push({"my_chat_member" if member is None else "chat_member": body})

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> int:
        old = self.chats[old_chat_id]
        self.add_group(new_chat_id, old.title, "supergroup", set(old.admins))
        payload = {
            "message_id": self._message_id(old_chat_id),
            "date": int(self.clock.now()),
            "chat": old.to_dict(),
            "migrate_to_chat_id": new_chat_id,
        }
        return await self._push({"message": payload})

    async def press(self, user_id: int, message: Message, data: str) -> str:
        """A person taps an inline button; returns the callback query id (its answer lands in ``answers``)."""
        self._last_callback_id += 1
        query_id = str(self._last_callback_id)
        self.pressed_by[query_id] = user_id
        chat = self.chats[message.chat_id]
        await self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": self.users[user_id].to_dict(),
                    "chat_instance": str(message.chat_id),
                    "data": data,
                    "message": {
                        "message_id": message.message_id,
                        "date": int(message.date),
                        "chat": chat.to_dict(),
                        "from": self.bot_user(),
                        "text": message.text,
                    },
                }
            }
        )
        return query_id

    async def answer_of(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        event = self._answered.setdefault(query_id, asyncio.Event())
        try:
            await self.clock.wait_for(event.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"callback query {query_id} was never answered") from None
        return self.answers[query_id]

    async def settled(self, timeout: float = 15.0) -> None:
        """Wait until every queued update was fetched and no request is being handled."""
        deadline = self.clock.monotonic() + timeout
        quiet_since: float | None = None
        while True:
            now = self.clock.monotonic()
            busy = any(u["update_id"] > self._confirmed for u in self._updates) or self.in_flight > 0
            if busy:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since > 0.015:
                return
            if now > deadline:
                raise TimeoutError("the bot did not settle")
            await self.clock.sleep(0.005)
