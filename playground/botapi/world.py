"""The embedded server's world: who is there, what was said and pressed, and how a request can fail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BOT_ID = 7_000_000


BOT_USERNAME = "kozel_test_bot"


MAX_CALLBACK_BYTES = 64


MAX_TEXT = 4096


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


Listener = Callable[[str, Any], None]  # ("new" | "edit" | "delete", Message) or ("answer", (query id, params))
