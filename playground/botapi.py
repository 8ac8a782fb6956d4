"""An embedded Telegram Bot API server on localhost (aiohttp): the playground's and the tests' Telegram.

It implements the methods the bot uses with Telegram's JSON shapes and limits, and checks every request
against the official description pinned in ``playground/api.json``: an unknown method, an unknown or
missing parameter, or a value of the wrong type fails the request with 400, as Telegram would refuse it —
and is recorded in ``violations`` so a test can fail on it.

People act through it: ``send_text`` and ``press`` put updates in the queue that the bot reads with long
polling; every chat's messages (and their edits) are kept, for the playground's page and for assertions.
Listeners (``listeners``) hear of every new, edited or deleted message and every callback answer; the
state round-trips through ``snapshot``/``load`` so the playground's chats survive a restart.

Flood control (``limits``, a ``Limits``; None: off) answers 429 with ``parameters.retry_after`` past
Telegram's limits, and records each such answer in ``limited``. The model, in Telegram's own time (``Limits.
scaled`` runs it faster, as the tests run the group pacing faster):

- overall: 30 requests a second per bot token, as a bucket of 30 refilled at 30 a second (so a burst of a
  second's worth is taken at once); ``getUpdates`` and ``answerCallbackQuery`` are not counted;
- a group: 20 new messages (``sendMessage``, ``sendPhoto``) in any 60 seconds, a sliding window (edits of a
  group's messages count only overall: the bot edits one table message in place);
- a private chat: one new message a second after a burst of 3 (a bucket of 3 refilled at one a second);
- edits in a private chat: Telegram tolerates a quick run of edits of the same message (a hand changing
  after each card), so they have a bucket of their own per chat: 20 at once, refilled at 2 a second; a
  bot that edits a message more than about twice a second for longer than ten seconds is refused.

A window is forgiven ``slack`` of its length (network delay between the bot's clock and the server's).
Failure injection: ``fail_rate`` of the requests to ``fail_methods`` are answered 502 before they take effect
(drawn from ``fail_random``, seedable), and recorded in ``failed``, as Telegram's bad moments would be.
Any method may be named there (``ALL_METHODS``: every one, getUpdates and answerCallbackQuery included).
Besides, ``slow_rate`` of them are answered ``slow_seconds`` late (they take effect when answered: a delay
longer than the client's timeout is a timeout after Telegram took the request), and ``hang_rate`` of them
are never taken: after ``hang_seconds`` (longer than the client waits, a timeout) they are answered 504.
Each is recorded in ``failed`` as "method: 502 | slow | hang".  ``fail_next`` fails a chosen method's next calls
for certain: answered 500, or with the connection dropped (a network error); recorded as "method: 500 | network".
While ``down``, every request's connection drops, as when Telegram cannot be reached ("method: down").
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import html
import io
import itertools
import json
import math
import os
import random
import re
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import PIL.Image
from aiohttp import web

from bot.clock import Clock

SPEC_PATH = Path(__file__).resolve().parent / "api.json"
BOT_ID = 7_000_000
BOT_USERNAME = "kozel_test_bot"
MAX_CALLBACK_BYTES = 64
MAX_TEXT = 4096


def find_spec() -> dict[str, Any]:
    """The Bot API description: ``$BOT_API_SPEC`` when set, else the copy pinned in this package."""
    path = Path(os.environ.get("BOT_API_SPEC") or SPEC_PATH)
    return json.loads(path.read_text("utf-8"))  # type: ignore[no-any-return]


class DroppedConnection(Exception):
    """A request the server answers with nothing: the connection closes (a network error at the client)."""


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after


@dataclass
class Message:
    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    from_bot: bool
    date: float
    edits: int = 0
    deleted: bool = False
    notify: bool = False
    from_user: int | None = None  # the person who wrote it (None: the bot)
    reply_to: int | None = None  # the message it answers, in the same chat
    photo: str | None = None  # the file id of its picture (its text is then the caption)

    def buttons(self) -> list[dict[str, Any]]:
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]


@dataclass(frozen=True)
class Shown:
    """One text a chat was shown: a new message or an edit, in order."""

    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    at: float
    method: str

    def buttons(self) -> list[dict[str, Any]]:
        return [b for row in (self.markup or {}).get("inline_keyboard", []) for b in row]


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float
    error: str | None = None


@dataclass
class User:
    user_id: int
    first_name: str
    language_code: str = "en"
    started: bool = False
    blocked: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.user_id, "is_bot": False, "first_name": self.first_name, "language_code": self.language_code}


@dataclass
class Chat:
    chat_id: int
    kind: str
    title: str = ""
    admins: set[int] = field(default_factory=set)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.chat_id, "type": self.kind}
        if self.kind == "private":
            data["first_name"] = self.title
        else:
            data["title"] = self.title
        return data


@dataclass(frozen=True)
class Upload:
    """A file sent in a multipart request."""

    content: bytes


NEW_MESSAGES = frozenset({"sendMessage", "sendPhoto"})  # what flood control counts as a new message
PHOTOS_LOOSE = 256  # pictures no message shows that are kept (``BotApiServer._loosen``)
ATTACH = "attach://{}"  # a file part named in a JSON value (InputMedia.media) rather than sent as a parameter
ATTACHED = "_attached"  # where a method finds those parts among its parameters


class SpecChecker:
    """Checks request parameters against api.json: names, presence and types, recursively."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.methods = {name.lower(): m for name, m in spec["methods"].items()}
        self.types = spec["types"]

    def method(self, name: str) -> dict[str, Any]:
        method = self.methods.get(name.lower())
        if method is None:
            raise ApiError(404, "Not Found: method not found")
        return dict(method)

    def decode(
        self, method: dict[str, Any], raw: dict[str, str], files: dict[str, bytes] | None = None
    ) -> dict[str, Any]:
        """The parameters as values; ``files``: the parts of a multipart upload, each taken where the
        description allows an InputFile."""
        fields = {f["name"]: f for f in method.get("fields", [])}
        params: dict[str, Any] = {}
        for name, content in (files or {}).items():
            spec = fields.get(name)
            if spec is None or "InputFile" not in spec["types"]:
                raise ApiError(400, f"Bad Request: unknown parameter {name!r} of {method['name']} (a file)")
            params[name] = Upload(content)
        for name, value in raw.items():
            spec = fields.get(name)
            if spec is None:
                raise ApiError(400, f"Bad Request: unknown parameter {name!r} of {method['name']}")
            params[name] = self.decode_value(value, spec["types"], f"{method['name']}.{name}")
        for name, spec in fields.items():
            if spec["required"] and name not in params:
                raise ApiError(400, f"Bad Request: parameter {name!r} of {method['name']} is required")
        return params

    def decode_value(self, raw: str, types: list[str], where: str) -> Any:
        if types == ["String"]:
            return raw
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            if "String" in types:
                return raw
            raise ApiError(400, f"Bad Request: {where} is not valid JSON: {raw[:40]!r}") from None
        if "String" in types and not isinstance(value, str) and not any(self.matches(value, t) for t in types):
            return raw
        if not any(self.matches(value, t) for t in types):
            raise ApiError(400, f"Bad Request: {where} has the wrong type for {types}: {raw[:60]!r}")
        return value

    def matches(self, value: Any, type_name: str) -> bool:
        if type_name.startswith("Array of "):
            inner = type_name.removeprefix("Array of ")
            return isinstance(value, list) and all(self.matches(v, inner) for v in value)
        if type_name == "Integer":
            return isinstance(value, int) and not isinstance(value, bool)
        if type_name == "Float":
            return isinstance(value, int | float) and not isinstance(value, bool)
        if type_name == "Boolean":
            return isinstance(value, bool)
        if type_name == "String":
            return isinstance(value, str)
        if type_name == "InputFile":
            return False
        spec = self.types.get(type_name)
        if spec is None or not isinstance(value, dict):
            return False
        if "subtypes" in spec:
            return any(self.matches(value, sub) for sub in spec["subtypes"])
        fields = {f["name"]: f for f in spec.get("fields", [])}
        if any(key not in fields for key in value):
            return False
        if any(f["required"] and name not in value for name, f in fields.items()):
            return False
        return all(any(self.matches(v, t) for t in fields[k]["types"]) for k, v in value.items())


_HTML_TAG = re.compile(r"</?(b|strong|i|em|u|ins|s|strike|del|code|pre|a|tg-spoiler|span|blockquote)(\s[^>]*)?>")
_HTML_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


def check_html(text: str) -> None:
    """Telegram's HTML mode: only its tags, and every other <, > and & written as an entity."""
    rest = _HTML_ENTITY.sub("", _HTML_TAG.sub("", text))
    for char in "<>&":
        if char in rest:
            raise ApiError(400, f"Bad Request: can't parse entities: unexpected {char!r} in {text[:60]!r}")


def visible_length(text: str, parse_mode: str | None) -> int:
    """A text's length as Telegram checks it against a limit: after its entities are parsed, in UTF-16 code
    units."""
    if parse_mode and parse_mode.upper() == "HTML":
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return len(text.encode("utf-16-le")) // 2


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


Listener = Callable[[str, Any], None]  # ("new" | "edit" | "delete", Message) or ("answer", (query id, params))


class BotApiServer:
    """The server and the world it holds: users, chats, messages, updates."""

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
        self.pressed_by: dict[str, int] = {}  # callback query id -> the user who pressed
        self._last_update_id = 0
        self._last_callback_id = 0
        self.webhook: dict[str, str] | None = None  # url and secret_token, while a webhook is set
        self.webhook_refused: list[int] = []  # HTTP statuses of deliveries the bot's webhook refused (0: no answer)
        self._delivery: asyncio.Task[None] | None = None

    # --- lifecycle --------------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        self.host = host
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server) and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self.webhook = None
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
        async with self._new_update:
            self._new_update.notify_all()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/bot"

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

    # --- persistence (the playground keeps its chats across restarts) ------------------------------------

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

    def bot_user(self) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Kozel", "username": self.username}

    # --- HTTP -------------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.Response:
        raw: dict[str, str] = {}
        files: dict[str, bytes] = {}
        if request.can_read_body:
            if request.content_type == "application/json":
                raw = {k: v if isinstance(v, str) else json.dumps(v) for k, v in (await request.json()).items()}
            else:
                for k, v in (await request.post()).items():
                    if isinstance(v, web.FileField):
                        files[k] = v.file.read()
                    else:
                        raw[k] = str(v)
        raw.update(request.query)
        try:
            status, body = await self.call(request.match_info["token"], request.match_info["method"], raw, files)
        except DroppedConnection:
            if request.transport is not None:
                request.transport.abort()  # the connection drops with no answer
            raise
        return web.json_response(body, status=status)

    async def call(
        self, token: str, method_name: str, raw: dict[str, str], files: dict[str, bytes] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """One Bot API request, its parameters as sent (form fields, JSON values as text; ``files``, the
        uploaded parts): the HTTP status and the JSON body of the answer; raises ``DroppedConnection`` for a
        request answered with nothing."""
        long_poll = method_name.lower() == "getupdates"
        if not long_poll:
            self.in_flight += 1
        call = Call(method_name, dict(raw), self.clock.now())
        self.calls.append(call)
        try:
            if self.down:
                self.failed.append(f"{method_name}: down")
                raise DroppedConnection(method_name)
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            spec = self.checker.method(method_name)
            files = dict(files or {})
            named = [name for name in files if any(ATTACH.format(name) in value for value in raw.values())]
            attached = {name: files.pop(name) for name in named}
            params = self.checker.decode(spec, raw, files)
            if attached:
                params[ATTACHED] = attached
            call.params = params
            if breaks := self.breaks.get(spec["name"]):
                how = breaks.pop(0)
                self.failed.append(f"{spec['name']}: {how}")
                if how == "network":
                    raise DroppedConnection(spec["name"])
                raise ApiError(500, "Internal Server Error")
            remaining = self.flood.get(spec["name"], 0)
            if remaining:
                self.flood[spec["name"]] = remaining - 1
                raise ApiError(429, "Too Many Requests: retry after 1", retry_after=1)
            if self.fail_methods is ALL_METHODS or spec["name"] in self.fail_methods:
                await self._bad_moment(spec["name"])
            if self.flood_control is not None:
                try:
                    self.flood_control.check(spec["name"], params, self.clock.monotonic())
                except ApiError as exc:
                    self.limited.append(f"{spec['name']} in {params.get('chat_id')}: {exc.description}")
                    raise
            result = await getattr(self, "m_" + spec["name"])(params)
            if self.down:  # it went down meanwhile (a long poll): the answer is lost on its way
                self.failed.append(f"{method_name}: down")
                raise DroppedConnection(method_name)
            return 200, {"ok": True, "result": result}
        except ApiError as exc:
            call.error = exc.description
            if exc.code == 400 and (
                "unknown parameter" in exc.description
                or "wrong type" in exc.description
                or "is required" in exc.description
                or "not valid JSON" in exc.description
            ):
                self.violations.append(f"{method_name}: {exc.description}")
            if exc.code == 404:
                self.violations.append(f"{method_name}: unknown method")
            body: dict[str, Any] = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.retry_after is not None:
                body["parameters"] = {"retry_after": exc.retry_after}
            return exc.code, body
        finally:
            if not long_poll:
                self.in_flight -= 1

    def fail_next(self, method: str, times: int = 1, how: str = "500") -> None:
        """The next ``times`` calls of ``method`` fail before they take effect: answered 500 (``how="500"``), or
        with the connection dropped and no answer at all (``how="network"``)."""
        assert how in ("500", "network"), how
        self.breaks.setdefault(method, []).extend([how] * times)

    async def _bad_moment(self, method: str) -> None:
        """Fail, hang or slow down this request, as configured (see the module's description)."""
        draw = self.fail_random.random()
        if draw < self.fail_rate:
            self.failed.append(method)
            raise ApiError(502, "Bad Gateway")
        draw -= self.fail_rate
        if draw < self.hang_rate:
            self.failed.append(f"{method}: hang")
            await self.clock.sleep(self.hang_seconds)
            raise ApiError(504, "Gateway Timeout")
        draw -= self.hang_rate
        if draw < self.slow_rate:
            self.failed.append(f"{method}: slow")
            await self.clock.sleep(self.slow_seconds)

    # --- methods ----------------------------------------------------------------------------------------

    async def m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {**self.bot_user(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}  # fmt: skip

    async def m_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._drop_pending()
        return True

    async def m_setWebhook(self, params: dict[str, Any]) -> bool:
        """Telegram posts each update to the URL, one at a time and in order, with the secret token in the
        ``X-Telegram-Bot-Api-Secret-Token`` header, and posts it again until the webhook answers 2xx.
        Telegram wants HTTPS; this server also takes plain HTTP to the loopback, where its tests run."""
        url = params["url"]
        if not url:
            return await self.m_deleteWebhook(params)
        parts = urlsplit(url)
        if parts.scheme != "https" and not (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token") or ""
        if secret and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._drop_pending()
        self.webhook = {"url": url, "secret_token": secret}
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.create_task(self._deliver())
        async with self._new_update:
            self._new_update.notify_all()
        return True

    async def m_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:
        pending = sum(1 for u in self._updates if u["update_id"] > self._confirmed)
        url = self.webhook["url"] if self.webhook else ""
        return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}

    def _drop_pending(self) -> None:
        self._confirmed = self._last_update_id
        self._updates.clear()

    async def _deliver(self) -> None:
        """The webhook's delivery loop: the oldest unconfirmed update, until it is taken."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            while self.webhook is not None:
                pending = [u for u in self._updates if u["update_id"] > self._confirmed]
                if not pending:
                    async with self._new_update:
                        with contextlib.suppress(TimeoutError):
                            await self.clock.wait_for(self._new_update.wait(), 0.5)
                    continue
                update, hook = pending[0], self.webhook
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook["secret_token"]} if hook["secret_token"] else {}
                self.in_flight += 1
                try:
                    async with session.post(hook["url"], json=update, headers=headers) as response:
                        status = response.status
                except (aiohttp.ClientError, TimeoutError):
                    status = 0
                finally:
                    self.in_flight -= 1
                if 200 <= status < 300:
                    self._confirmed = max(self._confirmed, update["update_id"])
                    self._updates = [u for u in self._updates if u["update_id"] > self._confirmed]
                else:
                    self.webhook_refused.append(status)
                    await self.clock.sleep(0.2)  # Telegram backs off before it posts the update again

    async def m_setMyCommands(self, params: dict[str, Any]) -> bool:
        for command in params["commands"]:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", command["command"]) or not 1 <= len(command["description"]) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        scope = (params.get("scope") or {}).get("type", "default")
        self.commands[f"{scope}:{params.get('language_code', '')}"] = list(params["commands"])
        self._tell("commands", None)
        return True

    async def m_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook "
                           "to delete the webhook first")  # fmt: skip
        offset = params.get("offset", 0)
        if offset:
            self._confirmed = max(self._confirmed, offset - 1)
            while self._updates and self._updates[0]["update_id"] < offset:
                self._updates.pop(0)  # confirmed: Telegram forgets them
        timeout = min(float(params.get("timeout", 0)), 5.0)
        deadline = self.clock.monotonic() + timeout
        async with self._new_update:
            while True:
                pending = [u for u in self._updates if u["update_id"] >= max(offset, 1)]
                if pending or self.clock.monotonic() >= deadline:
                    return pending[: params.get("limit", 100)]
                with contextlib.suppress(TimeoutError):
                    await self.clock.wait_for(self._new_update.wait(), deadline - self.clock.monotonic())

    def _check_text(self, params: dict[str, Any], limit: int = MAX_TEXT) -> None:
        if (params.get("parse_mode") or "").upper() == "HTML":
            check_html(params["text"])
        length = visible_length(params["text"], params.get("parse_mode"))
        if length == 0:
            raise ApiError(400, "Bad Request: message text is empty")
        if length > limit:
            raise ApiError(400, "Bad Request: message caption is too long" if limit < MAX_TEXT else
                           "Bad Request: message is too long")  # fmt: skip

    def _check_markup(self, markup: dict[str, Any] | None) -> None:
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK_BYTES:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")

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

    async def m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params["chat_id"])
        self._check_text(params)
        self._check_markup(params.get("reply_markup"))
        message_id = self._message_id(chat.chat_id)
        message = Message(
            chat.chat_id, message_id, params["text"], params.get("reply_markup"), True, self.clock.now(),
            notify=not params.get("disable_notification", False),
        )  # fmt: skip
        self._store(message)
        shown = Shown(chat.chat_id, message_id, message.text, message.markup, self.clock.now(), "sendMessage")
        self.shown.append(shown)
        return self._message_json(message)

    async def m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params["chat_id"])
        caption = self._caption(params)
        self._check_markup(params.get("reply_markup"))
        photo = params["photo"]
        if isinstance(photo, Upload):
            file_id = self.add_photo(photo.content)
        elif photo in self.photos:
            file_id = photo
        else:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        message_id = self._message_id(chat.chat_id)
        message = Message(
            chat.chat_id, message_id, caption, params.get("reply_markup"), True, self.clock.now(),
            notify=not params.get("disable_notification", False), photo=file_id,
        )  # fmt: skip
        self._show(file_id)
        self._store(message)
        self.shown.append(Shown(chat.chat_id, message_id, caption, message.markup, self.clock.now(), "sendPhoto"))
        return self._message_json(message)

    def _photo_of(self, media: str, params: dict[str, Any]) -> str:
        """The file id of a photo given as an uploaded part ("attach://<name>"), or as a file id sent before."""
        if media.startswith("attach://"):
            content = params.get(ATTACHED, {}).get(media.removeprefix("attach://"))
            if content is None:
                raise ApiError(400, f"Bad Request: the file part {media!r} was not sent")
            return self.add_photo(content)
        if media not in self.photos:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        return media

    def _caption(self, fields: dict[str, Any]) -> str:
        """A photo's caption (from a method's parameters or an InputMediaPhoto), checked as a text of 1,024."""
        caption = str(fields.get("caption", ""))
        if caption:
            self._check_text({"text": caption, "parse_mode": fields.get("parse_mode")}, limit=1024)
        return caption

    def _edited(self, message: Message, method: str, photo: str, caption: str, markup: dict[str, Any] | None) -> None:
        """A photo message now shows ``photo`` under ``caption`` (an empty keyboard is none)."""
        markup = None if not markup or markup == {"inline_keyboard": []} else markup
        if (message.photo, message.text, message.markup) == (photo, caption, markup):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message",
            )
        if photo != message.photo:
            self._show(photo)
            if message.photo is not None:
                self._unshow(message.photo)
        message.photo, message.text, message.markup = photo, caption, markup
        message.edits += 1
        self._tell("edit", message)
        self.shown.append(Shown(message.chat_id, message.message_id, caption, markup, self.clock.now(), method))

    async def m_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:
        """A photo message's picture (and caption: one left out is removed, as Telegram does) replaced."""
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        media = params["media"]
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: only photos can be sent to this server")
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        caption = self._caption(media)
        self._check_markup(params.get("reply_markup"))
        photo = self._photo_of(media["media"], params)
        self._edited(message, "editMessageMedia", photo, caption, params.get("reply_markup"))
        return self._message_json(message)

    async def m_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = self._caption(params)
        self._check_markup(params.get("reply_markup"))
        self._edited(message, "editMessageCaption", message.photo, caption, params.get("reply_markup"))
        return self._message_json(message)

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
        allows for ever): the newest ``PHOTOS_LOOSE`` of them, so that a long session's memory stays bounded."""
        self._loose[file_id] = None
        self._loose.move_to_end(file_id)
        while len(self._loose) > PHOTOS_LOOSE:
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

    def _own_message(self, params: dict[str, Any]) -> Message:
        chat = self._chat(params["chat_id"])
        message = self.messages.get((chat.chat_id, int(params["message_id"])))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message

    async def m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        self._check_text(params)
        self._check_markup(params.get("reply_markup"))
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
