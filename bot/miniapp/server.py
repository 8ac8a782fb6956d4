"""The Mini App's server: its page, the state of a table for one person, his taps, and a stream of server-sent
events that brings every change of the table to the page, on the bot's own aiohttp server (MINIAPP_LISTEN:
MINIAPP_PORT, at the path of MINIAPP_URL, behind the proxy that makes it HTTPS).

Every request of the API carries Telegram's signed ``initData`` (the ``X-Telegram-Init-Data`` header, or an
``initData`` query parameter where a browser cannot set headers: an event stream), checked by ``auth.verify``:
without a good one the answer is 401 and nothing is read or changed.  A tap is a press of the private chat's
hand, made through the same use case (``Table.press``, ``Seats.come_back``), so every check of a press holds:
only one's own seat, a stale tap refused as a stale button is.  Nothing here calls Telegram: what a tap changes
reaches the chats through the notifier, as a button's does.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import AsyncGenerator, Awaitable, Callable, Hashable
from contextlib import aclosing
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import callbacks
from bot.clock import Clock
from bot.i18n import pick_language, t
from bot.miniapp.auth import AppUser, Unauthorized, game_of, language_hint, verify
from bot.miniapp.hub import Watchers
from bot.miniapp.state import gone, page_state
from bot.usecases.events import Toast
from bot.usecases.live import Live
from bot.usecases.wiring import UseCases

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
FILES = {"": "index.html", "app.js": "app.js", "app.css": "app.css"}
HEARTBEAT = 20.0  # seconds between the stream's keep-alive comments: proxies close a connection silent for long
RETRY_MS = 1500  # how soon a page's browser reconnects a dropped stream
PRUNE_SLACK = 64  # pages drawn of games no longer running, kept until there are this many
EVENTS_KEPT = 1024  # pages whose encoded event is kept (the newest of each place of the running games)
SHUTDOWN = 1.0  # seconds the requests may still take at a stop (the streams end at once)
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class MiniApp:
    def __init__(
        self, uses: UseCases, token: str, clock: Clock, *, path: str = "/", max_age: float = 86_400.0,
        heartbeat: float = HEARTBEAT,
    ) -> None:  # fmt: skip
        """``path``: where the page is (MINIAPP_URL's path); ``max_age``: how old a page's initData may be."""
        self.uses = uses
        self.token = token
        self.clock = clock
        self.path = path if path.endswith("/") else path + "/"
        self.max_age = max_age
        self.heartbeat = heartbeat
        self.watchers = Watchers()
        self.requests: Counter[str] = Counter()  # by what they were: state, press, stream, and each refusal
        self.runner: web.AppRunner | None = None
        self.port = 0
        # game -> (place, language) -> the page drawn last: what it was drawn from, and the page
        self._events: dict[int, tuple[dict[str, Any], bytes]] = {}
        self._drawn: dict[int, dict[tuple[int | None, str], tuple[Hashable, Live, dict[str, Any]]]] = {}
        uses.notifier.watchers.append(self.watchers.changed)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        for name, file in FILES.items():
            app.router.add_get(self.path + name, self._file(file))
        app.router.add_get(self.path + "api/state", self.h_state)
        app.router.add_post(self.path + "api/press", self.h_press)
        app.router.add_get(self.path + "api/events", self.h_events)
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        response.headers.update(SECURITY)
        return response

    @staticmethod
    def _file(name: str) -> Handler:
        async def serve(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return serve

    # --- who asks, and about which table ----------------------------------------------------------------

    def person(self, request: web.Request) -> AppUser:
        given = request.headers.get("X-Telegram-Init-Data") or request.query.get("initData")
        try:
            return verify(given, self.token, self.clock.now(), self.max_age)
        except Unauthorized as refused:
            self.requests["unauthorized"] += 1
            log.debug("a Mini App request refused: %s", refused)
            text = t(pick_language(language_hint(given)), "app.unauthorized")
            raise web.HTTPUnauthorized(text=json.dumps({"text": text}), content_type="application/json") from None

    def game(self, given: str | None, user: AppUser) -> int:
        game_id = game_of(given, self.token)
        if game_id is None:
            self.requests["unknown_game"] += 1
            text = json.dumps(gone(pick_language(user.language)))
            raise web.HTTPNotFound(text=text, content_type="application/json")
        return game_id

    async def read(self, game_id: int, user: AppUser) -> dict[str, Any]:
        """The page of ``user`` at the game as it stands, once what was applied is stored.  The pages of one
        place in one language are drawn once for each state of the game (a change reaches every page of its
        game, and the spectators' are all alike)."""
        games = self.uses.games
        live = games.get(game_id)
        if live is None:  # not in memory: read it as a press would, under its lock
            async with games.lock(game_id):
                live = await games.load(game_id)
        if live is None:
            self._drawn.pop(game_id, None)
            return gone(pick_language(user.language))
        await live.settled()
        seat = live.seat_of(user.user_id)
        lang = live.lang_of(seat) if seat is not None else pick_language(user.language, live.chat_lang)
        stamp = (live.version, live.selection.get(seat) if seat is not None else None,
                 tuple((s.user_id, s.stand_in) for s in live.seats), live.seating.names)  # fmt: skip
        if game_id not in self._drawn and len(self._drawn) > len(games) + PRUNE_SLACK:
            self._drawn = {g: d for g, d in self._drawn.items() if games.get(g) is not None}  # games that ended
        drawn = self._drawn.setdefault(game_id, {})
        if (seat, lang) in drawn and drawn[seat, lang][0] == stamp and drawn[seat, lang][1] is live:
            self.requests["drawn once"] += 1
            return drawn[seat, lang][2]
        page = page_state(live, user.user_id, lang)
        drawn[seat, lang] = (stamp, live, page)
        return page

    async def tap(self, user: AppUser, game_id: int, data: object) -> tuple[int, dict[str, Any]]:
        """A tap of ``user`` on a button of the page of ``game_id`` whose data is ``data``: the HTTP status and
        the answer, the alert (or null), whether it refuses, and the page as it stands after it."""
        lang = pick_language(user.language)
        try:
            press = callbacks.parse(data if isinstance(data, str) else None)
        except callbacks.ForgedDataError:
            self.uses.table.forged()
            self.requests["forged"] += 1
            return 400, {"alert": t(lang, "press.bad"), "refused": True}
        alert: str | None
        match press:
            case callbacks.Play() | callbacks.Toggle() | callbacks.Clear() | callbacks.Unplayable() if (
                press.game_id == game_id
            ):
                alert = await self.uses.table.press(press, user.user_id)
            case callbacks.Back(game_id=pressed) if pressed == game_id:
                alert = await self.uses.seats.come_back(game_id, user.user_id)
            case _:  # a button of no hand, or of another game's: not the page's to press
                self.requests["forged"] += 1
                return 400, {"alert": t(lang, "press.bad"), "refused": True}
        self.requests["press"] += 1
        refused = bool(alert) and not isinstance(alert, Toast)
        return 200, {"alert": alert or None, "refused": refused, "state": await self.read(game_id, user)}

    async def pages(self, user: AppUser, game_id: int) -> AsyncGenerator[dict[str, Any] | None, None]:
        """The page of ``user`` at once (so a reconnect resumes with the newest), then again after each change
        of the game, and None after each ``heartbeat`` seconds without one; it ends once the game is gone or the
        bot stops."""
        with self.watchers.watch(game_id) as changed:
            while not self.watchers.closed:
                changed.clear()
                page = await self.read(game_id, user)
                yield page
                if page.get("gone"):
                    return
                while not changed.is_set():
                    try:
                        async with self.clock.timeout(self.heartbeat):
                            await changed.wait()
                    except TimeoutError:
                        yield None

    def event(self, page: dict[str, Any]) -> bytes:
        """``page`` as an event of the stream, encoded once for every stream that sends it."""
        known = self._events.get(id(page))
        if known is not None and known[0] is page:
            return known[1]
        if len(self._events) >= EVENTS_KEPT:
            self._events.clear()
        encoded = b"data: " + json.dumps(page, ensure_ascii=False).encode() + b"\n\n"
        self._events[id(page)] = (page, encoded)  # the page is kept with it: its id is not used again meanwhile
        return encoded

    # --- HTTP -------------------------------------------------------------------------------------------------

    async def h_state(self, request: web.Request) -> web.Response:
        user = self.person(request)
        game_id = self.game(request.query.get("game"), user)
        self.requests["state"] += 1
        return web.json_response(await self.read(game_id, user))

    async def h_press(self, request: web.Request) -> web.Response:
        """A tap: ``{"game": ticket, "data": the button's data}`` (``tap``)."""
        user = self.person(request)
        try:
            body = await request.json()
            given, data = body["game"], body["data"]
        except (ValueError, KeyError, TypeError):
            self.requests["bad"] += 1
            raise web.HTTPBadRequest(text="a tap is {game, data}") from None
        game_id = self.game(given if isinstance(given, str) else None, user)
        status, answer = await self.tap(user, game_id, data)
        return web.json_response(answer, status=status)

    async def h_events(self, request: web.Request) -> web.StreamResponse:
        """The page's stream of server-sent events (``pages``), a comment for each heartbeat."""
        user = self.person(request)
        game_id = self.game(request.query.get("game"), user)
        self.requests["stream"] += 1
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        try:
            async with aclosing(self.pages(user, game_id)) as pages:  # closed at once when the page goes away
                async for page in pages:
                    if page is None:
                        await response.write(b": still here\n\n")
                    else:
                        await response.write(self.event(page))
        except ConnectionResetError:
            pass  # the page went away
        return response

    # --- up and down ------------------------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host``:``port`` (0: a free one, ``port`` tells which)."""
        app = self.application()
        app.on_shutdown.append(lambda _: self.close())  # the streams end before the server waits for its requests
        # a request's query may hold a person's initData: no access log
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        """No request is taken any more, and every page's stream ends."""
        runner, self.runner = self.runner, None
        if runner is not None:
            await runner.cleanup()

    async def close(self) -> None:
        """The bot stops: the pages' streams end (their browsers reconnect to the next start)."""
        self.watchers.close()
