"""Is the bot alive?  The health endpoint and ``python -m bot.health``, the check a container runs.

GET ``http://HEALTH_HOST:HEALTH_PORT/health`` answers 200 when all is well, else 503, with a JSON body:

- ``mode``: ``polling`` or ``webhook``, and ``receiving``: in long polling, whether Telegram answered a
  ``getUpdates`` call within the last ``HEALTH_POLL_SLACK_SECONDS`` (a long poll returns at least every
  ``POLL_TIMEOUT_SECONDS``); in webhook mode, whether the webhook server is running (Telegram posts only when
  something happens, so silence is no fault);
- ``database``: ``writable`` when a row of the database could be written and committed just now;
- ``last_update_seconds``: how long ago the last update arrived (for the curious; it does not count).

``python -m bot.health`` asks that endpoint (on 127.0.0.1 when it listens on every address) and exits 0 when
it says healthy, 1 otherwise: what the container's HEALTHCHECK runs.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from telegram.request import BaseRequest, RequestData

from bot.clock import Clock
from bot.config import Settings
from storage import Storage


@dataclass
class Liveness:
    """What the bot has heard from Telegram, on the clock's monotonic time (set from the start on)."""

    clock: Clock
    mode: str = "polling"
    polled_at: float | None = None  # the last successful getUpdates
    update_at: float | None = None  # the last update received, by either mode
    started_at: float | None = None

    def start(self) -> None:
        self.started_at = self.clock.monotonic()

    def note_poll(self) -> None:
        self.polled_at = self.clock.monotonic()

    def note_update(self) -> None:
        self.update_at = self.clock.monotonic()


class PollingRequest(BaseRequest):
    """The connection ``getUpdates`` uses (``inner``), which notes every answer Telegram gives it."""

    def __init__(self, liveness: Liveness, inner: BaseRequest) -> None:
        self.liveness = liveness
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

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
        status, payload = await self.inner.do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )
        if status == 200:
            self.liveness.note_poll()
        return status, payload


async def report(
    liveness: Liveness, storage: Storage | None, webhook_running: bool, poll_slack: float
) -> tuple[bool, dict[str, Any]]:
    """Whether the bot is healthy, and why."""
    now = liveness.clock.monotonic()
    if liveness.mode == "webhook":
        receiving = webhook_running
    else:
        last = liveness.polled_at if liveness.polled_at is not None else liveness.started_at
        receiving = last is not None and now - last <= poll_slack
    database = "closed"
    if storage is not None:
        try:
            await storage.db.probe_write()
            database = "writable"
        except Exception as exc:  # any failure to write is what this check is for
            database = f"not writable: {exc}"
    body: dict[str, Any] = {
        "mode": liveness.mode,
        "receiving": receiving,
        "database": database,
        "last_update_seconds": None if liveness.update_at is None else round(now - liveness.update_at, 1),
    }
    healthy = receiving and database == "writable"
    body["status"] = "ok" if healthy else "unhealthy"
    return healthy, body


def check(host: str, port: int, timeout: float = 5.0) -> tuple[bool, str]:
    """Ask a running bot's endpoint; (healthy, what it said)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=timeout) as response:
            return response.status == 200, response.read().decode()
    except urllib.error.HTTPError as exc:
        return False, exc.read().decode()
    except OSError as exc:
        return False, f"no answer from {host}:{port}: {exc}"


def main() -> int:
    settings = Settings()
    if not settings.health_port:
        print("HEALTH_PORT is not set: the bot serves no health endpoint", file=sys.stderr)
        return 1
    healthy, said = check(settings.health_host, settings.health_port)
    print(said)
    return 0 if healthy else 1


def application(handler: Any) -> web.Application:
    """The endpoint's aiohttp application around ``handler`` (a coroutine giving (healthy, body))."""

    async def health(request: web.Request) -> web.Response:
        healthy, body = await handler()
        return web.Response(
            text=json.dumps(body), status=200 if healthy else 503, content_type="application/json"
        )

    app = web.Application()
    app.router.add_get("/health", health)
    return app


if __name__ == "__main__":
    raise SystemExit(main())
