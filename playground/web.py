"""The playground's web page: one group chat and each person's private chat with the bot, live.

A browser tab signs in with a name (``/api/login``), reads its two chats as server-sent events
(``/api/events``: a snapshot, then every new, edited or deleted message), writes as that person
(``/api/send``), presses inline buttons (``/api/press``, answered with the bot's callback answer) and can
start a game against computer players in one request (``/api/quickstart``). The chats live in the
``BotApiServer``; ``StateFile`` keeps them in a JSON file across restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.clock import Handle
from engine.registry import default_variant_name, variant_names
from playground.botapi import ApiError, BotApiServer, Message

STATIC = Path(__file__).resolve().parent / "static"
GROUP_ID = -1_000_000_001
GROUP_TITLE = "Kozel playground"
FIRST_USER_ID = 1001
LANGUAGES = ("en", "ru", "cs")
HEARTBEAT_SECONDS = 15.0


class StateFile:
    """The server's world in a JSON file, written atomically, at most every ``delay`` seconds."""

    def __init__(self, path: Path, server: BotApiServer, delay: float = 0.5) -> None:
        self.path = path
        self.server = server
        self.delay = delay
        self._pending: Handle | None = None

    def load(self) -> bool:
        if not self.path.exists():
            return False
        self.server.load(json.loads(self.path.read_text("utf-8")))
        return True

    def touch(self) -> None:
        if self._pending is None:
            self._pending = self.server.clock.call_later(self.delay, self.save)

    def save(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(self.server.snapshot(), ensure_ascii=False), "utf-8")
        os.replace(temporary, self.path)


def message_json(server: BotApiServer, message: Message) -> dict[str, Any]:
    rows = (message.markup or {}).get("inline_keyboard", [])
    author = None
    if message.from_user is not None and message.from_user in server.users:
        author = server.users[message.from_user].first_name
    return {
        "chat": message.chat_id,
        "id": message.message_id,
        "text": message.text,
        "from_bot": message.from_bot,
        "from_user": message.from_user,
        "author": author,
        "date": message.date,
        "edited": message.edits > 0,
        "deleted": message.deleted,
        "photo": f"/photo/{message.photo}" if message.photo else None,
        "photo_size": server.photo_size(message.photo) if message.photo else None,
        "reply_to": quoted(server, message),
        "buttons": [[button_json(b) for b in row] for row in rows],
    }


def button_json(button: dict[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {"text": button["text"]}
    shown.update({key: button[key] for key in ("callback_data", "url") if key in button})
    if "web_app" in button:
        shown["web_app"] = button["web_app"]["url"]
    return shown


def quoted(server: BotApiServer, message: Message) -> dict[str, Any] | None:
    """What a reply shows of the message it answers: its author and the start of its text."""
    original = server.messages.get((message.chat_id, message.reply_to)) if message.reply_to else None
    if original is None:
        return None
    author = server.users[original.from_user].first_name if original.from_user in server.users else server.username
    return {"id": original.message_id, "author": author, "text": original.text[:200], "from_bot": original.from_bot}


class Playground:
    """The web side of the playground over a ``BotApiServer``."""

    def __init__(self, server: BotApiServer, state: StateFile | None = None) -> None:
        self.server = server
        self.state = state
        self.queues: dict[int, set[asyncio.Queue[str]]] = {}
        server.listeners.append(self._changed)
        if GROUP_ID not in server.chats:
            server.add_group(GROUP_ID, GROUP_TITLE, "supergroup")

    # --- people -----------------------------------------------------------------------------------------

    def person(self, name: str, language: str) -> int:
        """The user with this name (made on first use, a member and an admin of the group)."""
        name = " ".join(name.split())[:32]
        if not name:
            raise web.HTTPBadRequest(text="a name is needed")
        for user in self.server.users.values():
            if user.first_name.casefold() == name.casefold():
                if language in LANGUAGES:
                    user.language_code = language
                self._touch()
                return user.user_id
        user_id = max([FIRST_USER_ID - 1, *self.server.users]) + 1
        self.server.add_user(user_id, name, language if language in LANGUAGES else "en")
        self.server.chats[GROUP_ID].admins.add(user_id)
        self._touch()
        return user_id

    def sees(self, user_id: int, chat_id: int) -> bool:
        return chat_id in (GROUP_ID, user_id)

    def commands(self, user_id: int) -> dict[str, list[dict[str, str]]]:
        language = self.server.users[user_id].language_code
        menus = self.server.commands

        def menu(scope: str) -> list[dict[str, str]]:
            return menus.get(f"{scope}:{language}") or menus.get(f"{scope}:") or menus.get("default:") or []

        return {"group": menu("all_group_chats"), "private": menu("all_private_chats")}

    def snapshot(self, user_id: int) -> dict[str, Any]:
        user = self.server.users[user_id]
        chats = (GROUP_ID, user_id)
        return {
            "me": {"id": user_id, "name": user.first_name, "language": user.language_code},
            "bot": self.server.username,
            "group": {"id": GROUP_ID, "title": self.server.chats[GROUP_ID].title},
            "private": {"id": user_id},
            "commands": self.commands(user_id),
            "messages": [message_json(self.server, m) for c in chats for m in self.server.chat_messages(c)],
        }

    # --- live events ------------------------------------------------------------------------------------

    def _changed(self, kind: str, subject: Any) -> None:
        self._touch()
        if kind == "commands":
            for user_id, queues in self.queues.items():
                event = json.dumps({"kind": "commands", "commands": self.commands(user_id)})
                for queue in queues:
                    queue.put_nowait(event)
            return
        if not isinstance(subject, Message):
            return
        event = json.dumps({"kind": kind, "message": message_json(self.server, subject)}, ensure_ascii=False)
        for user_id, queues in self.queues.items():
            if self.sees(user_id, subject.chat_id):
                for queue in queues:
                    queue.put_nowait(event)

    def _touch(self) -> None:
        if self.state is not None:
            self.state.touch()

    # --- acting as a person -----------------------------------------------------------------------------

    async def send(self, user_id: int, chat_id: int, text: str, reply_to: int | None = None) -> None:
        text = text.strip()
        if not text:
            return
        original = self.server.messages.get((chat_id, reply_to)) if reply_to else None
        await self.server.send_text(user_id, chat_id, text[:4096], reply_to=original)

    async def press(self, user_id: int, chat_id: int, message_id: int, data: str) -> dict[str, Any]:
        message = self.server.messages.get((chat_id, message_id))
        if message is None or message.deleted:
            raise web.HTTPNotFound(text="no such message")
        query = await self.server.press(user_id, message, data)
        self._touch()
        try:
            answer = await self.server.answer_of(query, timeout=15.0)
        except TimeoutError:
            return {"text": "The bot did not answer."}
        return {k: answer[k] for k in ("text", "show_alert", "url") if k in answer}

    async def wait_for(self, find: Callable[[], Message | None], what: str, timeout: float = 15.0) -> Message:
        clock = self.server.clock
        deadline = clock.monotonic() + timeout
        while (found := find()) is None:
            if clock.monotonic() > deadline:
                raise TimeoutError(f"the bot did not send {what}")
            await clock.sleep(0.05)
        return found

    async def quickstart(self, user_id: int, variant: str | None = None, computers: int = 3) -> dict[str, Any]:
        """What a person would do: /newgame in the group, join through the lobby's link, add computer
        players, start. Returns the bot's answer to the last press (or what went wrong)."""
        group_seen = max((m.message_id for m in self.server.chat_messages(GROUP_ID)), default=0)
        await self.send(user_id, GROUP_ID, f"/newgame {variant or default_variant_name()}")

        def lobby() -> Message | None:
            for m in self.server.bot_messages(GROUP_ID):
                if m.message_id > group_seen and any("?start=" in b.get("url", "") for b in m.buttons()):
                    return m
            return None

        def replied(after: int) -> Message | None:
            return next((m for m in self.server.bot_messages(user_id) if m.message_id > after), None)

        try:
            found = await self.wait_for(lobby, "a lobby", timeout=5.0)
        except TimeoutError:
            newer = [m for m in self.server.bot_messages(GROUP_ID) if m.message_id > group_seen]
            return {"text": newer[-1].text if newer else "No lobby opened.", "show_alert": True}
        url = next(b["url"] for b in found.buttons() if "?start=" in b.get("url", ""))
        private_seen = max((m.message_id for m in self.server.chat_messages(user_id)), default=0)
        await self.send(user_id, user_id, "/start " + url.split("?start=", 1)[1])
        await self.wait_for(lambda: replied(private_seen), "an answer to /start")
        answer: dict[str, Any] = {}
        for ending in [":bot"] * computers + [":start"]:
            current = self.server.messages[(GROUP_ID, found.message_id)]
            data = next((b["callback_data"] for b in current.buttons() if b.get("callback_data", "").endswith(ending)),
                        None)  # fmt: skip
            if data is None:
                return {"text": f"The lobby has no {ending[1:]!r} button.", "show_alert": True}
            answer = await self.press(user_id, GROUP_ID, found.message_id, data)
        return answer

    # --- HTTP -------------------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.h_index)
        app.router.add_static("/static/", STATIC)
        app.router.add_post("/api/login", self.h_login)
        app.router.add_get("/api/events", self.h_events)
        app.router.add_post("/api/send", self.h_send)
        app.router.add_post("/api/press", self.h_press)
        app.router.add_post("/api/quickstart", self.h_quickstart)
        app.router.add_post("/api/webapp", self.h_webapp)
        app.router.add_get("/photo/{file_id}", self.h_photo)
        return app

    async def h_photo(self, request: web.Request) -> web.Response:
        """A picture the bot sent, by its file id (the page shows it in its message)."""
        content = self.server.photos.get(request.match_info["file_id"])
        if content is None:
            raise web.HTTPNotFound(text="no such picture")
        kind = "image/png" if content.startswith(b"\x89PNG") else "image/jpeg"
        return web.Response(body=content, content_type=kind, headers={"Cache-Control": "max-age=86400"})

    async def h_index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _body(self, request: web.Request) -> tuple[int, dict[str, Any]]:
        try:
            body = await request.json()
            user_id = int(body["user"])
        except (ValueError, KeyError, TypeError):
            raise web.HTTPBadRequest(text="bad request") from None
        if user_id not in self.server.users:
            raise web.HTTPForbidden(text="sign in again")
        return user_id, body

    async def h_login(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            name, language = str(body["name"]), str(body.get("language", "en"))
        except (ValueError, KeyError, TypeError):
            raise web.HTTPBadRequest(text="bad request") from None
        user_id = self.person(name, language)
        return web.json_response({"user": user_id, "name": self.server.users[user_id].first_name})

    async def h_events(self, request: web.Request) -> web.StreamResponse:
        try:
            user_id = int(request.query["user"])
        except (KeyError, ValueError):
            raise web.HTTPBadRequest(text="bad request") from None
        if user_id not in self.server.users:
            raise web.HTTPForbidden(text="sign in again")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        queue: asyncio.Queue[str] = asyncio.Queue()
        self.queues.setdefault(user_id, set()).add(queue)
        try:
            snapshot = json.dumps({"kind": "snapshot", **self.snapshot(user_id)}, ensure_ascii=False)
            await response.write(f"data: {snapshot}\n\n".encode())
            while True:
                try:
                    event = await self.server.clock.wait_for(queue.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                await response.write(f"data: {event}\n\n".encode())
        except ConnectionResetError:
            pass
        finally:
            self.queues[user_id].discard(queue)
        return response

    async def h_send(self, request: web.Request) -> web.Response:
        user_id, body = await self._body(request)
        chat_id = int(body.get("chat", 0))
        if not self.sees(user_id, chat_id):
            raise web.HTTPForbidden(text="not your chat")
        reply_to = body.get("reply_to")
        await self.send(user_id, chat_id, str(body.get("text", "")), int(reply_to) if reply_to else None)
        return web.json_response({})

    async def h_press(self, request: web.Request) -> web.Response:
        user_id, body = await self._body(request)
        chat_id = int(body.get("chat", 0))
        if not self.sees(user_id, chat_id):
            raise web.HTTPForbidden(text="not your chat")
        try:
            answer = await self.press(user_id, chat_id, int(body["message"]), str(body["data"]))
        except ApiError as exc:
            answer = {"text": exc.description}
        return web.json_response(answer)

    async def h_quickstart(self, request: web.Request) -> web.Response:
        user_id, body = await self._body(request)
        variant = str(body.get("variant", ""))  # the chat's first game for anything the page never sends
        try:
            answer = await self.quickstart(user_id, variant if variant in variant_names() else None)
        except TimeoutError as exc:
            answer = {"text": str(exc), "show_alert": True}
        return web.json_response(answer)


    async def h_webapp(self, request: web.Request) -> web.Response:
        """A person opens a Mini App: a message's ``web_app`` button (``chat``, ``message``, ``url``) or a direct
        link (``link``); the answer is the address its panel loads, launch parameters and signed initData in it."""
        user_id, body = await self._body(request)
        dark = bool(body.get("dark"))
        try:
            if "link" in body:
                url = self.server.open_link(user_id, str(body["link"]), dark=dark)
            else:
                chat_id = int(body.get("chat", 0))
                if not self.sees(user_id, chat_id):
                    raise web.HTTPForbidden(text="not your chat")
                message_id, address = int(body.get("message", 0)), str(body.get("url"))
                url = self.server.open_button(user_id, chat_id, message_id, address, dark=dark)
        except ApiError as exc:
            return web.json_response({"text": exc.description, "show_alert": True})
        return web.json_response({"url": url})


async def serve(playground: Playground, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Start the page; returns its runner and the port it listens on."""
    runner = web.AppRunner(playground.app(), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.Server) and server.sockets
    with contextlib.suppress(IndexError):
        port = int(server.sockets[0].getsockname()[1])
    return runner, port
