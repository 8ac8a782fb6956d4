"""What the embedded server holds, and what every API area and the people's side use of it: users, chats,
messages and pictures, the update queue, the failures set up; ``snapshot`` and ``load`` keep it across a
restart."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import itertools
import random
import re
from collections import Counter, OrderedDict
from collections.abc import Collection
from dataclasses import asdict
from typing import Any
from urllib.parse import urlsplit

import PIL.Image
from aiohttp import web

from bot.clock import Clock
from playground.botapi.flood import FloodControl, Limits
from playground.botapi.spec import SpecChecker, check_html, find_spec, visible_length
from playground.botapi.world import (
    BOT_ID,
    BOT_USERNAME,
    MAX_CALLBACK_BYTES,
    MAX_TEXT,
    ApiError,
    Call,
    Chat,
    Listener,
    Message,
    Shown,
    Upload,
    User,
)

PHOTOS_LOOSE = 256  # pictures no message shows that are kept (``BotApiServer._loosen``)
ATTACHED = "_attached"  # where a method finds those parts among its parameters


class World:
    """The server's state and the helpers its API areas share."""

    def __init__(
        self,
        token: str = "123456:TEST-token",
        username: str = BOT_USERNAME,
        limits: Limits | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.clock = clock if clock is not None else Clock()  # of flood control, long polls, dates and delays
        self.checker = SpecChecker(find_spec())
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.messages: dict[tuple[int, int], Message] = {}
        self.photos: dict[str, bytes] = {}  # file id → the picture, as uploaded
        self._showing: Counter[str] = Counter()  # file id → the messages that show it
        self._loose: OrderedDict[str, None] = OrderedDict()  # pictures no message shows, the newest last
        self.photos_loose = PHOTOS_LOOSE  # how many of them are kept
        self._by_chat: dict[int, list[Message]] = {}
        self.calls: list[Call] = []
        self.shown: list[Shown] = []
        self.violations: list[str] = []
        self.answers: dict[str, dict[str, Any]] = {}
        self._answered: dict[str, asyncio.Event] = {}
        self.flood: dict[str, int] = {}  # method -> how many next calls get 429
        self.flood_control = FloodControl(limits) if limits is not None else None
        self.limited: list[str] = []  # every 429 that flood control answered: "method in chat: which limit"
        self.down = False  # Telegram unreachable: every request's connection drops, unanswered
        self.keep_per_chat: int | None = None  # the newest messages kept per chat (None: all, as the tests want)
        self.fail_rate = 0.0  # the share of requests to fail_methods answered 502 before they take effect
        self.fail_methods: Collection[str] = frozenset({"sendMessage", "editMessageText", "deleteMessage"})
        self.slow_rate = 0.0  # the share of requests to fail_methods answered slow_seconds late
        self.slow_seconds = 1.0
        self.hang_rate = 0.0  # the share of requests to fail_methods never taken, answered 504 after hang_seconds
        self.hang_seconds = 10.0
        self.fail_random = random.Random(16)
        self.failed: list[str] = []  # "method" of every request failed on purpose
        self.breaks: dict[str, list[str]] = {}  # method -> how each of its next calls fails (``fail_next``)
        self._next_message: dict[int, itertools.count[int]] = {}
        self._updates: list[dict[str, Any]] = []
        self._confirmed = 0
        self._new_update = asyncio.Condition()
        self.in_flight = 0
        self.runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0
        self.token = token
        self.username = username
        self.commands: dict[str, list[dict[str, str]]] = {}  # "<scope type>:<language>" -> the menu
        self.listeners: list[Listener] = []
        self.apps: dict[str, str] = {}  # the bot's Mini Apps by short name (BotFather's /newapp): their addresses
        self.pressed_by: dict[str, int] = {}  # callback query id -> the user who pressed
        self._last_update_id = 0
        self._last_callback_id = 0
        self.webhook: dict[str, str] | None = None  # url and secret_token, while a webhook is set
        self.webhook_refused: list[int] = []  # HTTP statuses of deliveries the bot's webhook refused (0: no answer)
        self._delivery: asyncio.Task[None] | None = None

    # --- the world --------------------------------------------------------------------------------------

    def add_user(self, user_id: int, name: str, language: str = "en") -> User:
        user = self.users[user_id] = User(user_id, name, language)
        self.chats.setdefault(user_id, Chat(user_id, "private", name))
        return user

    def add_group(self, chat_id: int, title: str, kind: str = "supergroup", admins: set[int] | None = None) -> Chat:
        chat = self.chats[chat_id] = Chat(chat_id, kind, title, admins or set())
        return chat

    def _store(self, message: Message) -> None:
        self.messages[(message.chat_id, message.message_id)] = message
        chat = self._by_chat.setdefault(message.chat_id, [])
        chat.append(message)
        if self.keep_per_chat is not None and len(chat) > self.keep_per_chat:
            for gone in chat[: len(chat) - self.keep_per_chat]:  # a chat's oldest messages, as a client scrolls
                del self.messages[(gone.chat_id, gone.message_id)]
                if gone.photo is not None and not gone.deleted:
                    self._unshow(gone.photo)
            del chat[: len(chat) - self.keep_per_chat]
        self._tell("new", message)

    def _tell(self, kind: str, subject: Any) -> None:
        for listener in self.listeners:
            listener(kind, subject)

    def snapshot(self) -> dict[str, Any]:
        """The world as JSON-ready data: users, chats, messages, the command menus and the update queue."""
        return {
            "users": [asdict(u) for u in self.users.values()],
            "chats": [{**asdict(c), "admins": sorted(c.admins)} for c in self.chats.values()],
            "messages": [asdict(m) for m in self.messages.values()],
            "photos": {file_id: base64.b64encode(content).decode() for file_id, content in self.photos.items()
                       if file_id in self._showing},  # a picture no message shows is not kept across a restart
            "commands": self.commands,
            "updates": self._updates,
            "confirmed": self._confirmed,
            "last_update_id": self._last_update_id,
            "last_callback_id": self._last_callback_id,
            "next_message": {str(chat): self._peek_message_id(chat) for chat in self._next_message},
        }

    def load(self, data: dict[str, Any]) -> None:
        """Restore a ``snapshot`` (before the bot starts polling)."""
        for user in data.get("users", []):
            self.users[user["user_id"]] = User(**user)
        for chat in data.get("chats", []):
            self.chats[chat["chat_id"]] = Chat(**{**chat, "admins": set(chat["admins"])})
        for raw in sorted(data.get("messages", []), key=lambda m: (m["chat_id"], m["message_id"])):
            message = Message(**raw)
            self.messages[(message.chat_id, message.message_id)] = message
            self._by_chat.setdefault(message.chat_id, []).append(message)
        self.photos.update({k: base64.b64decode(v) for k, v in data.get("photos", {}).items()})
        self._showing = Counter(m.photo for m in self.messages.values() if m.photo is not None and not m.deleted)
        self.commands = dict(data.get("commands", {}))
        self._updates = list(data.get("updates", []))
        self._confirmed = int(data.get("confirmed", 0))
        self._last_update_id = int(data.get("last_update_id", 0))
        self._last_callback_id = int(data.get("last_callback_id", 0))
        for chat, next_id in data.get("next_message", {}).items():
            self._next_message[int(chat)] = itertools.count(int(next_id))

    def _peek_message_id(self, chat_id: int) -> int:
        counter = self._next_message[chat_id]
        value = next(counter)
        self._next_message[chat_id] = itertools.count(value)
        return value

    def chat_messages(self, chat_id: int, include_deleted: bool = False) -> list[Message]:
        """The chat's messages in order (message ids grow)."""
        return [m for m in self._by_chat.get(chat_id, []) if include_deleted or not m.deleted]

    def bot_messages(self, chat_id: int) -> list[Message]:
        return [m for m in self.chat_messages(chat_id) if m.from_bot]

    def _message_id(self, chat_id: int) -> int:
        return next(self._next_message.setdefault(chat_id, itertools.count(1)))

    async def _push(self, update: dict[str, Any]) -> int:
        self._last_update_id += 1
        update_id = self._last_update_id
        update["update_id"] = update_id
        async with self._new_update:
            self._updates.append(update)
            self._new_update.notify_all()
        return update_id

    def bot_user(self) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Kozel", "username": self.username}

    def _chat(self, chat_id: Any) -> Chat:
        chat = self.chats.get(int(chat_id))
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.kind == "private":
            user = self.users[chat.chat_id]
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _check_text(self, params: dict[str, Any], limit: int = MAX_TEXT) -> None:
        if (params.get("parse_mode") or "").upper() == "HTML":
            check_html(params["text"])
        length = visible_length(params["text"], params.get("parse_mode"))
        if length == 0:
            raise ApiError(400, "Bad Request: message text is empty")
        if length > limit:
            raise ApiError(400, "Bad Request: message caption is too long" if limit < MAX_TEXT else
                           "Bad Request: message is too long")  # fmt: skip

    def _check_markup(self, markup: dict[str, Any] | None, chat_id: int) -> None:
        """An inline keyboard as Telegram takes it: callback data of 1-64 bytes, and a ``web_app`` button only
        in a private chat, to an HTTPS address (here also plain HTTP on this machine: the playground's own)."""
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK_BYTES:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                app = button.get("web_app")
                if app is None:
                    continue
                if self.chats[chat_id].kind != "private":
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                address = urlsplit(str(app.get("url", "")))
                local = address.scheme == "http" and address.hostname in ("127.0.0.1", "localhost")
                if not (address.scheme == "https" or local) or not address.netloc:
                    raise ApiError(400, f"Bad Request: inline keyboard button Web App URL '{app.get('url')}' is "
                                   "invalid: Only HTTPS links are allowed")  # fmt: skip

    def _own_message(self, params: dict[str, Any]) -> Message:
        chat = self._chat(params["chat_id"])
        message = self.messages.get((chat.chat_id, int(params["message_id"])))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message

    def _message_json(self, message: Message) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(message.date),
            "chat": self.chats[message.chat_id].to_dict(),
            "from": self.bot_user(),
        }
        if message.photo is not None:
            data["photo"] = self._photo_sizes(message.photo)
            if message.text:
                data["caption"] = re.sub(r"<[^>]+>", "", message.text)
        else:
            data["text"] = re.sub(r"<[^>]+>", "", message.text)
        if message.markup:
            data["reply_markup"] = message.markup
        return data

    def add_photo(self, content: bytes) -> str:
        """Keep an uploaded picture (a PNG or a JPEG, checked) and give it its file id."""
        try:
            with PIL.Image.open(io.BytesIO(content)) as image:
                image.verify()
                if image.format not in ("PNG", "JPEG"):
                    raise ValueError(image.format)
        except (OSError, ValueError, SyntaxError):
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
        file_id = f"photo-{hashlib.sha256(content).hexdigest()[:24]}"
        self.photos[file_id] = content
        if file_id not in self._showing:
            self._loosen(file_id)
        return file_id

    def _show(self, file_id: str) -> None:
        self._showing[file_id] += 1
        self._loose.pop(file_id, None)

    def _unshow(self, file_id: str) -> None:
        self._showing[file_id] -= 1
        if self._showing[file_id] <= 0:
            del self._showing[file_id]
            self._loosen(file_id)

    def _loosen(self, file_id: str) -> None:
        """Keep a picture no message shows, for a while (the bot may send it again by its file id, as Telegram
        allows for ever): the newest ``photos_loose`` of them, so that a long session's memory stays bounded."""
        self._loose[file_id] = None
        self._loose.move_to_end(file_id)
        while len(self._loose) > self.photos_loose:
            gone, _ = self._loose.popitem(last=False)
            self.photos.pop(gone, None)

    def uploads(self, since: int = 0) -> list[bytes]:
        """Every picture uploaded by the calls from ``self.calls[since]`` on, in order (a photo sent again by its
        file id is not one)."""
        found: list[bytes] = []
        for call in self.calls[since:]:
            if call.method == "sendPhoto" and isinstance(photo := call.params.get("photo"), Upload):
                found.append(photo.content)
            elif call.method == "editMessageMedia":
                found += list(call.params.get(ATTACHED, {}).values())
        return found

    def photo_size(self, file_id: str) -> tuple[int, int]:
        """A picture's width and height in pixels ((0, 0) for one no longer kept)."""
        content = self.photos.get(file_id)
        if content is None:
            return 0, 0
        with PIL.Image.open(io.BytesIO(content)) as image:
            width, height = image.size
        return width, height

    def _photo_sizes(self, file_id: str) -> list[dict[str, Any]]:
        content = self.photos[file_id]
        width, height = self.photo_size(file_id)
        unique = file_id.removeprefix("photo-")[:16]
        return [{"file_id": file_id, "file_unique_id": unique, "width": width, "height": height,
                 "file_size": len(content)}]  # fmt: skip
