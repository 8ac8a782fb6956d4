"""The API area of texts: messages sent, edited and deleted, callback answers, chat members."""

from __future__ import annotations

import asyncio
from typing import Any

from playground.botapi.spec import visible_length
from playground.botapi.state import World
from playground.botapi.world import ApiError, Message, Shown


class Messages(World):
    """sendMessage, editMessageText, deleteMessage, answerCallbackQuery, getChatMember."""

    async def m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params["chat_id"])
        self._check_text(params)
        self._check_markup(params.get("reply_markup"), chat.chat_id)
        message_id = self._message_id(chat.chat_id)
        message = Message(
            chat.chat_id, message_id, params["text"], params.get("reply_markup"), True, self.clock.now(),
            notify=not params.get("disable_notification", False),
        )  # fmt: skip
        self._store(message)
        shown = Shown(chat.chat_id, message_id, message.text, message.markup, self.clock.now(), "sendMessage")
        self.shown.append(shown)
        return self._message_json(message)

    async def m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        self._check_text(params)
        self._check_markup(params.get("reply_markup"), message.chat_id)
        markup = params.get("reply_markup")
        if markup == {"inline_keyboard": []}:
            markup = None
        if message.text == params["text"] and message.markup == markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message",
            )
        message.text = params["text"]
        message.markup = markup
        message.edits += 1
        self._tell("edit", message)
        self.shown.append(
            Shown(message.chat_id, message.message_id, message.text, markup, self.clock.now(), "editMessageText")
        )
        return self._message_json(message)

    async def m_deleteMessage(self, params: dict[str, Any]) -> bool:
        chat = self._chat(params["chat_id"])
        message = self.messages.get((chat.chat_id, int(params["message_id"])))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        message.deleted = True
        if message.photo is not None:
            self._unshow(message.photo)
        self._tell("delete", message)
        return True

    async def m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = params["callback_query_id"]
        if query_id in self.answers:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        if visible_length(params.get("text", ""), None) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[query_id] = params
        self._answered.setdefault(query_id, asyncio.Event()).set()
        self._tell("answer", (query_id, params))
        return True

    async def m_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params["chat_id"])
        user = self.users.get(params["user_id"])
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        status = "administrator" if user.user_id in chat.admins else "member"
        data: dict[str, Any] = {"status": status, "user": user.to_dict()}
        if status == "administrator":
            data.update(
                can_be_edited=False, is_anonymous=False, can_manage_chat=True, can_delete_messages=True,
                can_manage_video_chats=True, can_restrict_members=True, can_promote_members=False,
                can_change_info=True, can_invite_users=True, can_post_stories=False, can_edit_stories=False,
                can_delete_stories=False,
            )  # fmt: skip
        return data
