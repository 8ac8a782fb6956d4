"""The bot's Bot API connection handed to the embedded server in the same process, without a socket.

python-telegram-bot makes every request through a ``BaseRequest``; this one gives the request's method, form
fields and uploaded files to ``BotApiServer.call``, which checks them against the Bot API description exactly
as it does a request that came over HTTP, and hands its answer back. A read timeout is the client's own, on
the loop's clock: a request that takes longer is ``TimedOut`` while the server goes on with it (a slow request
takes effect all the same, as a real one would), and a request the server answers with nothing is a
``NetworkError``. With no socket, nothing takes real time: the end-to-end tests run it on virtual time
(``playground.virtual_time``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from playground.botapi import BotApiServer, DroppedConnection


class InProcessRequest(BaseRequest):
    def __init__(self, server: BotApiServer, read_timeout: float | None = 5.0) -> None:
        self.server = server
        self._read_timeout = read_timeout
        self._calls: set[asyncio.Task[tuple[int, dict[str, Any]]]] = set()  # taken by the server, not answered

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        for call in list(self._calls):
            call.cancel()

    async def do_request(  # noqa: PLR0917 (BaseRequest's own signature)
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        _, bot, name = urlsplit(url).path.rsplit("/", 2)
        raw = dict(request_data.json_parameters) if request_data is not None else {}
        files: dict[str, bytes] = {}
        if request_data is not None and request_data.contains_files:  # the parts of a multipart upload
            for field, part in request_data.multipart_data.items():
                content = part[1] if isinstance(part, tuple) else part
                if field not in raw:
                    files[field] = content if isinstance(content, bytes) else str(content).encode()
        timeout = self._read_timeout if read_timeout is BaseRequest.DEFAULT_NONE else read_timeout
        call = asyncio.ensure_future(self.server.call(bot.removeprefix("bot"), name, raw, files))
        self._calls.add(call)
        call.add_done_callback(self._calls.discard)
        try:
            status, body = await self.server.clock.wait_for(asyncio.shield(call), timeout)
        except TimeoutError:
            raise TimedOut(f"{name} was not answered within {timeout} s") from None
        except DroppedConnection:
            raise NetworkError(f"the connection dropped with no answer to {name}") from None
        return status, json.dumps(body).encode()
