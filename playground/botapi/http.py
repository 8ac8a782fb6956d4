"""The server on HTTP: a Bot API request checked against the official description, the bad moments set up
for it, then the method of its API area."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from playground.botapi.flood import ALL_METHODS
from playground.botapi.state import ATTACHED, World
from playground.botapi.world import ApiError, Call, DroppedConnection

ATTACH = "attach://{}"  # a file part named in a JSON value (InputMedia.media) rather than sent as a parameter


class Http(World):
    """Lifecycle and request handling."""

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
